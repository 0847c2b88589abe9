// Reading events the way PostHog's legacy events endpoint does (posthog/models/event/legacy_events_query.py):
// newest first, strict after/before bounds, progressive time windows with the half-page rule and a
// per-project cache of the window that worked, and the deployment's PATCH_EVENT_LIST_MAX_OFFSET level.
import type { Json } from './model';
import type { EventRecord, EventTable } from './events';
import type { PropertySource, PropertyTest } from './property-filter';
import { SLOW } from './event-props';
import { MICROS_PER_DAY } from './time';

export interface EventQuery {
  event?: string;
  distinctId?: string;
  /** distinct ids of the person asked for (an unknown person matches nothing) */
  personDistinctIds?: Set<string>;
  properties?: PropertyTest;
  /** exclusive bounds, microseconds */
  after?: number;
  before: number;
  ascending?: boolean;
  extra?: (event: EventRecord) => boolean;
}

/** Events matching `query` in order, skipping `offset`, stopping after `take` (Infinity for all). */
export function scanEvents(table: EventTable, query: EventQuery, offset: number, take: number): EventRecord[] {
  const rows = table.sorted();
  const source = new RowSource(table);
  const out: EventRecord[] = [];
  let skipped = 0;
  const n = rows.length;
  // Newest first: start at the first row older than `before` (rows are sorted by time, newest first).
  const start = query.ascending ? 0 : table.firstRowBefore(query.before);
  for (let i = start; i < n && out.length < take; i++) {
    const row = rows[query.ascending ? n - 1 - i : i]!;
    const ts = table.timeOf(row);
    if (ts >= query.before) {
      if (query.ascending) break;
      continue;
    }
    if (query.after !== undefined && ts <= query.after) {
      if (query.ascending) continue;
      break;
    }
    if (query.event !== undefined && table.nameOf(row) !== query.event) continue;
    if (query.personDistinctIds && !matchesPerson(table, row, query.personDistinctIds)) continue;
    if (query.distinctId !== undefined && table.distinctIdOf(row) !== query.distinctId) continue;
    source.reset(row);
    if (query.properties && !query.properties(source)) continue;
    if (query.extra && !query.extra(source.record())) continue;
    if (skipped < offset) {
      skipped++;
      continue;
    }
    out.push(source.record());
  }
  return out;
}

/** Reads one row's properties, building the full event only when a property needs it. */
class RowSource implements PropertySource {
  private row = 0;
  private built: EventRecord | undefined;

  constructor(private readonly table: EventTable) {}

  reset(row: number): void {
    this.row = row;
    this.built = undefined;
  }

  record(): EventRecord {
    return (this.built ??= this.table.record(this.row));
  }

  eventProperty(key: string): Json | undefined {
    const quick = this.table.quickProperty(this.row, key);
    return quick === SLOW ? this.record().properties[key] : quick;
  }

  personProperty(key: string): Json | undefined {
    const index = this.table.personIndexOfRow(this.row);
    return index < 0 ? undefined : this.table.persons[index]!.properties[key];
  }
}

function matchesPerson(table: EventTable, row: number, distinctIds: Set<string>): boolean {
  const personIndex = table.personIndexOfRow(row);
  if (personIndex < 0) return distinctIds.has(table.distinctIdOf(row));
  return table.persons[personIndex]!.distinct_ids.some((id) => distinctIds.has(id));
}


/** PostHog's EVENT_LIST_TIME_WINDOWS: 1 min, 5 min, 15 min, 1 h, 6 h, 24 h (seconds). */
export const EVENT_LIST_TIME_WINDOWS = [60, 300, 900, 3600, 21_600, 86_400];
const CACHE_TTL_MS = 24 * 3600 * 1000;
const YEAR_AND_A_DAY_MICROS = 366 * MICROS_PER_DAY;

/**
 * PATCH_EVENT_LIST_MAX_OFFSET: 0 off (self-hosted default), 1 migration, 2 enabled. At 1 and 2 a range
 * over 366 days fails (always at 2, 1 % of requests at 1); at 2 a request without `after` covers only the
 * 24 hours before `before`. (Offsets are checked by the route.)
 */
export type EventListLevel = 0 | 1 | 2;

/** The window that gave at least half a page, per project and request shape (PostHog's Django cache entry). */
export class EventWindowCache {
  private readonly entries = new Map<string, { window: number; resultCount: number; expiresAtMs: number }>();

