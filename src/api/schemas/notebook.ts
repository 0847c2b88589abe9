import * as z from 'zod/mini';
import { json, UserBasicSchema } from './common';

/** Fields create and update accept (spec 2.2). */
export const NOTEBOOK_WRITABLE_FIELDS = ['title', 'content', 'text_content', 'version', 'deleted'] as const;
export type NotebookWritableField = (typeof NOTEBOOK_WRITABLE_FIELDS)[number];

const listItemShape = {
  id: z.string(),
  short_id: z.string(),
  /** PostHog's model allows a notebook without title. */
  title: z.nullable(z.string()),
  deleted: z.optional(z.boolean()),
  created_at: z.string(),
  /** null for notebooks whose creator is gone or that the system created. */
  created_by: z.nullable(UserBasicSchema),
  last_modified_at: z.string(),
  last_modified_by: z.nullable(UserBasicSchema),
  /**
   * The caller's access to the notebook under PostHog's access control: "none", "viewer", "editor" or
   * "manager" (below "editor", every write answers 403). Older servers leave it out.
   */
  user_access_level: z.nullish(z.string()),
};

export const NotebookListItemSchema = z.object(listItemShape);
export type NotebookListItem = z.infer<typeof NotebookListItemSchema>;

export const NotebookSchema = z.object({
  ...listItemShape,
  /** A ProseMirror / TipTap document, `{type: "doc", content: [...]}`; kept as is. */
  content: z.optional(json),
  text_content: z.nullish(z.string()),
  version: z.int(),
});
export type Notebook = z.infer<typeof NotebookSchema>;

export interface NotebookWritable {
  title?: string | null;
  content?: unknown;
  text_content?: string | null;
  version?: number;
  deleted?: boolean;
}

/** GET .../notebooks/{short_id}/markdown/: the notebook as Markdown (a legacy notebook converted by PostHog). */
export const NotebookMarkdownSchema = z.object({ markdown: z.nullable(z.string()) });
export type NotebookMarkdown = z.infer<typeof NotebookMarkdownSchema>;
