// Runs a parsed SELECT over the `events` or `persons` table: WHERE, GROUP BY with aggregates, HAVING,
// ORDER BY, LIMIT/OFFSET with PostHog's HogQLQuery row limits.
import type { EventTable } from '../events';
import type { Json } from '../model';
import { compileExpr, isAggregate, type Accumulator, type AggregateFactory, type Compiled, type Scope } from './compile';
import { queryError, type Expr, type SelectQuery } from './parse';
import { eventsTable, personsTable, type TableDef } from './tables';
import { keyOf, output, sortCompare, truthy, type Value } from './values';

/** PostHog's row limits for queries through the API (constants.py). */
export const DEFAULT_ROWS = 100;
export const MAX_ROWS = 50_000;

export interface ProjectData {
  events: EventTable;
  teamId: number;
  nowMicros: number;
}

export interface SelectAnswer {
  columns: string[];
  types: [string, string][];
  results: Json[][];
  /** only for a SELECT without LIMIT */
  paging?: { hasMore: boolean; limit: number; offset: number };
}

const TABLES = ['events', 'persons'];

/** The table a FROM names (an unknown one is an error at its name). */
export function tableFor(query: SelectQuery, data: ProjectData): TableDef<unknown> {
  if (!query.from) return { name: '', fields: {}, rows: () => [null] };
  const name = query.from.table;
  if (name === 'events') return eventsTable(data.events, data.teamId) as TableDef<unknown>;
  if (name === 'persons') return personsTable(data.events) as TableDef<unknown>;
  throw queryError(`Unknown table "${name}". Tables of the local API: ${TABLES.join(', ')}.`, query.from.start, query.from.end);
}

interface Plan<R> {
  columns: string[];
  select: Compiled<R>[];
  where?: Compiled<R>;
  groupBy: Compiled<R>[];
  having?: Compiled<R>;
  orderBy: { get: Compiled<R>['get']; descending: boolean }[];
  aggregates?: AggregateFactory<R>[];
}

/** Compiles the query against its table: every name is resolved here (unknown ones throw with their offsets). */
export function planSelect<R>(query: SelectQuery, table: TableDef<R>, nowMicros: number): Plan<R> {
  const names = [table.name, ...(query.from?.alias ? [query.from.alias] : [])];
  const aggregated = query.groupBy.length > 0 || query.select.some((c) => isAggregate(c.expr)) || (query.having !== undefined);
  const aggregates: AggregateFactory<R>[] | undefined = aggregated ? [] : undefined;
  const aliases = new Map<string, Compiled<R>>();
  const scope: Scope<R> = { table, names, nowMicros, aliases, aggregates };
  const columns: string[] = [];
  const select: Compiled<R>[] = [];
  for (const column of query.select) {
    if (column.expr.type === 'star') {
      for (const [name, field] of Object.entries(table.fields)) {
        if (field.table) continue;
        columns.push(name);
        select.push({ get: (row) => field.get(row), type: field.type });
      }
      continue;
    }
    const compiled = compileExpr(column.expr, scope);
    select.push(compiled);
    columns.push(column.alias ?? columnName(column.expr, query));
    if (column.alias) aliases.set(column.alias, compiled);
  }
  // Before aggregation only the plain columns' aliases can be read (WHERE, GROUP BY).
  const rowAliases = new Map([...aliases].filter(([alias]) => !isAggregate(query.select.find((c) => c.alias === alias)!.expr)));
  const rowScope: Scope<R> = { table, names, nowMicros, aliases: rowAliases };
  return {
    columns,
    select,
    where: query.where ? compileExpr(query.where, rowScope) : undefined,
    groupBy: query.groupBy.map((expr) => compileExpr(expr, rowScope)),
    having: query.having ? compileExpr(query.having, scope) : undefined,
    orderBy: query.orderBy.map((term) => ({ get: compileExpr(term.expr, scope).get, descending: term.descending })),
    aggregates,
  };
}

