/**
 * Paths of the `posthog` file system. Knows nothing of VS Code: a URI is handled as its authority
 * (the connection id) and its path.
 *
 *   posthog://<connectionId>/                          directory: the connection's projects
 *   posthog://<connectionId>/<projectId>/              directory: the collections and documents features registered
 *   posthog://<connectionId>/<projectId>/<name>        a project document (e.g. project.posthog.json), or a
 *                                                      collection's directory (e.g. notebooks/)
 *   posthog://<connectionId>/<projectId>/<folder>/<file>
 *                                                      an item of a collection; the collection reads its id from
 *                                                      the file name (e.g. src/notebooks/model/notebookPaths.ts)
 */
export type DocumentPath =
  | { readonly kind: 'connection'; readonly connectionId: string }
  | { readonly kind: 'project'; readonly connectionId: string; readonly projectId: number }
  | { readonly kind: 'projectDocument'; readonly connectionId: string; readonly projectId: number; readonly name: string }
  | {
      readonly kind: 'collectionItem';
      readonly connectionId: string;
      readonly projectId: number;
      readonly folder: string;
      readonly fileName: string;
    };

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
    return { kind: 'projectDocument', connectionId, projectId, name: parts[1]! };
  }
  if (parts.length === 3) {
    return { kind: 'collectionItem', connectionId, projectId, folder: parts[1]!, fileName: parts[2]! };
  }
  return undefined;
}

export function projectDocumentPath(projectId: number, name: string): string {
  return `/${projectId}/${name}`;
}

export function collectionItemPath(projectId: number, folder: string, fileName: string): string {
  return `/${projectId}/${folder}/${fileName}`;
}
