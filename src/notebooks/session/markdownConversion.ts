import type { Comment, Notebook, OrganizationMember } from '../../api';
import { commentThreadIds, type PhPropValue, type PostHogLoss, toPostHogMarkdown, unlabelledMentionIds } from '../markdown';
import { markdownOf } from '../model/notebookDocument';

/**
 * "Convert to Markdown Notebook", before anything is sent: the Markdown PostHog's migration would write for the
 * notebook (toPostHogMarkdown, corrected where PostHog's reader misreads it), every loss with its kind and
 * line, and the discussion threads with their replies, read from PostHog's comments as its migration reads them
 * (products/notebooks/backend/markdown_migration.py, facts in test/api-server/README.md).
 */
export interface ConversionPlan {
  /** The version converted: the PATCH is based on it, so a newer version on PostHog refuses the conversion. */
  readonly notebook: Notebook;
  /** Already a Markdown notebook: nothing to do. */
  readonly alreadyMarkdown: boolean;
  readonly markdown: string;
  readonly losses: readonly PostHogLoss[];
  readonly comments: CommentsRead;
  readonly mentions: MentionsRead;
}

export type MentionsRead =
  /** Every mention has its label: no name to look up, nothing read. */
  | { readonly kind: 'none' }
  /** The organization's members were read: `named` of the `mentioned` members were found (the rest are losses). */
  | { readonly kind: 'read'; readonly mentioned: number; readonly named: number }
  /** The members could not be read (e.g. the key lacks organization_member:read): each mention is a loss. */
  | { readonly kind: 'unreadable'; readonly mentioned: number; readonly error: unknown };

/** The members of the notebook's organization (one request: PostHog's first page of them). */
export type MemberReader = () => Promise<readonly OrganizationMember[]>;

export type CommentsRead =
  /** No comment highlights: no thread to write, nothing read. */
  | { readonly kind: 'none' }
  /** The threads, with `replies` comments in all (each thread's first comment included, as PostHog writes it). */
  | { readonly kind: 'read'; readonly threads: number; readonly replies: number }
  /** The comments could not be read (e.g. the key lacks comment:read): the threads are written without replies. */
  | { readonly kind: 'unreadable'; readonly threads: number; readonly error: unknown };

/** The notebook's comments (threads' first comments and replies), however PostHog pages them. */
export type CommentReader = () => Promise<readonly Comment[]>;

export async function planConversion(notebook: Notebook, readComments: CommentReader, readMembers: MemberReader): Promise<ConversionPlan> {
  const stored = markdownOf(notebook.content);
  if (stored !== undefined) {
    return { notebook, alreadyMarkdown: true, markdown: stored, losses: [], comments: { kind: 'none' }, mentions: { kind: 'none' } };
  }
  const { mentions, mentionLabel } = await mentionLabels(notebook.content, readMembers);
  const threadIds = commentThreadIds(notebook.content);
  let comments: CommentsRead = { kind: 'none' };
  let commentReplies: Record<string, PhPropValue[]> | undefined;
  if (threadIds.length > 0) {
    try {
      commentReplies = commentRepliesOf(await readComments());
      const replies = threadIds.reduce((sum, id) => sum + (commentReplies?.[id]?.length ?? 0), 0);
      comments = { kind: 'read', threads: threadIds.length, replies };
    } catch (error) {
      comments = { kind: 'unreadable', threads: threadIds.length, error };
    }
  }
  const { markdown, losses } = toPostHogMarkdown(notebook.content, { ...(commentReplies ? { commentReplies } : {}), ...(mentionLabel ? { mentionLabel } : {}) });
  return { notebook, alreadyMarkdown: false, markdown: markdown === '' ? '' : `${markdown}\n`, losses, comments, mentions };
}

/**
 * The names of the members the notebook mentions without a label, as PostHog's migration writes them
 * ("@" and the first name, else the email), read from the organization's members only when there is one.
 */
