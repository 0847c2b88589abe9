import type { CollabCursor } from '../../api';
import { oneSafeLine } from '../../common/text';

/**
 * Where collaborators' carets are, between PostHog's coordinates and an editor's text. PostHog's web app sends
 * a Markdown notebook's caret as (block index, offset in that block's plain text), which clients with the same
 * Markdown read alike; a legacy notebook's as a ProseMirror position. An editor shows Markdown, so both are
 * mapped to and from offsets in its text by its blocks; a caret that does not map exactly lands nearby (as in
 * the web app, a caret computed against a slightly older version is a little off, never an error).
 */

/** Who changed the notebook or is in it. */
export interface Author {
  /** One safe line: a person's name, or "PostHog AI" for PostHog's agent. */
  readonly name: string;
  readonly agent: boolean;
}

/** PostHog's web app gives its agents client ids with this prefix (notebook-agent:<agent id>). */
const AGENT_CLIENT_PREFIX = 'notebook-agent:';
const MAX_NAME = 80;

/** Who made an update or owns a caret, from the stream's fields. */
export function authorOf(clientId: string | undefined, userName: string | undefined): Author | undefined {
  const person = userName ? oneSafeLine(userName, MAX_NAME) : '';
  if (clientId?.startsWith(AGENT_CLIENT_PREFIX)) {
    const id = oneSafeLine(clientId.slice(AGENT_CLIENT_PREFIX.length), MAX_NAME);
    const agent = id === 'ai' ? 'PostHog AI' : `agent ${id}`;
    return { name: person ? `${agent} (for ${person})` : agent, agent: true };
  }
  return person ? { name: person, agent: false } : undefined;
}

/** A block of Markdown: lines [start, end) of the text. */
interface Block {
  readonly start: number;
  readonly end: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}#{1,6}(\s|$)/;
const LIST_ITEM = /^\s*(?:[-+*]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/;
const LINE_MARKERS = /^\s{0,3}(?:#{1,6}\s+|(?:>\s?)+|(?:[-+*]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?)?/;

/** The blocks of a Markdown text as PostHog's web app counts its nodes: runs of lines, a heading or a fenced code block each one. */
function blocksOf(lines: readonly string[]): Block[] {
  const blocks: Block[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    if (line.trim() === '') {
      index++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      let end = index + 1;
      while (end < lines.length && !lines[end]!.trimStart().startsWith(fence[1]!)) end++;
      blocks.push({ start: index, end: Math.min(end + 1, lines.length) });
      index = end + 1;
      continue;
    }
    if (HEADING.test(line)) {
      blocks.push({ start: index, end: index + 1 });
      index++;
      continue;
    }
    let end = index + 1;
    while (end < lines.length && lines[end]!.trim() !== '' && !HEADING.test(lines[end]!) && !FENCE.test(lines[end]!)) end++;
    blocks.push({ start: index, end });
    index = end;
  }
  return blocks;
}

/** A text's lines and blocks, found in one pass and shared by every caret mapped in that text. */
interface TextBlocks {
  readonly lines: string[];
  /** Offset of each line's first character. */
  readonly starts: number[];
  readonly blocks: Block[];
}

/** The last text's blocks: every caret of a repaint, and every repaint while the text stays, maps through them. */
let lastBlocks: { readonly text: string; readonly blocks: TextBlocks } | undefined;
let blocksFound = 0;

function textBlocks(text: string): TextBlocks {
  if (lastBlocks?.text === text) {
    return lastBlocks.blocks;
  }
  const lines = text.split('\n');
  const starts = new Array<number>(lines.length);
  let offset = 0;
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index]!;
    starts[index] = offset;
    offset += raw.length + 1;
    if (raw.endsWith('\r')) {
      lines[index] = raw.slice(0, -1);
    }
  }
  const blocks = { lines, starts, blocks: blocksOf(lines) };
  lastBlocks = { text, blocks };
  blocksFound++;
  return blocks;
}

/** How many times a text's blocks were found (tests: carets share one pass over the text). */
export function textPasses(): number {
  return blocksFound;
}

