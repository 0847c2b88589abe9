// Evaluates parsed HogQL expressions against events (one row, or a group of rows for aggregates).
import type { Json, JsonObject } from './model';
import type { EventRecord } from './events';
import { AGGREGATES, UNITS, type Expr } from './hogql';
import { asText } from './property-filter';
import { parseIsoMicros, MICROS_PER_DAY } from './time';

export class TimeVal {
  constructor(readonly micros: number) {}
}
class IntervalVal {
  constructor(readonly micros: number) {}
}
export type Val = Json | undefined | TimeVal | IntervalVal | Val[];

export interface Env {
  nowMicros: number;
  projectId: number;
}

/** Evaluates `e` for `row`; aggregate calls are computed over `group` (the rows sharing the group key). */
export function evaluate(e: Expr, row: EventRecord | undefined, env: Env, group?: EventRecord[]): Val {
  switch (e.k) {
    case 'lit': return e.v;
    case 'star': return row ? starOf(row, env) : null;
    case 'field': return row ? field(e.path, row) : null;
    case 'tuple': return e.items.map((i) => evaluate(i, row, env, group));
    case 'interval': return new IntervalVal(Number(toNumber(evaluate(e.n, row, env, group)) ?? 0) * UNITS[e.unit]!);
    case 'neg': { const n = toNumber(evaluate(e.e, row, env, group)); return n === null ? null : -n; }
    case 'not': return !truthy(evaluate(e.e, row, env, group));
    case 'isnull': { const v = evaluate(e.e, row, env, group); const isNull = v === null || v === undefined; return e.negate ? !isNull : isNull; }
    case 'bin': return binary(e.op, () => evaluate(e.l, row, env, group), () => evaluate(e.r, row, env, group));
    case 'call': return call(e, row, env, group);
  }
}

function field(path: string[], row: EventRecord): Val {
  const [root, ...rest] = path;
  switch (root) {
    case 'event': return row.event;
    case 'distinct_id': return row.distinct_id;
    case 'timestamp': case 'created_at': return new TimeVal(row.timestamp);
    case 'uuid': return row.uuid;
    case 'person_id': return row.person?.uuid ?? null;
    case 'elements_chain': return row.elements_chain;
    case 'properties': return dig(row.properties, rest);
    default: {
      if (!row.person) return null;
      if (rest.length === 0) return personOf(row);
      if (rest[0] === 'id') return row.person.uuid;
      if (rest[0] === 'created_at') return new TimeVal(row.person.created_at);
      return dig(row.person.properties, rest.slice(1));
    }
  }
}

function dig(value: Json, path: string[]): Json {
  let current: Json = value;
  for (const key of path) {
    if (!current || typeof current !== 'object' || Array.isArray(current)) return null;
    current = current[key] ?? null;
  }
  return current;
}

function personOf(row: EventRecord): JsonObject {
  const p = row.person!;
  return { id: p.uuid, created_at: toJson(new TimeVal(p.created_at)), properties: { name: p.properties['name'] ?? null, email: p.properties['email'] ?? null }, distinct_ids: [row.distinct_id] };
}

function starOf(row: EventRecord, env: Env): JsonObject {
  const time = toJson(new TimeVal(row.timestamp));
  return {
    uuid: row.uuid, event: row.event, properties: row.properties, timestamp: time, team_id: env.projectId, distinct_id: row.distinct_id,
    elements_chain: row.elements_chain, created_at: time,
    person: row.person ? { id: row.person.uuid, created_at: toJson(new TimeVal(row.person.created_at)), properties: row.person.properties } : null,
    elements: row.elements,
  };
}

function binary(op: string, left: () => Val, right: () => Val): Val {
  if (op === 'and') return truthy(left()) && truthy(right());
  if (op === 'or') return truthy(left()) || truthy(right());
  const l = left();
  const r = right();
  switch (op) {
    case '=': return compare(l, r) === 0;
    case '!=': { const c = compare(l, r); return c !== undefined && c !== 0; }
    case '<': return (compare(l, r) ?? 0) < 0;
    case '>': return (compare(l, r) ?? 0) > 0;
    case '<=': { const c = compare(l, r); return c !== undefined && c <= 0; }
    case '>=': { const c = compare(l, r); return c !== undefined && c >= 0; }
    case 'like': case 'ilike': return l !== null && l !== undefined && likePattern(text(r), op === 'ilike').test(text(l));
    case 'in': return (Array.isArray(r) ? r : [r]).some((item) => compare(l, item) === 0);
    default: return arithmetic(op, l, r);
  }
}

function arithmetic(op: string, l: Val, r: Val): Val {
  if (l instanceof TimeVal && r instanceof IntervalVal) return new TimeVal(op === '-' ? l.micros - r.micros : l.micros + r.micros);
  if (l instanceof TimeVal && r instanceof TimeVal && op === '-') return (l.micros - r.micros) / 1e6;
  const a = toNumber(l);
  const b = toNumber(r);
  if (a === null || b === null) return null;
  return op === '+' ? a + b : op === '-' ? a - b : op === '*' ? a * b : b === 0 ? null : a / b;
}

