import * as vscode from 'vscode';
import type { Notebook } from '../api';
import { Disposable } from '../workbench/disposable';
import type { WindowApi } from '../workbench/window';
import { oneSafeLine } from '../common/text';
import { describeUser } from './notebookDocument';
import { notebookFormOf, parseNotebookPath } from './notebookPaths';
import { type EditorFacts, type NotebookRef, type NotebookSession, type NotebookSessions, notebookText, sessionKey } from './session';

/**
 * The notebooks' editors in VS Code: which open documents show which notebook (each session's EditorFacts),
 * what happens to them (opened, edited, saved, closed: told to the notebook's session), and what the user sees
 * of a session: the warning when PostHog changed under unsaved changes, the diff against PostHog's version,
 * the text a merge puts in the editor. Prompts, diffs and buffer edits go through the window seam (presence
 * decorations of others will too).
 */
export class NotebookEditors extends Disposable {
  private readonly remoteCopies = new Map<string, string>();
  private readonly remoteCopiesChanged = this._register(new vscode.EventEmitter<vscode.Uri>());
  private sessions: NotebookSessions | undefined;

  constructor(
    readonly scheme: string,
    private readonly window: Pick<WindowApi, 'showWarningMessage' | 'editors'>,
  ) {
    super();
    this._register(
      vscode.workspace.registerTextDocumentContentProvider(this.remoteScheme, {
        onDidChange: this.remoteCopiesChanged.event,
        provideTextDocumentContent: (uri) => this.remoteCopies.get(uri.toString()),
      }),
    );
    this._register(vscode.workspace.onDidOpenTextDocument((document) => this.tell(document.uri, (session, uri) => session.editorOpened(uri))));
    this._register(vscode.workspace.onDidChangeTextDocument(({ document }) => this.tell(document.uri, (session, uri) => session.editorChanged(uri))));
    this._register(vscode.workspace.onDidSaveTextDocument((document) => this.tell(document.uri, (session, uri) => session.editorChanged(uri))));
    this._register(vscode.workspace.onDidCloseTextDocument((document) => this.tell(document.uri, (session, uri) => session.editorClosed(uri))));
  }

  /** The scheme of PostHog's read-only copies shown in diffs. */
  get remoteScheme(): string {
    return `${this.scheme}-remote`;
  }

  /** From now on the sessions hear what happens to their editors, and what they report is shown. */
  attach(sessions: NotebookSessions): void {
    this.sessions = sessions;
    this._register(
      sessions.onDidChange(({ change }) => {
        if (change.kind === 'held') {
          void this.warnRemoteChange(vscode.Uri.parse(change.uri), change.notebook, change.byPostHog);
        }
      }),
    );
  }

  /** The open editors of a notebook, for its session. */
  factsFor(ref: NotebookRef): EditorFacts {
    return {
      openUris: () => this.documentsOf(ref).map((document) => document.uri.toString()),
      isOpen: (uri) => this.documentOf(uri) !== undefined,
      isDirty: (uri) => this.documentOf(uri)?.isDirty === true,
      textOf: (uri) => this.documentOf(uri)?.getText(),
      replaceText: (uri, expected, text) => this.window.editors.replaceText(vscode.Uri.parse(uri), text, expected),
    };
  }

  /** The open documents of a notebook (either file; their title part may be older). */
  documentsOf(ref: NotebookRef): vscode.TextDocument[] {
    const key = sessionKey(ref);
    return vscode.workspace.textDocuments.filter((document) => {
      const path = document.uri.scheme === this.scheme ? parseNotebookPath(document.uri.authority, document.uri.path) : undefined;
      return path?.kind === 'notebook' && sessionKey(path) === key;
    });
  }

  /** Opens a diff: PostHog's notebook (read-only, in the file's form) on the left, the editor's text on the right. */
  async compare(uri: vscode.Uri, server: Notebook): Promise<void> {
    const left = uri.with({ scheme: this.remoteScheme, query: `version=${server.version}` });
    this.remoteCopies.set(left.toString(), notebookText(server, notebookFormOf(uri.path) ?? 'json'));
    this.remoteCopiesChanged.fire(left);
    await this.window.editors.diff(left, uri, vscode.l10n.t('{0} (PostHog, version {1}) ↔ Yours', oneSafeLine(server.title ?? ''), server.version));
  }

  /** `byPostHog`: PostHog made the version itself (its conversion of legacy notebooks to Markdown), not its last editor. */
  private async warnRemoteChange(uri: vscode.Uri, latest: Notebook, byPostHog: boolean): Promise<void> {
    const compare = vscode.l10n.t('Compare');
    const message = byPostHog
      ? vscode.l10n.t(
          'PostHog itself changed "{0}" (version {1}: its conversion of notebooks to Markdown; nobody edited it) while you have unsaved changes. Saving will merge its version with yours; anything changed on both sides will be marked for you to choose.',
          oneSafeLine(latest.title ?? ''),
          latest.version,
        )
      : vscode.l10n.t(
          '"{0}" changed on PostHog (version {1}, by {2}) while you have unsaved changes. Saving will merge their changes with yours; anything you both changed will be marked for you to choose.',
          oneSafeLine(latest.title ?? ''),
          latest.version,
          describeUser(latest.last_modified_by) ?? vscode.l10n.t('someone'),
        );
    const choice = await this.window.showWarningMessage(message, compare);
    if (choice === compare) {
      await this.compare(uri, latest);
    }
  }

  private tell(uri: vscode.Uri, what: (session: NotebookSession, uri: string) => void): void {
    const path = uri.scheme === this.scheme ? parseNotebookPath(uri.authority, uri.path) : undefined;
    const session = path?.kind === 'notebook' ? this.sessions?.get(path) : undefined;
    if (session) {
      what(session, uri.toString());
    }
  }

  private documentOf(uri: string): vscode.TextDocument | undefined {
    return vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri);
  }
}
