import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { BusyTracker } from './common/busy';
import {
  ConnectionManager,
  ConnectionStore,
  environmentConnection,
  type SecretStore,
  type StateStore,
} from './connections';
import { POSTHOG_SCHEME, PostHogFileSystem } from './documents';
import { ExplorerTreeProvider } from './tree';
import type { WorkbenchRegistry } from './workbench/commands';
import type { EnvApi, WindowApi } from './workbench/window';

/** What the features share; each feature's register() takes the part of it that it needs. */
export interface Services extends vscode.Disposable {
  readonly log: vscode.LogOutputChannel;
  readonly state: StateStore;
  readonly extensionUri: vscode.Uri;
  readonly storageUri: vscode.Uri;
  readonly window: WindowApi;
  readonly env: EnvApi;
  readonly registry: WorkbenchRegistry;
  readonly store: ConnectionStore;
  readonly connections: ConnectionManager;
  readonly busy: BusyTracker;
  readonly tree: ExplorerTreeProvider;
  readonly documents: PostHogFileSystem;
}

/** Where the services come from: the extension's context and VS Code, or an in-editor test's stand-ins. */
export interface ServiceSources {
  readonly log: vscode.LogOutputChannel;
  readonly state: StateStore;
  readonly secrets: SecretStore;
  readonly extensionUri: vscode.Uri;
  /** The extension's own storage folder (its global storage). */
  readonly storageUri: vscode.Uri;
  readonly window: WindowApi;
  readonly env: EnvApi;
  readonly registry: WorkbenchRegistry;
  /** The environment variables that may name a connection (POSTHOG_HOST, POSTHOG_PERSONAL_API_KEY). */
  readonly environment?: NodeJS.ProcessEnv;
  /** The file system's scheme; in-editor tests use their own. */
  readonly scheme?: string;
}

export function createServices(sources: ServiceSources): Services {
  const { log } = sources;
  const store = new ConnectionStore(
    sources.state,
    sources.secrets,
    sources.environment && environmentConnection(sources.environment, (message) => log.warn(message)),
    randomUUID,
  );
  const connections = new ConnectionManager(store, log);
  const busy = new BusyTracker();
  const tree = new ExplorerTreeProvider(connections, busy, sources.window);
  const documents = new PostHogFileSystem(connections, sources.scheme ?? POSTHOG_SCHEME);
  const owned: vscode.Disposable[] = [documents, tree, busy, connections, store];
  return {
    ...sources,
    store,
    connections,
    busy,
    tree,
    documents,
    dispose: () => owned.forEach((disposable) => disposable.dispose()),
  };
}
