import type { Event, PropertyDefinition } from '../api';

/** Property names of each kind completion offers at most. */
export const MAX_NAMES = 1_000;

/** A property name completion offers, with PostHog's type of it where known ("Numeric", "DateTime", …). */
export interface PropertyName {
  readonly name: string;
  readonly type?: string;
}

export interface PropertyNames {
  readonly event: PropertyName[];
  readonly person: PropertyName[];
}

/**
 * The names of PostHog's property definitions, in PostHog's order, once each and at most MAX_NAMES. The virtual
 * person properties PostHog appends (ids `$builtin_…`) are left out: they are computed fields, not keys of
 * `properties`. vscode-free.
 */
export function definitionNames(definitions: readonly PropertyDefinition[]): PropertyName[] {
  const names = new Map<string, PropertyName>();
  for (const { id, name, property_type: type } of definitions) {
    if (names.size >= MAX_NAMES) {
      break;
    }
    if (!String(id).startsWith('$builtin_') && !names.has(name)) {
      names.set(name, type ? { name, type } : { name });
    }
  }
  return [...names.values()];
}

/**
 * The event and person property names found in recent events, as the events panel reads them: the fallback
 * where PostHog's property definitions cannot be read (an older server, a key without
 * `property_definition:read`). Sorted, so the list stays the same between loads; bounded by the events given
 * and MAX_NAMES. vscode-free.
 */
export function propertyNamesOf(events: readonly Pick<Event, 'properties' | 'person'>[]): PropertyNames {
  const event = new Set<string>();
  const person = new Set<string>();
  for (const { properties, person: owner } of events) {
    addKeys(event, objectOf(properties));
    const personObject = objectOf(owner);
    addKeys(person, objectOf(personObject?.['properties']));
  }
  return { event: sorted(event), person: sorted(person) };
}

function addKeys(names: Set<string>, object: Record<string, unknown> | undefined): void {
  for (const key of Object.keys(object ?? {})) {
    if (names.size >= MAX_NAMES) {
      return;
    }
    names.add(key);
  }
}

/** An object, or a JSON string of one (PostHog answers either), else undefined. */
function objectOf(value: unknown): Record<string, unknown> | undefined {
  if (typeof value === 'string') {
    try {
      return objectOf(JSON.parse(value));
    } catch {
      return undefined;
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function sorted(names: Set<string>): PropertyName[] {
  return [...names].sort((a, b) => a.localeCompare(b)).map((name) => ({ name }));
}
