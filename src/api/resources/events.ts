import { EventRangeError, RateLimitedError } from '../errors';
import { type EventsBatch, walkEvents } from '../eventPages';
import { timestampMicros } from '../eventTime';
import type { CallOptions, SuccessResponse, Transport } from '../http';
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

/** The longest range PostHog lists (its check: before − after over 366 days fails). */
export const EVENTS_MAX_RANGE_DAYS = 366;
const DAY_MS = 86_400_000;
/** A 429 honoured this many times in a row before the call gives up. */
const MAX_THROTTLED_WAITS = 5;

/**
 * How an events call goes through the key's request budget (budget.ts): who asks, what to tell the user
 * while it waits, and whether to give up instead of waiting.
 */
export type EventsCall = CallOptions;

/** Query parameters of the event list (spec 4.3). The endpoint group is deprecated. */
export interface EventFilters {
  /**
   * Only events after this time (strict). Without it, some deployments look back 24 hours from `before`,
   * others without bound: send it.
   */
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

/**
 * Refuses (EventRangeError) a range PostHog would answer with a generic 500: `before` (default now) less
 * `after` over 366 days. Times it cannot read are left to PostHog.
 */
export function checkEventRange(filters: Pick<EventFilters, 'after' | 'before'>, now = Date.now()): void {
  const after = filters.after === undefined ? undefined : timestampMicros(filters.after);
  const before = filters.before === undefined ? now * 1000 : timestampMicros(filters.before);
  if (after !== undefined && before !== undefined && before - after > EVENTS_MAX_RANGE_DAYS * DAY_MS * 1000) {
    throw new EventRangeError(Math.ceil((before - after) / (DAY_MS * 1000)));
  }
}

/**
 * Captured events of a project (/api/projects/{project}/events/). Deprecated by PostHog; read-only. Every
 * request goes through the key's budget (budget.ts); a 429 is waited out as PostHog's text asks.
 */
export class EventsApi {
  constructor(private readonly context: ResourceContext) {}

  /** This key's request budget (shared with every client of the same host and key). */
  get budget() {
    return this.context.budget;
  }

  async list(projectId: number | string, filters?: EventFilters & { format?: 'json' }, call?: EventsCall): Promise<EventsPage> {
    checkEventRange(filters ?? {});
    return this.gated(call, (options) =>
      this.transport.json({ method: 'GET', path: this.collectionPath(projectId), query: { ...filters } }, EventsPageSchema, options),
    );
  }

  /**
   * Events newest first, down to `filters.after`, each once (eventPages.ts): never concludes from a
   * missing `next`, never skips events sharing a timestamp at a page boundary. Break out to stop. Each
   * page is a list() call: refused before sending when the range is over 366 days.
   */
  pages(projectId: number | string, filters: EventFilters = {}, call?: EventsCall): AsyncGenerator<EventsBatch, void, undefined> {
    return walkEvents((page, signal) => this.list(projectId, page, { ...call, signal }), filters, call?.signal);
  }

  get(projectId: number | string, id: string, options?: { format?: 'json'; include_person?: boolean }, call?: EventsCall): Promise<Event> {
    return this.gated(call, (callOptions) =>
      this.transport.json({ method: 'GET', path: `${this.collectionPath(projectId)}${segment(id)}/`, query: { ...options } }, EventSchema, callOptions),
    );
  }

  /**
   * Suggestions for a property's values (or custom event names). PostHog answers {results, refreshing},
   * older servers a bare list, the spec one event (no suggestions): all three are accepted. PostHog
   * throttles this endpoint apart: 60 a minute and 300 an hour.
   */
  async values(projectId: number | string, query: EventValuesQuery, call?: EventsCall): Promise<EventValues> {
    const answer = await this.gated(call, (options) =>
      this.transport.jsonOneOf({ method: 'GET', path: `${this.collectionPath(projectId)}values/`, query: { ...query } }, eventValuesSchemaFor, options),
    );
    return eventValuesOf(answer);
  }

  /**
   * Streams one events request in CSV or JSON as the server sends it: at most 1,000 rows (CSV defaults
   * to 1,000 and has no next link). More rows are read by following `pages`.
   */
  async export(projectId: number | string, filters: EventFilters, format: ExportFormat, call?: EventsCall): Promise<EventExport> {
    checkEventRange(filters);
    const spec = {
      method: 'GET' as const,
      path: this.collectionPath(projectId),
      query: { ...filters, format },
      headers: { accept: format === 'csv' ? 'text/csv' : 'application/json' },
    };
    return this.gated(call, (options) =>
      this.transport.send(spec, options, async (response) => {
        const contentType = String(response.headers['content-type'] ?? (format === 'csv' ? 'text/csv' : 'application/json'));
        return new EventExport(response, contentType, (caught) => this.transport.toPostHogError(caught, response.endpoint), call?.signal);
      }),
    );
  }

  /**
   * Sends through the key's budget, however long it waits (telling `call.onWait`): on a 429 the transport
   * blocks the key's bucket for the wait PostHog names ("Expected available in N seconds"), and the next try
   * waits for it.
   */
  private async gated<T>(call: EventsCall | undefined, send: (options: CallOptions) => Promise<T>): Promise<T> {
    for (let throttled = 0; ; throttled++) {
      try {
        return await send({ ...call, patient: true, retryThrottled: false });
      } catch (error) {
        if (!(error instanceof RateLimitedError) || call?.noWait || throttled >= MAX_THROTTLED_WAITS) {
          throw error;
        }
      }
    }
  }

  private get transport(): Transport {
    return this.context.transport;
  }

  private collectionPath(projectId: number | string): string {
    return `/api/projects/${segment(projectId)}/events/`;
  }
}
