// Events (deprecated legacy endpoint): /api/projects/{project}/events/, /events/{id}/, /events/values/
import type { Json } from '../model';
import { route, type Route } from '../router';
import { absoluteUrl, intParam, ok, param, projectOf, queryDict, urlencode, type Ctx, type Reply } from '../http';
import { ApiError, notFound, validation } from '../errors';
import { asText } from '../property-filter';
import { listWithDefaultWindow, scanEvents, type EventQuery } from '../events-query';
import { eventBody } from '../serializers';
import { toCsv } from '../csv';
import { isoOffset } from '../time';
import { isUuid } from '../random';
import { selectEvents } from './events-select';
import { eventQueryFrom } from './event-params';

const MAX_OFFSET = 50_000;
const CSV_DEFAULT_LIMIT = 3_500;
const CSV_MAX_LIMIT = 100_000;

function list(ctx: Ctx): Reply {
  const table = ctx.store.eventsOf(projectOf(ctx).id);
  if (param(ctx, 'select') !== undefined || param(ctx, 'where') !== undefined) return selectEvents(ctx, table);
  const csv = param(ctx, 'format') === 'csv';
  const limit = Math.min(intParam(ctx, 'limit', csv ? CSV_DEFAULT_LIMIT : 100, 1), csv ? CSV_MAX_LIMIT : Infinity);
  const offset = intParam(ctx, 'offset', 0);
  if (offset > MAX_OFFSET) throw validation(`Offsets above ${MAX_OFFSET} are not supported. Use "before" or "after" to page further.`, 'offset');
  const { query, hasAfter } = eventQueryFrom(ctx, table);
  const rows = listWithDefaultWindow(table, query, hasAfter, ctx.store.now().getTime() * 1000, offset, limit);
  const results = rows.slice(0, limit).map((e) => eventBody(e, true));
  if (csv) return { status: 200, text: toCsv(results), contentType: 'text/csv; charset=utf-8' };
  let next: string | null = null;
  if (rows.length > limit) {
    const params = queryDict(ctx.query);
    params.set(query.ascending ? 'after' : 'before', isoOffset(rows[limit - 1]!.timestamp));
    next = absoluteUrl(ctx, urlencode(params));
  }
  return ok({ next, results });
}

function retrieve(ctx: Ctx): Reply {
  const id = ctx.params['eventId']!;
  if (!isUuid(id)) throw new ApiError(400, { detail: 'Invalid UUID', code: 'invalid', type: 'validation_error' });
  const event = ctx.store.eventsOf(projectOf(ctx).id).find(id);
  if (!event) throw notFound(`No events exist for event UUID ${id}`);
  const body = eventBody(event, param(ctx, 'include_person') !== undefined);
  if (param(ctx, 'format') === 'csv') return { status: 200, text: toCsv([body]), contentType: 'text/csv; charset=utf-8' };
  return ok(body);
}

/** Up to 10 distinct values of a property (most frequent first), or custom event names for key=custom_event. */
function values(ctx: Ctx): Reply {
  const key = param(ctx, 'key');
  if (!key) throw validation('You must provide a key');
  const table = ctx.store.eventsOf(projectOf(ctx).id);
  const eventName = param(ctx, 'event_name');
  const needle = param(ctx, 'value')?.toLowerCase();
  const counts = new Map<string, { value: Json; count: number }>();
  const add = (value: Json): void => {
    const text = asText(value);
    if (needle && !text.toLowerCase().includes(needle)) return;
    const entry = counts.get(text) ?? { value, count: 0 };
    entry.count++;
    counts.set(text, entry);
  };
  if (key === 'custom_event') {
    for (const row of table.sorted()) {
      const name = table.nameOf(row);
      if (!name.startsWith('$')) add(name);
    }
    return ok([...counts.values()].map((entry) => ({ name: entry.value })));
  }
  const query: EventQuery = { before: Infinity };
  if (eventName) query.event = eventName;
  for (const event of scanEvents(table, query, 0, 10_000)) {
    const value = event.properties[key];
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) add(item);
  }
  const top = [...counts.values()].sort((a, b) => b.count - a.count).slice(0, 10);
  return ok(top.map((entry) => ({ name: entry.value })));
}

export const eventRoutes: Route[] = [
  route('/api/projects/:projectId/events', { GET: { scope: 'query:read', handler: list } }, 'events'),
  route('/api/projects/:projectId/events/values', { GET: { scope: 'query:read', handler: values } }, 'events'),
  route('/api/projects/:projectId/events/:eventId', { GET: { scope: 'query:read', handler: retrieve } }, 'events'),
];
