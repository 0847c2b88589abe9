import { PostHogError } from '../errors';
import type { CallOptions } from '../http';
import { collectAll, DEFAULT_PAGE_SIZE, iteratePages, ListAllCall } from '../paging';
import {
  activityOr,
  ActivityPage,
  Notebook,
  NotebookListItem,
  NotebookListItemSchema,
  NotebookMarkdownSchema,
  NotebookSchema,
  NotebookWritable,
  paginated,
  Paginated,
} from '../schemas';
import { isUuid } from '../uuid';
import { NotebookCollabApi } from './collab';
import { listSource, ResourceContext, segment, splitPaging } from './context';
import { lacksMarkdown, withMarkdown } from './notebookMarkdown';
import type { ActivityPaging } from './projects';

const NotebookPageSchema = paginated(NotebookListItemSchema);

/** Answer of a conditional notebook GET when the notebook still has the version the caller holds. */
export const NOT_MODIFIED: unique symbol = Symbol('NOT_MODIFIED');
export type NotModified = typeof NOT_MODIFIED;

/** Query parameters of the notebook list (spec 4.2). */
export interface NotebookListFilters {
  /** Pairs `target:match` separated by commas or spaces, e.g. "recording:true,insight:abc". */
  contains?: string;
  /**
   * The creator's UUID (the user object's `uuid`, never its integer `id`: PostHog filters on the UUID and
   * answers anything else with a 500). A value that is not a UUID is refused before anything is sent.
   */
  created_by?: string;
  /** Only notebooks modified after this date-time. */
  date_from?: string;
  /** Only notebooks modified before this date-time. */
  date_to?: string;
  limit?: number;
  offset?: number;
  /** Any value: only notebooks created by the key's user. */
  user?: string | true;
  /**
   * Words to find in titles and text. Not in the spec, but PostHog's notebook list filters on it
   * (the notebooks page's search box uses it).
   */
  search?: string;
}

export interface NotebookGetOptions {
  /** Sends If-None-Match: <version>; an unchanged notebook then answers NOT_MODIFIED. */
  ifNoneMatchVersion?: number;
}

/** Notebooks of a project (/api/projects/{project}/notebooks/). The API is early access. */
export class NotebooksApi {
  /** The collaboration endpoints (collab/stream, collab/markdown_save, collab/presence). */
  readonly collab: NotebookCollabApi;

  constructor(private readonly context: ResourceContext) {
    this.collab = new NotebookCollabApi(context);
  }

  list(projectId: number | string, filters?: NotebookListFilters, call?: CallOptions): Promise<Paginated<NotebookListItem>> {
    const { paging, rest } = splitPaging(filters);
    return this.source(projectId, rest).byOffset(paging.offset ?? 0, paging.limit ?? DEFAULT_PAGE_SIZE, call?.signal);
  }

  listAll(projectId: number | string, filters?: NotebookListFilters, call?: ListAllCall): Promise<NotebookListItem[]> {
    const { paging, rest } = splitPaging(filters);
    return collectAll(this.source(projectId, rest), { ...paging, concurrency: this.context.pageConcurrency }, call);
  }

  pages(
    projectId: number | string,
    filters?: NotebookListFilters,
    call?: CallOptions,
  ): AsyncGenerator<Paginated<NotebookListItem>, void, undefined> {
    const { paging, rest } = splitPaging(filters);
    return iteratePages(this.source(projectId, rest), paging, call?.signal);
  }

  async create(projectId: number | string, body: NotebookWritable, call?: CallOptions): Promise<Notebook> {
    const created = await this.context.transport.json({ method: 'POST', path: this.collectionPath(projectId), body }, NotebookSchema, call);
    return this.completed(projectId, created, call);
  }

  get(projectId: number | string, shortId: string, options: { ifNoneMatchVersion: number }, call?: CallOptions): Promise<Notebook | NotModified>;
  get(projectId: number | string, shortId: string, options?: NotebookGetOptions, call?: CallOptions): Promise<Notebook>;
  async get(projectId: number | string, shortId: string, options?: NotebookGetOptions, call?: CallOptions): Promise<Notebook | NotModified> {
    const version = options?.ifNoneMatchVersion;
    const spec = {
      method: 'GET' as const,
      path: this.itemPath(projectId, shortId),
      headers: version === undefined ? undefined : { 'if-none-match': String(version) },
    };
    if (version === undefined) {
      return this.context.transport.json(spec, NotebookSchema, call).then((notebook) => this.completed(projectId, notebook, call));
    }
    const answer = await this.context.transport.send(spec, call, async (response) => {
      if (response.status === 304) {
        await response.body.dump();
        return NOT_MODIFIED;
      }
      return this.context.transport.parseJsonBody(response, NotebookSchema);
    });
    return answer === NOT_MODIFIED ? answer : this.completed(projectId, answer, call);
  }

