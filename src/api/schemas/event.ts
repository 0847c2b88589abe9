import * as z from 'zod/mini';

const jsonObject = z.record(z.string(), z.unknown());

/**
 * An event. The spec types every field as string; PostHog really sends properties and person as
 * objects and elements as an array, so both forms are accepted.
 */
export const EventSchema = z.object({
  id: z.string(),
  distinct_id: z.string(),
  properties: z.union([z.string(), jsonObject]),
  event: z.string(),
  timestamp: z.string(),
  person: z.nullish(z.union([z.string(), jsonObject])),
  elements: z.nullish(z.union([z.string(), z.array(z.unknown())])),
  elements_chain: z.nullish(z.string()),
});
export type Event = z.infer<typeof EventSchema>;

/** The event list: `next` only while more rows exist, no count, no previous. */
export const EventsPageSchema = z.object({
  next: z.nullish(z.string()),
  results: z.array(EventSchema),
});
export type EventsPage = z.infer<typeof EventsPageSchema>;

/** One suggestion of events/values: at most 10 of them for a property, every custom event name for custom_event. */
export const EventValueSchema = z.object({ name: z.unknown() });
export type EventValue = z.infer<typeof EventValueSchema>;
/** Older servers' answer to events/values: a bare list of `{name}`. */
export const EventValueListSchema = z.array(EventValueSchema);
/** Current PostHog's answer to events/values; `refreshing`: its cache is being recomputed. */
export const EventValuesPageSchema = z.object({ results: z.array(EventValueSchema), refreshing: z.nullish(z.boolean()) });

/** events/values, whichever of its three shapes the server sent. */
export interface EventValues {
  results: EventValue[];
  refreshing: boolean;
}

/** Picks the schema of an events/values answer: {results, refreshing} (PostHog), [{name}] (older), one event (the spec). */
export function eventValuesSchemaFor(body: unknown): typeof EventValuesPageSchema | typeof EventValueListSchema | typeof EventSchema {
  if (Array.isArray(body)) {
    return EventValueListSchema;
  }
  const isPage = typeof body === 'object' && body !== null && Array.isArray((body as { results?: unknown }).results);
  return isPage ? EventValuesPageSchema : EventSchema;
}

/** The suggestions in an answer of any shape (one event, the spec's shape, has none). */
export function eventValuesOf(answer: z.infer<ReturnType<typeof eventValuesSchemaFor>>): EventValues {
  if (Array.isArray(answer)) {
    return { results: answer, refreshing: false };
  }
  if ('results' in answer) {
    return { results: answer.results, refreshing: answer.refreshing ?? false };
  }
  return { results: [], refreshing: false };
}
