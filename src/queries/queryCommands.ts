import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections';
import { pickProject } from '../tree';
import { COMMANDS } from '../workbench/commandIds';
import { CommandGroup, type CommandHandlers } from '../workbench/commands';
import type { EnvApi, WindowApi } from '../workbench/window';
import type { QueryCard } from './cards';
import { type DocumentTargets, HOGQL_LANGUAGE, type NotebookRef, type QueryDocuments, type QueryTarget } from './queryDocuments';
import type { QueryRunner, RunPlace } from './queryRunner';
import type { RunState } from './runController';

/** The id of a HogQL document's one section: the whole text or the selection, whichever ran last. */
export const HOGQL_SECTION_ID = 'hogql';

/**
 * Run Query (the card or cell under the cursor, or a HogQL document or its selection), Run All Queries (a
 * notebook's cards in order), Cancel Query (frees the card at once; the client sends PostHog's DELETE), and
 * Open in PostHog (the lens's link).
 */
export class QueryCommands extends CommandGroup {
  /** src/hogql's targets, once the wiring hands them over; until then a HogQL document's project is asked. */
  documentTargets: DocumentTargets | undefined;
  private readonly askedTargets = new Map<string, QueryTarget>();

  constructor(
    private readonly documents: QueryDocuments,
    private readonly runner: QueryRunner,
    private readonly connections: ConnectionManager,
    private readonly window: WindowApi,
    private readonly env: EnvApi,
  ) {
    super();
  }

  protected commands(): CommandHandlers {
    return {
      [COMMANDS.runQuery]: (uri?: vscode.Uri, cardId?: string) => this.runQuery(uri, cardId),
      [COMMANDS.runAllQueries]: (uri?: vscode.Uri) => this.runAllQueries(uri),
      [COMMANDS.cancelQuery]: (uri?: vscode.Uri, cardId?: string) => this.cancelQuery(uri, cardId),
      [COMMANDS.openQueryInPostHog]: (uri?: vscode.Uri, cardId?: string) => this.openInPostHog(uri, cardId),
    };
  }

  async runQuery(uri?: vscode.Uri, cardId?: string): Promise<RunState | undefined> {
    const found = await this.documentOf(uri);
    if (!found) {
      void this.window.showInformationMessage(vscode.l10n.t('Open a PostHog notebook or a HogQL document to run its queries.'));
      return undefined;
    }
    const notebook = this.documents.notebookOf(found.document.uri);
    if (notebook) {
      const card = cardId !== undefined ? this.documents.cardById(found.document, cardId) : this.documents.cardAt(found.document, found.line);
      return card ? this.runCard(found.document, notebook, card) : this.noCardHere();
    }
    if (found.document.languageId === HOGQL_LANGUAGE) {
      return this.runHogQL(found.document, found.selection);
    }
    void this.window.showInformationMessage(vscode.l10n.t('Open a PostHog notebook or a HogQL document to run its queries.'));
    return undefined;
  }

