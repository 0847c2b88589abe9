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
