import { z } from 'zod';

/** A field the spec types only as "JSON value": anything JSON can hold, including null. */
export const json = z.unknown();

/** The user object inside created_by / last_modified_by (PostHog's UserBasic). */
export const UserBasicSchema = z.object({
  id: z.number().int(),
  uuid: z.string(),
  distinct_id: z.string().nullable().optional(),
  first_name: z.string(),
  last_name: z.string().nullable().optional(),
  email: z.string(),
  is_email_verified: z.boolean().nullable().optional(),
  hedgehog_config: z.record(z.string(), json).nullable().optional(),
});
export type UserBasic = z.infer<typeof UserBasicSchema>;
/** The spec's "user object" (created_by, last_modified_by). */
export const UserSchema = UserBasicSchema;
export type User = UserBasic;

/**
 * The paginated list envelope of projects, notebooks and organizations. `count` is optional here only
 * so a server that leaves it out still pages (one page after another, following `next`).
 */
export function paginated<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int().nonnegative().optional(),
    next: z.string().nullable().optional(),
    previous: z.string().nullable().optional(),
    results: z.array(item),
  });
}

export interface Paginated<T> {
  count?: number;
  next?: string | null;
  previous?: string | null;
  results: T[];
}
