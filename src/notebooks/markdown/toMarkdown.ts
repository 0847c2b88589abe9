import { describeLosses } from './losses';
import { formatNodeTag, linkDestination, writeInline } from './inline';
import type { MarkdownIssue } from './issues';
import { issueAt, parseMarkdownBlocks } from './parse';
import { sameJson } from '../notebookDocument';
import { CELL_TYPES, childrenOf, EMPTY_PARAGRAPH, isNode, isObject, LIST_TYPES, type PmMark, type PmNode } from './schema';

/**
 * A legacy (ProseMirror) notebook as Markdown in PostHog's dialect, and back exactly: the text read back
 * with markdownToDoc gives the same document, block for block. Blocks are separated by one blank line and
 * the text ends with one "\n" (none for an empty document).
 *
 * Choices where Markdown has no single form:
 * - an empty paragraph is the line `<p></p>` (TipTap documents hold them everywhere; CommonMark has no
 *   empty paragraph, and this reads back unambiguously, a typed `<p></p>` being escaped `\<p>`); as the
 *   first block of a list item it is nothing after the marker (`-`, `- [ ]`);
 * - a hard break is a backslash at the end of the line (CommonMark's, and visible, unlike two spaces), or
 *   `<br>` where a backslash cannot work (in a heading or table cell, at the end of a paragraph, before a
 *   closing `**` or a tag that would stand alone on its line);
 * - two lists in a row alternate markers (`-`/`*`, `1.`/`1)`) so they do not merge into one;
 * - a table without a header row has a header of empty cells (so a real header row whose cells are all
 *   empty writes them as `<p></p>`);
 * - a link is `[text](href)`, PostHog's link mark holding only `href` (a `target` is a loss);
 * - a PostHog node is its tag with its attrs as props, and what else it holds as `nodeContent` (its
 *   content), `nodeMarks` and `nodeFields` (other keys); a node PostHog has no tag for is
 *   `<UnknownNode nodeType="…" …attrs />`;
 * - characters Markdown would read otherwise are escaped with a backslash, or written as a numeric entity
 *   (`&#32;`) where no backslash works (a space at a line's edge, next to an emphasis delimiter).
 *
 * Whatever cannot be held (an unknown mark, a cell spanning columns…) is found by reading the text back
 * and comparing each top-level block with the original: every difference is a loss (an error) at the
 * lines of its block, naming what cannot be held. Nothing is dropped silently.
 *
 * With `forMarkdownNotebook`, the text is for a real Markdown notebook that PostHog's web app reads with
 * its own reader (test/api-server/README.md says how it differs from CommonMark), so the text avoids what
 * that reader shows as written: empty paragraphs are left out (as PostHog's own conversion does) instead
 * of written as `<p></p>`, a hard break between texts is two spaces ending the line rather than a
 * backslash, and spaces at the edges of a bold, italic or strike run go outside it rather than become
 * entities. The document read back is the original as a Markdown notebook holds it
 * (asMarkdownNotebookHoldsIt), and only other differences are losses. PostHog's own conversion also adds
 * `hideFilters` to queries; this one does not.
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
  const { blocks, losses } = writeDocBlocks(doc, options);
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
export function writeDocBlocks(doc: unknown, options: DocToMarkdownOptions = {}): { blocks: WrittenBlock[]; losses: MarkdownIssue[] } {
  const losses: MarkdownIssue[] = docLosses(doc);
  const placed = placeDocBlocks(doc, options);
  const parsed = parseMarkdownBlocks(joinBlocks(placed.map((block) => block.text))).blocks;
  let next = 0;
  const blocks = placed.map((block): WrittenBlock => {
    const readBack: PmNode[] = [];
    for (; next < parsed.length && parsed[next]!.startLine < block.endLine; next++) {
      readBack.push(parsed[next]!.node);
    }
    const blockLosses = compareReadBack(block.node, readBack, options);
    for (const loss of blockLosses) {
      losses.push(issueAt(block.startLine, block.endLine - 1, `${capitalise(loss)}.`, 'error'));
    }
    return { ...block, losses: blockLosses };
  });
  return { blocks, losses };
}

/** Each top-level node's Markdown at its lines, without the read-back check (see lossesOfBlock). */
export function placeDocBlocks(doc: unknown, options: DocToMarkdownOptions = {}): PlacedBlock[] {
  const context: WriteContext = { forMarkdownNotebook: options.forMarkdownNotebook === true };
  const nodes = (isObject(doc) && Array.isArray(doc['content']) ? doc['content'] : []).filter(isNode);
  let line = 0;
  return writeBlocks(context.forMarkdownNotebook ? nodes.map((node) => asMarkdownNotebookHoldsIt(node) as PmNode) : nodes, context).map(({ node, text }) => {
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
    {},
  );
}

function compareReadBack(node: PmNode, readBack: PmNode[], options: DocToMarkdownOptions): string[] {
  const expected = options.forMarkdownNotebook === true ? asMarkdownNotebookHoldsIt(node) : node;
  return readBack.length === 1 && sameJson(readBack[0], expected) ? [] : describeLosses(expected, readBack);
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

interface WriteContext {
  readonly forMarkdownNotebook: boolean;
}

/** Sibling blocks with their Markdown; two lists in a row get different markers so they stay two lists. */
function writeBlocks(nodes: PmNode[], context: WriteContext): { node: PmNode; text: string }[] {
  const written: { node: PmNode; text: string }[] = [];
  let previousList: { family: string; variant: number } | undefined;
  for (const node of nodes) {
    if (context.forMarkdownNotebook && isEmptyParagraph(node)) {
      continue;
    }
    const family = listFamily(node);
    const variant = family !== undefined && previousList?.family === family && previousList.variant === 0 ? 1 : 0;
    written.push({ node, text: writeBlock(node, context, variant) });
    previousList = family === undefined ? undefined : { family, variant };
  }
  return written;
}

function listFamily(node: PmNode): string | undefined {
  return node.type === 'orderedList' ? 'ordered' : LIST_TYPES.has(node.type) ? 'bullet' : undefined;
}

function writeBlock(node: PmNode, context: WriteContext, variant: number): string {
  switch (node.type) {
    case 'paragraph':
      return writeInline(childrenOf(node), { forMarkdownNotebook: context.forMarkdownNotebook }) || EMPTY_PARAGRAPH;
    case 'heading':
      return writeHeading(node);
    case 'bulletList':
    case 'orderedList':
    case 'taskList':
      return writeList(node, context, variant);
    case 'blockquote':
      return prefixLines(joinChildren(childrenOf(node), context), '> ', '>');
    case 'codeBlock':
      return writeCodeBlock(node);
    case 'horizontalRule':
      return '---';
    case 'table':
      return writeTable(node) ?? formatNodeTag(node, true);
    case 'ph-image':
      return writeImage(node) ?? formatNodeTag(node, true);
    default:
      return formatNodeTag(node, true);
  }
}

function isEmptyParagraph(node: PmNode): boolean {
  return node.type === 'paragraph' && childrenOf(node).length === 0 && Object.keys(node).every((key) => key === 'type' || key === 'content');
}

function joinChildren(nodes: PmNode[], context: WriteContext): string {
  return writeBlocks(nodes, context)
    .map((block) => block.text)
    .join('\n\n');
}

function prefixLines(text: string, prefix: string, emptyPrefix: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? emptyPrefix : prefix + line))
    .join('\n');
}

