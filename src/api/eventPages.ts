// Walking PostHog's events list without losing or repeating a row. PostHog's list is a cursor chain that
// cannot be trusted to say where it ends (posthog-behaviour.md, "Events list paging"):
// - it answers the first of several time windows (1 minute to 24 hours back from `before`) holding half a
//   page, and `next` speaks for that window only: a page without `next` is not the end when it holds at
//   least half the limit;
// - `before` is strict, so events sharing the last row's time that did not fit are skipped by `next`.
// So the walk never follows `next`: it asks again below the oldest row it has, with `before` one
// microsecond later when the page was full (dropping the ids it already gave at that time), and stops only
// when PostHog answers nothing older. A full page all on one timestamp is asked again with PostHog's
// largest limit, and past that listed by offset (up to PostHog's 50,000).
// A server that does not keep to `before` (or to the offset) would answer the same rows forever: rows newer
// than the walk asked for are dropped, so none is given twice, and a walk whose pages bring nothing new
// stops with StalledWalkError instead of spending the key's budget on copies.
import { PostHogError } from './errors';
import type { EventFilters } from './resources/events';
import type { Event, EventsPage } from './schemas';
import { isoFromMicros, timestampMicros } from './eventTime';

/** PostHog's most rows a request, and its default. */
export const EVENTS_MAX_PAGE = 1_000;
export const EVENTS_DEFAULT_PAGE = 100;
/** PostHog refuses larger offsets ("Offset is deprecated. Max supported offset value is 50000"). */
const MAX_OFFSET = 50_000;
/** Pages in a row that bring no event the walk has not given (nor its end) before it stops as stalled. */
export const STALLED_PAGES = 3;

/** The server answered pages without an event the walk had not given: it ignores where the walk asked to go on. */
export class StalledWalkError extends PostHogError {
  override name = 'StalledWalkError';
  constructor(readonly eventsGiven: number) {
    super(
      `The events list made no progress: ${STALLED_PAGES} pages in a row held only events already given (${eventsGiven} given)`,
      `PostHog answered the same events again ${STALLED_PAGES} times, ignoring where the list asked to go on, so listing stopped after ${eventsGiven.toLocaleString('en-US')} events (none repeated). Try again later, or narrow the time range.`,
      { endpoint: 'events' },
    );
  }
}

export interface EventsBatch {
  /** Events not given before, newest first (may be empty while the walk goes on). */
  readonly events: Event[];
  /** Nothing older matches: PostHog answered an exact, short page or nothing at all. */
  readonly last: boolean;
  /**
   * More than 51,000 events share this one timestamp: past PostHog's largest offset the rest at that
   * time could not be listed (the walk goes on below it).
   */
  readonly skippedAt?: string;
}

export type PageFetch = (filters: EventFilters, signal?: AbortSignal) => Promise<EventsPage>;

interface Boundary {
  readonly micros: number;
  /** Ids given at that exact time; the next request (before = time + 1 µs) brings them again. */
  readonly ids: Set<string>;
}

