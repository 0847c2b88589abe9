import * as vscode from 'vscode';
import { Disposable } from '../../workbench/disposable';
import type { ContentRefusedError } from '../session';

/**
 * PostHog's refusals of saved content, shown where they apply: a diagnostic at the node PostHog refused (or
 * at the top of the file when the node is not found), in the Markdown or JSON file that was saved. It stays
 * until the file is saved again or closed.
 */
export class NotebookRefusals extends Disposable {
  private readonly diagnostics = this._register(vscode.languages.createDiagnosticCollection('posthog-notebook-refusals'));

  constructor() {
    super();
    this._register(vscode.workspace.onDidCloseTextDocument((document) => this.clear(document.uri)));
  }

  show(uri: vscode.Uri, refusal: ContentRefusedError): void {
    const place = refusal.place;
    const range = place ? new vscode.Range(place.line, place.column, place.endLine, place.endColumn) : new vscode.Range(0, 0, 0, 0);
    const diagnostic = new vscode.Diagnostic(range, vscode.l10n.t('PostHog refused this content: {0}', refusal.detail), vscode.DiagnosticSeverity.Error);
    diagnostic.source = 'PostHog';
    this.diagnostics.set(uri, [diagnostic]);
  }

  /** The diagnostics of `uri` (tests read them). */
  of(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.diagnostics.get(uri) ?? [];
  }

  clear(uri: vscode.Uri): void {
    this.diagnostics.delete(uri);
  }
}