function writeHeading(node: PmNode): string {
  const level = Number(node.attrs?.['level']);
  const hashes = '#'.repeat(Number.isInteger(level) ? Math.min(Math.max(level, 1), 6) : 1);
  const text = writeInline(childrenOf(node), { inHeading: true });
  return text === '' ? hashes : `${hashes} ${text}`;
}

function writeList(node: PmNode, context: WriteContext, variant: number): string {
  const start = Number(node.attrs?.['start'] ?? 1);
  const first = Number.isSafeInteger(start) && start >= 0 ? start : 1;
  return childrenOf(node)
    .map((item, index) => {
      const marker = node.type === 'orderedList' ? `${first + index}${variant === 0 ? '.' : ')'}` : variant === 0 ? '-' : '*';
      const task = node.type === 'taskList' ? ` [${item.attrs?.['checked'] === true ? 'x' : ' '}]` : '';
      return writeListItem(item, marker, task, context);
    })
    .join('\n');
}

/**
 * `- text` with the item's other blocks indented under it: a nested list right below the text (it
 * interrupts the paragraph), other blocks after a blank line. An item whose text is empty is its marker
 * alone, its next block on the following line (a blank line there would end the item).
 */
function writeListItem(item: PmNode, marker: string, task: string, context: WriteContext): string {
  const indent = ' '.repeat(marker.length + 1);
  const [first, ...rest] = childrenOf(item);
  const hasText = first?.type === 'paragraph';
  const text = hasText ? writeInline(childrenOf(first), { forMarkdownNotebook: context.forMarkdownNotebook }) : '';
  const [firstLine = '', ...moreLines] = text.split('\n');
  const others = writeBlocks(hasText ? rest : childrenOf(item), context);
  // An empty text followed by a paragraph must be written, or the paragraph would read as the item's text.
  const emptyBeforeParagraph = hasText && text === '' && task === '' && others[0]?.node.type === 'paragraph';
  const shown = emptyBeforeParagraph ? EMPTY_PARAGRAPH : firstLine;
  const head = [`${marker}${task}${shown === '' ? '' : ` ${shown}`}`, ...moreLines.map((line) => indent + line)].join('\n');
  let result = head;
  others.forEach((block, index) => {
    const bareMarker = text === '' && task === '' && !emptyBeforeParagraph;
    // A lone `<br>` reads as an HTML block, which would swallow a list right below it.
    const tight = index === 0 && (bareMarker || (text !== '<br>' && canInterruptParagraph(block.node)));
    result += `${tight ? '\n' : '\n\n'}${prefixLines(block.text, indent, '')}`;
  });
  return result;
}

