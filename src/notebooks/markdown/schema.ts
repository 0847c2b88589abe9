/**
 * What the notebook editor's TipTap schema puts in a legacy document, so that Markdown read back gives the
 * very JSON the editor would have saved: the attrs every node and mark carries (with their defaults), and
 * the order marks come in (ProseMirror keeps a text node's marks sorted by the schema's rank; PostHog's
 * link mark comes first, its priority being 1000, then the StarterKit marks in the order the kit adds
 * them, then Underline).
 */
export type JsonObject = Record<string, unknown>;

export interface PmNode {
  type: string;
  attrs?: JsonObject;
  text?: string;
  marks?: PmMark[];
  content?: PmNode[];
  [key: string]: unknown;
}

export interface PmMark {
  type: string;
  attrs?: JsonObject;
  [key: string]: unknown;
}

export const MARK_ORDER = ['link', 'bold', 'code', 'italic', 'strike', 'underline'] as const;

/**
 * A link as PostHog's notebook editor makes it: its own link mark (NotebookMarkLink, not TipTap's Link
 * extension) has `href` and a `target` whose default is undefined, so a saved link is `{ href }`.
 */
export function linkAttrs(href: string): JsonObject {
  return { href };
}

export function cellAttrs(): JsonObject {
  return { colspan: 1, rowspan: 1, colwidth: null };
}

export const CELL_TYPES = new Set(['tableCell', 'tableHeader']);
/** An empty paragraph where Markdown would otherwise write nothing (read back as one). */
export const EMPTY_PARAGRAPH = '<p></p>';
export const LIST_TYPES = new Set(['bulletList', 'orderedList', 'taskList']);
/** PostHog's nodes that sit inside a paragraph rather than on their own line. */
export const INLINE_PH_NODES = new Set(['ph-replay-timestamp', 'ph-backlink', 'ph-mention']);

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isNode(value: unknown): value is PmNode {
  return isObject(value) && typeof value['type'] === 'string';
}

export function childrenOf(node: PmNode): PmNode[] {
  return Array.isArray(node.content) ? node.content.filter(isNode) : [];
}

export function markRank(type: string): number {
  const index = (MARK_ORDER as readonly string[]).indexOf(type);
  return index === -1 ? MARK_ORDER.length : index;
}

/** The plain text of a node, for naming it in messages. */
export function plainText(node: PmNode): string {
  if (typeof node.text === 'string') {
    return node.text;
  }
  return childrenOf(node).map(plainText).join('');
}

/** A short quotation of a text for a message. */
export function quote(text: string, max = 30): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(single.length > max ? `${single.slice(0, max - 1)}…` : single);
}

