// Compiles parsed HogQL expressions into functions over a table's rows. Names are resolved here, so unknown
// fields and functions are errors with the offsets of their text, before any row is read.
import type { Expr } from './parse';
import { queryError } from './parse';
import { resolveField, type TableDef } from './tables';
import { compare, Instant, keyOf, startOfDay, text, toInstant, toNumber, truthy, type Value } from './values';
import { MICROS_PER_DAY, MICROS_PER_HOUR, MICROS_PER_SECOND } from '../time';

export interface Compiled<R> {
  /** `aggs`: the group's aggregate results, when the expression is read after aggregation */
  get: (row: R, aggs?: Value[]) => Value;
  type: string;
}

export interface Accumulator<R> {
  add(row: R): void;
  result(): Value;
}

/** An aggregate call found in an expression: a fresh accumulator per group. */
export type AggregateFactory<R> = () => Accumulator<R>;

export interface Scope<R> {
  table: TableDef<R>;
  /** the table's name and alias, which may prefix a field */
  names: string[];
  nowMicros: number;
  /** SELECT aliases, readable in WHERE / GROUP BY / ORDER BY as ClickHouse allows */
  aliases?: Map<string, Compiled<R>>;
  /** where aggregate calls are registered; absent: aggregates are not allowed here (WHERE) */
  aggregates?: AggregateFactory<R>[];
}

class Interval {
  constructor(
    readonly amount: number,
    readonly unit: string,
  ) {}
}

const UNIT_MICROS: Record<string, number> = { second: MICROS_PER_SECOND, minute: 60 * MICROS_PER_SECOND, hour: MICROS_PER_HOUR, day: MICROS_PER_DAY, week: 7 * MICROS_PER_DAY };

/** Adds `sign` times an interval to a time (months, quarters and years by the calendar). */
function shift(at: Instant, interval: Interval, sign: number): Instant {
  const step = UNIT_MICROS[interval.unit];
  if (step !== undefined) return new Instant(at.micros + sign * interval.amount * step, at.dateOnly && step % MICROS_PER_DAY === 0);
  const months = interval.amount * (interval.unit === 'year' ? 12 : interval.unit === 'quarter' ? 3 : 1) * sign;
  const date = new Date(Math.floor(at.micros / 1000));
  date.setUTCMonth(date.getUTCMonth() + months);
  return new Instant(date.getTime() * 1000 + (at.micros % 1000), at.dateOnly);
}

const AGGREGATES = new Set(['count', 'countif', 'sum', 'avg', 'min', 'max', 'uniq', 'uniqexact', 'any']);

export function isAggregate(expr: Expr): boolean {
  switch (expr.type) {
    case 'call': return AGGREGATES.has(expr.name.toLowerCase()) || expr.args.some(isAggregate);
    case 'binary': return isAggregate(expr.left) || isAggregate(expr.right);
    case 'not': case 'negate': case 'isNull': return isAggregate(expr.expr);
    case 'tuple': return expr.items.some(isAggregate);
    case 'interval': return isAggregate(expr.amount);
    default: return false;
  }
}

export function compileExpr<R>(expr: Expr, scope: Scope<R>): Compiled<R> {
  switch (expr.type) {
    case 'constant': {
      const value = expr.value;
      return { get: () => value, type: value === null ? 'Nullable(Nothing)' : typeof value === 'number' ? (Number.isInteger(value) ? 'Int64' : 'Float64') : typeof value === 'boolean' ? 'Bool' : 'String' };
    }
    case 'field': {
      const alias = expr.chain.length === 1 ? scope.aliases?.get(expr.chain[0]!) : undefined;
      if (alias) return alias;
      const field = resolveField(scope.table, scope.names, expr.chain, expr.start, expr.end);
      return typeof field === 'function' ? { get: field, type: 'String' } : { get: field.get, type: field.type };
    }
    case 'star': throw queryError('"*" is only allowed in count(*) or as a whole column', expr.start, expr.end);
    case 'not': {
      const inner = compileExpr(expr.expr, scope);
      return { get: (r, a) => { const v = inner.get(r, a); return v === null ? null : truthy(v) ? 0 : 1; }, type: 'UInt8' };
    }
    case 'negate': {
      const inner = compileExpr(expr.expr, scope);
      return { get: (r, a) => { const n = toNumber(inner.get(r, a)); return n === null ? null : -n; }, type: inner.type };
    }
    case 'isNull': {
      const inner = compileExpr(expr.expr, scope);
      return { get: (r, a) => ((inner.get(r, a) === null) !== expr.negated ? 1 : 0), type: 'UInt8' };
    }
    case 'tuple': {
      const items = expr.items.map((item) => compileExpr(item, scope));
      return { get: (r, a) => items.map((item) => item.get(r, a)), type: 'Array(String)' };
    }
    case 'interval': {
      const amount = compileExpr(expr.amount, scope);
      return { get: (r, a) => new Interval(toNumber(amount.get(r, a)) ?? 0, expr.unit) as unknown as Value, type: 'IntervalSecond' };
    }
    case 'binary': return compileBinary(expr, scope);
    case 'call': return compileCall(expr, scope);
  }
}

