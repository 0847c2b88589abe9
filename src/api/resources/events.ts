import type { CallOptions, SuccessResponse, Transport } from '../http';
import { iteratePages, nextPageRequest, PageSource } from '../paging';
import {
  Event,
  EventSchema,
  EventsPage,
  EventsPageSchema,
  EventValues,
  eventValuesOf,
  eventValuesSchemaFor,
} from '../schemas';
import { abortReason } from '../sleep';
import { ResourceContext, segment } from './context';

/** The most rows PostHog answers to one events request (larger limits are cut to it, CSV included). */
export const EVENTS_MAX_PAGE = 1_000;

/** Query parameters of the event list (spec 4.3). The endpoint group is deprecated. */
export interface EventFilters {
  /** Only events after this time (without it PostHog looks back 24 hours). */
  after?: string;
  /** Only events before this time. */
  before?: string;
  distinct_id?: string | number;
  /** Event name. */
  event?: string;
  limit?: number;
  offset?: number;
  person_id?: string | number;
  /** Property filters, sent JSON-serialised: a list of {key, value, operator?, type?} or an AND/OR group. */
  properties?: readonly unknown[] | Record<string, unknown>;
  /** Fill each event's `person` (PostHog leaves it null otherwise). */
  include_person?: boolean;
  /**
   * Listed in PostHog's API schema as experimental query-language expressions to return (a JSON array),
   * but current servers ignore it and answer the ordinary events. Use PostHog's Query endpoint instead.
   */
  select?: readonly string[];
  /** Like `select`: listed in the schema, ignored by current servers. */
  where?: readonly string[];
}

export type ExportFormat = 'csv' | 'json';

export interface EventValuesQuery {
  /** Property key (required by PostHog), or `custom_event` for the custom event names. */
  key: string;
  /** Substring the values must contain (ignored for custom_event). */
  value?: string;
  /**
   * The event whose property values are wanted. PostHog requires it with a personal API key (400
   * otherwise), also for custom_event, whose answer ignores it.
   */
  event_name?: string;
  format?: 'json';
}

/**
 * A streamed event export: iterate it (or pass it to stream.pipeline) to write the body to disk
 * without holding it in memory. Failures while streaming surface as PostHogErrors.
 */
export class EventExport implements AsyncIterable<Uint8Array> {
  private consumed = false;

  constructor(
    private readonly response: SuccessResponse,
    readonly contentType: string,
    private readonly toError: (caught: unknown) => unknown,
    private readonly signal?: AbortSignal,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array, void, undefined> {
    if (this.consumed) {
      throw new Error('An event export can be read only once.');
    }
    this.consumed = true;
    try {
      for await (const chunk of this.response.body) {
        yield chunk as Uint8Array;
      }
    } catch (caught) {
      throw this.signal?.aborted ? abortReason(this.signal) : this.toError(caught);
    } finally {
      this.response.body.destroy();
    }
  }

  /** Stops the download without reading the rest. */
  cancel(): void {
    this.consumed = true;
    this.response.body.destroy();
  }
}

/** Captured events of a project (/api/projects/{project}/events/). Deprecated by PostHog; read-only. */
export class EventsApi {
  constructor(private readonly context: ResourceContext) {}

  list(projectId: number | string, filters?: EventFilters & { format?: 'json' }, call?: CallOptions): Promise<EventsPage> {
    return this.transport.json({ method: 'GET', path: this.collectionPath(projectId), query: { ...filters } }, EventsPageSchema, call);
  }

  /** Pages newest first by following `next` (which moves `before` back); break out to stop. */
  pages(projectId: number | string, filters?: EventFilters, call?: CallOptions): AsyncGenerator<EventsPage, void, undefined> {
    const path = this.collectionPath(projectId);
    const { limit, offset, ...rest } = filters ?? {};
    const source: PageSource<Event> = {
      byOffset: (from, size, signal) =>
        this.transport.json({ method: 'GET', path, query: { ...rest, limit: size, offset: from || undefined } }, EventsPageSchema, { signal }),
      byNextUrl: (next, signal) => this.transport.json(nextPageRequest(next, this.context.baseUrl, `GET ${path}`), EventsPageSchema, { signal }),
    };
    return iteratePages(source, { limit, offset }, call?.signal);
  }

  get(projectId: number | string, id: string, options?: { format?: 'json'; include_person?: boolean }, call?: CallOptions): Promise<Event> {
    return this.transport.json(
      { method: 'GET', path: `${this.collectionPath(projectId)}${segment(id)}/`, query: { ...options } },
      EventSchema,
      call,
    );
  }

  /**
   * Suggestions for a property's values (or custom event names). PostHog answers {results, refreshing},
   * older servers a bare list, the spec one event (no suggestions): all three are accepted. PostHog
   * throttles this endpoint apart: 60 a minute and 300 an hour.
   */
  async values(projectId: number | string, query: EventValuesQuery, call?: CallOptions): Promise<EventValues> {
    const answer = await this.transport.jsonOneOf(
      { method: 'GET', path: `${this.collectionPath(projectId)}values/`, query: { ...query } },
      eventValuesSchemaFor,
      call,
    );
    return eventValuesOf(answer);
  }

  /**
   * Streams one events request in CSV or JSON as the server sends it: at most 1,000 rows (CSV defaults
   * to 1,000 and has no next link). More rows are read by following `pages`.
   */
  export(projectId: number | string, filters: EventFilters, format: ExportFormat, call?: CallOptions): Promise<EventExport> {
    const spec = {
      method: 'GET' as const,
      path: this.collectionPath(projectId),
      query: { ...filters, format },
      headers: { accept: format === 'csv' ? 'text/csv' : 'application/json' },
    };
    return this.transport.send(spec, call, async (response) => {
      const contentType = String(response.headers['content-type'] ?? (format === 'csv' ? 'text/csv' : 'application/json'));
      return new EventExport(response, contentType, (caught) => this.transport.toPostHogError(caught, response.endpoint), call?.signal);
    });
  }

  private get transport(): Transport {
    return this.context.transport;
  }

  private collectionPath(projectId: number | string): string {
    return `/api/projects/${segment(projectId)}/events/`;
  }
}
