import * as vscode from 'vscode';
import { errorText } from '../api';
import type { ConnectionManager } from '../connections';
import { Disposable } from '../workbench/disposable';
import { CheckScheduler, type CheckOutcome, type Timers } from './checkScheduler';
import type { HogQLTargets, QueryTarget } from './hogqlTargets';
import { type NoticeSeverity, type PlacedNotice, placeNotices } from './notices';
import { holdsQueries, queryTexts, type SqlCells } from './queryTexts';
import { plainTextMap } from './textOffsets';

export const DIAGNOSTIC_SOURCE = 'PostHog';

const SEVERITIES: Record<NoticeSeverity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  notice: vscode.DiagnosticSeverity.Information,
};

/** How many checked query texts are remembered, so that a notebook's unchanged cells are not sent again. */
const REMEMBERED_ANSWERS = 100;

export interface HogQLDiagnosticsOptions {
  readonly connections: ConnectionManager;
  readonly targets: HogQLTargets;
  readonly log: vscode.LogOutputChannel;
  readonly posthogScheme: string;
  readonly cells: SqlCells;
  readonly delayMs: () => number;
  readonly timers?: Timers;
}

/**
 * PostHog's own checks of HogQL (HogQLMetadata) as diagnostics: after typing pauses, one check in flight per
 * document, for documents bound to a project only (an unbound one sends nothing; the status bar says why).
 */
export class HogQLDiagnostics extends Disposable {
  readonly collection = this._register(vscode.languages.createDiagnosticCollection('posthog-hogql'));
  private readonly scheduler: CheckScheduler<PlacedNotice[]>;
  private readonly answers = new Map<string, PlacedNotice[]>();

  constructor(private readonly options: HogQLDiagnosticsOptions) {
    super();
    this.scheduler = new CheckScheduler({
      check: (key, text) => this.check(key, text),
      deliver: (key, _version, outcome) => this.deliver(key, outcome),
      delayMs: options.delayMs,
      ...(options.timers ? { timers: options.timers } : {}),
    });
    this._register({ dispose: () => this.scheduler.dispose() });
    this._register(vscode.workspace.onDidOpenTextDocument((document) => this.consider(document)));
    this._register(vscode.workspace.onDidChangeTextDocument((event) => this.consider(event.document)));
    this._register(vscode.workspace.onDidCloseTextDocument((document) => this.closed(document)));
    this._register(options.targets.onDidChange((uri) => this.reconsider(uri)));
    vscode.workspace.textDocuments.forEach((document) => this.consider(document));
  }

  /** Checks the document again after the pause (its text or its project changed). */
  consider(document: vscode.TextDocument): void {
    if (!holdsQueries(document, this.options.posthogScheme)) {
      return;
    }
    const key = document.uri.toString();
    if (!this.options.targets.targetOf(document)) {
      this.scheduler.close(key);
      this.collection.delete(document.uri);
      return;
    }
    this.scheduler.changed(key, document.version, document.getText());
  }

  private reconsider(uri: vscode.Uri): void {
    const document = vscode.workspace.textDocuments.find((open) => open.uri.toString() === uri.toString());
    if (document) {
      this.consider(document);
    }
  }

  private closed(document: vscode.TextDocument): void {
    this.scheduler.close(document.uri.toString());
    this.collection.delete(document.uri);
  }

  private async check(key: string, text: string): Promise<PlacedNotice[]> {
    const document = this.openDocument(key);
    const target = document && this.options.targets.targetOf(document);
    if (!document || !target) {
      return [];
    }
    const found: PlacedNotice[] = [];
    // One after another: a notebook's cells never make more than one check in flight.
    for (const map of queryTexts(document, text, this.options.posthogScheme, this.options.cells)) {
      if (map.text.trim() === '') {
        continue;
      }
      const notices = await this.noticesOf(target, map.text);
      found.push(...notices.map((notice) => ({ ...notice, start: map.toDocument(notice.start), end: map.toDocument(notice.end) })));
    }
    return found;
  }

  /** PostHog's findings for one query text, at offsets into that text. */
  private async noticesOf(target: QueryTarget, text: string): Promise<PlacedNotice[]> {
    const cacheKey = JSON.stringify([target.connectionId, target.projectId, text]);
    const known = this.answers.get(cacheKey);
    if (known) {
      return known;
    }
    const session = await this.options.connections.session(target.connectionId);
    if (!session) {
      return [];
    }
    const response = await session.client.queries.metadata(target.projectId, text, { priority: 'bulk' });
    const notices = placeNotices(response, plainTextMap(text));
    this.remember(cacheKey, notices);
    return notices;
  }

  private remember(cacheKey: string, notices: PlacedNotice[]): void {
    this.answers.set(cacheKey, notices);
    if (this.answers.size > REMEMBERED_ANSWERS) {
      this.answers.delete(this.answers.keys().next().value!);
    }
  }

  private deliver(key: string, outcome: CheckOutcome<PlacedNotice[]>): void {
    const document = this.openDocument(key);
    if (!document) {
      return;
    }
    if (!outcome.ok) {
      // The last findings stay: a failed check (offline, the budget's wait given up) says nothing of the text.
      this.options.log.warn(`HogQL check of ${document.uri.toString(true)} failed: ${errorText(outcome.error)}`);
      return;
    }
    this.collection.set(document.uri, outcome.value.map((notice) => diagnosticOf(document, notice)));
  }

  private openDocument(key: string): vscode.TextDocument | undefined {
    return vscode.workspace.textDocuments.find((document) => document.uri.toString() === key);
  }
}

function diagnosticOf(document: vscode.TextDocument, notice: PlacedNotice): vscode.Diagnostic {
  const range = new vscode.Range(document.positionAt(notice.start), document.positionAt(notice.end));
  const diagnostic = new vscode.Diagnostic(range, notice.message, SEVERITIES[notice.severity]);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  return diagnostic;
}
