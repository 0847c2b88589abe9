import * as vscode from 'vscode';
import type { StateStore, ConnectionManager } from '../connections';
import type { PostHogFileSystem } from '../documents';
import type { ExplorerTreeProvider } from '../tree';
import type { WorkbenchRegistry } from '../workbench/commands';
import { Disposable } from '../workbench/disposable';
import type { WindowApi } from '../workbench/window';
import { DialogConflictResolver } from './conflicts';
import { DeletedNotebooks } from './deletedNotebooks';
import { NotebookCommands } from './notebookCommands';
import { NotebookFileStore } from './notebookFiles';
import { NotebookListCommands } from './notebookListCommands';
import { NotebooksSection } from './notebookNodes';
import { NOTEBOOKS_FOLDER } from './notebookPaths';

export const POLL_INTERVAL_SETTING = 'posthogExplorer.notebooks.pollIntervalSeconds';
const DEFAULT_POLL_SECONDS = 30;

export interface NotebooksServices {
  readonly state: StateStore;
  readonly connections: ConnectionManager;
  readonly tree: ExplorerTreeProvider;
  readonly documents: PostHogFileSystem;
  readonly window: WindowApi;
  readonly registry: WorkbenchRegistry;
}

/**
 * Notebooks: the Notebooks item under each project (filters, deleted notebooks), notebooks as files in
 * the `posthog` file system (polling, conflicts), and their commands.
 */
export class NotebooksFeature extends Disposable {
  readonly deleted: DeletedNotebooks;
  readonly section: NotebooksSection;
  readonly files: NotebookFileStore;
  readonly commands: NotebookCommands;
  readonly listCommands: NotebookListCommands;

  constructor(services: NotebooksServices) {
    super();
    const { connections, tree, window, registry } = services;
    this.deleted = new DeletedNotebooks(services.state);
    this.section = new NotebooksSection(tree, registry, this.deleted);
    this._register(tree.registerProjectSection(this.section));
    this.files = this._register(
      new NotebookFileStore(
        services.documents.scheme,
        (connectionId) => connections.session(connectionId),
        this.deleted,
        new DialogConflictResolver(window),
        window,
      ),
    );
    this._register(services.documents.registerCollection(NOTEBOOKS_FOLDER, this.files));
    this._register(this.files.onDidChangeNotebooks((change) => tree.refreshProject(change.session, change.projectId)));
    this.commands = this._register(new NotebookCommands(this.files, connections, window).register(registry));
    this.listCommands = this._register(new NotebookListCommands(this.section, tree, connections, window).register(registry));
    this.applyPollInterval();
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(POLL_INTERVAL_SETTING)) {
          this.applyPollInterval();
        }
      }),
    );
  }

  private applyPollInterval(): void {
    this.files.setPollInterval(vscode.workspace.getConfiguration().get<number>(POLL_INTERVAL_SETTING, DEFAULT_POLL_SECONDS));
  }
}

export function registerNotebooks(services: NotebooksServices): NotebooksFeature {
  return new NotebooksFeature(services);
}
