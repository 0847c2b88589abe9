import * as vscode from 'vscode';
import { AuthenticationError, MissingScopeError, NotFoundError, PermissionDeniedError, PostHogError } from '../api';
import { Disposable } from '../workbench/disposable';
import type { ConnectionManager, ConnectionSession } from '../connections';
import type { ProjectDocumentHandler, ProjectDocumentTarget } from './documentHandler';
import { type DocumentPath, NOTEBOOKS_DIRECTORY, parseDocumentPath } from './paths';

export const POSTHOG_SCHEME = 'posthog';

/** A notebook the file system is asked about. */
export interface NotebookTarget {
  readonly uri: vscode.Uri;
  readonly connectionId: string;
  readonly projectId: number;
  readonly shortId: string;
  readonly session: ConnectionSession;
}

/** What the file system delegates to the notebooks feature (src/notebooks/notebookFiles.ts). */
export interface NotebookFiles {
  list(session: ConnectionSession, projectId: number): Promise<[string, vscode.FileType][]>;
  stat(target: NotebookTarget): Promise<vscode.FileStat>;
  read(target: NotebookTarget): Promise<Uint8Array>;
  write(target: NotebookTarget, content: Uint8Array, options: { create: boolean; overwrite: boolean }): Promise<void>;
  delete(target: NotebookTarget): Promise<void>;
  rename(target: NotebookTarget, newUri: vscode.Uri): Promise<void>;
  watch(target: NotebookTarget): vscode.Disposable;
  readonly onDidChange: vscode.Event<vscode.FileChangeEvent[]>;
}

const DIRECTORY_STAT: vscode.FileStat = { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };

/**
 * The `posthog` file system (layout in ./paths.ts). Directories are virtual and cost no request
 * except a connection's root, which lists its projects. Notebooks are served by NotebookFiles;
 * other files of a project's directory by the ProjectDocumentHandler registered for their name.
 */
export class PostHogFileSystem extends Disposable implements vscode.FileSystemProvider {
  private readonly changed = this._register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  readonly onDidChangeFile = this.changed.event;
  private readonly projectDocuments = new Map<string, ProjectDocumentHandler>();
  private notebooks: NotebookFiles | undefined;

  constructor(
    private readonly connections: Pick<ConnectionManager, 'session'>,
    readonly scheme: string = POSTHOG_SCHEME,
  ) {
    super();
  }

  /** Serves posthog://<connection>/<project>/<name> in every project's directory (e.g. "project.json"). */
  registerProjectDocument(name: string, handler: ProjectDocumentHandler): vscode.Disposable {
    if (name === NOTEBOOKS_DIRECTORY || name.includes('/') || this.projectDocuments.has(name)) {
      throw new Error(`Cannot register the project document "${name}"`);
    }
    this.projectDocuments.set(name, handler);
    const subscription = handler.onDidChange?.((uri) => this.fire([{ type: vscode.FileChangeType.Changed, uri }]));
    return new vscode.Disposable(() => {
      subscription?.dispose();
      if (this.projectDocuments.get(name) === handler) {
        this.projectDocuments.delete(name);
      }
    });
  }

  setNotebookFiles(notebooks: NotebookFiles): vscode.Disposable {
    this.notebooks = notebooks;
    const subscription = notebooks.onDidChange((events) => this.fire(events));
    return new vscode.Disposable(() => {
      subscription.dispose();
      if (this.notebooks === notebooks) {
        this.notebooks = undefined;
      }
    });
  }

  uri(path: string, connectionId: string): vscode.Uri {
    return vscode.Uri.from({ scheme: this.scheme, authority: connectionId, path });
  }

  watch(uri: vscode.Uri): vscode.Disposable {
    const path = this.parse(uri);
    if (path.kind !== 'notebook' || !this.notebooks) {
      return new vscode.Disposable(() => undefined);
    }
    const notebooks = this.notebooks;
    let watching: vscode.Disposable | undefined;
    let disposed = false;
    void this.session(uri, path.connectionId).then(
      (session) => {
        if (!disposed) {
          watching = notebooks.watch({ ...path, uri, session });
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
      case 'notebooks':
        return DIRECTORY_STAT;
      case 'projectDocument': {
        const { handler, target } = await this.projectDocument(uri, path);
        return translate(uri, () => handler.stat(target));
      }
      case 'notebook':
        return translate(uri, async () => this.notebookFiles(uri).stat(await this.notebookTarget(uri, path)));
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
          [NOTEBOOKS_DIRECTORY, vscode.FileType.Directory],
          ...[...this.projectDocuments.keys()].map((name): [string, vscode.FileType] => [name, vscode.FileType.File]),
        ];
      case 'notebooks': {
        const session = await this.session(uri, path.connectionId);
        return translate(uri, () => this.notebookFiles(uri).list(session, path.projectId));
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
    switch (path.kind) {
      case 'projectDocument': {
        const { handler, target } = await this.projectDocument(uri, path);
        return translate(uri, () => handler.read(target));
      }
      case 'notebook':
        return translate(uri, async () => this.notebookFiles(uri).read(await this.notebookTarget(uri, path)));
      default:
        throw vscode.FileSystemError.FileIsADirectory(uri);
    }
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array, options: { create: boolean; overwrite: boolean }): Promise<void> {
    const path = this.parse(uri);
    switch (path.kind) {
      case 'projectDocument': {
        const { handler, target } = await this.projectDocument(uri, path);
        return translate(uri, () => handler.write(target, content));
      }
      case 'notebook':
        return translate(uri, async () =>
          this.notebookFiles(uri).write(await this.notebookTarget(uri, path), content, options),
        );
      case 'notebooks':
      case 'project':
      case 'connection':
        throw vscode.FileSystemError.FileIsADirectory(uri);
    }
  }

  async delete(uri: vscode.Uri): Promise<void> {
    const path = this.parse(uri);
    if (path.kind !== 'notebook') {
      throw vscode.FileSystemError.NoPermissions(uri);
    }
    await translate(uri, async () => this.notebookFiles(uri).delete(await this.notebookTarget(uri, path)));
  }

  async rename(oldUri: vscode.Uri, newUri: vscode.Uri): Promise<void> {
    const path = this.parse(oldUri);
    const parentOf = (uri: vscode.Uri) => uri.path.slice(0, uri.path.lastIndexOf('/'));
    if (path.kind !== 'notebook' || newUri.authority !== oldUri.authority || parentOf(newUri) !== parentOf(oldUri)) {
      throw vscode.FileSystemError.NoPermissions(oldUri);
    }
    await translate(oldUri, async () => this.notebookFiles(oldUri).rename(await this.notebookTarget(oldUri, path), newUri));
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

  private async notebookTarget(uri: vscode.Uri, path: Extract<DocumentPath, { kind: 'notebook' }>): Promise<NotebookTarget> {
    const session = await this.session(uri, path.connectionId);
    return { uri, connectionId: path.connectionId, projectId: path.projectId, shortId: path.shortId, session };
  }

  private notebookFiles(uri: vscode.Uri): NotebookFiles {
    if (!this.notebooks) {
      throw vscode.FileSystemError.Unavailable(uri);
    }
    return this.notebooks;
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
