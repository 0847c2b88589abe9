import * as z from 'zod/mini';
import { NotFoundError, QueryApiUnavailableError, QueryFailedError, QueryTimedOutError } from '../errors';
import { errorFromResponse } from '../errorMapping';
import type { CallOptions, SuccessResponse } from '../http';
import {
  DatabaseSchemaQueryResponse,
  DatabaseSchemaQueryResponseSchema,
  EventsQueryResponse,
  EventsQueryResponseSchema,
  HogQLMetadataResponse,
  HogQLMetadataResponseSchema,
  HogQLQueryResponse,
  HogQLQueryResponseSchema,
  QueryCancelAnswerSchema,
  QueryPostAnswerSchema,
  QueryStatus,
  QueryStatusAnswerSchema,
  TrendsQueryResponse,
  TrendsQueryResponseSchema,
} from '../schemas';
import type { EventsBatch } from '../eventPages';
import { type EventsQueryFields, walkEventsQuery } from '../eventsQueryPages';
import { abortReason, type Sleep, sleepUnlessAborted } from '../sleep';
import { newUuid } from '../uuid';
import { parseShape } from '../validate';
import { ResourceContext, segment } from './context';

/** How far to trust PostHog's cache and whether to wait (posthog-behaviour.md, "Request body"). */
export type RefreshMode = 'blocking' | 'force_blocking' | 'async' | 'async_except_on_cache_miss' | 'lazy_async' | 'force_async';

/** A query node: `kind` and the kind's own fields (EventsQuery, HogQLQuery, TrendsQuery, a wrapper node, ...). */
export interface QueryNode {
  kind: string;
  [field: string]: unknown;
}

export interface QueryRunOptions extends CallOptions {
  /** Default 'blocking'; 'force_blocking' for a fresh run the user asked for; the async modes answer 202 and are polled. */
  refresh?: RefreshMode;
  /** The run's id (default: a new UUID). Known before sending, so a cancel can name it at any time. */
  clientQueryId?: string;
  /** A label for PostHog's logs (no effect on results). */
  name?: string;
  /** Called with the status of each poll that found the run still going. */
  onPoll?: (status: QueryStatus) => void;
}

/** The languages HogQLMetadata checks: a whole SELECT, or an expression (a column, a where). */
export type HogQLLanguage = 'hogQL' | 'hogQLExpr';

/**
 * Polling as PostHog's web app polls an async run (frontend/src/queries/query.ts): the first status after
 * 300 ms, each wait 1.25 times the last, at most 3 s, for at most 10 minutes.
 */
export const QUERY_POLL = { firstMs: 300, factor: 1.25, maxMs: 3_000, limitMs: 10 * 60_000 } as const;

/** The wait before poll number `index` (0 = the first poll). */
export function pollDelayMs(index: number): number {
  return Math.min(QUERY_POLL.firstMs * QUERY_POLL.factor ** index, QUERY_POLL.maxMs);
}

/** Clock and wait of the polls (injected in tests). */
export interface QueryTiming {
  sleep: Sleep;
  now: () => number;
}

/**
 * PostHog's Query API (`/api/projects/:id/query/`): runs a query node, polls an asynchronous run to its end,
 * cancels it (also before the POST has answered), and checks each kind's answer. Every request goes through
 * the client's transport, like the other resources.
 */
export class QueriesApi {
  constructor(
    private readonly context: ResourceContext,
    private readonly timing: QueryTiming,
  ) {}

  /** This key's request budget (HogQL's 120 an hour are its `hogql` bucket). */
  get budget() {
    return this.context.budget;
  }

  /** Runs `query` and validates its response with `schema`; an asynchronous answer is polled to its end. */
  async run<T extends z.ZodMiniType>(projectId: number, query: QueryNode, schema: T, options: QueryRunOptions = {}): Promise<z.infer<T>> {
    const id = options.clientQueryId ?? newUuid();
    const run = new QueryRun(this, projectId, id, options.signal);
    try {
      const answer = await this.post(projectId, query, id, options, run.signal);
      const status = answer.query_status;
      if (!status) {
        return parseShape(schema, answer, `POST ${this.basePath(projectId)}`);
      }
      const path = this.queryPath(projectId, status.id);
      const results = status.complete ? finished(status, path) : await this.poll(path, options, run);
      return parseShape(schema, results, `GET ${path}`);
    } catch (error) {
      await run.settle();
      throw error;
    } finally {
      run.dispose();
    }
  }

  /** An EventsQuery (PostHog's events page: any HogQL column, HogQL where, cursor paging). */
  events(projectId: number, query: Omit<QueryNode, 'kind'>, options?: QueryRunOptions): Promise<EventsQueryResponse> {
    return this.run(projectId, { ...query, kind: 'EventsQuery' }, EventsQueryResponseSchema, options);
  }

  /**
   * Events newest first through EventsQuery pages, each once, down to `fields.after` (eventsQueryPages.ts):
   * PostHog's `nextCursor` loses no event sharing a page's last timestamp. Break out to stop.
   */
  eventPages(projectId: number, fields: EventsQueryFields, call: QueryRunOptions = {}): AsyncGenerator<EventsBatch, void, undefined> {
    return walkEventsQuery((node, signal) => this.events(projectId, node, { ...call, signal }), fields, call.signal);
  }

  /** A HogQL SELECT (no `limit` field: limit in the SQL; without LIMIT PostHog answers 100 rows and `hasMore`). */
  hogql(projectId: number, sql: string, options?: QueryRunOptions & { values?: Record<string, unknown> }): Promise<HogQLQueryResponse> {
    const query: QueryNode = { kind: 'HogQLQuery', query: sql, ...(options?.values ? { values: options.values } : {}) };
    return this.run(projectId, query, HogQLQueryResponseSchema, options);
  }

