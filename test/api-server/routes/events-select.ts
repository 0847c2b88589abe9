// The experimental `select` / `where` listing: answers {columns, types, results, has_more} like
// PostHog's EventsQueryResponse, rows as arrays in the order of `select`.
import type { Json } from '../model';
import type { EventRecord, EventTable } from '../events';
import { intParam, ok, param, projectOf, type Ctx, type Reply } from '../http';
import { validation } from '../errors';
import { isAggregate, parseHogQL, type Expr } from '../hogql';
import { compare, evaluate, toJson, typeName, type Env, type Val } from '../hogql-eval';
import { listWithDefaultWindow, scanEvents, type EventQuery } from '../events-query';
import { eventQueryFrom } from './event-params';

function jsonList(ctx: Ctx, name: string): string[] | undefined {
  const raw = param(ctx, name);
  if (raw === undefined) return undefined;
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (Array.isArray(parsed) && parsed.every((item) => typeof item === 'string')) return parsed as string[];
  } catch {
    // reported below
  }
  throw validation(`"${name}" must be a JSON array of HogQL expressions (strings).`, name);
}

interface OrderTerm {
  expr: Expr;
  column: number;
  descending: boolean;
}

export function selectEvents(ctx: Ctx, table: EventTable): Reply {
  const select = jsonList(ctx, 'select');
  const where = jsonList(ctx, 'where') ?? [];
  if (!select) throw validation("Cannot use 'where' without 'select'", 'where');
  const columns = select.length ? select : ['*'];
  const exprs = columns.map(parseHogQL);
  const filters = where.map(parseHogQL);
  if (filters.some(isAggregate)) throw validation('Aggregations in "where" are not supported by the local API.', 'where');
  const limit = intParam(ctx, 'limit', 100, 1);
  const offset = intParam(ctx, 'offset', 0);
  const env: Env = { nowMicros: ctx.store.now().getTime() * 1000, projectId: projectOf(ctx).id };
  const aggregated = exprs.some(isAggregate);
  const order = orderTerms(ctx, columns, exprs, aggregated);
  const { query, hasAfter } = eventQueryFrom(ctx, table, false);
  const previous = query.extra;
  query.extra = (e) => (!previous || previous(e)) && filters.every((f) => truthyValue(evaluate(f, e, env)));

  let rows: Val[][];
  const timeOrder = !aggregated && order.length === 1 && order[0]!.expr.k === 'field' && (order[0]!.expr.path[0] === 'timestamp');
  if (timeOrder) {
    query.ascending = !order[0]!.descending;
    rows = listWithDefaultWindow(table, query, hasAfter, env.nowMicros, offset, limit).map((e) => exprs.map((x) => evaluate(x, e, env)));
  } else {
    const all = (q: EventQuery): Val[][] => {
      const events = scanEvents(table, q, 0, Infinity);
      return sortRows(aggregated ? groupRows(events, exprs, env) : events.map((e) => withSortKeys(e, exprs, order, env)), order, exprs.length);
    };
    rows = all(hasAfter ? query : { ...query, after: env.nowMicros - 24 * 3600 * 1_000_000 });
    if (rows.length < limit && !hasAfter) rows = all(query);
    rows = rows.slice(offset, offset + limit + 1).map((r) => r.slice(0, exprs.length));
  }
  const results = rows.slice(0, limit);
  return ok({
    columns,
    types: exprs.map((e, i) => typeName(results.map((r) => r[i]), isAggregate(e))),
    results: results.map((r) => r.map(toJson)),
    has_more: rows.length > limit,
  });
}

/** `orderBy` (JSON list, "-" for descending); by default newest first, or the first aggregate descending. */
function orderTerms(ctx: Ctx, columns: string[], exprs: Expr[], aggregated: boolean): OrderTerm[] {
  const requested = jsonList(ctx, 'orderBy');
  if (!requested || requested.length === 0) {
    if (!aggregated) return [{ expr: { k: 'field', path: ['timestamp'] }, column: -1, descending: true }];
    const first = exprs.findIndex(isAggregate);
    return [{ expr: exprs[first]!, column: first, descending: true }];
  }
  return requested.map((raw) => {
    const descending = raw.startsWith('-');
    const text = descending ? raw.slice(1) : raw;
    const column = columns.indexOf(text);
    const expr = column >= 0 ? exprs[column]! : parseHogQL(text);
    if (column < 0 && aggregated) throw validation(`Can only order by selected columns when aggregating: "${text}".`, 'orderBy');
    return { expr, column, descending };
  });
}

/** Row values followed by the values of order terms that are not selected columns. */
function withSortKeys(e: EventRecord, exprs: Expr[], order: OrderTerm[], env: Env): Val[] {
  const row = exprs.map((x) => evaluate(x, e, env));
  for (const term of order) if (term.column < 0) row.push(evaluate(term.expr, e, env));
  return row;
}

function groupRows(events: EventRecord[], exprs: Expr[], env: Env): Val[][] {
  const keyColumns = exprs.map((x, i) => (isAggregate(x) ? -1 : i)).filter((i) => i >= 0);
  const groups = new Map<string, EventRecord[]>();
  for (const e of events) {
    const key = JSON.stringify(keyColumns.map((i) => toJson(evaluate(exprs[i]!, e, env)) as Json));
    const group = groups.get(key);
    if (group) group.push(e);
    else groups.set(key, [e]);
  }
  if (keyColumns.length === 0 && groups.size === 0) groups.set('[]', []);
  return [...groups.values()].map((group) => exprs.map((x) => evaluate(x, group[0], env, group)));
}

/** Sorts by the order terms; terms that are not selected columns sit after the first `base` values. */
function sortRows(rows: Val[][], order: OrderTerm[], base: number): Val[][] {
  let extra = 0;
  const index = order.map((t) => (t.column >= 0 ? t.column : base + extra++));
  return rows.sort((a, b) => {
    for (let i = 0; i < order.length; i++) {
      const c = compare(a[index[i]!], b[index[i]!]) ?? (a[index[i]!] == null ? (b[index[i]!] == null ? 0 : 1) : -1);
      if (c !== 0) return order[i]!.descending ? -c : c;
    }
    return 0;
  });
}

function truthyValue(v: Val): boolean {
  return v !== null && v !== undefined && v !== false && v !== 0 && v !== '';
}