/** The offset in `text` of a Markdown notebook's caret (node_index, offset, list_item_index), clamped to the text. */
export function offsetOfCursor(text: string, cursor: CollabCursor): number | undefined {
  const { lines, starts, blocks } = textBlocks(text);
  if (cursor.node_index === undefined || blocks.length === 0) {
    return undefined;
  }
  const block = blocks[Math.min(cursor.node_index, blocks.length - 1)]!;
  let line = block.start;
  if (cursor.list_item_index !== undefined) {
    const items = range(block.start, block.end).filter((index) => LIST_ITEM.test(lines[index]!));
    line = items[Math.min(cursor.list_item_index, items.length - 1)] ?? block.start;
  }
  let left = cursor.offset ?? 0;
  for (; line < block.end; line++) {
    const content = lines[line]!;
    const marker = markerLength(content);
    const available = content.length - marker;
    if (left <= available || line === block.end - 1) {
      return starts[line]! + marker + Math.min(left, available);
    }
    left -= available + 1;
  }
  return starts[block.start];
}

/** A Markdown notebook's caret for the offset `at` of `text`. */
export function cursorAtOffset(text: string, at: number): CollabCursor {
  const { lines, starts, blocks } = textBlocks(text);
  const line = lineAt(starts, at);
  let nodeIndex = firstBlockEndingAfter(blocks, line);
  if (nodeIndex < 0) {
    return { node_index: Math.max(0, blocks.length - 1) };
  }
  const block = blocks[nodeIndex]!;
  if (line < block.start) {
    return { node_index: nodeIndex, offset: 0 };
  }
  const items = range(block.start, block.end).filter((index) => LIST_ITEM.test(lines[index]!));
  const isList = items.length > 0 && items[0] === block.start;
  const first = isList ? [...items].reverse().find((index) => index <= line)! : block.start;
  let offset = 0;
  for (let index = first; index < line; index++) {
    offset += lines[index]!.length - markerLength(lines[index]!) + 1;
  }
  offset += Math.max(0, Math.min(at - starts[line]!, lines[line]!.length) - markerLength(lines[line]!));
  nodeIndex = Math.max(0, nodeIndex);
  return isList ? { node_index: nodeIndex, offset, list_item_index: items.indexOf(first) } : { node_index: nodeIndex, offset };
}

/** The first block that ends after `line` (blocks are in order), -1 when none. */
function firstBlockEndingAfter(blocks: readonly Block[], line: number): number {
  let low = 0;
  let high = blocks.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (blocks[middle]!.end > line) high = middle;
    else low = middle + 1;
  }
  return low < blocks.length ? low : -1;
}

function markerLength(line: string): number {
  return LINE_MARKERS.exec(line)?.[0].length ?? 0;
}

function lineAt(starts: readonly number[], at: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= at) low = middle;
    else high = middle - 1;
  }
  return low;
}

function range(start: number, end: number): number[] {
  return Array.from({ length: Math.max(0, end - start) }, (_, index) => start + index);
}

// ---- legacy (ProseMirror) notebooks: a position counts into the document's nodes ----------------------------

interface PmNode {
  type?: unknown;
  text?: unknown;
  content?: unknown;
}

/** Nodes that hold content (size 2 even when empty); other nodes without content are atoms (size 1). */
const CONTAINERS = new Set([
  'paragraph', 'heading', 'blockquote', 'codeBlock', 'bulletList', 'orderedList', 'listItem', 'taskList', 'taskItem',
  'table', 'tableRow', 'tableCell', 'tableHeader', 'callout',
]);

function nodeSize(node: PmNode): number {
  if (node.type === 'text') {
    return typeof node.text === 'string' ? node.text.length : 0;
  }
  if (Array.isArray(node.content)) {
    return 2 + (node.content as PmNode[]).reduce((sum, child) => sum + nodeSize(child), 0);
  }
  return typeof node.type === 'string' && CONTAINERS.has(node.type) ? 2 : 1;
}