  /**
   * The notebook as Markdown (GET .../markdown/): a Markdown notebook's own Markdown, or a legacy notebook
   * converted by PostHog; null when PostHog has none.
   */
  async markdown(projectId: number | string, shortId: string, call?: CallOptions): Promise<string | null> {
    const answer = await this.context.transport.json({ method: 'GET', path: `${this.itemPath(projectId, shortId)}markdown/` }, NotebookMarkdownSchema, call);
    return answer.markdown;
  }

  /** A PATCH carrying `content` must carry the current `version`, else ConflictError (409). */
  async update(projectId: number | string, shortId: string, body: NotebookWritable, call?: CallOptions): Promise<Notebook> {
    const updated = await this.context.transport.json({ method: 'PATCH', path: this.itemPath(projectId, shortId), body }, NotebookSchema, call);
    return this.completed(projectId, updated, call);
  }

  /**
   * The spec's DELETE. PostHog forbids hard deletes and answers 405, surfaced as MethodNotAllowedError;
   * use softDelete() to move a notebook to the trash.
   */
  delete(projectId: number | string, shortId: string, call?: CallOptions): Promise<void> {
    return this.context.transport.noContent({ method: 'DELETE', path: this.itemPath(projectId, shortId) }, call);
  }

  /** PATCH {deleted: true}: the notebook leaves the list and answers 404, but can be restored. */
  softDelete(projectId: number | string, shortId: string, call?: CallOptions): Promise<Notebook> {
    return this.update(projectId, shortId, { deleted: true }, call);
  }

  /** PATCH {deleted: false}. */
  restore(projectId: number | string, shortId: string, call?: CallOptions): Promise<Notebook> {
    return this.update(projectId, shortId, { deleted: false }, call);
  }

  activity(projectId: number | string, shortId: string, paging?: ActivityPaging, call?: CallOptions): Promise<ActivityPage | Notebook> {
    return this.context.transport.jsonOneOf(
      { method: 'GET', path: `${this.itemPath(projectId, shortId)}activity/`, query: { ...paging } },
      activityOr(NotebookSchema),
      call,
    );
  }

  /** Activity of all notebooks of the project; PostHog refuses personal API keys here. */
  projectActivity(projectId: number | string, paging?: ActivityPaging, call?: CallOptions): Promise<ActivityPage | Notebook> {
    return this.context.transport.jsonOneOf(
      { method: 'GET', path: `${this.collectionPath(projectId)}activity/`, query: { ...paging } },
      activityOr(NotebookSchema),
      call,
    );
  }

  /** A Markdown notebook whose answer left its Markdown out gets it from GET .../markdown/ (one more request). */
  private async completed(projectId: number | string, notebook: Notebook, call?: CallOptions): Promise<Notebook> {
    if (notebook.deleted || !lacksMarkdown(notebook)) {
      return notebook; // a deleted notebook's /markdown/ answers 404
    }
    const markdown = await this.markdown(projectId, notebook.short_id, call);
    return markdown === null ? notebook : withMarkdown(notebook, markdown);
  }

  private collectionPath(projectId: number | string): string {
    return `/api/projects/${segment(projectId)}/notebooks/`;
  }

  private itemPath(projectId: number | string, shortId: string): string {
    return `${this.collectionPath(projectId)}${segment(shortId)}/`;
  }

  private source(projectId: number | string, filters: Omit<NotebookListFilters, 'limit' | 'offset'>) {
    if (filters.created_by !== undefined && !isUuid(filters.created_by)) {
      const message = `The notebook filter created_by must be a user's UUID, not "${filters.created_by}".`;
      const refuse = () => Promise.reject(new PostHogError(message, message, { endpoint: `GET ${this.collectionPath(projectId)}`, attr: 'created_by' }));
      return { byOffset: refuse, byNextUrl: refuse };
    }
    return listSource(this.context, this.collectionPath(projectId), { ...filters }, NotebookPageSchema);
  }
}
