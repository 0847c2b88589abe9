import type { Event } from '../api';

/** Property names of each kind completion offers at most (sorted, so the list stays the same between loads). */
const MAX_NAMES = 1_000;

export interface PropertyNames {
  readonly event: string[];
  readonly person: string[];
}

/**
 * The event and person property names found in recent events, as the events panel reads them: PostHog's
 * property definitions endpoint is not in the client (yet), and this costs one events request per project and
 * load. Bounded by the events given and MAX_NAMES. vscode-free.
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

function sorted(names: Set<string>): string[] {
  return [...names].sort((a, b) => a.localeCompare(b));
}
