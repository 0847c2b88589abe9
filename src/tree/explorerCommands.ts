import * as vscode from 'vscode';
import { isUuid } from '../api';
import { errorText } from '../common/errors';
import { Disposable } from '../workbench/disposable';
import type { WindowApi } from '../workbench/window';
import type { ConnectionManager } from '../connections/connectionManager';
import type { ConnectionTarget } from '../connections/connectionCommands';
import type { DeletedNotebooks } from '../notebooks/deletedNotebooks';
import type { ExplorerTreeProvider } from './explorerTreeProvider';
import { editNotebookFilter } from './filterNotebooks';
import { knownCreators } from './notebookFilter';
import { DeletedNotebookNode, type ExplorerNode, NotebooksNode, ProjectNode } from './nodes';
import { pickProject } from './pickProject';

/** The explorer's own commands: refresh, notebook filters, deleted notebooks, organizations by id. */
export class ExplorerCommands extends Disposable {
  constructor(
    private readonly tree: ExplorerTreeProvider,
    private readonly connections: ConnectionManager,
    private readonly deleted: DeletedNotebooks,
    private readonly window: WindowApi,
  ) {
    super();
  }

  /** Registers the commands; separate from construction so that tests can call the methods alone. */
  register(): this {
    const register = (id: string, run: (...args: never[]) => unknown) =>
      this._register(vscode.commands.registerCommand(id, run));
    register('posthogExplorer.refresh', (node?: ExplorerNode) => this.tree.refresh(node));
    register('posthogExplorer.filterNotebooks', (node?: ExplorerNode) => this.filterNotebooks(node));
    register('posthogExplorer.clearNotebookFilter', (node?: ExplorerNode) => this.clearNotebookFilter(node));
    register('posthogExplorer.showDeletedNotebooks', () => this.tree.setShowDeleted(true));
    register('posthogExplorer.hideDeletedNotebooks', () => this.tree.setShowDeleted(false));
    register('posthogExplorer.restoreNotebook', (node?: ExplorerNode) => this.restoreNotebook(node));
    register('posthogExplorer.addOrganization', (target?: ConnectionTarget) => this.addOrganization(target));
    register('posthogExplorer.addProject', (target?: ConnectionTarget) => this.addProject(target));
    return this;
  }

  async filterNotebooks(node?: ExplorerNode): Promise<void> {
    const target = await this.notebooksTarget(node);
    if (!target) {
      return;
    }
    const { session, project } = target;
    const current = this.tree.notebookFilter(session.connection.id, project.id);
    const [me, listed] = await Promise.all([
      session.client.users.me().catch(() => undefined),
      session.model.notebooks(project.id).catch(() => []),
    ]);
    const filter = await editNotebookFilter(this.window, project.name, current, knownCreators(me, listed, current.createdBy));
    if (filter) {
      this.tree.setNotebookFilter(session.connection.id, project.id, filter, target.node);
    }
  }

  clearNotebookFilter(node?: ExplorerNode): void {
    if (node instanceof NotebooksNode) {
      this.tree.setNotebookFilter(node.session.connection.id, node.project.id, {}, node);
    }
  }

  async restoreNotebook(node?: ExplorerNode): Promise<void> {
    if (!(node instanceof DeletedNotebookNode)) {
      return;
    }
    const { session, project, notebook } = node;
    try {
      await session.client.notebooks.update(project.id, notebook.shortId, { deleted: false });
    } catch (error) {
      void this.window.showErrorMessage(
        vscode.l10n.t('Could not restore "{0}": {1}', notebook.title, errorText(error)),
      );
      return;
    }
    await this.deleted.remove(session.connection.id, project.id, notebook.shortId);
    await this.tree.refresh(node.parent);
    void this.window.showInformationMessage(vscode.l10n.t('Restored "{0}".', notebook.title));
  }

  async addOrganization(target?: ConnectionTarget): Promise<void> {
    const session = await this.targetSession(target);
    if (!session) {
      return;
    }
    const organizationId = await this.window.showInputBox({
      title: vscode.l10n.t('Add Organization by ID'),
      prompt: vscode.l10n.t('The organization id (a UUID), shown in PostHog under Settings → Organization.'),
      placeHolder: '01234567-89ab-cdef-0123-456789abcdef',
      validateInput: (value) =>
        isUuid(value.trim()) ? undefined : vscode.l10n.t('An organization id is a UUID like 01234567-89ab-cdef-0123-456789abcdef.'),
    });
    if (!organizationId) {
      return;
    }
    const id = organizationId.trim();
    try {
      await this.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking the organization…') },
        () => session.client.projects.list(id, { limit: 1 }),
      );
    } catch (error) {
      void this.window.showErrorMessage(vscode.l10n.t('Could not open organization {0}: {1}', id, errorText(error)));
      return;
    }
    await this.connections.store.addOrganization(session.connection.id, id);
    await this.tree.refresh();
  }

  /** For keys limited to some projects, which PostHog does not let list them: checks the id with one read. */
  async addProject(target?: ConnectionTarget): Promise<void> {
    const session = await this.targetSession(target);
    if (!session) {
      return;
    }
    const typed = await this.window.showInputBox({
      title: vscode.l10n.t('Add Project by ID'),
      prompt: vscode.l10n.t('The project id (a number), shown in PostHog under Settings → Project and in its web addresses (/project/<id>).'),
      placeHolder: '12345',
      validateInput: (value) => (/^\d{1,18}$/.test(value.trim()) ? undefined : vscode.l10n.t('A project id is a whole number, like 12345.')),
    });
    if (!typed) {
      return;
    }
    const id = Number(typed.trim());
    try {
      await this.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking the project…') },
        () => session.client.projects.getById(id),
      );
    } catch (error) {
      void this.window.showErrorMessage(vscode.l10n.t('Could not open project {0}: {1}', id, errorText(error)));
      return;
    }
    await this.connections.store.addProject(session.connection.id, id);
    await this.tree.refresh();
  }

  /** The session of the target's connection, or of the active one; none asks to sign in. */
  private async targetSession(target?: ConnectionTarget) {
    const connection =
      (target?.connectionId ? this.connections.store.get(target.connectionId) : target?.connection?.()) ??
      this.connections.store.active();
    const session = connection && (await this.connections.session(connection.id));
    if (!session) {
      void vscode.commands.executeCommand('posthogExplorer.signIn');
    }
    return session;
  }

  private async notebooksTarget(node?: ExplorerNode) {
    if (node instanceof NotebooksNode || node instanceof ProjectNode) {
      const notebooksNode = node instanceof NotebooksNode ? node : undefined;
      return { session: node.session, project: node.project, node: notebooksNode };
    }
    const choice = await pickProject(this.connections, this.window, vscode.l10n.t('Filter Notebooks'));
    return choice && { session: choice.session, project: choice.project, node: undefined };
  }
}
