// Events (deprecated legacy endpoint): /api/projects/{project}/events/, /events/{id}/, /events/values/
import type { Json } from '../model';
import { route, type Route } from '../router';
import { absoluteUrl, intParam, ok, param, parseIntStrict, projectOf, queryDict, urlencode, type Ctx, type Reply } from '../http';
import { ApiError, notFound, serverError, validation } from '../errors';
import { asText } from '../property-filter';
import { listEvents, RangeTooLongError, scanEvents, windowCacheKey, type EventQuery } from '../events-query';
import { eventBody } from '../serializers';
import { toCsv } from '../csv';
import { isoOffset } from '../time';
import { isUuid } from '../random';
import { eventQueryFrom } from './event-params';

const MAX_OFFSET = 50_000;
/** PostHog's EVENT_LIST_MAX_LIMIT: every request, CSV included, is cut to this. */
export const EVENT_LIST_MAX_LIMIT = 1_000;
/** PostHog's QUERY_DEFAULT_EXPORT_LIMIT: CSV without a limit. */
const CSV_DEFAULT_LIMIT = 1_000;
const JSON_DEFAULT_LIMIT = 100;

/** `include_person=true` (or 1, any case): PostHog fills `person` only then. */
function includePerson(ctx: Ctx): boolean {
  return ['true', '1'].includes((param(ctx, 'include_person') ?? '').toLowerCase());
}

/** PostHog's answer to a list that its deployment limits: a pointer to the docs, on every list response. */
const EVENTS_DOCS_WARNING = 'https://posthog.com/docs/api/events';

/** Python's int() on the offset, where PostHog reads anything else as 0. */
function offsetParam(ctx: Ctx): number {
  const raw = param(ctx, 'offset');
  const value = raw ? parseIntStrict(raw) : undefined;
  return value === undefined ? 0 : value;
}

/**
 * `select` and `where` are in PostHog's schema but its list ignores them: they are not read here either.
 * The page is LegacyEventsListQuery's (progressive windows, see events-query.ts); `next` sets `before` to
 * the last row's time (strict: rows sharing it that did not fit are skipped by that link).
 */
async function list(ctx: Ctx): Promise<Reply> {
  const project = projectOf(ctx);
  const table = ctx.store.eventsOf(project.id);
  const csv = param(ctx, 'format') === 'csv';
  const limit = Math.min(intParam(ctx, 'limit', csv ? CSV_DEFAULT_LIMIT : JSON_DEFAULT_LIMIT, 1), EVENT_LIST_MAX_LIMIT);
  const offset = offsetParam(ctx);
  const level = ctx.options.eventListLevel;
  if (level > 0) {
    if (offset > 0) await sleep(1_000);
    if (offset > MAX_OFFSET && (level > 1 || ctx.store.rng.next() < 0.01)) throw validation(`Offset is deprecated. Max supported offset value is ${MAX_OFFSET}`);
  }
  const { query, hasAfter, hasBefore } = eventQueryFrom(ctx, table);
  let answer;
  try {
    answer = listEvents(
      table,
      { query, hasAfter, hasBefore, limit, offset, cacheKey: windowCacheKey(project.id, Boolean(param(ctx, 'event')), Boolean(param(ctx, 'distinct_id')), limit) },
      { level, cache: ctx.store.eventWindows, nowMs: ctx.store.now().getTime(), random: () => ctx.store.rng.next() },
    );
  } catch (error) {
    if (error instanceof RangeTooLongError) throw serverError();
    throw error;
  }
  const withPerson = includePerson(ctx);
  const results = answer.rows.map((e) => eventBody(e, withPerson));
  const headers: Record<string, string> = level > 0 ? { 'X-PostHog-Warn': EVENTS_DOCS_WARNING } : {};
  if (csv) return { status: 200, text: toCsv(results), contentType: 'text/csv; charset=utf-8', headers };
  let next: string | null = null;
  if (answer.hasMore && answer.rows.length > 0) {
    const params = queryDict(ctx.query);
    params.set(query.ascending ? 'after' : 'before', isoOffset(answer.rows[answer.rows.length - 1]!.timestamp));
    next = absoluteUrl(ctx, urlencode(params));
  }
  return { status: 200, body: { next, results }, headers };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function retrieve(ctx: Ctx): Reply {
  const id = ctx.params['eventId']!;
  if (!isUuid(id)) throw new ApiError(400, { detail: 'Invalid UUID', code: 'invalid', type: 'validation_error' });
  const event = ctx.store.eventsOf(projectOf(ctx).id).find(id);
  if (!event) throw notFound(`No events exist for event UUID ${id}`);
  const body = eventBody(event, includePerson(ctx));
  if (param(ctx, 'format') === 'csv') return { status: 200, text: toCsv([body]), contentType: 'text/csv; charset=utf-8' };
  return ok(body);
}

const EVENT_NAME_REQUIRED =
  'The event_name parameter is required when using a personal API key. ' +
  'For queries without event filters, please use the Query endpoint instead: https://posthog.com/docs/api/query';

/** PostHog's `_return_with_short_cache`. */
function valuesReply(names: Json[]): Reply {
  return { status: 200, body: { results: names.map((name) => ({ name })), refreshing: false }, headers: { 'Cache-Control': 'max-age=10' } };
}

/**
 * Up to 10 distinct values of a property of the named events (most frequent first). Every key here is a
 * personal API key, so `event_name` is required, also for key=custom_event, whose answer (every custom
 * event name, sorted) ignores both `event_name` and `value`, as PostHog's does.
 */
function values(ctx: Ctx): Reply {
  const key = param(ctx, 'key');
  if (!key) throw validation('You must provide a key');
  const eventNames = ctx.query.getAll('event_name');
  if (eventNames.length === 0) throw validation(EVENT_NAME_REQUIRED);
  const table = ctx.store.eventsOf(projectOf(ctx).id);
  if (key === 'custom_event') {
    const names = new Set<string>();
    for (const row of table.sorted()) {
      const name = table.nameOf(row);
      if (!name.startsWith('$')) names.add(name);
    }
    return valuesReply([...names].sort());
  }
  const needle = param(ctx, 'value')?.toLowerCase();
  const counts = new Map<string, { value: Json; count: number }>();
  const add = (value: Json): void => {
    const text = asText(value);
    if (needle && !text.toLowerCase().includes(needle)) return;
    const entry = counts.get(text) ?? { value, count: 0 };
    entry.count++;
    counts.set(text, entry);
  };
  for (const eventName of new Set(eventNames)) {
    const query: EventQuery = { before: Infinity, event: eventName };
    for (const event of scanEvents(table, query, 0, 10_000)) {
      const value = event.properties[key];
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) add(item);
    }
  }
  const top = [...counts.values()].sort((a, b) => b.count - a.count).slice(0, 10);
  return valuesReply(top.map((entry) => entry.value));
}

export const eventRoutes: Route[] = [
  route('/api/projects/:projectId/events', { GET: { scope: 'query:read', handler: list } }, 'clickhouse'),
  route('/api/projects/:projectId/events/values', { GET: { scope: 'query:read', handler: values } }, 'eventValues'),
  route('/api/projects/:projectId/events/:eventId', { GET: { scope: 'query:read', handler: retrieve } }, 'clickhouse'),
];
