import { formatPostHogTag, readPostHogMarkdown } from '../markdown';
import type { PhComponent, PhPropValue } from '../markdown';
import { sameJson } from '../model/notebookDocument';

/**
 * A discussion thread both sides changed: `<Comment ref="…" replies={[…]} />` blocks whose replies differ on
 * each side are united by reply id, as PostHog's own merge keeps both sides' replies (its text merge puts
 * PostHog's new replies before the user's). A reply deleted on one side and untouched on the other is gone,
 * one edited on one side only takes the edit. Undefined (a conflict after all) when the blocks are not one
 * such thread each, have other props changed differently, or a reply was changed differently by both.
 */
export function mergeCommentThread(base: readonly string[], ours: readonly string[], theirs: readonly string[]): string[] | undefined {
  const [baseThread, ourThread, theirThread] = [base, ours, theirs].map(threadOf);
  if (!baseThread || !ourThread || !theirThread || !sameJson(ourThread.props.ref, theirThread.props.ref)) {
    return undefined;
  }
  const props = mergeOtherProps(baseThread.props, ourThread.props, theirThread.props);
  const replies = props && mergeReplies(baseThread.replies, ourThread.replies, theirThread.replies);
  if (!props || !replies) {
    return undefined;
  }
  return [formatPostHogTag('Comment', { ...props, replies })];
}

interface Reply {
  readonly id: string;
  readonly value: PhPropValue;
}

interface Thread {
  readonly props: Record<string, PhPropValue>;
  readonly replies: Reply[];
}

/** The block as one discussion thread whose replies all have a string id, if it is one. */
function threadOf(lines: readonly string[]): Thread | undefined {
  if (!lines[0]?.trimStart().startsWith('<Comment')) {
    return undefined; // not a thread: no need to read it (a merge of thousands of conflicting paragraphs reads none)
  }
  const reading = readPostHogMarkdown(lines.join('\n'));
  const [node] = reading.nodes;
  if (reading.nodes.length !== 1 || reading.errors.length > 0 || node?.type !== 'component') {
    return undefined;
  }
  const component: PhComponent = node;
  const replies = component.props.replies;
  if (component.tagName !== 'Comment' || component.errors !== undefined || typeof component.props.ref !== 'string' || !Array.isArray(replies)) {
    return undefined;
  }
  const withIds = replies.map((value) => ({ id: idOf(value), value }));
  if (withIds.some((reply) => reply.id === undefined) || new Set(withIds.map((reply) => reply.id)).size !== withIds.length) {
    return undefined;
  }
  return { props: component.props, replies: withIds as Reply[] };
}

function idOf(reply: PhPropValue): string | undefined {
  return reply !== null && typeof reply === 'object' && !Array.isArray(reply) && typeof reply.id === 'string' ? reply.id : undefined;
}

/** Props other than replies, three ways: a side's change wins over no change; different changes conflict. */
function mergeOtherProps(base: Thread['props'], ours: Thread['props'], theirs: Thread['props']): Record<string, PhPropValue> | undefined {
  const merged: Record<string, PhPropValue> = {};
  const keys = [...new Set([...Object.keys(ours), ...Object.keys(theirs)])].filter((key) => key !== 'replies');
  for (const key of keys) {
    const value = pickThreeWays(base[key], ours[key], theirs[key]);
    if (value === CONFLICT) {
      return undefined;
    }
    if (value !== undefined) {
      merged[key] = value;
    }
  }
  return merged;
}

const CONFLICT = Symbol('conflict');

function pickThreeWays<T>(base: T | undefined, ours: T | undefined, theirs: T | undefined): T | undefined | typeof CONFLICT {
  if (sameJson(ours, theirs) || sameJson(ours, base)) {
    return theirs;
  }
  return sameJson(theirs, base) ? ours : CONFLICT;
}

function mergeReplies(base: Reply[], ours: Reply[], theirs: Reply[]): PhPropValue[] | undefined {
  const byId = (replies: Reply[]) => new Map(replies.map((reply) => [reply.id, reply.value]));
  const [baseById, ourById, theirById] = [byId(base), byId(ours), byId(theirs)];
  const merged: PhPropValue[] = [];
  const order = [...theirs.map((reply) => reply.id), ...ours.map((reply) => reply.id).filter((id) => !theirById.has(id))];
  for (const id of order) {
    const value = pickThreeWays(baseById.get(id), ourById.get(id), theirById.get(id));
    if (value === CONFLICT) {
      return undefined;
    }
    if (value !== undefined) {
      merged.push(value);
    }
  }
  return merged;
}