type Binary = Extract<Expr, { type: 'binary' }>;

function compileBinary<R>(expr: Binary, scope: Scope<R>): Compiled<R> {
  const left = compileExpr(expr.left, scope);
  const right = compileExpr(expr.right, scope);
  const l = left.get;
  const r = right.get;
  const flag = (test: (c: number) => boolean) => (row: R, a?: Value[]): Value => { const c = compare(l(row, a), r(row, a)); return c === null ? null : test(c) ? 1 : 0; };
  switch (expr.op) {
    case 'and': return { get: (row, a) => (truthy(l(row, a)) && truthy(r(row, a)) ? 1 : 0), type: 'UInt8' };
    case 'or': return { get: (row, a) => (truthy(l(row, a)) || truthy(r(row, a)) ? 1 : 0), type: 'UInt8' };
    case '=': return { get: flag((c) => c === 0), type: 'UInt8' };
    case '!=': return { get: flag((c) => c !== 0), type: 'UInt8' };
    case '<': return { get: flag((c) => c < 0), type: 'UInt8' };
    case '<=': return { get: flag((c) => c <= 0), type: 'UInt8' };
    case '>': return { get: flag((c) => c > 0), type: 'UInt8' };
    case '>=': return { get: flag((c) => c >= 0), type: 'UInt8' };
    case 'like': case 'ilike': case 'not like': case 'not ilike': {
      const negated = expr.op.startsWith('not');
      const insensitive = expr.op.endsWith('ilike');
      const patterns = new Map<string, RegExp>();
      return {
        get: (row, a) => {
          const value = l(row, a);
          const pattern = r(row, a);
          if (value === null || pattern === null) return null;
          const source = text(pattern);
          let regex = patterns.get(source);
          if (!regex) patterns.set(source, (regex = likePattern(source, insensitive)));
          return regex.test(text(value)) !== negated ? 1 : 0;
        },
        type: 'UInt8',
      };
    }
    case 'in': case 'not in': {
      const negated = expr.op === 'not in';
      return {
        get: (row, a) => {
          const value = l(row, a);
          if (value === null) return null;
          const list = r(row, a);
          const found = (Array.isArray(list) ? list : [list]).some((item) => compare(value, item as Value) === 0);
          return found !== negated ? 1 : 0;
        },
        type: 'UInt8',
      };
    }
    case '||': return { get: (row, a) => text(l(row, a)) + text(r(row, a)), type: 'String' };
    default: return arithmetic(expr.op, left, right);
  }
}

function arithmetic<R>(op: string, left: Compiled<R>, right: Compiled<R>): Compiled<R> {
  const dateType = left.type.startsWith('Date') ? left.type : undefined;
  return {
    get: (row, a) => {
      const lv = left.get(row, a);
      const rv = right.get(row, a);
      if ((op === '+' || op === '-') && (rv as unknown) instanceof Interval) {
        const at = toInstant(lv);
        return at ? shift(at, rv as unknown as Interval, op === '+' ? 1 : -1) : null;
      }
      const x = toNumber(lv);
      const y = toNumber(rv);
      if (x === null || y === null) return null;
      switch (op) {
        case '+': return x + y;
        case '-': return x - y;
        case '*': return x * y;
        case '/': return x / y;
        default: return y === 0 ? null : x % y;
      }
    },
    type: dateType ?? (op === '/' ? 'Float64' : left.type === 'Int64' && right.type === 'Int64' ? 'Int64' : 'Float64'),
  };
}

/** SQL LIKE: % any text, _ one character, backslash escapes. */
function likePattern(pattern: string, insensitive: boolean): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '\\' && i + 1 < pattern.length) source += escapeRegex(pattern[++i]!);
    else if (char === '%') source += '[\\s\\S]*';
    else if (char === '_') source += '[\\s\\S]';
    else source += escapeRegex(char);
  }
  return new RegExp(`^${source}$`, insensitive ? 'i' : '');
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type Call = Extract<Expr, { type: 'call' }>;

