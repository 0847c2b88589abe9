import * as z from 'zod/mini';
import { paginated } from './common';

/**
 * One property definition (PostHog's PropertyDefinitionSerializer). `id` is a UUID, or `$builtin_<name>` for
 * the virtual person properties PostHog appends to a person list's last page. `property_type` is one of
 * DateTime, String, Numeric, Boolean, Duration, or null while PostHog has not typed it; any text is accepted.
 */
export const PropertyDefinitionSchema = z.object({
  id: z.union([z.string(), z.number()]),
  name: z.string(),
  is_numerical: z.nullish(z.boolean()),
  property_type: z.nullish(z.string()),
  tags: z.nullish(z.array(z.unknown())),
  /** Whether the property was seen with the `event_names` asked for; null without them. */
  is_seen_on_filtered_events: z.nullish(z.boolean()),
});
export type PropertyDefinition = z.infer<typeof PropertyDefinitionSchema>;

/** A page of property definitions: limit/offset, with `count` and absolute `next`/`previous` links. */
export const PropertyDefinitionPageSchema = paginated(PropertyDefinitionSchema);
export type PropertyDefinitionPage = z.infer<typeof PropertyDefinitionPageSchema>;
