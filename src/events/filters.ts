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

export function columnKeys(text: string): string[] {
  return [...new Set(text.split(',').map((key) => key.trim()).filter(Boolean))].slice(0, 12);
}

export interface EventQuery {
  /** The list's query parameters (limit is the page size); persons included, for the Person column. */
  filters: EventFilters;
  /** Property keys shown as extra columns. */
  columns: string[];
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
  return { filters, columns: columnKeys(state.columns) };
}

/** An export: the same filters (persons included) without the page size, and how many rows to write. */
export function buildExport(state: FilterState, now: Date): { filters: EventFilters; rows: number } {
  const { filters } = buildQuery({ ...state, limit: '' }, now);
  const rows = wholeNumber(state.exportLimit, MAX_EXPORT_ROWS, 'The number of rows to export') ?? DEFAULT_EXPORT_ROWS;
  return { filters, rows };
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
