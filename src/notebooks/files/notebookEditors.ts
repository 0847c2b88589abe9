import * as vscode from 'vscode';
import type { Notebook } from '../../api';
import { Disposable } from '../../workbench/disposable';
import type { WindowApi } from '../../workbench/window';
import { oneSafeLine } from '../../common/text';
import { describeUser } from '../model/notebookDocument';
import { notebookFormOf, parseNotebookPath } from '../model/notebookPaths';
import {
  type Author,
  type EditorFacts,
  type LineRange,
  type NotebookRef,
  type NotebookSession,
  type NotebookSessions,
  notebookText,
  sessionKey,
  textEdits,
} from '../session';

/**
 * The notebooks' editors in VS Code: which open documents show which notebook (each session's EditorFacts),
 * what happens to them (opened, edited, saved, closed: told to the notebook's session), and what the user sees
 * of a session: the warning when PostHog changed under unsaved changes where the user edited too, the diff
 * against PostHog's version, the text a merge puts in the editor (the smallest edits, so the cursor stays).
 * Prompts, diffs and buffer edits go through the window seam (others' carets: ./notebookPresence.ts).
 */
export class NotebookEditors extends Disposable {
  private readonly remoteCopies = new Map<string, string>();
  /** The held lines last told of, per editor: a change on the same lines is not told again. */
  private readonly toldHeld = new Map<string, string>();
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
    this._register(
      vscode.workspace.onDidSaveTextDocument((document) => {
        this.toldHeld.delete(document.uri.toString());
        this.tell(document.uri, (session, uri) => session.editorChanged(uri));
      }),
    );
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
        if (change.kind === 'held' || (change.kind === 'merged' && change.held.length > 0)) {
          const byPostHog = change.kind === 'held' && change.byPostHog;
          void this.warnRemoteChange(vscode.Uri.parse(change.uri), change.notebook, change.author, change.held, change.kind === 'merged', byPostHog);
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
      replaceText: (uri, expected, text) => this.window.editors.applyEdits(vscode.Uri.parse(uri), expected, textEdits(expected, text)),
      savesAsIs: (uri) => {
        const document = this.documentOf(uri);
        return document !== undefined && savesAsIs(document);
      },
      save: async (uri) => (await this.documentOf(uri)?.save()) === true,
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

  /**
   * PostHog changed the notebook under unsaved changes: all of it held (a JSON document, or changes on lines the
   * user edited too), or merged except where the user edited too (`mergedElsewhere`). Says which lines, by whom;
   * `byPostHog`: PostHog made the version itself (its conversion of legacy notebooks to Markdown), not its last editor.
   */
  private async warnRemoteChange(
    uri: vscode.Uri,
    latest: Notebook,
    author: Author | undefined,
    held: readonly LineRange[],
    mergedElsewhere: boolean,
    byPostHog: boolean,
  ): Promise<void> {
    // PostHog's web app saves as its users type: the same held lines are told once, until the editor saves.
    const heldKey = held.map((range) => `${range.start}-${range.end}`).join(',');
    if (this.toldHeld.get(uri.toString()) === heldKey) {
      return;
    }
    this.toldHeld.set(uri.toString(), heldKey);
    const title = oneSafeLine(latest.title ?? '');
    const by = author?.name ?? describeUser(latest.last_modified_by) ?? vscode.l10n.t('someone');
    const lines = describeLines(held);
    let message: string;
    if (byPostHog && !mergedElsewhere && held.length === 0) {
      message = vscode.l10n.t(
        'PostHog itself changed "{0}" (version {1}: its conversion of notebooks to Markdown; nobody edited it) while you have unsaved changes. Saving will merge its version with yours; anything changed on both sides will be marked for you to choose.',
        title,
        latest.version,
      );
    } else if (mergedElsewhere) {
      message = vscode.l10n.t(
        '{0} changed "{1}" on PostHog (version {2}): their changes are in your unsaved text, except on {3}, which you changed too. Saving merges those; anything you both changed will be marked for you to choose.',
        by,
        title,
        latest.version,
        lines,
      );
    } else if (held.length > 0) {
      message = vscode.l10n.t(
        '"{0}" changed on PostHog (version {1}, by {2}) while you have unsaved changes, on {3}, which you changed too. Saving will merge their changes with yours; anything you both changed will be marked for you to choose.',
        title,
        latest.version,
        by,
        lines,
      );
    } else {
      message = vscode.l10n.t(
        '"{0}" changed on PostHog (version {1}, by {2}) while you have unsaved changes. Saving will merge their changes with yours; anything you both changed will be marked for you to choose.',
        title,
        latest.version,
        by,
      );
    }
    const compare = vscode.l10n.t('Compare');
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

/** "line 4" or "lines 4-6, 9" (1-based), for the held lines of a remote change. */
function describeLines(ranges: readonly LineRange[]): string {
  const parts = ranges.map((range) => (range.end - range.start <= 1 ? `${range.start + 1}` : `${range.start + 1}-${range.end}`));
  const single = ranges.length === 1 && ranges[0]!.end - ranges[0]!.start <= 1;
  return single ? vscode.l10n.t('line {0}', parts[0]!) : vscode.l10n.t('lines {0}', parts.join(', '));
}

/** Whether VS Code saves the document's text as it is: no save participant (formatter, whitespace trimming, code action) is on for it. */
function savesAsIs(document: vscode.TextDocument): boolean {
  const settings = vscode.workspace.getConfiguration(undefined, document);
  const actions = settings.get<unknown>('editor.codeActionsOnSave');
  const hasActions = Array.isArray(actions) ? actions.length > 0 : !!actions && Object.values(actions).some((value) => value === true || value === 'explicit' || value === 'always');
  return (
    !hasActions &&
    ['editor.formatOnSave', 'files.trimTrailingWhitespace', 'files.insertFinalNewline', 'files.trimFinalNewlines'].every((setting) => settings.get<boolean>(setting) !== true)
  );
}
