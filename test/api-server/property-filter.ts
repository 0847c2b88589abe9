// The events `properties` filter: a JSON list of {key, value, operator, type} (all must match), or a
// group {type: "AND" | "OR", values: [...]} nesting filters and groups. Values are compared the way
// PostHog's ClickHouse SQL does it: as text, except gt/lt which compare numbers.
import type { Json, JsonObject } from './model';
import type { EventRecord } from './events';
import { validation } from './errors';

/** Where a filter reads values from: an event row (read lazily, see events-query.ts) or a built record. */
export interface PropertySource {
  eventProperty(key: string): Json | undefined;
  personProperty(key: string): Json | undefined;
}

export type PropertyTest = (source: PropertySource) => boolean;

export function recordSource(event: EventRecord): PropertySource {
  return {
    eventProperty: (key) => event.properties[key],
    personProperty: (key) => (event.person ? event.person.properties[key] : undefined),
  };
}

const OPERATORS = new Set(['exact', 'is_not', 'icontains', 'not_icontains', 'regex', 'not_regex', 'gt', 'gte', 'lt', 'lte', 'is_set', 'is_not_set']);

export function parsePropertyFilter(raw: string): PropertyTest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw validation('Properties are unparsable!', 'properties');
  }
  return compile(parsed, 'properties');
}

function compile(node: unknown, attr: string): PropertyTest {
  if (Array.isArray(node)) return all(node.map((n, i) => compile(n, `${attr}__${i}`)));
  if (!node || typeof node !== 'object') throw validation('Properties are unparsable!', attr);
  const object = node as JsonObject;
  const type = typeof object['type'] === 'string' ? (object['type'] as string) : 'event';
  if ((type === 'AND' || type === 'OR') && Array.isArray(object['values'])) {
    const parts = (object['values'] as Json[]).map((n, i) => compile(n, `${attr}__values__${i}`));
    return type === 'AND' ? all(parts) : (source) => parts.length === 0 || parts.some((p) => p(source));
  }
  if (!('key' in object)) return legacyDict(object, attr);
  return leaf(object, type, attr);
}

const all = (parts: PropertyTest[]): PropertyTest => (source) => parts.every((p) => p(source));

/** Old dict form: {"$browser": "Chrome", "$os__icontains": "mac"}. */
function legacyDict(object: JsonObject, attr: string): PropertyTest {
  return all(
    Object.entries(object).map(([rawKey, value]) => {
      const [key, operator = 'exact'] = rawKey.split('__');
      return leaf({ key: key!, value, operator }, 'event', attr);
    }),
  );
}

function leaf(filter: JsonObject, type: string, attr: string): PropertyTest {
  const key = String(filter['key']);
  const operator = typeof filter['operator'] === 'string' ? (filter['operator'] as string) : 'exact';
  if (!OPERATORS.has(operator)) throw validation(`"${operator}" is not a valid choice.`, `${attr}__operator`, 'invalid_choice');
  if (type !== 'event' && type !== 'person') {
    throw validation(`Property filters of type "${type}" are not supported by the local API.`, `${attr}__type`, 'invalid_choice');
  }
  const compare = comparator(operator, filter['value'] ?? null, attr);
  return type === 'person' ? (source) => compare(source.personProperty(key)) : (source) => compare(source.eventProperty(key));
}

function comparator(operator: string, expected: Json, attr: string): (actual: Json | undefined) => boolean {
  const wanted = (Array.isArray(expected) ? expected : [expected]).map(asText);
  switch (operator) {
    case 'exact': return (a) => a !== undefined && a !== null && wanted.includes(asText(a));
    case 'is_not': return (a) => a === undefined || a === null || !wanted.includes(asText(a));
    case 'icontains': return (a) => a !== undefined && a !== null && wanted.some((w) => asText(a).toLowerCase().includes(w.toLowerCase()));
    case 'not_icontains': return (a) => a === undefined || a === null || !wanted.some((w) => asText(a).toLowerCase().includes(w.toLowerCase()));
    case 'regex':
    case 'not_regex': {
      let pattern: RegExp;
      try {
        pattern = new RegExp(wanted[0] ?? '');
      } catch {
        throw validation('Invalid regular expression in property filter.', `${attr}__value`);
      }
      return operator === 'regex' ? (a) => a !== undefined && a !== null && pattern.test(asText(a)) : (a) => a === undefined || a === null || !pattern.test(asText(a));
    }
    case 'gt': case 'gte': case 'lt': case 'lte': {
      const limit = Number(wanted[0]);
      return (a) => {
        const n = a === undefined || a === null || a === '' ? NaN : Number(a);
        if (Number.isNaN(n) || Number.isNaN(limit)) return false;
        return operator === 'gt' ? n > limit : operator === 'gte' ? n >= limit : operator === 'lt' ? n < limit : n <= limit;
      };
    }
    case 'is_set': return (a) => a !== undefined && a !== null;
    default: return (a) => a === undefined || a === null;
  }
}

/** ClickHouse's text form of a JSON property value (strings unquoted, true/false lower-case). */
export function asText(value: Json | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
