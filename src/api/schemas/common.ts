import * as z from 'zod/mini';

/** A field the spec types only as "JSON value": anything JSON can hold, including null. */
export const json = z.unknown();

/** The user object inside created_by / last_modified_by (PostHog's UserBasic). */
export const UserBasicSchema = z.object({
  id: z.int(),
  uuid: z.string(),
  distinct_id: z.nullish(z.string()),
  first_name: z.string(),
  last_name: z.nullish(z.string()),
  email: z.string(),
  is_email_verified: z.nullish(z.boolean()),
  hedgehog_config: z.nullish(z.record(z.string(), json)),
});
export type UserBasic = z.infer<typeof UserBasicSchema>;
/** The spec's "user object" (created_by, last_modified_by). */
export const UserSchema = UserBasicSchema;
export type User = UserBasic;

/**
 * The paginated list envelope of projects, notebooks and organizations. `count` is optional here only
 * so a server that leaves it out still pages (one page after another, following `next`).
 */
export function paginated<T extends z.ZodMiniType>(item: T) {
  return z.object({
    count: z.optional(z.int().check(z.nonnegative())),
    next: z.nullish(z.string()),
    previous: z.nullish(z.string()),
    results: z.array(item),
  });
}

export interface Paginated<T> {
  count?: number;
  next?: string | null;
  previous?: string | null;
  results: T[];
}
