// Comments (posthog/api/comments.py, posthog/models/comment): discussion threads on PostHog items, a
// notebook's among them (scope "Notebook", item_id its short id). A thread's first comment has no
// source_comment; its replies point at it and carry its scope, item_id and item_context.
import type { Json, JsonObject, User } from './model';
import type { Store } from './store';
import { userBasic } from './serializers';
import { isoZ } from './time';

export interface StoredComment {
  readonly id: string;
  readonly teamId: number;
  readonly createdById: number | null;
  content: string | null;
  readonly richContent: Json;
  readonly createdAt: number;
  readonly scope: string;
  readonly itemId: string | null;
  readonly itemContext: Json;
  readonly sourceCommentId: string | null;
  deleted: boolean;
  version: number;
}

const comments = new WeakMap<Store, StoredComment[]>();

/** Every comment of the store (deleted ones included), oldest first. */
export function commentsOf(store: Store): StoredComment[] {
  let list = comments.get(store);
  if (!list) {
    list = [];
    comments.set(store, list);
  }
  return list;
}

export interface NewComment {
  teamId: number;
  createdBy: User | null;
  content: string | null;
  richContent?: Json;
  scope: string;
  itemId: string | null;
  itemContext?: Json;
  sourceCommentId?: string | null;
  /** Microseconds; the server clock by default. */
  createdAt?: number;
}

export function addComment(store: Store, comment: NewComment): StoredComment {
  const createdAt = comment.createdAt ?? store.nowMicros();
  const stored: StoredComment = {
    id: store.rng.uuid(createdAt / 1000),
    teamId: comment.teamId,
    createdById: comment.createdBy?.id ?? null,
    content: comment.content,
    richContent: comment.richContent ?? null,
    createdAt,
    scope: comment.scope,
    itemId: comment.itemId,
    itemContext: comment.itemContext ?? null,
    sourceCommentId: comment.sourceCommentId ?? null,
    deleted: false,
    version: 0,
  };
  commentsOf(store).push(stored);
  return stored;
}

/** CommentSerializer: the model's fields but team, the creator as UserBasic, no Slack mirror here. */
export function commentBody(store: Store, comment: StoredComment): JsonObject {
  return {
    id: comment.id,
    created_by: userBasic(store.getUser(comment.createdById)),
    deleted: comment.deleted,
    content: comment.content,
    rich_content: comment.richContent,
    version: comment.version,
    created_at: isoZ(comment.createdAt),
    item_id: comment.itemId,
    item_context: comment.itemContext,
    scope: comment.scope,
    source_comment: comment.sourceCommentId,
    is_task: false,
    completed_at: null,
    completed_by: null,
    slack_thread: null,
  };
}