  /** A TrendsQuery (`series` required). */
  trends(projectId: number, query: Omit<QueryNode, 'kind'>, options?: QueryRunOptions): Promise<TrendsQueryResponse> {
    return this.run(projectId, { ...query, kind: 'TrendsQuery' }, TrendsQueryResponseSchema, options);
  }

  /**
   * Checks HogQL text: its errors, warnings and notices with `start`/`end` character offsets into `query`.
   * PostHog's query errors carry only the message; this is where their positions come from.
   */
  metadata(projectId: number, query: string, options: QueryRunOptions & { language?: HogQLLanguage; sourceQuery?: QueryNode } = {}): Promise<HogQLMetadataResponse> {
    const node: QueryNode = { kind: 'HogQLMetadata', language: options.language ?? 'hogQL', query, ...(options.sourceQuery ? { sourceQuery: options.sourceQuery } : {}) };
    return this.run(projectId, node, HogQLMetadataResponseSchema, options);
  }

  /** The project's tables and their fields (DatabaseSchemaQuery). */
  databaseSchema(projectId: number, options?: QueryRunOptions): Promise<DatabaseSchemaQueryResponse> {
    return this.run(projectId, { kind: 'DatabaseSchemaQuery' }, DatabaseSchemaQueryResponseSchema, options);
  }

  /** Cancels a run by its client_query_id (PostHog answers 200 also for an unknown id); its message. */
  async cancel(projectId: number, queryId: string, call?: CallOptions): Promise<string> {
    const answer = await this.context.transport.json({ method: 'DELETE', path: this.queryPath(projectId, queryId) }, QueryCancelAnswerSchema, call);
    return answer.message ?? '';
  }

  private basePath(projectId: number): string {
    return `/api/projects/${segment(projectId)}/query/`;
  }

  private queryPath(projectId: number, queryId: string): string {
    return `${this.basePath(projectId)}${segment(queryId)}/`;
  }

  private async post(projectId: number, query: QueryNode, id: string, options: QueryRunOptions, signal: AbortSignal) {
    const body = { query, client_query_id: id, refresh: options.refresh ?? 'blocking', ...(options.name ? { name: options.name } : {}) };
    try {
      return await this.context.transport.json({ method: 'POST', path: this.basePath(projectId), body }, QueryPostAnswerSchema, { ...options, signal });
    } catch (error) {
      throw error instanceof NotFoundError ? new QueryApiUnavailableError({ endpoint: error.endpoint, status: 404, detail: error.detail, cause: error }) : error;
    }
  }

  /** Polls the run until it completes (its results), fails, or the 10 minutes are up (cancelled, QueryTimedOutError). */
  private async poll(path: string, options: QueryRunOptions, run: QueryRun): Promise<unknown> {
    const started = this.timing.now();
    for (let index = 0; this.timing.now() - started < QUERY_POLL.limitMs; index++) {
      await sleepUnlessAborted(this.timing.sleep, pollDelayMs(index), run.signal);
      const status = await this.status(path, run.signal);
      if (status.complete) {
        return finished(status, path);
      }
      options.onPoll?.(status);
    }
    run.cancel();
    throw new QueryTimedOutError({ endpoint: `GET ${path}`, queryId: run.queryId, waitedMs: this.timing.now() - started });
  }

  /** One GET of the status: 202 running, 200 done, 400 failed with a message, 500 failed without one. */
  private status(path: string, signal: AbortSignal): Promise<QueryStatus> {
    const transport = this.context.transport;
    return transport.send({ method: 'GET', path, answers: [400, 500] }, { signal }, async (response: SuccessResponse) => {
      const body = await transport.parseJsonBody(response, z.unknown());
      const failedWithoutStatus = response.status >= 400 && !(body && typeof body === 'object' && 'query_status' in body);
      if (failedWithoutStatus) {
        throw errorFromResponse({ endpoint: response.endpoint, status: response.status, bodyText: JSON.stringify(body) });
      }
      return parseShape(QueryStatusAnswerSchema, body, response.endpoint).query_status;
    });
  }

  /** Sends the DELETE of a run; failures are only logged by the transport (the run ends anyway). */
  sendCancel(projectId: number, queryId: string): Promise<void> {
    return this.cancel(projectId, queryId).then(
      () => undefined,
      () => undefined,
    );
  }
}

/** A complete status: its results, or the failure it reports. */
function finished(status: QueryStatus, path: string): unknown {
  if (status.error) {
    throw new QueryFailedError({ endpoint: `GET ${path}`, detail: status.error_message ?? undefined, queryId: status.id });
  }
  return status.results;
}

/**
 * One run's cancellation: the caller's signal aborts the POST or the poll at once and sends the DELETE (once),
 * by the id known before the POST was sent.
 */
class QueryRun {
  private readonly controller = new AbortController();
  private cancelling: Promise<void> | undefined;
  private readonly onAbort = () => {
    this.cancel();
    this.controller.abort(abortReason(this.caller!));
  };

  constructor(
    private readonly api: QueriesApi,
    private readonly projectId: number,
    readonly queryId: string,
    private readonly caller: AbortSignal | undefined,
  ) {
    if (caller?.aborted) {
      this.controller.abort(abortReason(caller));
    } else {
      caller?.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  cancel(): void {
    this.cancelling ??= this.api.sendCancel(this.projectId, this.queryId);
  }

  /** Waits for a DELETE in flight, so the caller sees the run cancelled when its call ends. */
  async settle(): Promise<void> {
    await this.cancelling;
  }

  dispose(): void {
    this.caller?.removeEventListener('abort', this.onAbort);
  }
}
