import { describeLosses } from './losses';
import type { MarkdownIssue } from './issues';
import { issueAt, parseMarkdownBlocks } from './legacyRead';
import { tiptapDefaults, writeBlockAfter } from './legacyWrite';
import { toPostHogMarkdown } from './legacyConversion';
import { sameJson } from '../model/notebookDocument';
import { isNode, isObject, type PmNode } from './schema';

/**
 * A legacy (ProseMirror) notebook as Markdown in PostHog's dialect, and back exactly: the text read back
 * with markdownToDoc gives the same document, block for block. Blocks are separated by one blank line and
 * the text ends with one "\n" (none for an empty document). legacyWrite.ts says how each node is written:
 * as PostHog writes it where its model holds the node (an empty paragraph a line of one space, a line
 * break in a paragraph a newline, lists flat, tags without TipTap's default attrs), in a spelling of the
 * extension's own where it does not.
 *
 * Whatever cannot be held (an unknown mark, a link with a target…) is found by reading the text back and
 * comparing each top-level block with the original (TipTap's default attrs, restored on reading, count as
 * present): every difference is a loss (an error) at the lines of its block, naming what cannot be held.
 * Nothing is dropped silently.
 *
 * With `forMarkdownNotebook`, the text is for a real Markdown notebook that PostHog's web app reads: it is
 * toPostHogMarkdown's (PostHog's migration, corrected where PostHog's reader misreads it), with its losses.
 *
 * The text ends with "\n" so that it is a well-formed text file; markdownToDoc reads it with or without.
 */
export interface DocToMarkdownOptions {
  readonly forMarkdownNotebook?: boolean;
}

export interface MarkdownConversion {
  readonly markdown: string;
  readonly losses: MarkdownIssue[];
}

/** A top-level node and the Markdown written for it, at its lines (`endLine` exclusive). */
export interface WrittenBlock {
  readonly node: unknown;
  readonly text: string;
  readonly startLine: number;
  readonly endLine: number;
  /** What the Markdown cannot hold of the node, as phrases ("the mark "highlight" on "foo" has no Markdown form"). */
  readonly losses: string[];
}

export function docToMarkdown(doc: unknown, options: DocToMarkdownOptions = {}): MarkdownConversion {
  if (options.forMarkdownNotebook === true) {
    const { markdown, losses } = toPostHogMarkdown(doc);
    return { markdown: markdown === '' ? '' : `${markdown}\n`, losses };
  }
  const { blocks, losses } = writeDocBlocks(doc);
  return { markdown: joinBlocks(blocks.map((block) => block.text)), losses };
}

/** The Markdown alone, without the read-back check: for merging texts (a save checks what it converts back). */
export function docToMarkdownText(doc: unknown): string {
  return joinBlocks(placeDocBlocks(doc).map((block) => block.text));
}

export function joinBlocks(texts: string[]): string {
  return texts.length === 0 ? '' : `${texts.join('\n\n')}\n`;
}

/** A top-level node and its Markdown, placed at its lines, before the read-back check. */
export interface PlacedBlock {
  readonly node: PmNode;
  readonly text: string;
  readonly startLine: number;
  readonly endLine: number;
}

/** The Markdown of each top-level node, and the losses of the whole conversion. */
export function writeDocBlocks(doc: unknown): { blocks: WrittenBlock[]; losses: MarkdownIssue[] } {
  const losses: MarkdownIssue[] = docLosses(doc);
  const placed = placeDocBlocks(doc);
  const parsed = parseMarkdownBlocks(joinBlocks(placed.map((block) => block.text))).blocks;
  let next = 0;
  const blocks = placed.map((block): WrittenBlock => {
    const readBack: PmNode[] = [];
    for (; next < parsed.length && parsed[next]!.startLine < block.endLine; next++) {
      readBack.push(parsed[next]!.node);
    }
    const blockLosses = compareReadBack(block.node, readBack);
    for (const loss of blockLosses) {
      losses.push(issueAt(block.startLine, block.endLine - 1, `${capitalise(loss)}.`, 'error'));
    }
    return { ...block, losses: blockLosses };
  });
  return { blocks, losses };
}

/** Each top-level node's Markdown at its lines, without the read-back check (see lossesOfBlock). */
export function placeDocBlocks(doc: unknown): PlacedBlock[] {
  const nodes = (isObject(doc) && Array.isArray(doc['content']) ? doc['content'] : []).filter(isNode);
  let line = 0;
  return nodes.map((node, index) => {
    const text = writeBlockAfter(nodes[index - 1], node);
    const startLine = line;
    line += text.split('\n').length + 1;
    return { node, text, startLine, endLine: line - 1 };
  });
}

/** What a block's Markdown cannot hold, read back on its own. */
export function lossesOfBlock(block: PlacedBlock): string[] {
  return compareReadBack(
    block.node,
    parseMarkdownBlocks(block.text).blocks.map((parsed) => parsed.node),
  );
}

function compareReadBack(node: PmNode, readBack: PmNode[]): string[] {
  return readBack.length === 1 && sameWithDefaults(readBack[0], node) ? [] : describeLosses(withTipTapDefaults(node), readBack);
}

/** Whether two nodes are the same once TipTap's default attrs are added where missing (as the editor does on load). */
export function sameWithDefaults(a: unknown, b: unknown): boolean {
  return sameJson(a, b) || sameJson(withTipTapDefaults(a), withTipTapDefaults(b));
}

/** A node (and what it holds) with TipTap's default attrs added where they are missing. */
export function withTipTapDefaults(node: unknown): unknown {
  if (Array.isArray(node)) {
    return node.map(withTipTapDefaults);
  }
  if (!isNode(node)) {
    return node;
  }
  const defaults = tiptapDefaults(node.type);
  const withAttrs = defaults ? { ...node, attrs: { ...defaults, ...(node.attrs ?? {}) } } : node;
  return Array.isArray(node.content) ? { ...withAttrs, content: node.content.map(withTipTapDefaults) } : withAttrs;
}

function docLosses(doc: unknown): MarkdownIssue[] {
  if (!isObject(doc) || doc['type'] !== 'doc' || !Array.isArray(doc['content'])) {
    return [issueAt(0, 0, 'The notebook content is not a document ({"type": "doc", "content": [...]}), so it has no Markdown form.', 'error')];
  }
  const losses: MarkdownIssue[] = [];
  for (const key of Object.keys(doc).filter((key) => key !== 'type' && key !== 'content')) {
    losses.push(issueAt(0, 0, `The document's "${key}" has no Markdown form.`, 'error'));
  }
  if (doc['content'].some((node) => !isNode(node))) {
    losses.push(issueAt(0, 0, 'The document holds an entry that is not a node, which has no Markdown form.', 'error'));
  }
  return losses;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

