// Walking events newest first through PostHog's Query API (an EventsQuery), each event once
// (posthog-behaviour.md, "EventsQuery"). The query orders by `timestamp DESC` (PostHog's tiebreak adds
// `uuid`) and each next page asks `before` = PostHog's `nextCursor` (`<timestamp>|<uuid>`), which loses no
// event sharing the boundary time. An older server without `nextCursor` gets `before` one microsecond after
// the oldest row held, its ids at that time dropped. Whatever the server answers, no event is given twice:
// rows newer than the bound asked and ids already given at the boundary time are dropped, and pages that
// bring nothing new stop the walk (StalledWalkError), as the legacy walk does (eventPages.ts).
import { type EventsBatch, STALLED_PAGES, StalledWalkError } from './eventPages';
import { isoFromMicros, timestampMicros } from './eventTime';
import type { EventsQueryResponse } from './schemas';
import type { Event } from './schemas';

/** PostHog answers at most 50,000 rows a request; a page of this many keeps each answer quick. */
export const EVENTS_QUERY_MAX_PAGE = 5_000;

/** The columns every page selects first: the whole event and its person (the table's fixed columns, the detail). */
export const EVENT_SELECT = ['*', 'person'] as const;

/** An event from an EventsQuery, with the values of the columns the user asked for (in their order). */
export type QueriedEvent = Event & { readonly selected?: readonly unknown[] };

/** The EventsQuery fields a walk sends (besides `before`, `limit`, `select` and `orderBy`, which it sets). */
export interface EventsQueryFields {
  /** The user's HogQL expressions, shown after the fixed columns. */
  readonly columns?: readonly string[];
  readonly where?: readonly string[];
  readonly event?: string;
  readonly properties?: readonly unknown[];
  readonly fixedProperties?: unknown;
  readonly personId?: string;
  readonly after?: string;
  readonly before?: string;
  /** Rows a page (at most EVENTS_QUERY_MAX_PAGE). */
  readonly limit?: number;
}

export type EventsQueryFetch = (query: Record<string, unknown>, signal?: AbortSignal) => Promise<EventsQueryResponse>;

/** The EventsQuery node (without `kind`) for these fields: newest first, the fixed columns then the user's. */
export function eventsQueryNode(fields: EventsQueryFields): Record<string, unknown> {
  const { columns = [], limit, ...rest } = fields;
  const node: Record<string, unknown> = { select: [...EVENT_SELECT, ...columns], orderBy: ['timestamp DESC'] };
  for (const [name, value] of Object.entries(rest)) {
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) node[name] = value;
  }
  if (limit !== undefined) node['limit'] = limit;
  return node;
}

interface Boundary {
  readonly micros: number;
  readonly ids: Set<string>;
}

/** Newest first, down to `fields.after`; yields batches of events not given before. */
export async function* walkEventsQuery(fetchPage: EventsQueryFetch, fields: EventsQueryFields, signal?: AbortSignal): AsyncGenerator<EventsBatch, void, undefined> {
  const limit = Math.min(Math.max(1, Math.floor(fields.limit ?? 100)), EVENTS_QUERY_MAX_PAGE);
  const base = eventsQueryNode({ ...fields, before: undefined, limit });
  let before = fields.before;
  let boundary: Boundary | undefined;
  let given = 0;
  let pagesWithoutNews = 0;
  for (;;) {
    signal?.throwIfAborted();
    if (pagesWithoutNews >= STALLED_PAGES) {
      throw new StalledWalkError(given);
    }
    const answer = await fetchPage(before === undefined ? base : { ...base, before }, signal);
    const rows = answer.results.map(eventOfRow).filter((event): event is QueriedEvent => event !== undefined);
    const events = freshOnly(rows, boundOf(before), boundary);
    given += events.length;
    pagesWithoutNews = events.length > 0 ? 0 : pagesWithoutNews + 1;
    boundary = advance(boundary, rows);
    const oldest = rows[rows.length - 1];
    const last = !answer.hasMore || oldest === undefined;
    yield { events, last };
    if (last) {
      return;
    }
    before = answer.nextCursor ?? isoFromMicros(boundary!.micros + 1);
  }
}

/** The row's `*` and `person` cells as an event; the rest are the user's columns. Undefined when it has no uuid or time. */
function eventOfRow(row: readonly unknown[]): QueriedEvent | undefined {
  const star = row[0];
  if (!star || typeof star !== 'object' || Array.isArray(star)) {
    return undefined;
  }
  const fields = star as Record<string, unknown>;
  const id = fields['uuid'] ?? fields['id'];
  const timestamp = fields['timestamp'];
  if (typeof id !== 'string' || typeof timestamp !== 'string') {
    return undefined;
  }
  const person = row[1];
  return {
    id,
    event: String(fields['event'] ?? ''),
    timestamp,
    distinct_id: String(fields['distinct_id'] ?? ''),
    properties: (fields['properties'] ?? {}) as Event['properties'],
    person: person && typeof person === 'object' && !Array.isArray(person) ? (person as Event['person']) : null,
    elements: (fields['elements'] ?? null) as Event['elements'],
    elements_chain: typeof fields['elements_chain'] === 'string' ? fields['elements_chain'] : null,
    selected: row.slice(EVENT_SELECT.length),
  };
}

/** The time part of a `before` (a plain time, or PostHog's `<timestamp>|<uuid>` cursor), in microseconds. */
function boundOf(before: string | undefined): number | undefined {
  if (before === undefined) return undefined;
  const bar = before.lastIndexOf('|');
  return timestampMicros(bar > 0 ? before.slice(0, bar) : before);
}

/** Drops rows after the bound asked, ids given at the boundary time, and repeats within the page. */
function freshOnly(rows: readonly QueriedEvent[], bound: number | undefined, boundary: Boundary | undefined): QueriedEvent[] {
  const inPage = new Set<string>();
  return rows.filter((row) => {
    const time = timestampMicros(row.timestamp);
    const newer = bound !== undefined && time !== undefined && time > bound;
    if (newer || boundary?.ids.has(row.id) || inPage.has(row.id)) {
      return false;
    }
    inPage.add(row.id);
    return true;
  });
}

/** The oldest time held and the ids at it (only those can come again under a cursor PostHog ignores). */
function advance(boundary: Boundary | undefined, rows: readonly QueriedEvent[]): Boundary | undefined {
  let next = boundary;
  for (const row of rows) {
    const micros = timestampMicros(row.timestamp);
    if (micros === undefined || (next && micros > next.micros)) continue;
    if (!next || micros < next.micros) next = { micros, ids: new Set() };
    next.ids.add(row.id);
  }
  return next;
}
