// Where the panel, Live and exports read events: PostHog's Query API (an EventsQuery: HogQL columns and
// where, cursor paging) wherever the server has it, else the legacy events list, as older self-hosted PostHog
// answers /query/ with 404. The choice is made once per connection and remembered for the session, or forced
// by a setting. vscode-free.
import {
  type CallOptions,
  type EventsApi,
  type EventsBatch,
  type EventsQueryFields,
  type QueriesApi,
  QueryApiUnavailableError,
} from '../api';
import type { EventQuery } from './filters';
import { legacyShows } from './rows';

/** Forces the legacy events list even where the Query API answers. */
export const LEGACY_EVENTS_API_SETTING = 'posthogExplorer.events.useLegacyEventsApi';

/** What reading events needs of a client. */
export interface EventsClient {
  readonly events: Pick<EventsApi, 'pages'>;
  readonly queries: Pick<QueriesApi, 'eventPages'>;
}

/** A filter the legacy list cannot apply: the message says the Query API is needed. */
export class NeedsQueryApiError extends Error {
  override name = 'NeedsQueryApiError';
}

/** Per connection: whether its server has the Query API (learnt from the first 404), or a setting forces the legacy list. */
export class SourceChoice {
  private readonly legacy = new Set<string>();

  constructor(
    private readonly forceLegacy: () => boolean = () => false,
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  usesQueryApi(connectionId: string): boolean {
    return !this.forceLegacy() && !this.legacy.has(connectionId);
  }

  /** The server answered 404 to /query/: the legacy list from now on, for the session (logged once). */
  markLegacy(connectionId: string): void {
    if (!this.legacy.has(connectionId)) {
      this.legacy.add(connectionId);
      this.log('This PostHog server has no Query API (404 on /query/): events are read from the legacy events list for this session.');
    }
  }
}

/** Told once a walk reads the legacy list, with the columns it cannot show. */
export type OnLegacy = (unshownColumns: string[]) => void;

/** The events of `query`, newest first, each once, from the source the connection's server offers. */
export async function* eventBatches(
  client: EventsClient,
  choice: SourceChoice,
  connectionId: string,
  projectId: number,
  query: EventQuery,
  call: CallOptions = {},
  onLegacy?: OnLegacy,
): AsyncGenerator<EventsBatch, void, undefined> {
  if (choice.usesQueryApi(connectionId)) {
    const walk = client.queries.eventPages(projectId, eventsQueryFields(query), call);
    let first: IteratorResult<EventsBatch> | undefined;
    try {
      first = await walk.next();
    } catch (error) {
      if (!(error instanceof QueryApiUnavailableError)) throw error;
      choice.markLegacy(connectionId);
    }
    if (first) {
      if (!first.done) {
        yield first.value;
        yield* walk;
      }
      return;
    }
  }
  if (query.where) {
    throw new NeedsQueryApiError(`The where filter needs PostHog's Query API, which this server does not offer (or the setting posthogExplorer.events.useLegacyEventsApi is on). Empty the where field to list events.`);
  }
  onLegacy?.(query.columns.filter((column) => !legacyShows(column)));
  yield* client.events.pages(projectId, query.filters, call);
}

/** The form's filters as EventsQuery's own fields; the distinct id, which has none, as a where entry. */
export function eventsQueryFields(query: EventQuery): EventsQueryFields {
  const { filters } = query;
  const where = [...(filters.distinct_id === undefined ? [] : [`distinct_id = ${hogqlString(String(filters.distinct_id))}`]), ...(query.where ? [query.where] : [])];
  const properties = filters.properties;
  return {
    columns: query.columns,
    ...(where.length ? { where } : {}),
    ...(filters.event ? { event: filters.event } : {}),
    ...(Array.isArray(properties) ? { properties } : properties ? { fixedProperties: properties } : {}),
    ...(filters.person_id === undefined ? {} : { personId: String(filters.person_id) }),
    ...(filters.after ? { after: filters.after } : {}),
    ...(filters.before ? { before: filters.before } : {}),
    ...(filters.limit ? { limit: filters.limit } : {}),
  };
}

/** A HogQL string literal: single quotes, backslash and quote escaped. */
export function hogqlString(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A HogQL error placed at the form field it comes from; `start`/`end` are offsets into `text`. */
export interface FieldError {
  readonly field: 'columns' | 'where';
  readonly message: string;
  /** The text the offsets count in: the where field as typed, or the one column expression at fault. */
  readonly text: string;
  readonly start?: number;
  readonly end?: number;
}

/**
 * Where PostHog's HogQL error is: PostHog's 400 carries only the message, so one HogQLMetadata check of the
 * columns and the where as one SELECT (each column on its own line, its comma on the next, so a `-- Label`
 * comments out nothing else) says which
 * field and where in it. Undefined when PostHog finds nothing wrong in them (the error is elsewhere).
 */
export async function locateHogQLError(
  queries: Pick<QueriesApi, 'metadata'>,
  projectId: number,
  query: EventQuery,
  call: CallOptions = {},
): Promise<FieldError | undefined> {
  const starts: number[] = [];
  let sql = 'SELECT ';
  query.columns.forEach((column, index) => {
    sql += index === 0 ? '' : '\n, ';
    starts.push(sql.length);
    sql += column;
  });
  sql += '\nFROM events';
  const whereStart = sql.length + '\nWHERE '.length;
  if (query.where) sql += `\nWHERE ${query.where}`;
  const answer = await queries.metadata(projectId, sql, { ...call, language: 'hogQL' });
  const error = answer.errors[0];
  if (!error) return undefined;
  const start = error.start ?? undefined;
  if (query.where && start !== undefined && start >= whereStart) {
    return { field: 'where', message: error.message, text: query.where, start: start - whereStart, ...(error.end == null ? {} : { end: error.end - whereStart }) };
  }
  const index = start === undefined ? -1 : starts.filter((columnStart) => columnStart <= start).length - 1;
  if (index < 0 || start === undefined) {
    return { field: query.where ? 'where' : 'columns', message: error.message, text: query.where || query.columns.join(', ') };
  }
  const offset = starts[index]!;
  const text = query.columns[index]!;
  return { field: 'columns', message: error.message, text, start: start - offset, ...(error.end == null ? {} : { end: Math.min(error.end - offset, text.length) }) };
}