function compileCall<R>(expr: Call, scope: Scope<R>): Compiled<R> {
  const name = expr.name.toLowerCase();
  if (AGGREGATES.has(name)) return compileAggregate(expr, name, scope);
  const spec = FUNCTIONS[name];
  if (!spec) throw queryError(`Unsupported function call '${expr.name}(...)'`, expr.start, expr.end);
  const [min, max] = spec.arity;
  if (expr.args.length < min || expr.args.length > max) {
    const expected = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
    throw queryError(`Function '${expr.name}' expects ${expected} argument${min === 1 && max === 1 ? '' : 's'}, found ${expr.args.length}`, expr.start, expr.end);
  }
  const args = expr.args.map((arg) => compileExpr(arg, scope));
  const now = scope.nowMicros;
  const getters = args.map((arg) => arg.get);
  if (name === 'if' || name === 'coalesce' || name === 'ifnull') {
    const type = args[name === 'if' ? 1 : 0]!.type;
    if (name === 'if') return { get: (r, a) => (truthy(getters[0]!(r, a)) ? getters[1]!(r, a) : getters[2]!(r, a)), type };
    return { get: (r, a) => { for (const get of getters) { const v = get(r, a); if (v !== null) return v; } return null; }, type };
  }
  return {
    get: (r, a) => spec.run(getters.map((get) => get(r, a)), now),
    type: spec.type ?? args[0]?.type ?? 'String',
  };
}

interface FunctionSpec {
  arity: [number, number];
  /** the result's ClickHouse type (the first argument's when absent) */
  type?: string;
  run: (args: Value[], nowMicros: number) => Value;
}

const onInstant = (type: string, f: (at: Instant) => Value): FunctionSpec => ({
  arity: [1, 2],
  type,
  run: ([value]) => { const at = toInstant(value ?? null); return at ? f(at) : null; },
});

const onText = (type: string, f: (value: string, args: Value[]) => Value, arity: [number, number] = [1, 1]): FunctionSpec => ({
  arity,
  type,
  run: (args) => (args[0] === null ? null : f(text(args[0]!), args)),
});

const onNumber = (type: string, f: (value: number, args: Value[]) => Value, arity: [number, number] = [1, 1]): FunctionSpec => ({
  arity,
  type,
  run: (args) => { const n = toNumber(args[0] ?? null); return n === null ? null : f(n, args); },
});

const DATETIME = "DateTime64(6, 'UTC')";
const dayOf = (at: Instant): number => startOfDay(at.micros);
const utcDate = (at: Instant): Date => new Date(Math.floor(at.micros / 1000));

/** Scalar functions of the subset (ClickHouse names, case-insensitive here). Times are in UTC. */
const FUNCTIONS: Record<string, FunctionSpec> = {
  now: { arity: [0, 0], type: DATETIME, run: (_, now) => new Instant(now) },
  today: { arity: [0, 0], type: 'Date', run: (_, now) => new Instant(startOfDay(now), true) },
  todate: onInstant('Date', (at) => new Instant(dayOf(at), true)),
  todatetime: onInstant(DATETIME, (at) => new Instant(at.micros)),
  tostartofminute: onInstant(DATETIME, (at) => new Instant(at.micros - (((at.micros % 60_000_000) + 60_000_000) % 60_000_000))),
  tostartofhour: onInstant(DATETIME, (at) => new Instant(at.micros - (((at.micros % MICROS_PER_HOUR) + MICROS_PER_HOUR) % MICROS_PER_HOUR))),
  tostartofday: onInstant(DATETIME, (at) => new Instant(dayOf(at))),
  tostartofweek: onInstant('Date', (at) => new Instant(dayOf(at) - utcDate(at).getUTCDay() * MICROS_PER_DAY, true)),
  tostartofmonth: onInstant('Date', (at) => { const d = utcDate(at); return new Instant(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) * 1000, true); }),
  tostartofyear: onInstant('Date', (at) => new Instant(Date.UTC(utcDate(at).getUTCFullYear(), 0, 1) * 1000, true)),
  toyear: onInstant('UInt16', (at) => utcDate(at).getUTCFullYear()),
  tomonth: onInstant('UInt8', (at) => utcDate(at).getUTCMonth() + 1),
  tohour: onInstant('UInt8', (at) => utcDate(at).getUTCHours()),
  todayofweek: onInstant('UInt8', (at) => ((utcDate(at).getUTCDay() + 6) % 7) + 1),
  tounixtimestamp: onInstant('UInt32', (at) => Math.floor(at.micros / 1_000_000)),
  datediff: {
    arity: [3, 3],
    type: 'Int64',
    run: ([unit, from, to]) => {
      const step = UNIT_MICROS[text(unit ?? null)];
      const a = toInstant(from ?? null);
      const b = toInstant(to ?? null);
      if (step === undefined || !a || !b) return null;
      return Math.floor(b.micros / step) - Math.floor(a.micros / step);
    },
  },
  lower: onText('String', (s) => s.toLowerCase()),
  upper: onText('String', (s) => s.toUpperCase()),
  length: onText('UInt64', (s) => Buffer.byteLength(s)),
  trim: onText('String', (s) => s.trim()),
  tostring: onText('String', (s) => s),
  empty: { arity: [1, 1], type: 'UInt8', run: ([v]) => (v === null || text(v!) === '' ? 1 : 0) },
  notempty: { arity: [1, 1], type: 'UInt8', run: ([v]) => (v === null || text(v!) === '' ? 0 : 1) },
  isnull: { arity: [1, 1], type: 'UInt8', run: ([v]) => (v === null ? 1 : 0) },
  isnotnull: { arity: [1, 1], type: 'UInt8', run: ([v]) => (v === null ? 0 : 1) },
  startswith: onText('UInt8', (s, args) => (s.startsWith(text(args[1] ?? null)) ? 1 : 0), [2, 2]),
  endswith: onText('UInt8', (s, args) => (s.endsWith(text(args[1] ?? null)) ? 1 : 0), [2, 2]),
  position: onText('UInt64', (s, args) => s.indexOf(text(args[1] ?? null)) + 1, [2, 2]),
  substring: onText('String', (s, args) => s.substr((toNumber(args[1] ?? null) ?? 1) - 1, args.length > 2 ? (toNumber(args[2]!) ?? undefined) : undefined), [2, 3]),
  concat: { arity: [1, Infinity], type: 'String', run: (args) => args.map((v) => text(v)).join('') },
  toint: onNumber('Int64', (n) => Math.trunc(n)),
  toint64: onNumber('Int64', (n) => Math.trunc(n)),
  tofloat: onNumber('Float64', (n) => n),
  tofloat64: onNumber('Float64', (n) => n),
  round: onNumber('Float64', (n, args) => { const places = toNumber(args[1] ?? 0) ?? 0; const f = 10 ** places; return Math.round(n * f) / f; }, [1, 2]),
  floor: onNumber('Float64', (n) => Math.floor(n)),
  ceil: onNumber('Float64', (n) => Math.ceil(n)),
  abs: onNumber('Float64', (n) => Math.abs(n)),
  if: { arity: [3, 3], run: () => null },
  coalesce: { arity: [1, Infinity], run: () => null },
  ifnull: { arity: [2, 2], run: () => null },
};

