// Values of the local HogQL evaluator and how they compare, print and are typed (ClickHouse's rules, simplified).
import type { Json } from '../model';
import { isoOffset, parseIsoMicros, MICROS_PER_DAY } from '../time';

/** A DateTime (microseconds since the epoch, UTC) or a Date (its midnight). */
export class Instant {
  constructor(
    readonly micros: number,
    readonly dateOnly = false,
  ) {}
}

export type Value = null | string | number | boolean | Instant | Value[] | { [key: string]: Json };

/** How a value leaves the server in a result row. */
export function output(value: Value): Json {
  if (value instanceof Instant) return value.dateOnly ? isoOffset(value.micros).slice(0, 10) : isoOffset(value.micros);
  if (Array.isArray(value)) return value.map(output);
  return value as Json;
}

/** ClickHouse's text form (toString): strings as is, JSON for objects. */
export function text(value: Value): string {
  if (value === null) return '';
  if (value instanceof Instant) return output(value) as string;
  if (typeof value === 'object') return JSON.stringify(output(value));
  return String(value);
}

/** A cheap key that tells values apart (GROUP BY, uniq). */
export function keyOf(value: Value): string {
  if (value instanceof Instant) return `\u0001${value.micros}`;
  return typeof value === 'object' && value !== null ? JSON.stringify(output(value)) : String(value);
}

export function toNumber(value: Value): number | null {
  if (value === null || value === '') return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Instant) return value.micros / 1_000_000;
  if (typeof value === 'string') {
    const n = Number(value);
    return Number.isNaN(n) ? null : n;
  }
  return null;
}

export function toInstant(value: Value): Instant | null {
  if (value instanceof Instant) return value;
  if (typeof value === 'number') return new Instant(value * 1_000_000);
  if (typeof value === 'string') {
    const micros = parseIsoMicros(value);
    return micros === undefined ? null : new Instant(micros, /^\d{4}-\d\d-\d\d$/.test(value.trim()));
  }
  return null;
}

/** -1, 0 or 1; null when either side is null (a comparison with NULL is NULL). Mixed kinds compare as ClickHouse converts them. */
export function compare(a: Value, b: Value): number | null {
  if (a === null || b === null) return null;
  if (a instanceof Instant || b instanceof Instant) {
    const left = toInstant(a);
    const right = toInstant(b);
    if (!left || !right) return null;
    return Math.sign(left.micros - right.micros);
  }
  if (typeof a === 'number' || typeof b === 'number' || typeof a === 'boolean' || typeof b === 'boolean') {
    const left = toNumber(a);
    const right = toNumber(b);
    if (left !== null && right !== null) return Math.sign(left - right);
  }
  const left = text(a);
  const right = text(b);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Sort order: NULLs last, as ClickHouse's default NULLS LAST for ASC. */
export function sortCompare(a: Value, b: Value): number {
  if (a === null) return b === null ? 0 : 1;
  if (b === null) return -1;
  return compare(a, b) ?? 0;
}

/** A truthy value in a WHERE: NULL, 0, false and '' are false. */
export function truthy(value: Value): boolean {
  if (value === null || value === false || value === 0 || value === '') return false;
  return true;
}

export function startOfDay(micros: number): number {
  return micros - (((micros % MICROS_PER_DAY) + MICROS_PER_DAY) % MICROS_PER_DAY);
}

/** A ClickHouse type name for a value, when the expression's type is not known statically. */
export function typeOf(value: Value): string {
  if (value === null) return 'Nullable(Nothing)';
  if (value instanceof Instant) return value.dateOnly ? 'Date' : "DateTime64(6, 'UTC')";
  if (typeof value === 'number') return Number.isInteger(value) ? 'Int64' : 'Float64';
  if (typeof value === 'boolean') return 'Bool';
  if (Array.isArray(value)) return 'Array(String)';
  return 'String';
}
