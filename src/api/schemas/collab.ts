import * as z from 'zod/mini';

/**
 * PostHog's notebook collaboration endpoints (products/notebooks/backend: presentation/views/notebook.py,
 * markdown_collab.py, collab_stream.py). Read leniently: a field of the wrong type is dropped, not fatal, as a
 * stream event that cannot be read only makes the client fetch the notebook.
 */

/** A replaced span of a Markdown text, in UTF-16 code units (JavaScript's `slice`), ascending and non-overlapping. */
export const TextChangeSchema = z.object({
  start: z.int().check(z.nonnegative()),
  end: z.int().check(z.nonnegative()),
  text: z.string(),
});
export type TextChange = z.infer<typeof TextChangeSchema>;

/** A caret: `head` (ProseMirror position, legacy notebooks) or `node_index` / `offset` / `list_item_index` (Markdown notebooks). */
export const CollabCursorSchema = z.object({
  head: z.optional(z.int().check(z.nonnegative())),
  node_index: z.optional(z.int().check(z.nonnegative())),
  offset: z.optional(z.int().check(z.nonnegative())),
  list_item_index: z.optional(z.int().check(z.nonnegative())),
});
export type CollabCursor = z.infer<typeof CollabCursorSchema>;

const optional = <T extends z.ZodMiniType>(schema: T) => z.catch(z.optional(schema), undefined);

/** `event: update` data: from a versioned save (client_id, author) or from a PATCH or the migration (version). */
export const CollabUpdateDataSchema = z.object({
  type: z.literal('update'),
  client_id: optional(z.string()),
  version: optional(z.int()),
  diff: optional(z.array(TextChangeSchema)),
  base_crc: optional(z.int()),
  user_id: optional(z.int()),
  user_name: optional(z.string()),
  cursor: optional(CollabCursorSchema),
});

/** `event: step` data: one ProseMirror step of a legacy notebook (the step itself is not read here). */
export const CollabStepDataSchema = z.object({
  client_id: optional(z.string()),
  user_id: optional(z.int()),
  user_name: optional(z.string()),
});

/** `event: presence` data: someone's caret. */
export const CollabPresenceDataSchema = z.object({
  type: z.literal('presence'),
  client_id: z.string(),
  user_id: optional(z.int()),
  user_name: optional(z.string()),
  version: optional(z.int()),
  cursor: optional(CollabCursorSchema),
});

/** One update a save missed, in a markdown_save 409. */
export const MissedUpdateSchema = z.object({
  version: z.int(),
  diff: z.array(TextChangeSchema),
  base_crc: z.nullish(z.int()),
  client_id: z.nullish(z.string()),
});
export type MissedUpdate = z.infer<typeof MissedUpdateSchema>;

/** markdown_save's 409 (not PostHog's usual error envelope). */
export const MarkdownSaveConflictSchema = z.object({
  code: z.literal('conflict'),
  updates: z.array(MissedUpdateSchema),
  version: z.int(),
});
