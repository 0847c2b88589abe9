import * as vscode from 'vscode';
import { AuthenticationError, MissingScopeError, NotFoundError, PermissionDeniedError, PostHogError } from '../api';
import { Disposable } from '../workbench/disposable';
import type { ConnectionManager, ConnectionSession } from '../connections';
import { type DocumentPath, parseDocumentPath } from '../common/documentPaths';
import type { CollectionItemTarget, ProjectCollection, ProjectDocumentHandler, ProjectDocumentTarget } from './documentHandler';

export const POSTHOG_SCHEME = 'posthog';

const DIRECTORY_STAT: vscode.FileStat = { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };

type ItemPath = Extract<DocumentPath, { kind: 'collectionItem' }>;

/**
 * The `posthog` file system (layout in src/common/documentPaths.ts). Directories are virtual and cost no
 * request except a connection's root, which lists its projects. What a project's directory holds comes
 * from the features: collections (a folder of items, e.g. notebooks/) and project documents (one file,
 * e.g. project.posthog.json), each registered under its name.
 */
export class PostHogFileSystem extends Disposable implements vscode.FileSystemProvider {
  private readonly changed = this._register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  readonly onDidChangeFile = this.changed.event;
  private readonly projectDocuments = new Map<string, ProjectDocumentHandler>();
  private readonly collections = new Map<string, ProjectCollection>();

  constructor(
    private readonly connections: Pick<ConnectionManager, 'session'>,
    readonly scheme: string = POSTHOG_SCHEME,
  ) {
    super();
  }

  /** Serves posthog://<connection>/<project>/<name> in every project's directory (e.g. "project.posthog.json"). */
  registerProjectDocument(name: string, handler: ProjectDocumentHandler): vscode.Disposable {
    return this.registerEntry(name, this.projectDocuments, handler, handler.onDidChange?.((uri) => this.fire([{ type: vscode.FileChangeType.Changed, uri }])));
  }

  /** Serves the folder posthog://<connection>/<project>/<folder>/ of every project and the items in it. */
  registerCollection(folder: string, collection: ProjectCollection): vscode.Disposable {
    return this.registerEntry(folder, this.collections, collection, collection.onDidChange?.((events) => this.fire(events)));
  }

  uri(path: string, connectionId: string): vscode.Uri {
    return vscode.Uri.from({ scheme: this.scheme, authority: connectionId, path });
  }

  watch(uri: vscode.Uri): vscode.Disposable {
    const path = this.parse(uri);
    const collection = path.kind === 'collectionItem' ? this.collections.get(path.folder) : undefined;
    if (path.kind !== 'collectionItem' || !collection?.watch) {
      return new vscode.Disposable(() => undefined);
    }
    const watchItem = collection.watch.bind(collection);
    let watching: vscode.Disposable | undefined;
    let disposed = false;
    void this.itemTarget(uri, path, collection).then(
      (target) => {
        if (!disposed) {
          watching = watchItem(target);
        }
      },
      () => undefined,
    );
    return new vscode.Disposable(() => {
      disposed = true;
      watching?.dispose();
    });
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const path = this.parse(uri);
    switch (path.kind) {
      case 'connection':
      case 'project':
        return DIRECTORY_STAT;
      case 'projectDocument': {
        if (this.collections.has(path.name)) {
          return DIRECTORY_STAT;
        }
        const { handler, target } = await this.projectDocument(uri, path);
        return translate(uri, () => handler.stat(target));
      }
      case 'collectionItem': {
        const collection = this.collection(uri, path.folder);
        return translate(uri, async () => collection.stat(await this.itemTarget(uri, path, collection)));
      }
    }
  }

