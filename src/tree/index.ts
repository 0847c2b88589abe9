import type * as vscode from 'vscode';
import type { ConnectionManager } from '../connections';
import type { WorkbenchRegistry } from '../workbench/commands';
import { Disposable } from '../workbench/disposable';
import type { EnvApi, WindowApi } from '../workbench/window';
import { ExplorerCommands } from './explorerCommands';
import { EXPLORER_VIEW_ID, type ExplorerTreeProvider } from './explorerTreeProvider';
import type { ExplorerNode } from './nodes';

export { ExplorerTreeProvider } from './explorerTreeProvider';
export {
  ExplorerNode,
  MessageNode,
  OrganizationNode,
  type ProjectSection,
  ProjectNode,
  SessionNode,
} from './nodes';
export { commandTarget, type TargetSources } from './commandTarget';
export { pickProject, type ProjectChoice } from './pickProject';

export interface ExplorerServices {
  readonly connections: ConnectionManager;
  readonly tree: ExplorerTreeProvider;
  readonly window: WindowApi;
  readonly env: EnvApi;
  readonly registry: WorkbenchRegistry;
}

/** The PostHog view: the tree of connections, organizations and projects, and its own commands. */
export class ExplorerFeature extends Disposable {
  readonly view: vscode.TreeView<ExplorerNode>;
  readonly commands: ExplorerCommands;

  constructor(services: ExplorerServices) {
    super();
    this.view = this._register(
      services.window.createTreeView(EXPLORER_VIEW_ID, { treeDataProvider: services.tree, showCollapseAll: true }),
    );
    services.tree.showIn(this.view);
    this.commands = this._register(
      new ExplorerCommands(services.tree, services.connections, services.window, services.env).register(services.registry),
    );
  }
}

export function registerExplorer(services: ExplorerServices): ExplorerFeature {
  return new ExplorerFeature(services);
}