/** The name ClickHouse gives an unnamed column: a field's last part, else the expression's text. */
function columnName(expr: Expr, query: SelectQuery & { source?: string }): string {
  if (expr.type === 'field') return expr.chain[expr.chain.length - 1]!;
  return query.source ? query.source.slice(expr.start, expr.end) : `column_${expr.start}`;
}

export function runSelect(source: string, query: SelectQuery, data: ProjectData): SelectAnswer {
  const table = tableFor(query, data);
  const plan = planSelect({ ...query, source } as SelectQuery, table, data.nowMicros);
  const limit = query.limit === undefined ? DEFAULT_ROWS : Math.min(query.limit, MAX_ROWS);
  const offset = query.offset ?? 0;
  const wanted = query.limit === undefined ? limit + 1 : limit;
  const rows = plan.aggregates ? aggregate(plan, table) : filter(plan, table, plan.orderBy.length || query.distinct ? Infinity : offset + wanted);
  if (plan.orderBy.length) sortRows(rows, plan.orderBy);
  const outputs = (entries: Entry<unknown>[]): Json[][] => entries.map((entry) => plan.select.map((column) => output(safely(() => column.get(entry.row, entry.aggs)))));
  const all = query.distinct ? distinctRows(outputs(rows)) : undefined;
  const page = all ? all.slice(offset, offset + wanted) : outputs(rows.slice(offset, offset + wanted));
  const hasMore = page.length > limit;
  const results = page.slice(0, limit);
  const types = plan.columns.map((name, i): [string, string] => [name, plan.select[i]!.type]);
  return { columns: plan.columns, types, results, ...(query.limit === undefined ? { paging: { hasMore, limit, offset } } : {}) };
}

function distinctRows(rows: Json[][]): Json[][] {
  const seen = new Set<string>();
  return rows.filter((row) => {
    const key = JSON.stringify(row);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

interface Entry<R> {
  row: R;
  aggs?: Value[];
}

function filter<R>(plan: Plan<R>, table: TableDef<R>, take: number): Entry<R>[] {
  const out: Entry<R>[] = [];
  if (take <= 0) return out;
  for (const row of table.rows()) {
    if (plan.where && !truthy(plan.where.get(row))) continue;
    out.push({ row });
    if (out.length >= take) break;
  }
  return out;
}

function aggregate<R>(plan: Plan<R>, table: TableDef<R>): Entry<R>[] {
  const groups = new Map<string, { row: R; accumulators: Accumulator<R>[] }>();
  const factories = plan.aggregates!;
  for (const row of table.rows()) {
    if (plan.where && !truthy(plan.where.get(row))) continue;
    const key = plan.groupBy.map((g) => keyOf(g.get(row))).join('\u0000');
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { row, accumulators: factories.map((make) => make()) }));
    for (const accumulator of group.accumulators) accumulator.add(row);
  }
  if (groups.size === 0 && plan.groupBy.length === 0) groups.set('', { row: undefined as R, accumulators: factories.map((make) => make()) });
  const out: Entry<R>[] = [];
  for (const group of groups.values()) {
    const entry = { row: group.row, aggs: group.accumulators.map((a) => a.result()) };
    if (plan.having && !truthy(safely(() => plan.having!.get(entry.row, entry.aggs)))) continue;
    out.push(entry);
  }
  return out;
}

export function sortRows<R>(rows: Entry<R>[], orderBy: Plan<R>['orderBy']): void {
  const keyed = rows.map((entry) => ({ entry, keys: orderBy.map((term) => safely(() => term.get(entry.row, entry.aggs))) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < orderBy.length; i++) {
      const c = sortCompare(a.keys[i]!, b.keys[i]!);
      if (c !== 0) return orderBy[i]!.descending ? -c : c;
    }
    return 0;
  });
  keyed.forEach((k, i) => (rows[i] = k.entry));
}

/** A read of a group with no rows (an aggregate over nothing) gives NULL for its plain columns. */
function safely(read: () => Value): Value {
  try {
    return read();
  } catch (error) {
    if (error instanceof TypeError) return null;
    throw error;
  }
}