function compileAggregate<R>(expr: Call, name: string, scope: Scope<R>): Compiled<R> {
  if (!scope.aggregates) throw queryError(`Aggregation '${expr.name}' is not allowed here`, expr.start, expr.end);
  const inner: Scope<R> = { ...scope, aggregates: undefined };
  const starOnly = expr.args.length === 1 && expr.args[0]!.type === 'star';
  const args = starOnly ? [] : expr.args.map((arg) => compileExpr(arg, inner));
  const expected = name === 'count' ? [0, 1] : name === 'countif' ? [1, 1] : [1, 1];
  if (args.length < expected[0]! || args.length > expected[1]!) throw queryError(`Aggregation '${expr.name}' expects ${expected[1]} argument${expected[1] === 1 ? '' : 's'}, found ${args.length}`, expr.start, expr.end);
  const arg = args[0]?.get;
  const distinct = expr.distinct || name === 'uniq' || name === 'uniqexact';
  const index = scope.aggregates.length;
  scope.aggregates.push(() => accumulator(name, arg, distinct));
  const type = name === 'count' || name === 'countif' || name === 'uniq' || name === 'uniqexact' ? 'UInt64' : name === 'avg' ? 'Float64' : (args[0]?.type ?? 'Float64');
  return { get: (_row, aggs) => (aggs ? aggs[index]! : null), type };
}

function accumulator<R>(name: string, arg: ((row: R) => Value) | undefined, distinct: boolean): Accumulator<R> {
  if (distinct) {
    const seen = new Set<string>();
    return { add: (row) => { const v = arg ? arg(row) : 1; if (v !== null) seen.add(keyOf(v)); }, result: () => seen.size };
  }
  let count = 0;
  let sum = 0;
  let best: Value = null;
  let first: Value = null;
  return {
    add: (row) => {
      if (!arg) return void count++;
      const v = arg(row);
      if (v === null) return;
      if (name === 'countif') return void (truthy(v) && count++);
      count++;
      if (count === 1) first = v;
      if (name === 'sum' || name === 'avg') sum += toNumber(v) ?? 0;
      if ((name === 'min' && (best === null || (compare(v, best) ?? 0) < 0)) || (name === 'max' && (best === null || (compare(v, best) ?? 0) > 0))) best = v;
    },
    result: () => {
      switch (name) {
        case 'count': case 'countif': return count;
        case 'sum': return sum;
        case 'avg': return count ? sum / count : null;
        case 'any': return first;
        default: return best;
      }
    },
  };
}
