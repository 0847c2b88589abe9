/**
 * Paths of the `posthog` file system. Knows nothing of VS Code: a URI is handled as its authority
 * (the connection id) and its path.
 *
 *   posthog://<connectionId>/                                   directory: the connection's projects
 *   posthog://<connectionId>/<projectId>/                       directory: notebooks/ + project documents
 *   posthog://<connectionId>/<projectId>/<name>                 a project document (e.g. project.json), served
 *                                                               by the handler registered for <name>
 *   posthog://<connectionId>/<projectId>/notebooks/             directory: the project's notebooks
 *   posthog://<connectionId>/<projectId>/notebooks/<Title> (<shortId>).json
 *                                                               one notebook, found by <shortId>; the title
 *                                                               part is cosmetic (tabs read well) and may be
 *                                                               stale or absent (`<shortId>.json` works too)
 */
export const NOTEBOOKS_DIRECTORY = 'notebooks';

export type DocumentPath =
  | { readonly kind: 'connection'; readonly connectionId: string }
  | { readonly kind: 'project'; readonly connectionId: string; readonly projectId: number }
  | { readonly kind: 'projectDocument'; readonly connectionId: string; readonly projectId: number; readonly name: string }
  | { readonly kind: 'notebooks'; readonly connectionId: string; readonly projectId: number }
  | { readonly kind: 'notebook'; readonly connectionId: string; readonly projectId: number; readonly shortId: string };

const SHORT_ID = '[A-Za-z0-9_-]+';
const NOTEBOOK_FILE = new RegExp(`^(?:.*\\()?(${SHORT_ID})\\)?\\.json$`);

/** Reads a URI's authority and path; undefined for paths outside the layout above. */
export function parseDocumentPath(authority: string, path: string): DocumentPath | undefined {
  const connectionId = authority;
  if (!connectionId) {
    return undefined;
  }
  const parts = path.split('/').filter((part) => part.length > 0);
  if (parts.length === 0) {
    return { kind: 'connection', connectionId };
  }
  const projectId = Number(parts[0]);
  if (!/^\d+$/.test(parts[0]!) || !Number.isSafeInteger(projectId)) {
    return undefined;
  }
  if (parts.length === 1) {
    return { kind: 'project', connectionId, projectId };
  }
  if (parts.length === 2) {
    return parts[1] === NOTEBOOKS_DIRECTORY
      ? { kind: 'notebooks', connectionId, projectId }
      : { kind: 'projectDocument', connectionId, projectId, name: parts[1]! };
  }
  if (parts.length === 3 && parts[1] === NOTEBOOKS_DIRECTORY) {
    const shortId = notebookShortIdOf(parts[2]!);
    return shortId ? { kind: 'notebook', connectionId, projectId, shortId } : undefined;
  }
  return undefined;
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

export function connectionPath(): string {
  return '/';
}

export function projectPath(projectId: number): string {
  return `/${projectId}/`;
}

export function projectDocumentPath(projectId: number, name: string): string {
  return `/${projectId}/${name}`;
}

export function notebooksPath(projectId: number): string {
  return `/${projectId}/${NOTEBOOKS_DIRECTORY}/`;
}

export function notebookPath(projectId: number, shortId: string, title: string | null | undefined): string {
  return `/${projectId}/${NOTEBOOKS_DIRECTORY}/${notebookFileName(title, shortId)}`;
}
