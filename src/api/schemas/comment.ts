import * as z from 'zod/mini';
import { json, paginated, UserBasicSchema } from './common';

/**
 * A comment (posthog/api/comments.py CommentSerializer): a thread's first comment on an item (`scope`, e.g.
 * "Notebook", and `item_id`, the notebook's short id) or a reply to one (`source_comment`, the first comment's
 * id; replies carry their thread's scope, item_id and item_context). A notebook thread's first comment says in
 * `item_context` which highlight it belongs to: `{"type": "mark", "id": <the comment mark's id>}`.
 */
export const CommentSchema = z.object({
  id: z.string(),
  created_by: z.nullish(UserBasicSchema),
  content: z.nullish(z.string()),
  created_at: z.string(),
  scope: z.string(),
  item_id: z.nullish(z.string()),
  item_context: z.optional(json),
  source_comment: z.nullish(z.string()),
  deleted: z.nullish(z.boolean()),
});
export type Comment = z.infer<typeof CommentSchema>;

/** CommentPagination: a cursor page (next/previous links, no count). */
export const CommentPageSchema = paginated(CommentSchema);
