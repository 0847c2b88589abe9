import { collectionItemPath, type DocumentPath, parseDocumentPath } from '../common/documentPaths';

/**
 * Notebooks in the `posthog` file system:
 *
 *   posthog://<connectionId>/<projectId>/notebooks/             directory: the project's notebooks
 *   posthog://<connectionId>/<projectId>/notebooks/<Title> (<shortId>).json
 *                                                               one notebook, found by <shortId>; the title
 *                                                               part is cosmetic (tabs read well) and may be
 *                                                               stale or absent (`<shortId>.json` works too)
 */
export const NOTEBOOKS_FOLDER = 'notebooks';

export type NotebookPath =
  | Exclude<DocumentPath, { kind: 'collectionItem' }>
  | { readonly kind: 'notebooks'; readonly connectionId: string; readonly projectId: number }
  | { readonly kind: 'notebook'; readonly connectionId: string; readonly projectId: number; readonly shortId: string };

const SHORT_ID = '[A-Za-z0-9_-]+';
const NOTEBOOK_FILE = new RegExp(`^(?:.*\\()?(${SHORT_ID})\\)?\\.json$`);

/** A path of the file system as the notebooks see it: their folder and files by short id, other paths as they are. */
export function parseNotebookPath(authority: string, path: string): NotebookPath | undefined {
  const parsed = parseDocumentPath(authority, path);
  if (parsed?.kind === 'projectDocument' && parsed.name === NOTEBOOKS_FOLDER) {
    return { kind: 'notebooks', connectionId: parsed.connectionId, projectId: parsed.projectId };
  }
  if (parsed?.kind === 'collectionItem') {
    const shortId = parsed.folder === NOTEBOOKS_FOLDER ? notebookShortIdOf(parsed.fileName) : undefined;
    return shortId ? { kind: 'notebook', connectionId: parsed.connectionId, projectId: parsed.projectId, shortId } : undefined;
  }
  return parsed;
}

/** The short id in a notebook file name: `Title (abc123XY).json` or `abc123XY.json`. */
export function notebookShortIdOf(fileName: string): string | undefined {
  const bracketed = /\(([A-Za-z0-9_-]+)\)\.json$/.exec(fileName);
  if (bracketed) {
    return bracketed[1];
  }
  const bare = NOTEBOOK_FILE.exec(fileName);
  return bare && !fileName.includes('(') && !fileName.includes(' ') ? bare[1] : undefined;
}

/** `Title (shortId).json`, with characters that file names or tabs handle badly replaced. */
export function notebookFileName(title: string | null | undefined, shortId: string): string {
  return `${fileNameTitle(title)} (${shortId}).json`;
}

const MAX_TITLE_LENGTH = 80;

export function fileNameTitle(title: string | null | undefined): string {
  const cleaned = (title ?? '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
  const short = cleaned.length > MAX_TITLE_LENGTH ? `${cleaned.slice(0, MAX_TITLE_LENGTH - 1).trimEnd()}…` : cleaned;
  return short || 'Untitled';
}

/** The title a renamed file asks for: the file name without ` (shortId).json` / `.json`. */
export function titleFromFileName(fileName: string, shortId: string): string {
  const suffix = ` (${shortId}).json`;
  if (fileName.endsWith(suffix)) {
    return fileName.slice(0, -suffix.length).trim();
  }
  return fileName.replace(/\.json$/, '').trim();
}

export function notebookPath(projectId: number, shortId: string, title: string | null | undefined): string {
  return collectionItemPath(projectId, NOTEBOOKS_FOLDER, notebookFileName(title, shortId));
}
