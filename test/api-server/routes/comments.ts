// Comments: /api/projects/{project}/comments/ (posthog/api/comments.py CommentViewSet, scope object "comment").
import type { Json, JsonObject } from '../model';
import { route, type Route } from '../router';
import { absoluteUrl, ok, param, projectOf, type Ctx, type Reply } from '../http';
import { notFound, validation } from '../errors';
import { requireObject } from '../validation';
import { addComment, commentBody, commentsOf, type StoredComment } from '../comments';

/** CommentPagination: a cursor over `-created_at`, 100 a page, no count. */
const PAGE_SIZE = 100;

/**
 * The list, filtered as safely_get_queryset does: deleted comments left out unless `deleted` is other than
 * "false", then `scope`, `item_id`, `source_comment`, `exclude_emoji_reactions=true`; newest first.
 */
function list(ctx: Ctx): Reply {
  const team = projectOf(ctx).id;
  const scope = param(ctx, 'scope');
  const itemId = param(ctx, 'item_id');
  const source = param(ctx, 'source_comment');
  const withDeleted = (param(ctx, 'deleted') ?? 'false') !== 'false';
  const withoutEmoji = param(ctx, 'exclude_emoji_reactions') === 'true';
  const matching = commentsOf(ctx.store)
    .filter((comment) => comment.teamId === team && (withDeleted || !comment.deleted))
    .filter((comment) => !scope || comment.scope === scope)
    .filter((comment) => !itemId || comment.itemId === itemId)
    .filter((comment) => !source || comment.sourceCommentId === source)
    .filter((comment) => !withoutEmoji || !isEmoji(comment))
    .sort((a, b) => b.createdAt - a.createdAt);
  const offset = cursorOffset(param(ctx, 'cursor'));
  const page = matching.slice(offset, offset + PAGE_SIZE);
  return ok({
    next: offset + PAGE_SIZE < matching.length ? cursorUrl(ctx, offset + PAGE_SIZE) : null,
    previous: offset > 0 ? cursorUrl(ctx, Math.max(0, offset - PAGE_SIZE)) : null,
    results: page.map((comment) => commentBody(ctx.store, comment)),
  });
}

function isEmoji(comment: StoredComment): boolean {
  const context = comment.itemContext;
  return typeof context === 'object' && context !== null && !Array.isArray(context) && !!context['is_emoji'];
}

/** DRF's cursor is opaque base64 ("o=<offset>&…"); one that does not read is a 404 "Invalid cursor" (CursorPagination). */
function cursorOffset(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const offset = /^o=(\d+)/.exec(Buffer.from(cursor, 'base64').toString('utf8'))?.[1];
  if (offset === undefined) throw notFound('Invalid cursor');
  return Number(offset);
}

function cursorUrl(ctx: Ctx, offset: number): string {
  const query = new URLSearchParams(ctx.rawQuery);
  query.set('cursor', Buffer.from(`o=${offset}`).toString('base64'));
  return absoluteUrl(ctx, query.toString());
}

/**
 * Create, as CommentSerializer.validate and create do: `scope` is required unless replying; a reply joins its
 * thread's first comment (its scope, item_id and item_context, keeping its own is_emoji); a comment needs
 * content (or rich content without an empty paragraph).
 */
function create(ctx: Ctx): Reply {
  const body = requireObject(ctx.body);
  const team = projectOf(ctx).id;
  const sourceId = body['source_comment'];
  let source: StoredComment | undefined;
  if (sourceId !== undefined && sourceId !== null) {
    source = commentsOf(ctx.store).find((comment) => comment.id === sourceId && comment.teamId === team);
    if (!source) throw validation(`Invalid pk "${String(sourceId)}" - object does not exist.`, 'source_comment', 'does_not_exist');
  }
  if (!source && (typeof body['scope'] !== 'string' || body['scope'].trim() === '')) {
    throw validation('This field is required.', 'scope', 'required');
  }
  const content = typeof body['content'] === 'string' ? body['content'] : '';
  if (content.trim() === '' && !body['rich_content']) throw validation('A comment must have content');
  const root = source ? (source.sourceCommentId ? (commentsOf(ctx.store).find((comment) => comment.id === source!.sourceCommentId) ?? source) : source) : undefined;
  const ownContext = (body['item_context'] ?? {}) as JsonObject;
  const itemContext: Json = root
    ? { ...((root.itemContext ?? {}) as JsonObject), ...('is_emoji' in ownContext ? { is_emoji: ownContext['is_emoji']! } : {}) }
    : ((body['item_context'] ?? null) as Json);
  const comment = addComment(ctx.store, {
    teamId: team,
    createdBy: ctx.user,
    content,
    richContent: (body['rich_content'] ?? null) as Json,
    scope: root ? root.scope : String(body['scope']).trim(),
    itemId: root ? root.itemId : typeof body['item_id'] === 'string' ? body['item_id'] : null,
    itemContext,
    sourceCommentId: root?.id ?? null,
  });
  return ok(commentBody(ctx.store, comment), 201);
}

export const commentRoutes: Route[] = [
  route('/api/projects/:projectId/comments', {
    GET: { scope: 'comment:read', handler: list },
    POST: { scope: 'comment:write', handler: create },
  }),
];
