import type { NotebookListFilters, NotebookListItem, NotebooksApi } from '../../api';
import { AsyncCache } from '../../common/cache';

/** The part of a connection's client the lists use (its object also keys the cache: a new client starts afresh). */
export interface NotebookListClient {
  readonly notebooks: Pick<NotebooksApi, 'listAll'>;
}

/**
 * Each project's notebook lists (the explorer's Notebooks item, Open Notebook's search, the filter's
 * creators, the `notebooks` folder of the file system), fetched on demand per connection's client and
 * cached until refreshed. Knows nothing of VS Code.
 */
export class NotebookLists {
  private readonly caches = new WeakMap<NotebookListClient, AsyncCache<NotebookListItem[]>>();

  /** A project's notebooks, all pages, for the list's query (spec 4.2); none means every notebook. */
  list(client: NotebookListClient, projectId: number, query: NotebookListFilters = {}, signal?: AbortSignal): Promise<NotebookListItem[]> {
    let cache = this.caches.get(client);
    if (!cache) {
      cache = new AsyncCache();
      this.caches.set(client, cache);
    }
    return cache.get(`${projectId}?${JSON.stringify(query)}`, (loading) => client.notebooks.listAll(projectId, query, { signal: loading }), signal);
  }

  /** Forgets the lists of one project of the client's connection (every query of it), or all its lists. */
  forget(client: NotebookListClient, projectId?: number): void {
    this.caches.get(client)?.invalidate(projectId === undefined ? '' : `${projectId}?`);
  }
}