/** Newest first, down to `filters.after`; `filters.limit` is the page size asked (PostHog's cap applies). */
export async function* walkEvents(fetchPage: PageFetch, filters: EventFilters, signal?: AbortSignal): AsyncGenerator<EventsBatch, void, undefined> {
  const pageSize = Math.min(Math.max(1, Math.floor(filters.limit ?? EVENTS_DEFAULT_PAGE)), EVENTS_MAX_PAGE);
  const { offset: _offset, ...base } = filters;
  let limit = pageSize;
  let before = filters.before;
  let boundary: Boundary | undefined;
  /** > 0 while listing the events of one timestamp by offset. */
  let sweep = 0;
  let given = 0;
  let pagesWithoutNews = 0;
  for (;;) {
    signal?.throwIfAborted();
    if (pagesWithoutNews >= STALLED_PAGES) {
      throw new StalledWalkError(given);
    }
    const request: EventFilters = { ...base, limit, before };
    if (sweep > 0 && boundary) {
      request.offset = sweep;
      request.after = laterOf(filters.after, isoFromMicros(boundary.micros - 1));
    }
    const page = await fetchPage(request, signal);
    const rows = page.results;
    const events = freshOnly(olderThan(rows, request.before), boundary);
    if (rows.length === 0 && sweep === 0) {
      yield { events, last: true };
      return;
    }
    // Checked before the next request: a page that ends the walk returns first, whatever it held.
    given += events.length;
    pagesWithoutNews = events.length > 0 ? 0 : pagesWithoutNews + 1;
    const times = rows.map((row) => timestampMicros(row.timestamp));
    const oldest = times[times.length - 1];
    if (sweep > 0 && boundary) {
      // Listing one timestamp by offset: on until a short page, or PostHog's largest offset.
      rows.forEach((row) => boundary!.ids.add(row.id));
      sweep += rows.length;
      const done = rows.length < limit;
      const tooFar = !done && sweep > MAX_OFFSET;
      const at = boundary.micros;
      if (done || tooFar) {
        ({ before, boundary, sweep, limit } = { before: isoFromMicros(at), boundary: undefined, sweep: 0, limit: pageSize });
      }
      yield { events, last: false, ...(tooFar ? { skippedAt: isoFromMicros(at) } : {}) };
      continue;
    }
    if (oldest === undefined || times.some((time) => time === undefined)) {
      // A time that cannot be read: continue as PostHog's own link would (strict, may skip equal times).
      before = rows[rows.length - 1]!.timestamp;
      boundary = undefined;
      const last = isEnd(page, limit);
      yield { events, last };
      if (last) return;
      continue;
    }
    if (rows.length >= limit) {
      // A full page: rows at its oldest time may continue on the next page. Ask from a microsecond later.
      const atOldest = rows.filter((_, index) => times[index] === oldest).map((row) => row.id);
      boundary = boundary?.micros === oldest ? { micros: oldest, ids: new Set([...boundary.ids, ...atOldest]) } : { micros: oldest, ids: new Set(atOldest) };
      before = isoFromMicros(oldest + 1);
      if (times[0] === oldest) {
        // The whole page is one timestamp: a larger page, then offsets.
        if (limit < EVENTS_MAX_PAGE) {
          limit = EVENTS_MAX_PAGE;
        } else {
          sweep = rows.length;
        }
      }
      yield { events, last: false };
      continue;
    }
    // A page that is not full holds every matching row of the range PostHog looked at, so `before` = its
    // oldest time (strict) misses nothing. Without `next` and under half a page, PostHog looked at the
    // whole range: that is the end.
    before = isoFromMicros(oldest);
    boundary = undefined;
    const last = isEnd(page, limit);
    yield { events, last };
    if (last) {
      return;
    }
  }
}

/** No `next` and under half a page: no window cut the answer, PostHog looked at the whole range. */
function isEnd(page: EventsPage, limit: number): boolean {
  return !page.next && page.results.length < Math.max(Math.floor(limit / 2), 1);
}

/** The rows older than the `before` asked (strict, as PostHog's): a server that ignores it answers newer ones, already given. */
function olderThan(rows: readonly Event[], before: string | undefined): readonly Event[] {
  const bound = before === undefined ? undefined : timestampMicros(before);
  if (bound === undefined) {
    return rows;
  }
  return rows.filter((row) => {
    const time = timestampMicros(row.timestamp);
    return time === undefined || time < bound;
  });
}

function freshOnly(rows: readonly Event[], boundary: Boundary | undefined): Event[] {
  const inPage = new Set<string>();
  return rows.filter((row) => {
    if (boundary?.ids.has(row.id) || inPage.has(row.id)) {
      return false;
    }
    inPage.add(row.id);
    return true;
  });
}

/** The later of two ISO times (either may be missing or unreadable: the readable one wins). */
function laterOf(first: string | undefined, second: string): string {
  const a = first === undefined ? undefined : timestampMicros(first);
  const b = timestampMicros(second)!;
  return a !== undefined && a > b ? first! : second;
}
