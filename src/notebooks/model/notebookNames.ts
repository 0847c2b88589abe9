import type { Notebook } from '../../api';
import {
  bareNotebookFileName,
  NOTEBOOK_FORMS,
  type NotebookForm,
  notebookFileName,
  notebookFormOf,
  notebookShortIdOf,
  titleFromFileName,
} from './notebookPaths';

/**
 * Names are for display: a notebook is found by the short id in its file name, and its title travels as a
 * title. These decide what a file name may do to a notebook (see ./notebookPaths.ts for the names).
 */

type Named = Pick<Notebook, 'short_id' | 'title'>;

/** Whether `fileName` is one of the notebook's files under its current title, or a bare `<shortId>.md` / `.json`. */
export function isCurrentName(fileName: string, notebook: Named): boolean {
  return NOTEBOOK_FORMS.some(
    (form) => fileName === notebookFileName(notebook.title, notebook.short_id, form) || fileName === bareNotebookFileName(notebook.short_id, form),
  );
}

/** Why a rename is refused: the new name names another notebook (or none), or another file. */
export type RenameRefusal = 'otherNotebook' | 'otherForm' | 'noTitle';

export type RenamePlan =
  | { readonly kind: 'refuse'; readonly reason: RenameRefusal }
  /** The name the notebook's title already gives: the file moves, PostHog is not asked anything. */
  | { readonly kind: 'move' }
  /** PostHog's title becomes `title`. */
  | { readonly kind: 'retitle'; readonly title: string };

/**
 * What renaming the notebook's `form` file to `newName` does. The title the user typed (Rename Notebook…,
 * `requestedTitle`) is sent as typed, and a name the notebook's title already gives changes nothing, since
 * file names replace some characters and cut long titles; only a name typed in the file explorer says the
 * title itself, read back from it. A name without this notebook's short id (another notebook's, or a word
 * read as one) is refused.
 */
export function planRename(notebook: Named, form: NotebookForm, newName: string, requestedTitle?: string): RenamePlan {
  if (notebookShortIdOf(newName) !== notebook.short_id) {
    return { kind: 'refuse', reason: 'otherNotebook' };
  }
  if (notebookFormOf(newName) !== form) {
    return { kind: 'refuse', reason: 'otherForm' };
  }
  const current = notebook.title ?? '';
  if (requestedTitle !== undefined) {
    return requestedTitle === current ? { kind: 'move' } : { kind: 'retitle', title: requestedTitle };
  }
  if (newName === notebookFileName(notebook.title, notebook.short_id, form)) {
    return { kind: 'move' };
  }
  const title = titleFromFileName(newName, notebook.short_id);
  if (title === undefined) {
    return { kind: 'refuse', reason: 'noTitle' };
  }
  return title === current ? { kind: 'move' } : { kind: 'retitle', title };
}
