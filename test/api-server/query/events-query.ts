// PostHog's EventsQuery (events_query_runner.py) over the store's events: HogQL `select` columns with the
// special `*`, `person` and `person_display_name`, `where` expressions, the filters, strict bounds with the
// `<timestamp>|<uuid>` cursor, the default order and the uuid tiebreak, and nextCursor.
import type { EventTable } from '../events';
import type { Json, JsonObject, Person } from '../model';
import { eventBody } from '../serializers';
import { parsePropertyFilter, type PropertySource, type PropertyTest } from '../property-filter';
import { relativeDateParse } from '../relative-date';
import { isoOffset, parseIsoMicros } from '../time';
import { compileExpr, isAggregate, type Accumulator, type AggregateFactory, type Compiled, type Scope } from '../hogql/compile';
import { parseExpr, parseOrderTerm, queryError, type Expr } from '../hogql/parse';
import { DEFAULT_ROWS, MAX_ROWS } from '../hogql/run';
import { eventsTable, type EventRow } from '../hogql/tables';
import { keyOf, output, sortCompare, truthy, type Value } from '../hogql/values';
import { SLOW } from '../event-props';
import type { RunContext } from './context';

interface Column {
  label: string;
  compiled: Compiled<EventRow>;
  aggregate: boolean;
  /** the plain expression text, for the default-order rule */
  expression: string;
}

/** A bound: a time (microseconds) and, for a cursor, the uuid of the row it stopped at. */
interface Bound {
  micros: number;
  uuid?: string;
}

/** Splits `expr -- Label` (the comment names the column) and `expr AS alias`. */
function splitLabel(entry: string): { expression: string; label: string } {
  const comment = commentStart(entry);
  const expression = (comment < 0 ? entry : entry.slice(0, comment)).trim();
  const alias = /^(.*\S)\s+as\s+([A-Za-z_$][\w$]*)$/is.exec(expression);
  if (alias) return { expression: alias[1]!, label: alias[2]! };
  return { expression, label: entry };
}

function commentStart(entry: string): number {
  let quote: string | undefined;
  for (let i = 0; i < entry.length; i++) {
    const char = entry[i]!;
    if (quote) {
      if (char === '\\') i++;
      else if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"' || char === '`') quote = char;
    else if (entry.startsWith('--', i)) return i;
  }
  return -1;
}

function personDict(person: Person | null, distinctId: string): JsonObject {
  if (!person) return { distinct_id: distinctId };
  return { uuid: person.uuid, created_at: isoOffset(person.created_at), properties: person.properties, distinct_id: distinctId };
}

function displayName(person: Person | null, distinctId: string): JsonObject {
  const props = person?.properties ?? {};
  const name = [props['email'], props['name'], props['username']].find((v) => typeof v === 'string' && v !== '') ?? distinctId;
  return { display_name: name as Json, id: person?.uuid ?? null, distinct_id: distinctId };
}

/** The special columns PostHog's EventsQuery answers with a dict instead of a HogQL value. */
function specialColumn(expression: string, table: EventTable, teamId: number): Compiled<EventRow> | undefined {
  const personOf = (r: EventRow): Person | null => {
    const index = table.personIndexOfRow(r.row);
    return index < 0 ? null : table.persons[index]!;
  };
  switch (expression) {
    case '*':
      return {
        get: (r) => {
          const record = (r.rec ??= table.record(r.row));
          const body = eventBody(record, false);
          return {
            uuid: record.uuid, event: record.event, properties: record.properties, timestamp: body['timestamp']!, team_id: teamId,
            distinct_id: record.distinct_id, elements_chain: record.elements_chain, created_at: body['timestamp']!, person_mode: 'full', elements: record.elements,
          };
        },
        type: 'Tuple(UUID, String, String, DateTime64(6, \'UTC\'), Int64, String, String, DateTime64(6, \'UTC\'), String)',
      };
    case 'person':
      return { get: (r) => personDict(personOf(r), table.distinctIdOf(r.row)), type: 'Tuple(UUID, DateTime64(6, \'UTC\'), String, String)' };
    case 'person_display_name':
      return { get: (r) => displayName(personOf(r), table.distinctIdOf(r.row)), type: 'Tuple(String, UUID, String)' };
    default:
      return undefined;
  }
}

/** Offsets inside one entry of `select` / `where` are offsets into that entry's text. */
const parseEntry = (entry: string): Expr => parseExpr(entry);

function parseBound(raw: unknown, nowMicros: number, timeZone: string, field: string): Bound | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') throw queryError(`${field} must be a string`);
  const bar = raw.lastIndexOf('|');
  if (bar > 0) {
    const micros = parseIsoMicros(raw.slice(0, bar));
    if (micros === undefined) throw queryError(`Invalid cursor in ${field}: "${raw}"`);
    return { micros, uuid: raw.slice(bar + 1).toLowerCase() };
  }
  return { micros: relativeDateParse(raw, nowMicros, timeZone) };
}

