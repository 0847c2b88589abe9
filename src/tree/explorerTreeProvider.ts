import * as vscode from 'vscode';
import type { BusyTracker } from '../common/busy';
import { projectKey } from '../common/keys';
import { Disposable } from '../workbench/disposable';
import type { ConnectionManager, ConnectionSession } from '../connections/connectionManager';
import type { DeletedNotebook, DeletedNotebooks } from '../notebooks/deletedNotebooks';
import { errorNode } from './errorNodes';
import type { NotebookFilter } from './notebookFilter';
import { ConnectionNode, type ExplorerNode, type ExplorerState, organizationNodes } from './nodes';

export const EXPLORER_VIEW_ID = 'posthogExplorer.explorer';

/** Maps the explorer's nodes to the tree view; loading shows as progress on the view. */
export class ExplorerTreeProvider extends Disposable implements vscode.TreeDataProvider<ExplorerNode>, ExplorerState {
  private readonly changed = this._register(new vscode.EventEmitter<ExplorerNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly filters = new Map<string, NotebookFilter>();
  private deletedShown = false;

  constructor(
    private readonly connections: ConnectionManager,
    private readonly deleted: DeletedNotebooks,
    private readonly busy: BusyTracker,
  ) {
    super();
    this._register(connections.onDidChange(() => this.changed.fire(undefined)));
  }

  get showDeleted(): boolean {
    return this.deletedShown;
  }

  setShowDeleted(show: boolean): void {
    this.deletedShown = show;
    void vscode.commands.executeCommand('setContext', 'posthogExplorer.showDeleted', show);
    this.changed.fire(undefined);
  }

  session(connectionId: string): Promise<ConnectionSession | undefined> {
    return this.connections.session(connectionId);
  }

  notebookFilter(connectionId: string, projectId: number): NotebookFilter {
    return this.filters.get(projectKey(connectionId, projectId)) ?? {};
  }

  setNotebookFilter(connectionId: string, projectId: number, filter: NotebookFilter, node?: ExplorerNode): void {
    this.filters.set(projectKey(connectionId, projectId), filter);
    this.changed.fire(node);
  }

  deletedNotebooks(connectionId: string, projectId: number): DeletedNotebook[] {
    return this.deleted.list(connectionId, projectId);
  }

  getTreeItem(node: ExplorerNode): vscode.TreeItem {
    return node.treeItem();
  }

  getParent(node: ExplorerNode): ExplorerNode | undefined {
    return node.parent;
  }

  async getChildren(node?: ExplorerNode): Promise<ExplorerNode[]> {
    if (!node) {
      return this.rootChildren();
    }
    const connection = node.connection();
    return this.load(node.children(), (error) => (connection ? [errorNode(node, connection, error)] : []));
  }

  /** Reloads a node's children from the server, or the whole tree; the change fires once the caches are clear. */
  async refresh(node?: ExplorerNode): Promise<void> {
    if (node) {
      await node.invalidate();
    } else {
      const sessions = await Promise.all(this.connections.connections().map((connection) => this.connections.session(connection.id)));
      for (const session of sessions) {
        session?.model.refreshAll();
      }
    }
    this.changed.fire(node);
  }

  /** Reloads an organization's projects, after one was created, changed or deleted. */
  refreshOrganization(session: ConnectionSession, organizationId: string): void {
    session.model.refreshOrganization(organizationId);
    this.changed.fire(undefined);
  }

  /** Reloads a project's notebooks, after one was created, saved, renamed or deleted. */
  refreshProject(session: ConnectionSession, projectId: number): void {
    session.model.refreshProject(projectId);
    this.changed.fire(undefined);
  }

  private rootChildren(): Promise<ExplorerNode[]> {
    const connections = this.connections.connections();
    if (connections.length === 1) {
      const [connection] = connections;
      return this.load(organizationNodes(undefined, connection, this), (error) => [errorNode(undefined, connection, error)]);
    }
    return Promise.resolve(connections.map((connection) => new ConnectionNode(connection, this)));
  }

  private async load(
    children: Promise<ExplorerNode[]>,
    onError: (error: unknown) => ExplorerNode[],
  ): Promise<ExplorerNode[]> {
    try {
      return await this.busy.track(
        Promise.resolve(vscode.window.withProgress({ location: { viewId: EXPLORER_VIEW_ID } }, () => children)),
      );
    } catch (error) {
      return onError(error);
    }
  }
}
