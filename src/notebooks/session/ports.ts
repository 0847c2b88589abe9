import type { NotebooksApi } from '../../api';
import type { BaseSnapshot } from '../saving/markdownSavePlan';

/**
 * What a notebook session needs from outside: PostHog's notebook calls, the editors that show the notebook,
 * a place to keep bases over a window reload, and a log. The extension passes VS Code's (notebookEditors.ts,
 * the connection's client, BaseArchive, the output channel); unit tests pass their own.
 */

/** A notebook, by where it lives. */
export interface NotebookRef {
  readonly connectionId: string;
  readonly projectId: number;
  readonly shortId: string;
}

/** PostHog's notebook calls a session makes (the connection's client.notebooks): reads, PATCH, and the collaboration endpoints. */
export type NotebookCalls = Pick<NotebooksApi, 'get' | 'update' | 'collab'>;

/**
 * The open editors of one notebook (either file, under any of its names), by URI string: what they show,
 * and the one change a session makes to their text.
 */
export interface EditorFacts {
  openUris(): readonly string[];
  isOpen(uri: string): boolean;
  isDirty(uri: string): boolean;
  /** The editor's whole text; undefined when no editor has the URI open. */
  textOf(uri: string): string | undefined;
  /**
   * Turns the editor's text into `text` (it stays unsaved) with the smallest edits, so the cursor, selections
   * and undo stay; only if it still is `expected` (VS Code refuses the edit if the user typed meanwhile).
   * Resolves whether the text was changed.
   */
  replaceText(uri: string, expected: string, text: string): Promise<boolean>;
  /** Whether a save of the editor writes its text as it is (no formatter or other save participant changes it). */
  savesAsIs(uri: string): boolean;
  /** Saves the editor (VS Code's save: the file system's write, then the editor is clean). Resolves whether saved. */
  save(uri: string): Promise<boolean>;
}

/** Where bases of editors with unsaved changes are kept over a window reload (BaseArchive). */
export interface BaseStore {
  save(key: string, base: BaseSnapshot): Promise<void>;
  load(key: string): Promise<BaseSnapshot | undefined>;
  remove(key: string): Promise<void>;
}

export interface SessionLog {
  info(message: string): void;
  warn(message: string): void;
}