const isTimestamp = (expr: Expr): boolean => expr.type === 'field' && (expr.chain.join('.') === 'timestamp' || expr.chain.join('.') === 'events.timestamp');

export function runEventsQuery(query: JsonObject, context: RunContext): JsonObject {
  const table = context.store.eventsOf(context.project.id);
  const teamId = context.project.id;
  const def = eventsTable(table, teamId);
  const aggregates: AggregateFactory<EventRow>[] = [];
  const scope: Scope<EventRow> = { table: def, names: ['events'], nowMicros: context.nowMicros, aggregates };
  const rowScope: Scope<EventRow> = { table: def, names: ['events'], nowMicros: context.nowMicros };
  const entries = (query['select'] as string[]).length ? (query['select'] as string[]) : ['*'];
  const columns: Column[] = entries.map((entry) => {
    const { expression, label } = splitLabel(entry);
    const special = specialColumn(expression, table, teamId);
    if (special) return { label, compiled: special, aggregate: false, expression };
    const expr = parseEntry(expression);
    return { label, compiled: compileExpr(expr, scope), aggregate: isAggregate(expr), expression };
  });
  const aggregated = columns.some((c) => c.aggregate);
  const filters = rowFilters(query, rowScope, table);
  const order = orderTerms(query, columns, scope, aggregated);
  const limit = Math.min(typeof query['limit'] === 'number' && query['limit'] > 0 ? query['limit'] : DEFAULT_ROWS, MAX_ROWS);
  const offset = typeof query['offset'] === 'number' && query['offset'] > 0 ? query['offset'] : 0;
  const bounds = {
    before: parseBound(query['before'], context.nowMicros, context.timeZone, 'before') ?? { micros: context.nowMicros + 5_000_000 },
    after: query['after'] === 'all' ? undefined : (parseBound(query['after'], context.nowMicros, context.timeZone, 'after') ?? { micros: relativeDateParse('-24h', context.nowMicros, context.timeZone) }),
  };
  const streaming = !aggregated && order.byTimestamp;
  const wanted = offset + limit + 1;
  let entriesOut: { row: EventRow; aggs?: Value[] }[];
  if (streaming) entriesOut = scanByTime(table, bounds, filters, order, wanted);
  else {
    const rows = collect(table, bounds, filters);
    entriesOut = aggregated ? group(rows, columns, aggregates) : rows.map((row) => ({ row }));
    sortEntries(entriesOut, order.terms);
  }
  const page = entriesOut.slice(offset, offset + limit + 1);
  const hasMore = page.length > limit;
  const shown = page.slice(0, limit);
  const results = shown.map((entry) => columns.map((c) => output(c.compiled.get(entry.row, entry.aggs))));
  const response: JsonObject = {
    results: results as Json,
    columns: columns.map((c) => c.label),
    types: columns.map((c) => c.compiled.type),
    hogql: printed(entries, query, order.text, limit + 1, offset),
    hasMore,
    limit,
    offset,
    modifiers: {},
    timings: [],
  };
  if (hasMore && streaming && shown.length) response['nextCursor'] = cursorOf(shown[shown.length - 1]!.row, table, columns);
  return response;
}

function cursorOf(row: EventRow, table: EventTable, columns: Column[]): string {
  const time = isoOffset(table.timeOf(row.row));
  const hasUuid = columns.some((c) => c.expression === '*' || c.expression === 'uuid' || c.expression === 'events.uuid');
  return hasUuid ? `${time}|${table.uuidOf(row.row)}` : time;
}

type RowFilter = (row: EventRow) => boolean;

