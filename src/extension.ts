import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { BusyTracker } from './common/busy';
import { ConnectionCommands } from './connections/connectionCommands';
import { ConnectionManager } from './connections/connectionManager';
import { ConnectionStore } from './connections/connectionStore';
import { environmentConnection } from './connections/environment';
import { ConnectionStatusBar } from './connections/statusBar';
import { POSTHOG_SCHEME, PostHogFileSystem } from './documents/fileSystem';
import { EventsCommands } from './events/eventsCommands';
import { DeletedNotebooks } from './notebooks/deletedNotebooks';
import { registerNotebooks } from './notebooks/notebooksFeature';
import { registerProjects } from './projects/projectsFeature';
import { ExplorerCommands } from './tree/explorerCommands';
import { EXPLORER_VIEW_ID, ExplorerTreeProvider } from './tree/explorerTreeProvider';

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('PostHog', { log: true });
  const store = new ConnectionStore(
    context.globalState,
    context.secrets,
    environmentConnection(process.env, (message) => log.warn(message)),
    randomUUID,
  );
  const connections = new ConnectionManager(store, log);
  const busy = new BusyTracker();
  const deleted = new DeletedNotebooks(context.globalState);
  const tree = new ExplorerTreeProvider(connections, deleted, busy);
  const documents = new PostHogFileSystem(connections);
  const explorerView = vscode.window.createTreeView(EXPLORER_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
  const updateContext = () =>
    vscode.commands.executeCommand('setContext', 'posthogExplorer.hasConnections', store.list().length > 0);

  context.subscriptions.push(
    log,
    store,
    connections,
    busy,
    tree,
    explorerView,
    new ConnectionStatusBar(connections, busy),
    new ConnectionCommands(connections, vscode.window).register(),
    new ExplorerCommands(tree, connections, deleted, vscode.window).register(),
    new EventsCommands(connections, context.extensionUri, vscode.window).register(),
    documents,
    vscode.workspace.registerFileSystemProvider(POSTHOG_SCHEME, documents, { isCaseSensitive: true }),
    ...registerNotebooks(connections, documents, tree, deleted),
    ...registerProjects(connections, tree, explorerView, documents),
    connections.onDidChange(updateContext),
    vscode.commands.registerCommand('posthogExplorer.showLogs', () => log.show()),
  );
  void updateContext();
}

export function deactivate(): void {}