function canInterruptParagraph(node: PmNode): boolean {
  const firstItem = childrenOf(node)[0];
  const firstText = firstItem ? childrenOf(firstItem)[0] : undefined;
  const itemHasText = firstText?.type === 'paragraph' && childrenOf(firstText).length > 0;
  if (node.type === 'orderedList') {
    return itemHasText && Number(node.attrs?.['start'] ?? 1) === 1;
  }
  return LIST_TYPES.has(node.type) && itemHasText;
}

function writeCodeBlock(node: PmNode): string {
  const code = childrenOf(node)
    .map((child) => child.text ?? '')
    .join('');
  const language = node.attrs?.['language'];
  const info = typeof language === 'string' ? language : '';
  const fenceChar = info.includes('`') ? '~' : '`';
  const longestRun = Math.max(0, ...(code.match(fenceChar === '`' ? /`+/g : /~+/g) ?? []).map((run) => run.length));
  const fence = fenceChar.repeat(Math.max(3, longestRun + 1));
  return code === '' ? `${fence}${info}\n${fence}` : `${fence}${info}\n${code}\n${fence}`;
}

/** A GFM table; undefined for a table Markdown cannot lay out (no rows, a row without cells). */
function writeTable(node: PmNode): string | undefined {
  const rows = childrenOf(node).map(childrenOf);
  if (rows.length === 0 || rows.some((row) => row.length === 0)) {
    return undefined;
  }
  const width = rows[0]!.length;
  const hasHeader = rows[0]!.every((cell) => cell.type === 'tableHeader');
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const headerTexts = rows[0]!.map(cellText);
  // A header of empty cells stands for no header row, so a real one has its empty cells written out.
  const header = headerTexts.every((text) => text === '') ? headerTexts.map(() => EMPTY_PARAGRAPH) : headerTexts;
  const lines = [
    hasHeader ? row(header) : row(new Array<string>(width).fill('')),
    row(new Array<string>(width).fill('---')),
    ...(hasHeader ? rows.slice(1) : rows).map((cells) => row(cells.map(cellText))),
  ];
  return lines.join('\n');
}

function cellText(cell: PmNode): string {
  const paragraph = childrenOf(cell)[0];
  return paragraph?.type === 'paragraph' ? writeInline(childrenOf(paragraph), { inTable: true }) : '';
}

/** `![alt](src)` for an image that holds only a source and a text alternative. */
function writeImage(node: PmNode): string | undefined {
  const attrs = node.attrs ?? {};
  const simple =
    Object.keys(node).every((key) => key === 'type' || key === 'attrs') &&
    Object.keys(attrs).every((key) => key === 'src' || key === 'alt') &&
    typeof attrs['src'] === 'string' &&
    attrs['src'] !== '' &&
    (attrs['alt'] === undefined || (typeof attrs['alt'] === 'string' && attrs['alt'] !== ''));
  if (!simple) {
    return undefined;
  }
  const alt = typeof attrs['alt'] === 'string' ? writeInline([{ type: 'text', text: attrs['alt'] }]) : '';
  return `![${alt}](${linkDestination(attrs['src'] as string)})`;
}

/**
 * The node as a Markdown notebook holds it: without empty paragraphs (except where Markdown writes them as
 * nothing), and with the spaces at the edges of a bold, italic or strike run outside it (`**bar** baz`, not
 * `**bar&#32;**baz`: PostHog's web app shows entities as they are written).
 */
export function asMarkdownNotebookHoldsIt(node: unknown): unknown {
  if (!isNode(node) || !Array.isArray(node.content)) {
    return node;
  }
  const keepsFirst = node.type === 'listItem' || node.type === 'taskItem' || CELL_TYPES.has(node.type);
  const content = node.content
    .filter((child, index) => !(isNode(child) && isEmptyParagraph(child)) || (keepsFirst && index === 0))
    .map(asMarkdownNotebookHoldsIt);
  return { ...node, content: content.some(isTextNode) ? spacesOutsideEmphasis(content) : content };
}

const EMPHASIS_MARKS = new Set(['bold', 'italic', 'strike']);

function isTextNode(node: unknown): node is PmNode & { text: string } {
  return isNode(node) && node.type === 'text' && typeof node.text === 'string';
}

/** Inline nodes with each emphasis run's edge spaces given only the marks their neighbour shares. */
function spacesOutsideEmphasis(nodes: unknown[]): unknown[] {
  const split = nodes.flatMap((node, index) => {
    if (!isTextNode(node) || node.text.trim() === '') {
      return [node];
    }
    const [, leading = '', middle = '', trailing = ''] = /^(\s*)([\s\S]*?)(\s*)$/.exec(node.text) ?? [];
    const edge = (text: string, neighbour: unknown): unknown[] => {
      if (text === '') {
        return [];
      }
      const marks = (node.marks ?? []).filter((mark) => !EMPHASIS_MARKS.has(mark.type) || marksOf(neighbour).some((other) => sameJson(mark, other)));
      return [marks.length > 0 ? { ...node, text, marks } : withoutMarks({ ...node, text })];
    };
    return [...edge(leading, nodes[index - 1]), { ...node, text: middle }, ...edge(trailing, nodes[index + 1])];
  });
  return joinTextNodes(split);
}

function marksOf(node: unknown): PmMark[] {
  return isNode(node) && Array.isArray(node.marks) ? node.marks : [];
}

function withoutMarks(node: PmNode): PmNode {
  const { marks: _marks, ...rest } = node;
  return rest;
}

/** Neighbouring texts with the same marks as one text node, as a reader makes them. */
function joinTextNodes(nodes: unknown[]): unknown[] {
  const joined: unknown[] = [];
  for (const node of nodes) {
    const previous = joined[joined.length - 1];
    if (isTextNode(node) && isTextNode(previous) && sameJson(previous.marks ?? [], node.marks ?? [])) {
      joined[joined.length - 1] = { ...previous, text: previous.text + node.text };
    } else {
      joined.push(node);
    }
  }
  return joined;
}