function rowFilters(query: JsonObject, scope: Scope<EventRow>, table: EventTable): RowFilter[] {
  const filters: RowFilter[] = [];
  const names = new Set<string>();
  if (typeof query['event'] === 'string') names.add(query['event']);
  if (Array.isArray(query['events'])) for (const name of query['events']) if (typeof name === 'string') names.add(name);
  if (names.size) filters.push((r) => names.has(table.nameOf(r.row)));
  if (query['personId'] !== undefined && query['personId'] !== null) {
    const person = table.findPerson(String(query['personId']));
    const index = person ? table.persons.indexOf(person) : -2;
    filters.push((r) => table.personIndexOfRow(r.row) === index);
  }
  if (query['actionId'] !== undefined && query['actionId'] !== null) filters.push(() => false); // no actions exist locally
  for (const name of ['properties', 'fixedProperties']) {
    const value = query[name];
    if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) continue;
    const test: PropertyTest = parsePropertyFilter(JSON.stringify(value));
    filters.push((r) => test(propertySource(table, r)));
  }
  for (const entry of Array.isArray(query['where']) ? (query['where'] as string[]) : []) {
    const compiled = compileExpr(parseEntry(entry), scope);
    filters.push((r) => truthy(compiled.get(r)));
  }
  return filters;
}

function propertySource(table: EventTable, r: EventRow): PropertySource {
  return {
    eventProperty: (key) => {
      if (r.rec) return r.rec.properties[key];
      const quick = table.quickProperty(r.row, key);
      return quick === SLOW ? (r.rec ??= table.record(r.row)).properties[key] : quick;
    },
    personProperty: (key) => {
      const index = table.personIndexOfRow(r.row);
      return index < 0 ? undefined : table.persons[index]!.properties[key];
    },
  };
}

interface Order {
  terms: { get: Compiled<EventRow>['get']; descending: boolean }[];
  /** the first term is plain `timestamp` (then uuid in the same direction breaks ties) */
  byTimestamp: boolean;
  descending: boolean;
  text: string[];
}

function orderTerms(query: JsonObject, columns: Column[], scope: Scope<EventRow>, aggregated: boolean): Order {
  let sources: string[] = Array.isArray(query['orderBy']) ? (query['orderBy'] as string[]) : [];
  if (sources.length === 0) sources = [defaultOrder(columns)];
  const parsed = sources.map((source) => ({ source, term: parseOrderTerm(source) }));
  const first = parsed[0]!.term;
  const byTimestamp = !aggregated && isTimestamp(first.expr);
  const terms = parsed.map(({ term }) => {
    const label = columns.find((c) => c.expression === (term.expr.type === 'field' ? term.expr.chain.join('.') : ''));
    const compiled = label && term.expr.type === 'field' && label.aggregate ? label.compiled : compileExpr(term.expr, scope);
    return { get: compiled.get, descending: term.descending };
  });
  const text = parsed.map(({ source }) => source);
  if (byTimestamp) {
    const uuid = compileExpr(parseExpr('uuid'), { ...scope, aggregates: undefined });
    terms.push({ get: uuid.get, descending: first.descending });
    text.push(`uuid ${first.descending ? 'DESC' : 'ASC'}`);
  }
  return { terms, byTimestamp, descending: first.descending, text };
}

/** count() DESC if selected, else the first aggregate DESC, else timestamp DESC if selected, else the first column. */
function defaultOrder(columns: Column[]): string {
  if (columns.some((c) => c.expression === 'count()')) return 'count() DESC';
  const aggregate = columns.find((c) => c.aggregate);
  if (aggregate) return `${aggregate.expression} DESC`;
  if (columns.some((c) => c.expression === 'timestamp')) return 'timestamp DESC';
  const first = columns[0]!.expression;
  if (first === '*') return 'uuid ASC';
  if (first === 'person' || first === 'person_display_name') return 'distinct_id ASC';
  return `${first} ASC`;
}

interface Bounds {
  before: Bound;
  after?: Bound;
}

function inBounds(ts: number, uuid: () => string, bounds: Bounds): boolean {
  const { before, after } = bounds;
  if (ts > before.micros || (ts === before.micros && (before.uuid === undefined || !(uuid() < before.uuid)))) return false;
  if (after && (ts < after.micros || (ts === after.micros && (after.uuid === undefined || !(uuid() > after.uuid))))) return false;
  return true;
}