async function mentionLabels(content: unknown, readMembers: MemberReader): Promise<{ mentions: MentionsRead; mentionLabel?: (id: number) => string | undefined }> {
  const ids = new Set(unlabelledMentionIds(content));
  if (ids.size === 0) {
    return { mentions: { kind: 'none' } };
  }
  let members: readonly OrganizationMember[];
  try {
    members = await readMembers();
  } catch (error) {
    return { mentions: { kind: 'unreadable', mentioned: ids.size, error } };
  }
  const labels = new Map<number, string>();
  for (const { user } of members) {
    const name = user.first_name || user.email;
    if (ids.has(user.id) && name) {
      labels.set(user.id, `@${name}`);
    }
  }
  return { mentions: { kind: 'read', mentioned: ids.size, named: labels.size }, mentionLabel: (id) => labels.get(id) };
}

/**
 * Each thread's comments by the id of the highlight it belongs to, as PostHog's migration builds them: the
 * threads' first comments (no source_comment, not deleted) whose item_context is `{type: "mark", id}`, oldest
 * first (a later thread on the same highlight wins); each with its replies that are not deleted nor emoji
 * reactions; the whole thread ordered by time, each comment `{id, text, author?, authorId?, at}` (author: the
 * writer's first name, else email; at: Python's isoformat of the time).
 */
export function commentRepliesOf(comments: readonly Comment[]): Record<string, PhPropValue[]> {
  const live = comments.filter((comment) => comment.deleted !== true);
  const roots = live.filter((comment) => !comment.source_comment).sort(byTime);
  const repliesOf = new Map<string, Comment[]>(roots.map((root) => [root.id, []]));
  for (const reply of [...live].sort(byTime)) {
    if (reply.source_comment && !isEmojiReaction(reply)) {
      repliesOf.get(reply.source_comment)?.push(reply);
    }
  }
  const threads: Record<string, PhPropValue[]> = {};
  for (const root of roots) {
    const markId = markIdOf(root);
    if (markId !== undefined) {
      threads[markId] = [root, ...(repliesOf.get(root.id) ?? [])].sort(byTime).map(replyOf);
    }
  }
  return threads;
}

function markIdOf(comment: Comment): string | undefined {
  const context = comment.item_context;
  if (typeof context !== 'object' || context === null || Array.isArray(context)) {
    return undefined;
  }
  const { type, id } = context as Record<string, unknown>;
  return type === 'mark' && typeof id === 'string' ? id : undefined;
}

function isEmojiReaction(comment: Comment): boolean {
  const context = comment.item_context;
  return typeof context === 'object' && context !== null && !Array.isArray(context) && Boolean((context as Record<string, unknown>).is_emoji);
}

function replyOf(comment: Comment): PhPropValue {
  const author = comment.created_by ? comment.created_by.first_name || comment.created_by.email : '';
  return {
    id: comment.id,
    text: comment.content ?? '',
    ...(author ? { author } : {}),
    ...(comment.created_by?.id ? { authorId: comment.created_by.id } : {}),
    at: pythonIsoFormat(comment.created_at),
  };
}

/** DRF writes UTC times as Python's isoformat with `Z` for `+00:00`: back to isoformat, as the migration writes them. */
function pythonIsoFormat(time: string): string {
  return time.endsWith('Z') ? `${time.slice(0, -1)}+00:00` : time;
}

/** Oldest first, to the microsecond (Python's isoformat leaves out a zero fraction, so texts do not sort). */
function byTime(a: Comment, b: Comment): number {
  return micros(a.created_at) - micros(b.created_at);
}

function micros(time: string): number {
  const match = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?(.*)$/.exec(time);
  if (!match) {
    return (Date.parse(time) || 0) * 1000;
  }
  const seconds = Date.parse(`${match[1]}${match[3] || 'Z'}`) || 0;
  return seconds * 1000 + Number((match[2] ?? '').padEnd(6, '0').slice(0, 6));
}
