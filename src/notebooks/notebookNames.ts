import type { Notebook } from '../api';
import { bareNotebookFileName, NOTEBOOK_FORMS, notebookFileName } from './notebookPaths';

/** Names are for display: a notebook is found by the short id in its file name (see ./notebookPaths.ts). */

type Named = Pick<Notebook, 'short_id' | 'title'>;

/** Whether `fileName` is one of the notebook's files under its current title, or a bare `<shortId>.md` / `.json`. */
export function isCurrentName(fileName: string, notebook: Named): boolean {
  return NOTEBOOK_FORMS.some(
    (form) => fileName === notebookFileName(notebook.title, notebook.short_id, form) || fileName === bareNotebookFileName(notebook.short_id, form),
  );
}
