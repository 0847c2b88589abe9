import * as vscode from 'vscode';
import type { ConnectionManager } from '../../connections';
import { oneSafeLine } from '../../common/text';
import { confirm } from '../../workbench/confirm';
import { Disposable } from '../../workbench/disposable';
import { displayLanguage, type WindowApi } from '../../workbench/window';
import { type HistoryEntry, versionText } from './notebookActivity';
import type { NotebookFileStore } from '../files/notebookFiles';
import { notebookTitle } from '../lists/notebookNodes';
import { notebookFormOf, parseNotebookPath } from '../model/notebookPaths';
import type { NotebookSession, NotebookSessions } from '../session';

/**
 * What a user does with a version from a notebook's history (the Timeline, Show Notebook Activity):
 * compare it with the editor's text, restore it (the editor takes its content and saves it, so PostHog's
 * version check and the merge apply as to any save), or, for a save PostHog refused, copy its content to
 * a new notebook. Texts are in the file's own form, Markdown or JSON.
 */
export class NotebookVersions extends Disposable {
  private readonly copies = new Map<string, string>();
  private readonly copiesChanged = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly versionScheme: string;

  constructor(
    private readonly files: NotebookFileStore,
    private readonly sessions: NotebookSessions,
    private readonly connections: Pick<ConnectionManager, 'session'>,
    private readonly window: WindowApi,
  ) {
    super();
    this.versionScheme = `${files.scheme}-version`;
    this._register(
      vscode.workspace.registerTextDocumentContentProvider(this.versionScheme, {
        onDidChange: this.copiesChanged.event,
        provideTextDocumentContent: (uri) => this.copies.get(uri.toString()),
      }),
    );
  }

  /** A diff: the version (read-only, in the file's form) on the left, the notebook file `uri` on the right. */
  async compare(uri: vscode.Uri, entry: HistoryEntry): Promise<void> {
    if (entry.content === undefined) {
      return;
    }
    const session = await this.sessionOf(uri);
    const shown = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString())?.getText();
    const left = uri.with({ scheme: this.versionScheme, query: `entry=${encodeURIComponent(entry.id)}` });
    this.copies.set(left.toString(), versionText(entry.content, formOf(uri), session.notebook, shown));
    this.copiesChanged.fire(left);
    await this.window.editors.diff(left, uri, vscode.l10n.t('{0} ({1}) ↔ Current', notebookTitle(session.notebook.title), describeEntry(entry)));
  }

  /**
   * The editor of `uri` takes the version's content and saves it, after a confirmation. The save is planned
   * against the version the editor showed when the user chose to restore, so changes made on PostHog since
   * merge in (or are marked where both changed), also those the live stream brought into the editor while the
   * dialog was open, which the user never saw. Resolves whether it saved.
   */
  async restore(uri: vscode.Uri, entry: HistoryEntry): Promise<boolean> {
    if (entry.content === undefined || entry.kind === 'rejected') {
      return false;
    }
    const session = await this.sessionOf(uri);
    const title = notebookTitle(session.notebook.title);
    const editor = await this.window.editors.open(uri);
    const document = editor.document;
    const seen = await session.baseOf(uri.toString());
    const confirmed = await confirm(this.window, {
      question: vscode.l10n.t('Restore "{0}" to the version of {1}?', title, describeEntry(entry)),
      detail: document.isDirty
        ? vscode.l10n.t('Your unsaved changes in this editor are replaced. The version is saved like an edit: changes made on PostHog since are merged in.')
        : vscode.l10n.t('The version is saved like an edit: changes made on PostHog since are merged in, and anything changed on both sides is marked for you to choose.'),
      button: vscode.l10n.t('Restore'),
    });
    if (!confirmed) {
      return false;
    }
    const current = document.getText();
    const text = versionText(entry.content, formOf(uri), session.notebook, current);
    if (text === current) {
      void this.window.showInformationMessage(vscode.l10n.t('"{0}" already shows this version.', title));
      return false;
    }
    if (!(await this.window.editors.replaceText(uri, text, current))) {
      void this.window.showErrorMessage(vscode.l10n.t('Not restored: the editor of "{0}" changed meanwhile. Try again.', title));
      return false;
    }
    if (seen) {
      await session.planAgainst(uri.toString(), seen);
    }
    const saved = await document.save();
    if (saved) {
      void this.window.showInformationMessage(vscode.l10n.t('Restored "{0}" to the version of {1}.', title, describeEntry(entry)));
    }
    return saved;
  }

  /** A new notebook holding the content of `entry` (a save PostHog refused), opened in the file's form. */
  async copyToNewNotebook(uri: vscode.Uri, entry: HistoryEntry): Promise<vscode.Uri | undefined> {
    const path = parseNotebookPath(uri.authority, uri.path);
    const connection = path?.kind === 'notebook' ? await this.connections.session(path.connectionId) : undefined;
    if (path?.kind !== 'notebook' || !connection || entry.content === undefined) {
      return undefined;
    }
    const session = await this.sessionOf(uri);
    const title = vscode.l10n.t('{0} (recovered from {1})', oneSafeLine(session.notebook.title ?? path.shortId), describeEntry(entry));
    const created = await this.files.create(connection, path.projectId, title, formOf(uri), entry.content);
    this.files.allow(created);
    await this.window.editors.open(created);
    return created;
  }

  private async sessionOf(uri: vscode.Uri): Promise<NotebookSession> {
    const path = parseNotebookPath(uri.authority, uri.path);
    if (path?.kind !== 'notebook') {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    return this.sessions.get(path) ?? this.sessions.fetch(path);
  }
}

/** "3 May 2026, 14:05 by Ada" or, for PostHog's migration, "… by PostHog". */
export function describeEntry(entry: HistoryEntry): string {
  const when = new Date(entry.at).toLocaleString(displayLanguage(), { dateStyle: 'medium', timeStyle: 'short' });
  return vscode.l10n.t('{0} by {1}', when, entry.author);
}

function formOf(uri: vscode.Uri) {
  return notebookFormOf(uri.path) ?? 'json';
}
