import { z } from 'zod';

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
  person: z.union([z.string(), jsonObject]).nullable().optional(),
  elements: z.union([z.string(), z.array(z.unknown())]).nullable().optional(),
  elements_chain: z.string().nullable().optional(),
});
export type Event = z.infer<typeof EventSchema>;

/** The event list: `next` only while more rows exist, no count, no previous. */
export const EventsPageSchema = z.object({
  next: z.string().nullable().optional(),
  results: z.array(EventSchema),
});
export type EventsPage = z.infer<typeof EventsPageSchema>;

/** PostHog's real answer to events/values: at most 10 `{name}` (the spec says one event; both are accepted). */
export const EventValueSchema = z.object({ name: z.unknown() });
export type EventValue = z.infer<typeof EventValueSchema>;
export const EventValueListSchema = z.array(EventValueSchema);
