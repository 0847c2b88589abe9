import * as vscode from 'vscode';
import { errorText } from '../api';
import type { ConnectionManager } from '../connections';
import { commandTarget, type ExplorerNode, type ExplorerTreeProvider, pickProject, ProjectNode } from '../tree';
import { COMMANDS } from '../workbench/commandIds';
import { type CommandHandlers, CommandGroup } from '../workbench/commands';
import type { WindowApi } from '../workbench/window';
import { editNotebookFilter } from './lists/notebookFilterMenu';
import { knownCreators } from './lists/notebookFilter';
import { DeletedNotebookNode, NotebooksNode, type NotebooksSection } from './lists/notebookNodes';

/** What the explorer lists of a project's notebooks: its filter, the deleted ones and restoring them. */
export class NotebookListCommands extends CommandGroup {
  constructor(
    private readonly section: NotebooksSection,
    private readonly tree: Pick<ExplorerTreeProvider, 'refresh'>,
    private readonly connections: ConnectionManager,
    private readonly window: WindowApi,
  ) {
    super();
  }

  protected commands(): CommandHandlers {
    return {
      [COMMANDS.filterNotebooks]: (node?: ExplorerNode) => this.filterNotebooks(node),
      [COMMANDS.clearNotebookFilter]: (node?: ExplorerNode) => this.clearNotebookFilter(node),
      [COMMANDS.showDeletedNotebooks]: () => this.section.setShowDeleted(true),
      [COMMANDS.hideDeletedNotebooks]: () => this.section.setShowDeleted(false),
      [COMMANDS.restoreNotebook]: (node?: ExplorerNode) => this.restoreNotebook(node),
    };
  }

  async filterNotebooks(node?: ExplorerNode): Promise<void> {
    const target = await this.notebooksTarget(node);
    if (!target) {
      return;
    }
    const { session, project } = target;
    const current = this.section.filter(session.connection.id, project.id);
    const [me, listed] = await Promise.all([
      session.client.users.me().catch(() => undefined),
      this.section.lists.list(session.client, project.id).catch(() => []),
    ]);
    const filter = await editNotebookFilter(this.window, project, current, knownCreators(me, listed, current.createdBy));
    if (filter) {
      this.section.setFilter(session.connection.id, project.id, filter, target.node);
    }
  }

  clearNotebookFilter(node?: ExplorerNode): void {
    if (node instanceof NotebooksNode) {
      this.section.setFilter(node.session.connection.id, node.project.id, {}, node);
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
    await this.section.deleted.remove(session.connection.id, project.id, notebook.shortId);
    await this.tree.refresh(node.parent);
    void this.window.showInformationMessage(vscode.l10n.t('Restored "{0}".', notebook.title));
  }

  private notebooksTarget(node?: ExplorerNode) {
    return commandTarget(node, {
      node: (item) =>
        item instanceof NotebooksNode || item instanceof ProjectNode
          ? { session: item.session, project: item.project, node: item instanceof NotebooksNode ? item : undefined }
          : undefined,
      pick: () =>
        pickProject(this.connections, this.window, vscode.l10n.t('Filter Notebooks')).then(
          (choice) => choice && { session: choice.session, project: choice.project, node: undefined },
        ),
    });
  }
}
