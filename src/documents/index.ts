import * as vscode from 'vscode';
import type { PostHogFileSystem } from './fileSystem';

export type { ProjectDocumentHandler, ProjectDocumentTarget } from './documentHandler';
export { type NotebookFiles, type NotebookTarget, POSTHOG_SCHEME, PostHogFileSystem } from './fileSystem';
export { notebookFileName, notebookPath, parseDocumentPath, projectDocumentPath, titleFromFileName } from './paths';

export interface DocumentsServices {
  readonly documents: PostHogFileSystem;
}

/** The `posthog` file system, under its scheme; features plug their collections and documents into it. */
export function registerDocuments(services: DocumentsServices): vscode.Disposable {
  return vscode.workspace.registerFileSystemProvider(services.documents.scheme, services.documents, { isCaseSensitive: true });
}