function call(e: Extract<Expr, { k: 'call' }>, row: EventRecord | undefined, env: Env, group?: EventRecord[]): Val {
  const name = e.name.toLowerCase();
  if (AGGREGATES.has(name)) return aggregate(name, e, env, group ?? (row ? [row] : []));
  const args = e.args.map((a) => evaluate(a, row, env, group));
  const [a, b] = args;
  switch (name) {
    case 'lower': return a === null || a === undefined ? null : text(a).toLowerCase();
    case 'upper': return a === null || a === undefined ? null : text(a).toUpperCase();
    case 'length': return Array.isArray(a) ? a.length : text(a).length;
    case 'concat': return args.map(text).join('');
    case 'tostring': return a === null || a === undefined ? null : text(a);
    case 'toint': { const n = toNumber(a); return n === null ? null : Math.trunc(n); }
    case 'tofloat': return toNumber(a);
    case 'coalesce': case 'ifnull': return args.find((v) => v !== null && v !== undefined) ?? null;
    case 'round': { const n = toNumber(a); const digits = Number(toNumber(b) ?? 0); return n === null ? null : Math.round(n * 10 ** digits) / 10 ** digits; }
    case 'now': return new TimeVal(env.nowMicros);
    case 'today': return new TimeVal(env.nowMicros - (env.nowMicros % MICROS_PER_DAY));
    case 'todatetime': return toTime(a);
    default: { const t = toTime(a); return t ? new TimeVal(t.micros - (t.micros % MICROS_PER_DAY)) : null; }
  }
}

function aggregate(name: string, e: Extract<Expr, { k: 'call' }>, env: Env, rows: EventRecord[]): Val {
  const arg = e.args[0];
  if (name === 'count' && (!arg || arg.k === 'star') && !e.distinct) return rows.length;
  if (!arg) return null;
  const values = rows.map((r) => evaluate(arg, r, env)).filter((v) => v !== null && v !== undefined);
  if (name === 'uniq' || (name === 'count' && e.distinct)) return new Set(values.map((v) => JSON.stringify(toJson(v)))).size;
  if (name === 'count') return values.length;
  if (name === 'min' || name === 'max') {
    return values.reduce<Val>((best, v) => (best === null || (compare(v, best) ?? 0) * (name === 'min' ? -1 : 1) > 0 ? v : best), null);
  }
  const numbers = values.map(toNumber).filter((n): n is number => n !== null);
  const sum = numbers.reduce((s, n) => s + n, 0);
  return name === 'sum' ? sum : numbers.length ? sum / numbers.length : null;
}

/** Orders two values: numbers numerically (numeric text too), times as times, everything else as text. */
export function compare(a: Val, b: Val): number | undefined {
  if (a === null || a === undefined || b === null || b === undefined) return undefined;
  if (a instanceof TimeVal || b instanceof TimeVal) {
    const x = toTime(a);
    const y = toTime(b);
    return x && y ? Math.sign(x.micros - y.micros) : undefined;
  }
  if ((typeof a === 'number' || typeof b === 'number') && typeof a !== 'boolean' && typeof b !== 'boolean') {
    const x = toNumber(a);
    const y = toNumber(b);
    if (x !== null && y !== null) return Math.sign(x - y);
  }
  const x = text(a);
  const y = text(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function toTime(v: Val): TimeVal | null {
  if (v instanceof TimeVal) return v;
  if (typeof v === 'string') {
    const micros = parseIsoMicros(v);
    return micros === undefined ? null : new TimeVal(micros);
  }
  return null;
}

function toNumber(v: Val): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
  return null;
}

function truthy(v: Val): boolean {
  return v !== null && v !== undefined && v !== false && v !== 0 && v !== '';
}

function text(v: Val): string {
  if (v instanceof TimeVal) return new Date(Math.floor(v.micros / 1000)).toISOString().replace('T', ' ').replace('Z', '');
  if (v instanceof IntervalVal) return String(v.micros / 1e6);
  if (Array.isArray(v)) return JSON.stringify(v.map(toJson));
  return asText(v as Json | undefined);
}

function likePattern(pattern: string, insensitive: boolean): RegExp {
  const body = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%/g, '.*').replace(/_/g, '.');
  return new RegExp(`^${body}$`, insensitive ? 'is' : 's');
}

/** JSON form of a result value; times as DRF renders datetimes (millisecond precision, "Z"). */
export function toJson(v: Val): Json {
  if (v === undefined) return null;
  if (v instanceof TimeVal) return new Date(Math.floor(v.micros / 1000)).toISOString();
  if (v instanceof IntervalVal) return v.micros / 1e6;
  if (Array.isArray(v)) return v.map(toJson);
  return v;
}

/** ClickHouse-like type names for the `types` of a select response. */
export function typeName(values: Val[], aggregate: boolean): string {
  const sample = values.find((v) => v !== null && v !== undefined);
  if (sample instanceof TimeVal) return "DateTime64(6, 'UTC')";
  if (typeof sample === 'number') return aggregate && Number.isInteger(sample) ? 'UInt64' : Number.isInteger(sample) ? 'Int64' : 'Float64';
  if (typeof sample === 'boolean') return 'Bool';
  if (sample === undefined) return 'Nullable(Nothing)';
  return 'String';
}
