import * as vscode from 'vscode';
import { notebookUrl } from '../../catalog';
import type { ConnectionManager } from '../../connections';
import { oneSafeLine } from '../../common/text';
import { Disposable } from '../../workbench/disposable';
import { isViewOnly } from '../model/accessLevel';
import { parseNotebookPath } from '../model/notebookPaths';
import type { NotebookSessions } from '../session';

/**
 * View-only notebooks in the editor. The file system reports them read-only (FileStat.permissions, see
 * notebookFiles.ts), so VS Code opens them with its lock and refuses typing; this adds the line that says
 * why, above the text: a code lens naming the user's access, which opens the notebook in PostHog (where
 * access is asked for and granted).
 */
export class NotebookAccessLens extends Disposable implements vscode.CodeLensProvider {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(
    private readonly scheme: string,
    private readonly sessions: NotebookSessions,
    private readonly connections: Pick<ConnectionManager, 'session'>,
  ) {
    super();
    this._register(vscode.languages.registerCodeLensProvider({ scheme }, this));
    this._register(sessions.onDidChange(() => this.changed.fire()));
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const path = document.uri.scheme === this.scheme ? parseNotebookPath(document.uri.authority, document.uri.path) : undefined;
    const notebook = path?.kind === 'notebook' ? this.sessions.get(path)?.notebook : undefined;
    if (path?.kind !== 'notebook' || !notebook || !isViewOnly(notebook.user_access_level)) {
      return [];
    }
    const connection = await this.connections.session(path.connectionId);
    const title = viewOnlyLine(notebook.user_access_level ?? 'viewer', oneSafeLine(notebook.title ?? notebook.short_id));
    const command: vscode.Command = connection
      ? { title, command: 'vscode.open', arguments: [vscode.Uri.parse(notebookUrl(connection.connection.baseUrl, path.projectId, path.shortId))] }
      : { title, command: '' };
    return [new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), command)];
  }
}

/** The line above a view-only notebook's text. */
export function viewOnlyLine(level: string, title: string): string {
  return vscode.l10n.t(
    '$(lock) View only: you have {0} access to "{1}" on PostHog, so it opens read-only and nothing is saved. Open it in PostHog to ask for editor access.',
    level,
    title,
  );
}
