// Events as the webview shows them: compact rows of text, and one event's detail. vscode-free.
import type { Event } from '../api';
import type { EventDetail, Row } from './protocol';

/** Cell text is cut here: the detail view shows the whole value. */
const MAX_CELL = 300;

export const BASE_COLUMNS = ['Time', 'Event', 'Distinct ID', 'Person'] as const;

export function eventColumns(propertyKeys: readonly string[]): string[] {
  return [...BASE_COLUMNS, ...propertyKeys];
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

export function eventRow(event: Event, propertyKeys: readonly string[]): Row {
  const properties = asObject(event.properties) ?? {};
  return {
    id: event.id,
    cells: [
      cellText(event.timestamp),
      cellText(event.event),
      cellText(event.distinct_id),
      personLabel(event.person),
      ...propertyKeys.map((key) => cellText(properties[key])),
    ],
  };
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
