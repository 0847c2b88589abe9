// PostHog's TrendsQuery (trends_query_runner.py), a subset: EventsNode series with math total, dau or
// unique_session, intervals hour/day/week/month in UTC, dateRange, properties, and a breakdown on one event
// property. Results are shaped as PostHog's: one entry per series (per breakdown value).
import type { Json, JsonObject } from '../model';
import type { EventTable } from '../events';
import { parsePropertyFilter, type PropertyTest } from '../property-filter';
import { relativeDateParse } from '../relative-date';
import { SLOW } from '../event-props';
import { MICROS_PER_DAY, MICROS_PER_HOUR } from '../time';
import { queryError } from '../hogql/parse';
import { startOfDay } from '../hogql/values';
import type { RunContext } from './context';

type Interval = 'hour' | 'day' | 'week' | 'month';
const INTERVALS = new Set<Interval>(['hour', 'day', 'week', 'month']);
const MATHS = new Set(['total', 'dau', 'unique_session']);
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DEFAULT_BREAKDOWN_LIMIT = 25;

/** The start of the interval holding `micros` (UTC; weeks start on the project's week_start_day). */
function bucketStart(micros: number, interval: Interval, weekStart: number): number {
  if (interval === 'hour') return micros - (((micros % MICROS_PER_HOUR) + MICROS_PER_HOUR) % MICROS_PER_HOUR);
  const day = startOfDay(micros);
  if (interval === 'day') return day;
  const date = new Date(day / 1000);
  if (interval === 'week') return day - ((date.getUTCDay() - weekStart + 7) % 7) * MICROS_PER_DAY;
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) * 1000;
}

function nextBucket(start: number, interval: Interval): number {
  if (interval === 'hour') return start + MICROS_PER_HOUR;
  if (interval === 'day') return start + MICROS_PER_DAY;
  if (interval === 'week') return start + 7 * MICROS_PER_DAY;
  const date = new Date(start / 1000);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) * 1000;
}

function dayText(micros: number, interval: Interval): string {
  const iso = new Date(micros / 1000).toISOString();
  return interval === 'hour' ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : iso.slice(0, 10);
}

function labelText(micros: number, interval: Interval): string {
  const date = new Date(micros / 1000);
  const month = MONTHS[date.getUTCMonth()]!;
  if (interval === 'month') return `${month} ${date.getUTCFullYear()}`;
  const day = `${date.getUTCDate()}-${month}-${date.getUTCFullYear()}`;
  return interval === 'hour' ? `${day} ${String(date.getUTCHours()).padStart(2, '0')}:00` : day;
}

interface Series {
  event: string | null;
  math: string;
  customName: Json;
  properties?: PropertyTest;
  raw: JsonObject;
}

function readSeries(query: JsonObject): Series[] {
  return (query['series'] as JsonObject[]).map((node, i) => {
    if (node['kind'] !== 'EventsNode') throw queryError(`Series ${i}: only EventsNode series are supported by the local API (got ${String(node['kind'])})`);
    const math = typeof node['math'] === 'string' ? node['math'] : 'total';
    if (!MATHS.has(math)) throw queryError(`Series ${i}: math "${math}" is not supported by the local API (total, dau, unique_session)`);
    const props = node['properties'];
    return {
      event: typeof node['event'] === 'string' ? node['event'] : null,
      math,
      customName: node['custom_name'] ?? null,
      properties: Array.isArray(props) && props.length ? parsePropertyFilter(JSON.stringify(props)) : undefined,
      raw: node,
    };
  });
}

function rowSource(table: EventTable, row: number) {
  let record: ReturnType<EventTable['record']> | undefined;
  return {
    eventProperty: (key: string) => {
      const quick = table.quickProperty(row, key);
      return quick === SLOW ? (record ??= table.record(row)).properties[key] : quick;
    },
    personProperty: (key: string) => {
      const index = table.personIndexOfRow(row);
      return index < 0 ? undefined : table.persons[index]!.properties[key];
    },
  };
}

