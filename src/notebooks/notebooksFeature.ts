import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections/connectionManager';
import { POSTHOG_SCHEME, type PostHogFileSystem } from '../documents/fileSystem';
import type { ExplorerTreeProvider } from '../tree/explorerTreeProvider';
import { DialogConflictResolver } from './conflicts';
import type { DeletedNotebooks } from './deletedNotebooks';
import { NotebookCommands } from './notebookCommands';
import { NotebookFileStore } from './notebookFiles';

export const POLL_INTERVAL_SETTING = 'posthogExplorer.notebooks.pollIntervalSeconds';
const DEFAULT_POLL_SECONDS = 30;

/** Notebooks as files in the `posthog` file system, their commands, polling and explorer refreshes. */
export function registerNotebooks(
  connections: ConnectionManager,
  documents: PostHogFileSystem,
  tree: ExplorerTreeProvider,
  deleted: DeletedNotebooks,
): vscode.Disposable[] {
  const files = new NotebookFileStore(
    POSTHOG_SCHEME,
    (connectionId) => connections.session(connectionId),
    deleted,
    new DialogConflictResolver(vscode.window),
    vscode.window,
  );
  const applyPollInterval = () =>
    files.setPollInterval(vscode.workspace.getConfiguration().get<number>(POLL_INTERVAL_SETTING, DEFAULT_POLL_SECONDS));
  applyPollInterval();
  return [
    files,
    documents.setNotebookFiles(files),
    new NotebookCommands(files, connections, vscode.window).register(),
    files.onDidChangeNotebooks((change) => tree.refreshProject(change.session, change.projectId)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(POLL_INTERVAL_SETTING)) {
        applyPollInterval();
      }
    }),
  ];
}
