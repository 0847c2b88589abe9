import * as z from 'zod/mini';

export const ActivityChangeSchema = z.object({
  type: z.nullish(z.string()),
  action: z.nullish(z.string()),
  field: z.nullish(z.string()),
  before: z.unknown(),
  after: z.unknown(),
});

/** One activity-log entry; `user` is a person or PostHog's system user. */
export const ActivityEntrySchema = z.object({
  id: z.string(),
  user: z.nullish(
    z.object({
      first_name: z.nullish(z.string()),
      email: z.nullish(z.string()),
      is_system: z.nullish(z.boolean()),
    }),
  ),
  activity: z.string(),
  scope: z.string(),
  item_id: z.nullish(z.string()),
  detail: z.nullish(
    z.object({
      changes: z.nullish(z.array(ActivityChangeSchema)),
      name: z.nullish(z.string()),
      short_id: z.nullish(z.string()),
      type: z.nullish(z.string()),
    }),
  ),
  created_at: z.string(),
});
export type ActivityEntry = z.infer<typeof ActivityEntrySchema>;

/** Activity lists page by `page`/`limit`, newest first. */
export const ActivityPageSchema = z.object({
  results: z.array(ActivityEntrySchema),
  next: z.nullish(z.string()),
  previous: z.nullish(z.string()),
  total_count: z.optional(z.int().check(z.nonnegative())),
});
export type ActivityPage = z.infer<typeof ActivityPageSchema>;
