/** The key of a project of a connection, for maps and stored state: `<connectionId>/<projectId>`. */
export function projectKey(connectionId: string, projectId: number): string {
  return `${connectionId}/${projectId}`;
}

/** The key of one item of a project (e.g. a notebook by short id): `<connectionId>/<projectId>/<itemId>`. */
export function projectItemKey(connectionId: string, projectId: number, itemId: string): string {
  return `${projectKey(connectionId, projectId)}/${itemId}`;
}
