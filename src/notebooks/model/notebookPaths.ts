import { collectionItemPath, type DocumentPath, parseDocumentPath } from '../../common/documentPaths';
import { capLength, oneSafeLine } from '../../common/text';

/**
 * Notebooks in the `posthog` file system:
 *
 *   posthog://<connectionId>/<projectId>/notebooks/             directory: the project's notebooks
 *   posthog://<connectionId>/<projectId>/notebooks/<Title> (<shortId>).md
 *                                                               one notebook as Markdown, found by <shortId>;
 *                                                               the title part is cosmetic (tabs read well)
 *                                                               and may be stale or absent (`<shortId>.md`)
 *   posthog://<connectionId>/<projectId>/notebooks/<Title> (<shortId>).json
 *                                                               the same notebook as its JSON document
 */
export const NOTEBOOKS_FOLDER = 'notebooks';

/** The two files of a notebook: its Markdown, and its JSON document (ProseMirror content). */
export type NotebookForm = 'markdown' | 'json';
export const NOTEBOOK_FORMS: readonly NotebookForm[] = ['markdown', 'json'];
const EXTENSIONS: Record<NotebookForm, string> = { markdown: '.md', json: '.json' };

export type NotebookPath =
  | Exclude<DocumentPath, { kind: 'collectionItem' }>
  | { readonly kind: 'notebooks'; readonly connectionId: string; readonly projectId: number }
  | {
      readonly kind: 'notebook';
      readonly connectionId: string;
      readonly projectId: number;
      readonly shortId: string;
      readonly form: NotebookForm;
    };

const SHORT_ID = '[A-Za-z0-9_-]+';
const BRACKETED = new RegExp(`\\((${SHORT_ID})\\)\\.(?:json|md)$`);
const BARE = new RegExp(`^(${SHORT_ID})\\.(?:json|md)$`);

/** A path of the file system as the notebooks see it: their folder and files by short id, other paths as they are. */
export function parseNotebookPath(authority: string, path: string): NotebookPath | undefined {
  const parsed = parseDocumentPath(authority, path);
  if (parsed?.kind === 'projectDocument' && parsed.name === NOTEBOOKS_FOLDER) {
    return { kind: 'notebooks', connectionId: parsed.connectionId, projectId: parsed.projectId };
  }
  if (parsed?.kind === 'collectionItem') {
    const shortId = parsed.folder === NOTEBOOKS_FOLDER ? notebookShortIdOf(parsed.fileName) : undefined;
    const form = notebookFormOf(parsed.fileName);
    return shortId && form
      ? { kind: 'notebook', connectionId: parsed.connectionId, projectId: parsed.projectId, shortId, form }
      : undefined;
  }
  return parsed;
}

/** The short id in a notebook file name: `Title (abc123XY).md`, `abc123XY.md`, or the same with `.json`. */
export function notebookShortIdOf(fileName: string): string | undefined {
  return BRACKETED.exec(fileName)?.[1] ?? BARE.exec(fileName)?.[1];
}

/** Which file of the notebook a name is, by its extension. */
export function notebookFormOf(fileName: string): NotebookForm | undefined {
  return NOTEBOOK_FORMS.find((form) => fileName.endsWith(EXTENSIONS[form]));
}

/** `Title (shortId).md` (or `.json`), with characters that file names or tabs handle badly replaced. */
export function notebookFileName(title: string | null | undefined, shortId: string, form: NotebookForm): string {
  return `${fileNameTitle(title)} (${shortId})${EXTENSIONS[form]}`;
}

/** `shortId.md` (or `.json`): always the notebook, whatever its title. */
export function bareNotebookFileName(shortId: string, form: NotebookForm): string {
  return `${shortId}${EXTENSIONS[form]}`;
}

const MAX_TITLE_LENGTH = 80;

/** The title as a file name shows it: one safe line (no line breaks, controls or bidi controls), path characters as "-". */
export function fileNameTitle(title: string | null | undefined): string {
  const cleaned = oneSafeLine(title ?? '', Number.MAX_SAFE_INTEGER)
    .replace(/[\uFFFD/\\:*?"<>|]+/g, '-')
    .trim();
  return capLength(cleaned, MAX_TITLE_LENGTH) || 'Untitled';
}

/** The title a file name gives: without ` (shortId).md` / `.md` (or `.json`); undefined for a bare `shortId.md`. */
export function titleFromFileName(fileName: string, shortId: string): string | undefined {
  const form = notebookFormOf(fileName);
  const extension = form ? EXTENSIONS[form] : '';
  const suffix = ` (${shortId})${extension}`;
  if (fileName.endsWith(suffix)) {
    return fileName.slice(0, -suffix.length).trim();
  }
  if (fileName === bareNotebookFileName(shortId, form ?? 'json')) {
    return undefined;
  }
  return fileName.slice(0, fileName.length - extension.length).trim();
}

export function notebookPath(projectId: number, shortId: string, title: string | null | undefined, form: NotebookForm): string {
  return collectionItemPath(projectId, NOTEBOOKS_FOLDER, notebookFileName(title, shortId, form));
}
