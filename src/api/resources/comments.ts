import type { CallOptions } from '../http';
import { collectAll, type ListAllCall, type PageSource, nextPageRequest } from '../paging';
import { type Comment, CommentPageSchema } from '../schemas';
import { type ResourceContext, segment } from './context';

/** Which comments: an item's (its threads and their replies), e.g. `{ scope: 'Notebook', item_id: shortId }`. */
export interface CommentFilters {
  scope: string;
  item_id: string;
}

/**
 * Comments of a project (/api/projects/{project}/comments/, scope `comment:read`). PostHog pages them newest
 * first with a cursor, 100 a page, without a count: the pages are read by following `next`.
 */
export class CommentsApi {
  constructor(private readonly context: ResourceContext) {}

  /** Every comment of the item that is not deleted, threads' first comments and replies alike. */
  listAll(projectId: number | string, filters: CommentFilters, call?: ListAllCall & CallOptions): Promise<Comment[]> {
    return collectAll(this.source(projectId, filters), {}, call);
  }

  private source(projectId: number | string, filters: CommentFilters): PageSource<Comment> {
    const path = `/api/projects/${segment(projectId)}/comments/`;
    const { transport, baseUrl } = this.context;
    return {
      endpoint: `GET ${path}`,
      // A cursor list takes no limit or offset: the first page is the list itself.
      byOffset: (_offset, _limit, signal) => transport.json({ method: 'GET', path, query: { ...filters } }, CommentPageSchema, { signal }),
      byNextUrl: (next, signal) => transport.json(nextPageRequest(next, baseUrl, `GET ${path}`), CommentPageSchema, { signal }),
    };
  }
}
