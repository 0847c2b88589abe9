import * as vscode from 'vscode';
import type { BusyTracker } from '../common/busy';
import type { ConnectionManager, ConnectionSession } from '../connections';
import { Disposable } from '../workbench/disposable';
import type { WindowApi } from '../workbench/window';
import { errorNode } from './errorNodes';
import { findProjectNode } from './findProjectNode';
import { ConnectionNode, type ExplorerNode, type ExplorerState, organizationNodes, type ProjectSection } from './nodes';

export const EXPLORER_VIEW_ID = 'posthogExplorer.explorer';

/**
 * Maps the explorer's nodes to the tree view; loading shows as progress on the view. Features add
 * their items under each project with registerProjectSection, in the order they register.
 */
export class ExplorerTreeProvider extends Disposable implements vscode.TreeDataProvider<ExplorerNode>, ExplorerState {
  private readonly changed = this._register(new vscode.EventEmitter<ExplorerNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly sections: ProjectSection[] = [];
  private view: Pick<vscode.TreeView<ExplorerNode>, 'reveal'> | undefined;
  /** Children loads under way: a refresh stops those it makes stale, disposing stops all. */
  private readonly loads = new Set<{ readonly node: ExplorerNode | undefined; readonly controller: AbortController }>();

  constructor(
    private readonly connections: ConnectionManager,
    private readonly busy: BusyTracker,
    private readonly window: Pick<WindowApi, 'withProgress'>,
  ) {
    super();
    this._register(connections.onDidChange(() => this.changed.fire(undefined)));
    this._register({ dispose: () => this.cancelLoads(undefined) });
  }

  /** The view that shows this tree, for revealProject. */
  showIn(view: Pick<vscode.TreeView<ExplorerNode>, 'reveal'>): void {
    this.view = view;
  }

  /** Selects a project in the view (used after creating one); false when it is not found. */
  async revealProject(connectionId: string, organizationId: string, projectId: number): Promise<boolean> {
    const node = await findProjectNode(this, connectionId, organizationId, projectId);
    if (!node || !this.view) {
      return false;
    }
    await this.view.reveal(node, { select: true, focus: true, expand: false });
    return true;
  }

  registerProjectSection(section: ProjectSection): vscode.Disposable {
    this.sections.push(section);
    this.changed.fire(undefined);
    return new vscode.Disposable(() => {
      this.sections.splice(this.sections.indexOf(section), 1);
      this.changed.fire(undefined);
    });
  }

  projectSections(): readonly ProjectSection[] {
    return this.sections;
  }

  session(connectionId: string): Promise<ConnectionSession | undefined> {
    return this.connections.session(connectionId);
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
    return this.load(node, (signal) => node.children(signal), (error) => (connection ? [errorNode(node, connection, error)] : []));
  }

  /** Reloads a node's children from the server, or the whole tree; the change fires once the caches are clear. */
  async refresh(node?: ExplorerNode): Promise<void> {
    this.cancelLoads(node);
    if (node) {
      await node.invalidate();
    } else {
      const sessions = await Promise.all(this.connections.connections().map((connection) => this.connections.session(connection.id)));
      for (const session of sessions) {
        if (session) {
          session.model.refreshAll();
          this.forgetSections(session);
        }
      }
    }
    this.changed.fire(node);
  }

  /** Shows a node (or the whole tree) again from what is loaded, e.g. after a filter or a toggle changed. */
  redraw(node?: ExplorerNode): void {
    this.changed.fire(node);
  }

  /** Reloads an organization's projects, after one was created, changed or deleted. */
  refreshOrganization(session: ConnectionSession, organizationId: string): void {
    session.model.refreshOrganization(organizationId);
    this.changed.fire(undefined);
  }

  /** Reloads what a project's sections list (e.g. its notebooks, after one was created, saved, renamed or deleted). */
  refreshProject(session: ConnectionSession, projectId: number): void {
    this.forgetSections(session, projectId);
    this.changed.fire(undefined);
  }

  private forgetSections(session: ConnectionSession, projectId?: number): void {
    for (const section of this.sections) {
      section.forget?.(session, projectId);
    }
  }

  private rootChildren(): Promise<ExplorerNode[]> {
    const connections = this.connections.connections();
    if (connections.length === 1) {
      const [connection] = connections;
      return this.load(undefined, (signal) => organizationNodes(undefined, connection, this, signal), (error) => [errorNode(undefined, connection, error)]);
    }
    return Promise.resolve(connections.map((connection) => new ConnectionNode(connection, this)));
  }

  /** Loads a node's children (`node` undefined: the root's) with progress on the view; a stopped load shows nothing. */
  private async load(
    node: ExplorerNode | undefined,
    children: (signal: AbortSignal) => Promise<ExplorerNode[]>,
    onError: (error: unknown) => ExplorerNode[],
  ): Promise<ExplorerNode[]> {
    const load = { node, controller: new AbortController() };
    this.loads.add(load);
    try {
      return await this.busy.track(
        Promise.resolve(this.window.withProgress({ location: { viewId: EXPLORER_VIEW_ID } }, () => children(load.controller.signal))),
      );
    } catch (error) {
      // Stopped by a refresh, which asks for the children again, or by disposal.
      return load.controller.signal.aborted ? [] : onError(error);
    } finally {
      this.loads.delete(load);
    }
  }

  /** Stops the loads of `node` and of the nodes below it (all loads when undefined). */
  private cancelLoads(node: ExplorerNode | undefined): void {
    for (const load of this.loads) {
      if (node === undefined || isWithin(load.node, node)) {
        load.controller.abort();
      }
    }
  }
}

/** Whether `node` is `ancestor` or below it. */
function isWithin(node: ExplorerNode | undefined, ancestor: ExplorerNode): boolean {
  for (let current = node; current; current = current.parent) {
    if (current === ancestor || current.id === ancestor.id) {
      return true;
    }
  }
  return false;
}