  /** Runs every card of the notebook that can run here, in order; the states they ended in. */
  async runAllQueries(uri?: vscode.Uri): Promise<RunState[]> {
    const found = await this.documentOf(uri);
    const notebook = found && this.documents.notebookOf(found.document.uri);
    if (!found || !notebook) {
      void this.window.showInformationMessage(vscode.l10n.t('Open a PostHog notebook in Markdown to run its queries.'));
      return [];
    }
    const cards = this.documents.cardsOf(found.document).filter((card) => card.query);
    if (cards.length === 0) {
      void this.window.showInformationMessage(vscode.l10n.t('This notebook has no query cards or SQL cells to run.'));
      return [];
    }
    const title = vscode.l10n.t('Running {0} queries', cards.length);
    return this.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
      const documentUri = found.document.uri.toString();
      const stop = token.onCancellationRequested(() => this.runner.runs.cancelAll(documentUri));
      const states: RunState[] = [];
      try {
        for (const [index, card] of cards.entries()) {
          if (token.isCancellationRequested) {
            break;
          }
          progress.report({ message: vscode.l10n.t('{0} of {1}: {2}', index + 1, cards.length, card.label), increment: 100 / cards.length });
          states.push(await this.runner.run(this.notebookPlace(found.document.uri, notebook), runItem(card), { bulk: true }));
        }
      } finally {
        stop.dispose();
      }
      return states;
    });
  }

  /** Cancels the card's run (or, without one, the card under the cursor, else every run of the document). */
  async cancelQuery(uri?: vscode.Uri, cardId?: string): Promise<number> {
    const found = await this.documentOf(uri);
    if (!found) {
      return 0;
    }
    const documentUri = found.document.uri.toString();
    const id = cardId ?? this.documents.cardAt(found.document, found.line)?.id ?? (found.document.languageId === HOGQL_LANGUAGE ? HOGQL_SECTION_ID : undefined);
    const cancelled = id !== undefined && this.runner.runs.cancel({ documentUri, cardId: id }) ? 1 : this.runner.runs.cancelAll(documentUri);
    if (cancelled === 0) {
      void this.window.showInformationMessage(vscode.l10n.t('No query of this document is running.'));
    }
    return cancelled;
  }

  /** Opens the card's notebook (or saved insight) in PostHog's web app. */
  async openInPostHog(uri?: vscode.Uri, cardId?: string): Promise<string | undefined> {
    const found = await this.documentOf(uri);
    const notebook = found && this.documents.notebookOf(found.document.uri);
    if (!found || !notebook) {
      return undefined;
    }
    const card = cardId !== undefined ? this.documents.cardById(found.document, cardId) : this.documents.cardAt(found.document, found.line);
    const session = await this.connections.session(notebook.connectionId);
    if (!session) {
      this.window.offerSignIn();
      return undefined;
    }
    const url = this.runner.webUrlOf(session.connection.baseUrl, this.notebookPlace(found.document.uri, notebook), card ?? {});
    if (url) {
      await this.env.openExternal(vscode.Uri.parse(url));
    }
    return url;
  }

  private runCard(document: vscode.TextDocument, notebook: NotebookRef, card: QueryCard): Promise<RunState> | undefined {
    if (!card.query) {
      void this.savedInsightOnly(document.uri, card);
      return undefined;
    }
    return this.runner.run(this.notebookPlace(document.uri, notebook), runItem(card));
  }

  private async savedInsightOnly(uri: vscode.Uri, card: QueryCard): Promise<void> {
    const open = vscode.l10n.t('Open in PostHog');
    const answer = await this.window.showInformationMessage(
      vscode.l10n.t('This card shows a saved insight, which PostHog runs in its web app only.'),
      open,
    );
    if (answer === open) {
      await this.openInPostHog(uri, card.id);
    }
  }

  private async runHogQL(document: vscode.TextDocument, selection: vscode.Selection | undefined): Promise<RunState | undefined> {
    const text = selection && !selection.isEmpty ? document.getText(selection) : document.getText();
    if (text.trim() === '') {
      void this.window.showInformationMessage(vscode.l10n.t('The HogQL document is empty: write a SELECT to run.'));
      return undefined;
    }
    const target = await this.hogqlTarget(document);
    if (!target) {
      return undefined;
    }
    const place: RunPlace = { uri: document.uri, title: nameOf(document.uri), target };
    return this.runner.run(place, { id: HOGQL_SECTION_ID, label: nameOf(document.uri), query: { kind: 'HogQLQuery', query: text } });
  }

  private async hogqlTarget(document: vscode.TextDocument): Promise<QueryTarget | undefined> {
    const known = this.documentTargets?.targetOf(document) ?? this.askedTargets.get(document.uri.toString());
    if (known) {
      return known;
    }
    const choice = await pickProject(this.connections, this.window, vscode.l10n.t('Run HogQL Query in Project'));
    if (!choice) {
      return undefined;
    }
    const target = { connectionId: choice.session.connection.id, projectId: choice.project.id };
    this.askedTargets.set(document.uri.toString(), target);
    this.documentTargets?.bind(document.uri, target);
    return target;
  }

  private notebookPlace(uri: vscode.Uri, notebook: NotebookRef): RunPlace {
    return { uri, title: nameOf(uri), target: { connectionId: notebook.connectionId, projectId: notebook.projectId }, notebookShortId: notebook.shortId };
  }

  private noCardHere(): undefined {
    void this.window.showInformationMessage(vscode.l10n.t('Put the cursor on a query card or SQL cell to run it, or use Run All Queries.'));
    return undefined;
  }

  /** The document a command acts on (a lens's, else the active editor's) and the line of its caret. */
  private async documentOf(uri: vscode.Uri | undefined): Promise<{ document: vscode.TextDocument; line: number; selection?: vscode.Selection } | undefined> {
    const active = this.window.editors.activeSelection();
    if (!uri || active?.document.uri.toString() === uri.toString()) {
      return active && { document: active.document, line: active.selection.active.line, selection: active.selection };
    }
    const document = vscode.workspace.textDocuments.find((open) => open.uri.toString() === uri.toString()) ?? (await vscode.workspace.openTextDocument(uri));
    return { document, line: -1 };
  }
}

function runItem(card: QueryCard): { id: string; label: string; query: NonNullable<QueryCard['query']>; savedInsight?: string } {
  return { id: card.id, label: card.label, query: card.query!, ...(card.savedInsight ? { savedInsight: card.savedInsight } : {}) };
}

/** A document's name for the Results panel: its file name (a notebook's holds its title and short id). */
function nameOf(uri: vscode.Uri): string {
  return uri.path.split('/').pop() || uri.toString();
}