  get(key: string, nowMs: number): { window: number; resultCount: number } | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.expiresAtMs <= nowMs) {
      this.entries.delete(key);
      return undefined;
    }
    return { window: entry.window, resultCount: entry.resultCount };
  }

  set(key: string, value: { window: number; resultCount: number }, nowMs: number): void {
    this.entries.set(key, { ...value, expiresAtMs: nowMs + CACHE_TTL_MS });
  }

  clear(): void {
    this.entries.clear();
  }
}

/** The key PostHog caches the good window under: project, event filter present, distinct_id present, limit class. */
export function windowCacheKey(projectId: number, hasEvent: boolean, hasDistinctId: boolean, limit: number): string {
  const sizeClass = limit < 1000 ? 's' : limit < 10_000 ? 'm' : 'l';
  return `event_list_good_period:${projectId}:${hasEvent ? 1 : 0}:${hasDistinctId ? 1 : 0}:${sizeClass}`;
}

export interface ListRequest {
  query: EventQuery;
  /** Whether the request named `before` / `after` (the query holds their values, or the defaults). */
  hasBefore: boolean;
  hasAfter: boolean;
  limit: number;
  offset: number;
  cacheKey: string;
}

export interface ListSettings {
  level: EventListLevel;
  cache: EventWindowCache;
  nowMs: number;
  /** [0, 1): decides the 1 % of failures at level 1. */
  random: () => number;
}

export interface ListAnswer {
  rows: EventRecord[];
  hasMore: boolean;
  /** The window (seconds) whose rows these are, when one was applied. */
  window?: number;
}

/** Thrown for PostHog's "Date range cannot exceed 1 year" ValueError, which its API answers as a generic 500. */
export class RangeTooLongError extends Error {}

/**
 * One page as PostHog's LegacyEventsListQuery.run computes it: windows shorter than the request's range
 * (all of them when it names no `before` and `after`), the cached one first when its result count clears
 * half this limit, stopping at the first holding at least half a page; the whole range when none does.
 */
export function listEvents(table: EventTable, request: ListRequest, settings: ListSettings): ListAnswer {
  const { query } = request;
  const requestSeconds = request.hasBefore && request.hasAfter && query.after !== undefined ? Math.floor((query.before - query.after) / 1_000_000) : undefined;
  const windows = EVENT_LIST_TIME_WINDOWS.filter((window) => requestSeconds === undefined || window < requestSeconds);
  const halfLimit = Math.max(Math.floor(request.limit / 2), 1);
  const cached = settings.cache.get(request.cacheKey, settings.nowMs);
  if (cached && cached.resultCount >= halfLimit && windows.includes(cached.window)) {
    windows.splice(windows.indexOf(cached.window), 1);
    windows.unshift(cached.window);
  }
  let answer: ListAnswer | undefined;
  let applied = false;
  for (const window of windows) {
    answer = runPage(table, request, settings, window);
    applied = answer.window !== undefined;
    if (!applied) break; // oldest first: windows do not apply
    if (answer.rows.length >= halfLimit) {
      if (cached?.window !== window || cached.resultCount !== answer.rows.length) {
        settings.cache.set(request.cacheKey, { window, resultCount: answer.rows.length }, settings.nowMs);
      }
      return answer;
    }
  }
  return applied || windows.length === 0 ? runPage(table, request, settings) : answer!;
}

/** LegacyEventsListQuery.run_page: one query, in `window` seconds before `before` when that is shorter than the range. */
function runPage(table: EventTable, request: ListRequest, settings: ListSettings, window?: number): ListAnswer {
  const before = request.query.before;
  let after = request.hasAfter ? request.query.after : settings.level > 1 ? before - 24 * 3600 * 1_000_000 : undefined;
  if (settings.level > 0 && after !== undefined && before - after > YEAR_AND_A_DAY_MICROS && (settings.level > 1 || settings.random() < 0.01)) {
    throw new RangeTooLongError('Date range cannot exceed 1 year');
  }
  let applied: number | undefined;
  if (!request.query.ascending && window !== undefined && (after === undefined || before - after > window * 1_000_000)) {
    after = before - window * 1_000_000;
    applied = window;
  }
  const rows = scanEvents(table, { ...request.query, after }, request.offset, request.limit + 1);
  return { rows: rows.slice(0, request.limit), hasMore: rows.length > request.limit, ...(applied === undefined ? {} : { window: applied }) };
}
