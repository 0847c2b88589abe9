// Events as the webview shows them: compact rows of text, and one event's detail. vscode-free.
import type { Event, QueriedEvent } from '../api';
import { columnHeader } from './filters';
import type { EventDetail, Row } from './protocol';

/** Cell text is cut here: the detail view shows the whole value. */
const MAX_CELL = 300;

export const BASE_COLUMNS = ['Time', 'Event', 'Distinct ID', 'Person'] as const;

/** The table's headers: the fixed columns, then one per expression (its `-- Label`, else the expression). */
export function eventColumns(expressions: readonly string[]): string[] {
  return [...BASE_COLUMNS, ...expressions.map(columnHeader)];
}

/** PostHog sends properties and person as objects; the spec says strings. Both are read. */
export function asObject(value: unknown): Record<string, unknown> | undefined {
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export function cellText(value: unknown): string {
  if (value === undefined || value === null) {
    return '';
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL)}…` : text;
}

export function personLabel(person: Event['person']): string {
  const object = asObject(person);
  if (!object) {
    return typeof person === 'string' ? cellText(person) : '';
  }
  const properties = asObject(object['properties']) ?? {};
  const distinctIds = Array.isArray(object['distinct_ids']) ? object['distinct_ids'] : [];
  return cellText(properties['email'] ?? properties['name'] ?? properties['username'] ?? distinctIds[0] ?? object['uuid'] ?? object['id']);
}

export function eventRow(event: QueriedEvent, expressions: readonly string[]): Row {
  const values = event.selected ?? expressions.map((expression) => legacyValue(event, expression));
  return {
    id: event.id,
    cells: [
      cellText(event.timestamp),
      cellText(event.event),
      cellText(event.distinct_id),
      personLabel(event.person),
      ...expressions.map((_, index) => cellText(values[index])),
    ],
  };
}

const PROPERTY = /^(?:properties\.(?:`([^`]+)`|([\w$]+))|(\$[\w$]*))$/;
const EVENT_FIELDS = ['event', 'distinct_id', 'timestamp', 'uuid'] as const;

/**
 * The property key an expression reads, when it only reads one (`properties.$browser`,
 * properties.`my key`): what the legacy list can show. Undefined for any other HogQL.
 */
export function propertyKeyOf(expression: string): string | undefined {
  const match = PROPERTY.exec(expression.replace(/--.*$/, '').trim());
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

/** Whether the legacy list (no Query API) can show this column: a property, an event field, or coalesce of them. */
export function legacyShows(expression: string): boolean {
  return legacyReaders(expression) !== undefined;
}

/** An expression's value from a legacy event, as far as the legacy list allows (undefined otherwise). */
function legacyValue(event: Event, expression: string): unknown {
  const readers = legacyReaders(expression);
  if (!readers) return undefined;
  for (const read of readers) {
    const value = read(event);
    if (value !== undefined && value !== null && value !== '') return value;
  }
  return undefined;
}

function legacyReaders(expression: string): ((event: Event) => unknown)[] | undefined {
  const bare = expression.replace(/--.*$/, '').trim();
  const coalesce = /^coalesce\((.*)\)$/i.exec(bare);
  const parts = coalesce ? coalesce[1]!.split(',').map((part) => part.trim()) : [bare];
  const readers = parts.map(legacyReader);
  return readers.every((reader) => reader !== undefined) ? (readers as ((event: Event) => unknown)[]) : undefined;
}

function legacyReader(expression: string): ((event: Event) => unknown) | undefined {
  const key = propertyKeyOf(expression);
  if (key !== undefined) return (event) => asObject(event.properties)?.[key];
  const field = EVENT_FIELDS.find((name) => name === expression);
  if (field === 'uuid') return (event) => event.id;
  return field ? (event) => event[field] : undefined;
}

function pretty(value: unknown): string {
  if (typeof value === 'string') {
    const parsed = asObject(value);
    if (parsed) {
      return JSON.stringify(parsed, null, 2);
    }
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return value === undefined || value === null ? '' : JSON.stringify(value, null, 2);
}

export function eventDetail(event: Event): EventDetail {
  return {
    id: event.id,
    event: event.event,
    timestamp: event.timestamp,
    distinctId: event.distinct_id,
    properties: pretty(event.properties),
    person: pretty(event.person),
    elements: pretty(event.elements),
    elementsChain: event.elements_chain ?? '',
    raw: JSON.stringify(event, null, 2),
  };
}
