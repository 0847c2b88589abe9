import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { BusyTracker } from '../../../src/common/busy';
import { ConnectionCommands } from '../../../src/connections/connectionCommands';
import { ConnectionManager } from '../../../src/connections/connectionManager';
import { ConnectionStore, type SecretStore } from '../../../src/connections/connectionStore';
import { DeletedNotebooks } from '../../../src/notebooks/deletedNotebooks';
import { ExplorerCommands } from '../../../src/tree/explorerCommands';
import { ExplorerTreeProvider } from '../../../src/tree/explorerTreeProvider';
import type { ExplorerNode } from '../../../src/tree/nodes';
import { MemoryState } from '../../support/memoryStores';
import { ScriptedWindow } from './scriptedWindow';

/**
 * The explorer's real classes, wired as extension.ts wires them but without registering commands
 * (the installed extension owns those ids), with prompts answered by a ScriptedWindow.
 */
export class ExplorerHarness implements vscode.Disposable {
  readonly state = new MemoryState();
  readonly window = new ScriptedWindow();
  readonly log = vscode.window.createOutputChannel('PostHog Explorer Tests', { log: true });
  readonly store: ConnectionStore;
  readonly connections: ConnectionManager;
  readonly busy = new BusyTracker();
  readonly deleted = new DeletedNotebooks(this.state);
  readonly tree: ExplorerTreeProvider;
  readonly connectionCommands: ConnectionCommands;
  readonly explorerCommands: ExplorerCommands;

  constructor(readonly secrets: SecretStore) {
    this.store = new ConnectionStore(this.state, secrets, undefined, randomUUID);
    this.connections = new ConnectionManager(this.store, this.log);
    this.tree = new ExplorerTreeProvider(this.connections, this.deleted, this.busy);
    this.connectionCommands = new ConnectionCommands(this.connections, this.window.api);
    this.explorerCommands = new ExplorerCommands(this.tree, this.connections, this.deleted, this.window.api);
  }

  async items(node?: ExplorerNode): Promise<{ node: ExplorerNode; item: vscode.TreeItem }[]> {
    const children = await this.tree.getChildren(node);
    return children.map((child) => ({ node: child, item: this.tree.getTreeItem(child) }));
  }

  /** Follows labels down the tree, e.g. child('Hedgebox Inc.', 'Hedgebox', 'Notebooks'). */
  async child(...labels: string[]): Promise<ExplorerNode> {
    let node: ExplorerNode | undefined;
    for (const label of labels) {
      const items = await this.items(node);
      const found = items.find(({ item }) => labelOf(item) === label);
      if (!found) {
        throw new Error(`No "${label}" among ${items.map(({ item }) => `"${labelOf(item)}"`).join(', ')}`);
      }
      node = found.node;
    }
    if (!node) {
      throw new Error('child() needs at least one label');
    }
    return node;
  }

  async dispose(): Promise<void> {
    for (const connection of this.store.list()) {
      await this.connections.signOut(connection.id);
    }
    this.tree.dispose();
    this.connections.dispose();
    this.store.dispose();
    this.log.dispose();
  }
}

export function labelOf(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}

export function iconOf(item: vscode.TreeItem): string | undefined {
  return item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined;
}