export function runTrendsQuery(query: JsonObject, context: RunContext): JsonObject {
  const table = context.store.eventsOf(context.project.id);
  const interval = (query['interval'] ?? 'day') as Interval;
  if (!INTERVALS.has(interval)) throw queryError(`Interval "${String(interval)}" is not supported by the local API (hour, day, week, month)`);
  const range = (query['dateRange'] ?? {}) as JsonObject;
  const from = relativeDateParse(typeof range['date_from'] === 'string' ? range['date_from'] : '-7d', context.nowMicros, context.timeZone);
  const to = typeof range['date_to'] === 'string' ? relativeDateParse(range['date_to'], context.nowMicros, context.timeZone) : context.nowMicros;
  const weekStart = Number(context.project.settings['week_start_day'] ?? 0) || 0;
  const buckets: number[] = [];
  for (let b = bucketStart(from, interval, weekStart); b <= to && buckets.length < 10_000; b = nextBucket(b, interval)) buckets.push(b);
  const global = query['properties'];
  const globalTest = global && (!Array.isArray(global) || global.length) ? parsePropertyFilter(JSON.stringify(global)) : undefined;
  const breakdownFilter = (query['breakdownFilter'] ?? {}) as JsonObject;
  const breakdown = typeof breakdownFilter['breakdown'] === 'string' ? breakdownFilter['breakdown'] : undefined;
  if (breakdown !== undefined && (breakdownFilter['breakdown_type'] ?? 'event') !== 'event') throw queryError('Only event property breakdowns are supported by the local API');
  const breakdownLimit = typeof breakdownFilter['breakdown_limit'] === 'number' ? breakdownFilter['breakdown_limit'] : DEFAULT_BREAKDOWN_LIMIT;
  const series = readSeries(query);
  const results: JsonObject[] = [];
  let hasMore = false;
  series.forEach((s, order) => {
    const counts = countSeries(table, s, globalTest, breakdown, buckets, interval, weekStart, from, to);
    let values = [...counts.keys()];
    if (breakdown !== undefined) {
      values.sort((a, b) => total(counts.get(b)!) - total(counts.get(a)!));
      if (values.length > breakdownLimit) hasMore = true;
      values = values.slice(0, breakdownLimit);
    }
    for (const value of values) results.push(seriesResult(s, order, counts.get(value)!, buckets, interval, breakdown === undefined ? undefined : value, series.length, query));
  });
  return { results: results as Json, hasMore, timings: [], modifiers: {} };
}

const total = (sets: Set<string>[] | number[]): number => (sets as (Set<string> | number)[]).reduce<number>((sum, x) => sum + (typeof x === 'number' ? x : x.size), 0);

/** Per breakdown value ('' without a breakdown), per bucket: a count, or the distinct persons / sessions. */
function countSeries(table: EventTable, s: Series, globalTest: PropertyTest | undefined, breakdown: string | undefined, buckets: number[], interval: Interval, weekStart: number, from: number, to: number): Map<string, Set<string>[] | number[]> {
  const out = new Map<string, Set<string>[] | number[]>();
  const index = new Map(buckets.map((b, i) => [b, i]));
  const rows = table.sorted();
  for (let i = table.firstRowBefore(to + 1); i < rows.length; i++) {
    const row = rows[i]!;
    const ts = table.timeOf(row);
    if (ts < from) break;
    if (s.event !== null && table.nameOf(row) !== s.event) continue;
    const source = rowSource(table, row);
    if (globalTest && !globalTest(source)) continue;
    if (s.properties && !s.properties(source)) continue;
    const at = index.get(bucketStart(ts, interval, weekStart));
    if (at === undefined) continue;
    const raw = breakdown === undefined ? '' : source.eventProperty(breakdown);
    const key = raw === undefined || raw === null || raw === '' ? (breakdown === undefined ? '' : 'none') : typeof raw === 'object' ? JSON.stringify(raw) : String(raw);
    let slot = out.get(key);
    if (!slot) out.set(key, (slot = s.math === 'total' ? buckets.map(() => 0) : buckets.map(() => new Set<string>())));
    if (s.math === 'total') (slot as number[])[at]!++;
    else {
      const id = s.math === 'dau' ? String(table.personIndexOfRow(row) >= 0 ? table.personIndexOfRow(row) : table.distinctIdOf(row)) : String(source.eventProperty('$session_id') ?? '');
      if (id !== '') (slot as Set<string>[])[at]!.add(id);
    }
  }
  if (breakdown === undefined && !out.has('')) out.set('', buckets.map(() => 0));
  return out;
}

function seriesResult(s: Series, order: number, slot: Set<string>[] | number[], buckets: number[], interval: Interval, value: string | undefined, seriesCount: number, query: JsonObject): JsonObject {
  const data = (slot as (Set<string> | number)[]).map((x) => (typeof x === 'number' ? x : x.size));
  const name = s.event ?? 'All events';
  const days = buckets.map((b) => dayText(b, interval));
  const label = value === undefined ? name : seriesCount > 1 ? `${name} - ${value}` : value;
  const result: JsonObject = {
    data,
    labels: buckets.map((b) => labelText(b, interval)),
    days,
    count: data.reduce((sum, n) => sum + n, 0),
    label,
    action: {
      id: s.event, type: 'events', order, name, custom_name: s.customName, math: s.math, math_property: null, math_hogql: null,
      math_group_type_index: null, properties: (s.raw['properties'] ?? []) as Json, days,
    },
    filter: { interval, date_from: ((query['dateRange'] ?? {}) as JsonObject)['date_from'] ?? '-7d', date_to: ((query['dateRange'] ?? {}) as JsonObject)['date_to'] ?? null, display: ((query['trendsFilter'] ?? {}) as JsonObject)['display'] ?? 'ActionsLineGraph' },
  };
  if (value !== undefined) result['breakdown_value'] = value;
  return result;
}
