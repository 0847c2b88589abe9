import * as vscode from 'vscode';
import type { PostHogFileSystem } from './fileSystem';

export type {
  CollectionItemTarget,
  CollectionTarget,
  ProjectCollection,
  ProjectDocumentHandler,
  ProjectDocumentTarget,
} from './documentHandler';
export { ModificationClock, reloadAfterSave } from './documentClock';
export { POSTHOG_SCHEME, PostHogFileSystem } from './fileSystem';

export interface DocumentsServices {
  readonly documents: PostHogFileSystem;
}

/** The `posthog` file system, under its scheme; features plug their collections and documents into it. */
export function registerDocuments(services: DocumentsServices): vscode.Disposable {
  return vscode.workspace.registerFileSystemProvider(services.documents.scheme, services.documents, { isCaseSensitive: true });
}
