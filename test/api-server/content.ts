// ProseMirror/TipTap notebook documents, as PostHog's notebook editor stores them.
import type { Json, JsonObject } from './model';
import { Rng } from './random';

type Node = JsonObject;

export const text = (value: string, marks?: string[]): Node =>
  marks ? { type: 'text', text: value, marks: marks.map((type) => ({ type })) } : { type: 'text', text: value };

export const heading = (level: number, value: string): Node => ({
  type: 'heading',
  attrs: { level },
  content: [text(value)],
});

export const paragraph = (...parts: (string | Node)[]): Node =>
  parts.length === 0
    ? { type: 'paragraph' }
    : { type: 'paragraph', content: parts.map((p) => (typeof p === 'string' ? text(p) : p)) };

export const bulletList = (...items: string[]): Node => ({
  type: 'bulletList',
  content: items.map((item) => ({ type: 'listItem', content: [paragraph(item)] })),
});

export const codeBlock = (language: string, code: string): Node => ({
  type: 'codeBlock',
  attrs: { language },
  content: [text(code)],
});

export function recordingNode(sessionId: string, nodeId: string): Node {
  return { type: 'ph-recording', attrs: { id: sessionId, nodeId, height: null, title: null, __init: null, noInspector: false } };
}

export function savedInsightNode(shortId: string, nodeId: string): Node {
  return {
    type: 'ph-query',
    attrs: { query: { kind: 'SavedInsightNode', shortId }, nodeId, height: null, title: null, __init: null },
  };
}

export function eventsQueryNode(select: string[], nodeId: string, where: string[] = []): Node {
  return {
    type: 'ph-query',
    attrs: {
      query: { kind: 'DataTableNode', full: true, source: { kind: 'EventsQuery', select, where, after: '-24h' } },
      nodeId,
      height: null,
      title: null,
      __init: null,
    },
  };
}

export function insightNode(shortId: string, nodeId: string): Node {
  return { type: 'ph-insight', attrs: { id: shortId, nodeId } };
}

export function personNode(distinctId: string, nodeId: string): Node {
  return { type: 'ph-person', attrs: { id: distinctId, nodeId, title: null } };
}

export function featureFlagNode(flagId: number, nodeId: string): Node {
  return { type: 'ph-feature-flag', attrs: { id: flagId, nodeId, title: null } };
}

export function replayTimestamp(sessionRecordingId: string, playbackTime: number, comment: string): Node {
  return {
    type: 'paragraph',
    content: [{ type: 'ph-replay-timestamp', attrs: { playbackTime, sessionRecordingId } }, text(comment)],
  };
}

export const doc = (...nodes: Node[]): Node => ({ type: 'doc', content: nodes });

export const MARKDOWN_NOTEBOOK_NODE = 'ph-markdown-notebook';

/** A Markdown notebook as newer PostHog stores it: one ph-markdown-notebook node holding the Markdown. */
export const markdownDoc = (markdown: string): Node =>
  doc({ type: MARKDOWN_NOTEBOOK_NODE, attrs: { nodeId: 'markdown-notebook-v2', markdown } });

/** The Markdown of a Markdown notebook (exactly one ph-markdown-notebook node, as PostHog decides), else undefined. */
export function markdownOf(document: Json): string | undefined {
  if (!document || typeof document !== 'object' || Array.isArray(document)) return undefined;
  const nodes = Array.isArray(document['content']) ? document['content'] : [];
  const [node] = nodes;
  if (nodes.length !== 1 || !node || typeof node !== 'object' || Array.isArray(node) || node['type'] !== MARKDOWN_NOTEBOOK_NODE) return undefined;
  const attrs = node['attrs'];
  const markdown = attrs && typeof attrs === 'object' && !Array.isArray(attrs) ? attrs['markdown'] : undefined;
  return typeof markdown === 'string' ? markdown : '';
}

/** A Markdown notebook's content without its Markdown (its node keeps nodeId); undefined for other content. */
export function withoutMarkdown(document: Json): Json | undefined {
  if (markdownOf(document) === undefined || !document || typeof document !== 'object' || Array.isArray(document)) return undefined;
  const [node] = document['content'] as JsonObject[];
  const { markdown: _markdown, ...attrs } = (node!['attrs'] ?? {}) as JsonObject;
  return { ...document, content: [{ ...node, attrs }] };
}

const BLOCKS = new Set(['paragraph', 'heading', 'listItem', 'codeBlock', 'blockquote', 'bulletList', 'orderedList']);

/** Plain text of a document, blocks separated by blank lines (TipTap's getText); a Markdown notebook's is its Markdown. */
export function textContentOf(document: Json): string {
  const markdown = markdownOf(document);
  if (markdown !== undefined) return markdown;
  const blocks: string[] = [];
  const walk = (node: Json): void => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return;
    const type = node['type'];
    const children = Array.isArray(node['content']) ? node['content'] : [];
    if (type === 'paragraph' || type === 'heading' || type === 'codeBlock') {
      blocks.push(inlineText(children));
      return;
    }
    if (typeof type === 'string' && !BLOCKS.has(type) && type !== 'doc' && type.startsWith('ph-')) return;
    children.forEach(walk);
  };
  walk(document);
  return blocks.join('\n\n');
}

function inlineText(nodes: Json[]): string {
  return nodes
    .map((n) => (n && typeof n === 'object' && !Array.isArray(n) && typeof n['text'] === 'string' ? n['text'] : ''))
    .join('');
}

/** A node id as the editor makes them (UUID v4). */
export function nodeId(rng: Rng): string {
  const h = rng.hex(32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