function topNodes(content: unknown): PmNode[] {
  const nodes = (content as { content?: unknown } | null | undefined)?.content;
  return Array.isArray(nodes) ? (nodes.filter((node) => node && typeof node === 'object') as PmNode[]) : [];
}

/** Where each top-level node starts (one more entry: where the last ends), measured once per content. */
const nodeStarts = new WeakMap<object, number[]>();

function topNodeStarts(content: unknown): number[] {
  const known = content && typeof content === 'object' ? nodeStarts.get(content) : undefined;
  if (known) {
    return known;
  }
  const starts = [0];
  for (const node of topNodes(content)) {
    starts.push(starts[starts.length - 1]! + nodeSize(node));
  }
  if (content && typeof content === 'object') {
    nodeStarts.set(content, starts);
  }
  return starts;
}

/** The top-level node a ProseMirror position falls in, and how far into it. */
export function nodeOfHead(content: unknown, head: number): { index: number; offset: number } | undefined {
  const starts = topNodeStarts(content);
  const count = starts.length - 1;
  if (count === 0) {
    return undefined;
  }
  // The first node whose end is after head, else the last.
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (head < starts[middle + 1]!) high = middle;
    else low = middle + 1;
  }
  return { index: low, offset: Math.max(0, head - starts[low]! - 1) };
}

/** The ProseMirror position of `offset` characters into top-level node `index`. */
export function headOfNode(content: unknown, index: number, offset: number): number {
  const starts = topNodeStarts(content);
  const count = starts.length - 1;
  const position = starts[Math.max(0, Math.min(index, count))]!;
  return index >= 0 && index < count ? position + 1 + Math.min(offset, Math.max(0, starts[index + 1]! - position - 2)) : position;
}

/** A caret of a legacy notebook, mapped to an offset of its Markdown text by block (one block per top-level node). */
export function offsetOfHead(text: string, content: unknown, head: number): number | undefined {
  const node = nodeOfHead(content, head);
  return node && offsetOfCursor(text, { node_index: node.index, offset: node.offset });
}

/** The ProseMirror caret of a legacy notebook for the offset `at` of its Markdown text. */
export function headAtOffset(text: string, content: unknown, at: number): CollabCursor {
  const cursor = cursorAtOffset(text, at);
  return { head: headOfNode(content, cursor.node_index ?? 0, cursor.offset ?? 0) };
}

// ---- collaborators in the notebook ------------------------------------------------------------------------------

/** How long a caret shows without a new ping. */
export const CARET_TTL_MS = 60_000;

export interface RemoteCaret {
  readonly clientId: string;
  readonly author: Author;
  readonly cursor: CollabCursor;
  /** The version the caret was computed against. */
  readonly version?: number;
  readonly at: number;
}

/** The most carets kept per notebook (a server cannot grow the list without end): the oldest go first. */
export const MAX_CARETS = 50;

/** The latest caret of each other client of a notebook, dropped after CARET_TTL_MS without a ping. */
export class RemoteCarets {
  private readonly carets = new Map<string, RemoteCaret>();

  /** Takes a caret; returns whether anything shown changed. */
  update(caret: RemoteCaret): boolean {
    const known = this.carets.get(caret.clientId);
    this.carets.delete(caret.clientId);
    this.carets.set(caret.clientId, caret);
    if (this.carets.size > MAX_CARETS) {
      this.carets.delete(this.carets.keys().next().value!);
    }
    return !known || JSON.stringify(known.cursor) !== JSON.stringify(caret.cursor) || known.author.name !== caret.author.name;
  }

  /** The carets pinged within the TTL; returns them and whether any expired. */
  current(now: number): { carets: RemoteCaret[]; expired: boolean } {
    let expired = false;
    for (const [clientId, caret] of this.carets) {
      if (now - caret.at > CARET_TTL_MS) {
        this.carets.delete(clientId);
        expired = true;
      }
    }
    return { carets: [...this.carets.values()], expired };
  }

  clear(): boolean {
    const had = this.carets.size > 0;
    this.carets.clear();
    return had;
  }
}
