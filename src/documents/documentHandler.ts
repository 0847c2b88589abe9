import type * as vscode from 'vscode';
import type { ConnectionSession } from '../connections';

/** The document a handler is asked about: which connection, which project, and the session to reach it. */
export interface ProjectDocumentTarget {
  readonly uri: vscode.Uri;
  readonly connectionId: string;
  readonly projectId: number;
  /** The file name the handler is registered for, e.g. "project.json". */
  readonly name: string;
  readonly session: ConnectionSession;
}

/**
 * Serves one file that sits in every project's directory of the `posthog` file system:
 * posthog://<connectionId>/<projectId>/<name>. Registered with PostHogFileSystem.registerProjectDocument.
 *
 * Errors: throw vscode.FileSystemError (FileNotFound, NoPermissions, Unavailable) for file-level problems;
 * any Error thrown from write() makes VS Code show "Failed to save" with its message and keep the editor
 * dirty, so a refused save should throw an Error whose message says what is wrong and where.
 */
export interface ProjectDocumentHandler {
  stat(target: ProjectDocumentTarget): Promise<vscode.FileStat>;
  read(target: ProjectDocumentTarget): Promise<Uint8Array>;
  write(target: ProjectDocumentTarget, content: Uint8Array): Promise<void>;
  /** Fire with the document's URI when it changed, so that clean editors reload (stat must then report a newer mtime). */
  readonly onDidChange?: vscode.Event<vscode.Uri>;
}

/** A project's folder of a collection: posthog://<connectionId>/<projectId>/<folder>/. */
export interface CollectionTarget {
  readonly uri: vscode.Uri;
  readonly connectionId: string;
  readonly projectId: number;
  readonly session: ConnectionSession;
}

/** One item of a collection, by the id the collection read from its file name. */
export interface CollectionItemTarget extends CollectionTarget {
  readonly itemId: string;
}

/**
 * Serves a folder in every project's directory and the items in it, e.g. notebooks/ (src/notebooks).
 * Registered with PostHogFileSystem.registerCollection. Errors as for ProjectDocumentHandler; a collection
 * that cannot delete or rename leaves those out, and the file system refuses them.
 */
export interface ProjectCollection {
  /** The item a file name names, or undefined when the name names none (the file does not exist). */
  itemIdOf(fileName: string): string | undefined;
  list(target: CollectionTarget): Promise<[string, vscode.FileType][]>;
  stat(target: CollectionItemTarget): Promise<vscode.FileStat>;
  read(target: CollectionItemTarget): Promise<Uint8Array>;
  write(target: CollectionItemTarget, content: Uint8Array, options: { create: boolean; overwrite: boolean }): Promise<void>;
  delete?(target: CollectionItemTarget): Promise<void>;
  rename?(target: CollectionItemTarget, newUri: vscode.Uri): Promise<void>;
  /** An editor shows the item: keep it current (e.g. by polling) until disposed. */
  watch?(target: CollectionItemTarget): vscode.Disposable;
  readonly onDidChange?: vscode.Event<vscode.FileChangeEvent[]>;
}
