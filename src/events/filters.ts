// Turns the filter form into the event list's query parameters (spec 4.3). vscode-free.
import { checkEventRange, EventRangeError, type EventFilters, EVENTS_MAX_PAGE } from '../api';
import { MAX_EXPORT_ROWS } from './exportWriter';
import { type FilterState, type PropertyRow, VALUELESS_OPERATORS } from './protocol';

/** A filter the user must fix; the message is fit to show. */
export class FilterError extends Error {}

const MILLIS_PER_MINUTE = 60_000;
const MILLIS_PER_HOUR = 60 * MILLIS_PER_MINUTE;
const MILLIS_PER_DAY = 24 * MILLIS_PER_HOUR;
const RELATIVE = /^-(\d{1,6})\s*(min|minute|minutes|h|hour|hours|d|day|days|w|week|weeks|m|month|months|y|year|years)$/i;

/**
 * An absolute time as an ISO string, from either an absolute input (ISO 8601, a date) or a relative
 * one counted back from `now` the way PostHog counts: minutes and hours exactly; days, weeks,
 * months and years back to the start of that (UTC) day.
 */
export function resolveTime(input: string, now: Date): string | undefined {
  const trimmed = input.trim();
  if (!trimmed) {
    return undefined;
  }
  const relative = RELATIVE.exec(trimmed);
  if (relative) {
    return relativeTime(Number(relative[1]), relative[2]!.toLowerCase(), now).toISOString();
  }
  if (!/^\d{4}-\d{2}-\d{2}/.test(trimmed)) {
    throw new FilterError(`"${trimmed}" is not a time: use an ISO date such as 2024-05-01T12:00:00Z, or -24h, -7d, -2w, -1m, -1y.`);
  }
  const millis = Date.parse(trimmed);
  if (Number.isNaN(millis)) {
    throw new FilterError(`"${trimmed}" is not a valid date.`);
  }
  return new Date(millis).toISOString();
}

function relativeTime(amount: number, unit: string, now: Date): Date {
  if (unit.startsWith('min')) {
    return new Date(now.getTime() - amount * MILLIS_PER_MINUTE);
  }
  if (unit.startsWith('h')) {
    return new Date(now.getTime() - amount * MILLIS_PER_HOUR);
  }
  if (unit.startsWith('d')) {
    return startOfDay(new Date(now.getTime() - amount * MILLIS_PER_DAY));
  }
  if (unit.startsWith('w')) {
    return startOfDay(new Date(now.getTime() - amount * 7 * MILLIS_PER_DAY));
  }
  const date = new Date(now.getTime());
  if (unit.startsWith('m')) {
    date.setUTCMonth(date.getUTCMonth() - amount);
  } else {
    date.setUTCFullYear(date.getUTCFullYear() - amount);
  }
  return startOfDay(date);
}

function startOfDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

/** The `properties` parameter: the builder's rows, then what the raw JSON adds (all must match). */
export function propertyFilters(rows: readonly PropertyRow[], rawJson: string): unknown[] | undefined {
  const filters: unknown[] = rows
    .filter((row) => row.key.trim())
    .map((row) => {
      const filter: Record<string, unknown> = { key: row.key.trim(), operator: row.operator, type: row.type };
      if (!VALUELESS_OPERATORS.includes(row.operator)) {
        filter['value'] = row.value;
      }
      return filter;
    });
  const raw = rawJson.trim();
  if (raw) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new FilterError('The properties JSON does not parse: it must be a list of filters or an AND/OR group.');
    }
    if (Array.isArray(parsed)) {
      filters.push(...parsed);
    } else if (parsed && typeof parsed === 'object') {
      filters.push(parsed);
    } else {
      throw new FilterError('The properties JSON must be a list of filters or an AND/OR group.');
    }
  }
  return filters.length ? filters : undefined;
}

/** PostHog's own default columns (besides the event, its person and its time, which the table always shows). */
export const DEFAULT_COLUMNS = ['coalesce(properties.$current_url, properties.$screen_name) -- Url / Screen', 'properties.$lib'] as const;
/** The most columns a query shows. */
export const MAX_COLUMNS = 30;

/**
 * The `columns` field as HogQL expressions: split at commas outside parentheses, brackets and quotes.
 * A bare property key (`$browser`, what the field held before it took HogQL) is read as
 * `properties.$browser`. Empty: PostHog's default columns.
 */
export function columnExpressions(text: string): string[] {
  const expressions = splitTopLevel(text).map((part) => part.trim()).filter(Boolean).map(migratedColumn);
  const unique = [...new Set(expressions)].slice(0, MAX_COLUMNS);
  return unique.length ? unique : [...DEFAULT_COLUMNS];
}

function migratedColumn(expression: string): string {
  return /^\$[\w$]*$/.test(expression) ? `properties.${expression}` : expression;
}

const OPENERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** Splits at commas that are outside brackets and quoted strings (HogQL's '...', "...", `...`). */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  const closers: string[] = [];
  let quote: string | undefined;
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quote) {
      if (char === '\\') index++;
      else if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"' || char === '`') {
      quote = char;
    } else if (OPENERS[char]) {
      closers.push(OPENERS[char]!);
    } else if (char === closers[closers.length - 1]) {
      closers.pop();
    } else if (char === ',' && closers.length === 0) {
      parts.push(text.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** A column's header: its `-- Label` when it has one (as PostHog names the column), else the expression. */
export function columnHeader(expression: string): string {
  const label = /--\s*(.+)$/.exec(expression)?.[1]?.trim();
  return label || expression;
}

export interface EventQuery {
  /** The list's query parameters (limit is the page size); persons included, for the Person column. */
  filters: EventFilters;
  /** HogQL expressions shown as columns after the fixed ones. */
  columns: string[];
  /** A HogQL boolean expression, as typed ('' for none). */
  where: string;
}

/** Rows an export writes when the form does not say. */
export const DEFAULT_EXPORT_ROWS = 1_000;

/**
 * The lower bound when After is empty: the last 24 hours. Every request is bounded, so the list answers
 * the same on every deployment (some answer only 24 hours without `after`, others scan everything).
 */
export const DEFAULT_AFTER = '-24h';

export function buildQuery(state: FilterState, now: Date): EventQuery {
  const filters: EventFilters = {};
  const set = <K extends keyof EventFilters>(name: K, value: EventFilters[K] | undefined) => {
    if (value !== undefined && value !== '') {
      filters[name] = value;
    }
  };
  set('event', state.event.trim() || undefined);
  set('distinct_id', state.distinctId.trim() || undefined);
  set('person_id', state.personId.trim() || undefined);
  set('after', resolveTime(state.after.trim() || DEFAULT_AFTER, now));
  set('before', resolveTime(state.before, now));
  try {
    checkEventRange(filters, now.getTime());
  } catch (error) {
    throw error instanceof EventRangeError ? new FilterError(error.userMessage) : error;
  }
  set('properties', propertyFilters(state.properties, state.propertiesJson));
  set('limit', wholeNumber(state.limit, EVENTS_MAX_PAGE, 'The page size'));
  filters.include_person = true;
  return { filters, columns: columnExpressions(state.columns), where: state.where.trim() };
}

/** An export: the same filters (persons included) without the page size, and how many rows to write. */
export function buildExport(state: FilterState, now: Date): { query: EventQuery; rows: number } {
  const query = buildQuery({ ...state, limit: '' }, now);
  const rows = wholeNumber(state.exportLimit, MAX_EXPORT_ROWS, 'The number of rows to export') ?? DEFAULT_EXPORT_ROWS;
  return { query, rows };
}

function wholeNumber(text: string, max: number, what: string): number | undefined {
  const trimmed = text.trim();
  if (!trimmed) {
    return undefined;
  }
  const value = Number(trimmed);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new FilterError(`${what} must be a whole number from 1 to ${max.toLocaleString('en-US')}.`);
  }
  return value;
}

/** The filters the user set, as `name = "value"` (for an empty result's message); the time range apart. */
export function describeFilters(state: FilterState): string[] {
  const quoted = (value: string) => JSON.stringify(value.trim());
  const named: string[] = [];
  if (state.event.trim()) named.push(`event = ${quoted(state.event)}`);
  if (state.distinctId.trim()) named.push(`distinct ID = ${quoted(state.distinctId)}`);
  if (state.personId.trim()) named.push(`person = ${quoted(state.personId)}`);
  for (const row of state.properties.filter((property) => property.key.trim())) {
    named.push(`${row.type === 'person' ? 'person ' : ''}${row.key.trim()} ${row.operator}${VALUELESS_OPERATORS.includes(row.operator) ? '' : ` ${quoted(row.value)}`}`);
  }
  if (state.propertiesJson.trim()) named.push(`properties JSON = ${state.propertiesJson.trim()}`);
  if (state.where.trim()) named.push(`where = ${state.where.trim()}`);
  return named;
}

/** Whether the time range is the default one (the last 24 hours, no Before): only then does the panel look further back. */
export function isDefaultRange(state: FilterState): boolean {
  return (state.after.trim() === '' || state.after.trim() === DEFAULT_AFTER) && state.before.trim() === '';
}

/** How far back the panel looks when the default range is empty: the shortest of these holding the newest event. */
export const LOOK_BACK = ['-7d', '-30d', '-365d'] as const;
export type LookBack = (typeof LOOK_BACK)[number];

/** The shortest look-back range that holds an event at `timestamp`. */
export function lookBackFor(timestamp: string, now: Date): LookBack {
  const time = Date.parse(timestamp);
  return LOOK_BACK.find((range) => Date.parse(resolveTime(range, now)!) < time) ?? '-365d';
}