function matches(row: EventRow, filters: RowFilter[]): boolean {
  for (const filter of filters) if (!filter(row)) return false;
  return true;
}

/** Every row in bounds that passes the filters. */
function collect(table: EventTable, bounds: Bounds, filters: RowFilter[]): EventRow[] {
  const rows = table.sorted();
  const out: EventRow[] = [];
  for (let i = table.firstRowBefore(bounds.before.micros + 1); i < rows.length; i++) {
    const row = rows[i]!;
    const ts = table.timeOf(row);
    if (bounds.after && ts < bounds.after.micros) break;
    const entry: EventRow = { row };
    if (inBounds(ts, () => table.uuidOf(row), bounds) && matches(entry, filters)) out.push(entry);
  }
  return out;
}

/**
 * Rows in timestamp order (newest or oldest first), stopping once `wanted` rows are found: rows sharing a
 * timestamp are read together and ordered by the other terms and uuid, so a page never splits them wrongly.
 */
function scanByTime(table: EventTable, bounds: Bounds, filters: RowFilter[], order: Order, wanted: number): { row: EventRow }[] {
  const rows = table.sorted();
  const out: { row: EventRow }[] = [];
  const descending = order.descending;
  const startIndex = descending ? table.firstRowBefore(bounds.before.micros + 1) : (bounds.after ? table.firstRowBefore(bounds.after.micros) : rows.length) - 1;
  let i = startIndex;
  const step = descending ? 1 : -1;
  while (i >= 0 && i < rows.length && out.length < wanted) {
    const ts = table.timeOf(rows[i]!);
    if (descending ? bounds.after && ts < bounds.after.micros : ts > bounds.before.micros) break;
    const tied: { row: EventRow }[] = [];
    for (; i >= 0 && i < rows.length && table.timeOf(rows[i]!) === ts; i += step) {
      const row = rows[i]!;
      const entry: EventRow = { row };
      if (inBounds(ts, () => table.uuidOf(row), bounds) && matches(entry, filters)) tied.push({ row: entry });
    }
    if (tied.length > 1) sortEntries(tied, order.terms.slice(1));
    out.push(...tied);
  }
  return out;
}

function group(rows: EventRow[], columns: Column[], factories: AggregateFactory<EventRow>[]): { row: EventRow; aggs: Value[] }[] {
  const keys = columns.filter((c) => !c.aggregate);
  const groups = new Map<string, { row: EventRow; accumulators: Accumulator<EventRow>[] }>();
  for (const row of rows) {
    const key = keys.map((c) => keyOf(c.compiled.get(row))).join('\u0000');
    let entry = groups.get(key);
    if (!entry) groups.set(key, (entry = { row, accumulators: factories.map((make) => make()) }));
    for (const accumulator of entry.accumulators) accumulator.add(row);
  }
  // Aggregates alone over no rows still give one row (count() = 0), as in SQL.
  if (groups.size === 0 && keys.length === 0) groups.set('', { row: { row: -1 }, accumulators: factories.map((make) => make()) });
  return [...groups.values()].map((g) => ({ row: g.row, aggs: g.accumulators.map((a) => a.result()) }));
}

function sortEntries(entries: { row: EventRow; aggs?: Value[] }[], terms: Order['terms']): void {
  if (terms.length === 0) return;
  const keyed = entries.map((entry) => ({ entry, keys: terms.map((t) => t.get(entry.row, entry.aggs)) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < terms.length; i++) {
      const c = sortCompare(a.keys[i]!, b.keys[i]!);
      if (c !== 0) return terms[i]!.descending ? -c : c;
    }
    return 0;
  });
  keyed.forEach((k, i) => (entries[i] = k.entry));
}

/** The HogQL PostHog would print for this query (approximate: for display and logs only). */
function printed(select: string[], query: JsonObject, order: string[], limit: number, offset: number): string {
  const where = Array.isArray(query['where']) && query['where'].length ? ` WHERE ${(query['where'] as string[]).map((w) => `(${w})`).join(' AND ')}` : '';
  return `SELECT ${select.join(', ')} FROM events${where} ORDER BY ${order.join(', ')} LIMIT ${limit}${offset ? ` OFFSET ${offset}` : ''}`;
}