  async readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    const path = this.parse(uri);
    switch (path.kind) {
      case 'connection': {
        const session = await this.session(uri, path.connectionId);
        return translate(uri, async () => {
          const organizations = await session.model.organizations();
          const projects = await Promise.all(organizations.map((organization) => session.model.projects(organization.id)));
          return projects.flat().map((project): [string, vscode.FileType] => [String(project.id), vscode.FileType.Directory]);
        });
      }
      case 'project':
        return [
          ...[...this.collections.keys()].map((name): [string, vscode.FileType] => [name, vscode.FileType.Directory]),
          ...[...this.projectDocuments.keys()].map((name): [string, vscode.FileType] => [name, vscode.FileType.File]),
        ];
      case 'projectDocument': {
        const collection = this.collections.get(path.name);
        if (!collection) {
          throw vscode.FileSystemError.FileNotADirectory(uri);
        }
        const session = await this.session(uri, path.connectionId);
        return translate(uri, () => collection.list({ uri, connectionId: path.connectionId, projectId: path.projectId, session }));
      }
      default:
        throw vscode.FileSystemError.FileNotADirectory(uri);
    }
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const path = this.parse(uri);
    if (path.kind === 'projectDocument' && !this.collections.has(path.name)) {
      const { handler, target } = await this.projectDocument(uri, path);
      return translate(uri, () => handler.read(target));
    }
    if (path.kind === 'collectionItem') {
      const collection = this.collection(uri, path.folder);
      return translate(uri, async () => collection.read(await this.itemTarget(uri, path, collection)));
    }
    throw vscode.FileSystemError.FileIsADirectory(uri);
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array, options: { create: boolean; overwrite: boolean }): Promise<void> {
    const path = this.parse(uri);
    if (path.kind === 'projectDocument' && !this.collections.has(path.name)) {
      const { handler, target } = await this.projectDocument(uri, path);
      return translate(uri, () => handler.write(target, content));
    }
    if (path.kind === 'collectionItem') {
      const collection = this.collection(uri, path.folder);
      return translate(uri, async () => collection.write(await this.itemTarget(uri, path, collection), content, options));
    }
    throw vscode.FileSystemError.FileIsADirectory(uri);
  }

  async delete(uri: vscode.Uri): Promise<void> {
    const path = this.parse(uri);
    const collection = path.kind === 'collectionItem' ? this.collections.get(path.folder) : undefined;
    if (path.kind !== 'collectionItem' || !collection?.delete) {
      throw vscode.FileSystemError.NoPermissions(uri);
    }
    const deleteItem = collection.delete.bind(collection);
    await translate(uri, async () => deleteItem(await this.itemTarget(uri, path, collection)));
  }

  async rename(oldUri: vscode.Uri, newUri: vscode.Uri): Promise<void> {
    const path = this.parse(oldUri);
    const parentOf = (uri: vscode.Uri) => uri.path.slice(0, uri.path.lastIndexOf('/'));
    const collection = path.kind === 'collectionItem' ? this.collections.get(path.folder) : undefined;
    if (path.kind !== 'collectionItem' || !collection?.rename || newUri.authority !== oldUri.authority || parentOf(newUri) !== parentOf(oldUri)) {
      throw vscode.FileSystemError.NoPermissions(oldUri);
    }
    const renameItem = collection.rename.bind(collection);
    await translate(oldUri, async () => renameItem(await this.itemTarget(oldUri, path, collection), newUri));
  }

  /** Tells VS Code a file changed; events within a few milliseconds go out together. */
  fire(events: vscode.FileChangeEvent[]): void {
    this.pending.push(...events);
    if (this.flushTimer === undefined) {
      this.flushTimer = setTimeout(() => {
        this.flushTimer = undefined;
        const batch = this.pending.splice(0);
        this.changed.fire(batch);
      }, 5);
    }
  }

  private pending: vscode.FileChangeEvent[] = [];
  private flushTimer: NodeJS.Timeout | undefined;

  private registerEntry<T>(name: string, entries: Map<string, T>, entry: T, subscription: vscode.Disposable | undefined): vscode.Disposable {
    if (name.includes('/') || this.projectDocuments.has(name) || this.collections.has(name)) {
      subscription?.dispose();
      throw new Error(`Cannot register "${name}" in project directories: the name is taken`);
    }
    entries.set(name, entry);
    return new vscode.Disposable(() => {
      subscription?.dispose();
      if (entries.get(name) === entry) {
        entries.delete(name);
      }
    });
  }

  private parse(uri: vscode.Uri): DocumentPath {
    const path = uri.scheme === this.scheme ? parseDocumentPath(uri.authority, uri.path) : undefined;
    if (!path) {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    return path;
  }

  private async session(_uri: vscode.Uri, connectionId: string): Promise<ConnectionSession> {
    const session = await this.connections.session(connectionId);
    if (!session) {
      throw vscode.FileSystemError.Unavailable(
        vscode.l10n.t('Not signed in to this PostHog connection ({0}). Sign in, then open the file again.', connectionId),
      );
    }
    return session;
  }

  private async projectDocument(
    uri: vscode.Uri,
    path: Extract<DocumentPath, { kind: 'projectDocument' }>,
  ): Promise<{ handler: ProjectDocumentHandler; target: ProjectDocumentTarget }> {
    const handler = this.projectDocuments.get(path.name);
    if (!handler) {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    const session = await this.session(uri, path.connectionId);
    return { handler, target: { uri, connectionId: path.connectionId, projectId: path.projectId, name: path.name, session } };
  }

  private collection(uri: vscode.Uri, folder: string): ProjectCollection {
    const collection = this.collections.get(folder);
    if (!collection) {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    return collection;
  }

  private async itemTarget(uri: vscode.Uri, path: ItemPath, collection: ProjectCollection): Promise<CollectionItemTarget> {
    const itemId = collection.itemIdOf(path.fileName);
    if (!itemId) {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    const session = await this.session(uri, path.connectionId);
    return { uri, connectionId: path.connectionId, projectId: path.projectId, itemId, session };
  }
}

/** Maps client errors to FileSystemErrors VS Code understands; other errors pass through as they are. */
async function translate<T>(uri: vscode.Uri, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toFileSystemError(uri, error);
  }
}

export function toFileSystemError(uri: vscode.Uri, error: unknown): unknown {
  if (error instanceof vscode.FileSystemError || !(error instanceof PostHogError)) {
    return error;
  }
  if (error instanceof NotFoundError) {
    return vscode.FileSystemError.FileNotFound(uri);
  }
  if (error instanceof PermissionDeniedError || error instanceof MissingScopeError || error instanceof AuthenticationError) {
    return vscode.FileSystemError.NoPermissions(error.userMessage);
  }
  return vscode.FileSystemError.Unavailable(error.userMessage);
}
