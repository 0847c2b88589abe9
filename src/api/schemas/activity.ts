import { z } from 'zod';

export const ActivityChangeSchema = z.object({
  type: z.string().nullable().optional(),
  action: z.string().nullable().optional(),
  field: z.string().nullable().optional(),
  before: z.unknown(),
  after: z.unknown(),
});

/** One activity-log entry; `user` is a person or PostHog's system user. */
export const ActivityEntrySchema = z.object({
  id: z.string(),
  user: z
    .object({
      first_name: z.string().nullable().optional(),
      email: z.string().nullable().optional(),
      is_system: z.boolean().nullable().optional(),
    })
    .nullable()
    .optional(),
  activity: z.string(),
  scope: z.string(),
  item_id: z.string().nullable().optional(),
  detail: z
    .object({
      changes: z.array(ActivityChangeSchema).nullable().optional(),
      name: z.string().nullable().optional(),
      short_id: z.string().nullable().optional(),
      type: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
  created_at: z.string(),
});
export type ActivityEntry = z.infer<typeof ActivityEntrySchema>;

/** Activity lists page by `page`/`limit`, newest first. */
export const ActivityPageSchema = z.object({
  results: z.array(ActivityEntrySchema),
  next: z.string().nullable().optional(),
  previous: z.string().nullable().optional(),
  total_count: z.number().int().nonnegative().optional(),
});
export type ActivityPage = z.infer<typeof ActivityPageSchema>;
