import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections/connectionManager';
import type { PostHogFileSystem } from '../documents/fileSystem';
import type { ExplorerTreeProvider } from '../tree/explorerTreeProvider';
import type { ExplorerNode } from '../tree/nodes';
import { ActivityDocuments } from './activityDocument';
import { ProjectCommands } from './projectCommands';
import { ProjectSettingsDocument, SETTINGS_DOCUMENT_NAME } from './projectSettingsDocument';
import { revealProject } from './revealProject';

/** Wires project management: the settings document in the posthog file system, activity pages and the commands. */
export function registerProjects(
  connections: ConnectionManager,
  tree: ExplorerTreeProvider,
  view: vscode.TreeView<ExplorerNode>,
  documents: PostHogFileSystem,
): vscode.Disposable[] {
  const settings = new ProjectSettingsDocument();
  const activity = new ActivityDocuments().register();
  const commands = new ProjectCommands({
    connections,
    tree,
    documents,
    settings,
    activity,
    window: vscode.window,
    env: vscode.env,
    reveal: (connectionId, organizationId, projectId) => revealProject(tree, view, connectionId, organizationId, projectId),
  }).register();
  return [settings, documents.registerProjectDocument(SETTINGS_DOCUMENT_NAME, settings), activity, commands];
}
