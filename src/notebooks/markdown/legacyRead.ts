import { COMMENT_TAG, nodeTypeOfTag, UNKNOWN_TAG } from './dialect';
import type { MarkdownIssue } from './issues';
import { NODE_CONTENT_PROP, NODE_FIELDS_PROP, NODE_MARKS_PROP, tiptapDefaults } from './legacyWrite';
import { type InlineTag, readLegacyInline } from './posthogInline';
import {
  alignmentOf,
  clampDepths,
  CommentEnds,
  endsParagraphAt,
  headingOf,
  imageOf,
  isClosingFence,
  isDivider,
  isListLine,
  isTableStart,
  type ListLine,
  listLineOf,
  openingFence,
  splitTableRow,
  startsComponent,
  UNCLOSED_CODE_BLOCK,
} from './posthogLines';
import type { PhInline, PhMark } from './posthogModel';
import { componentLines } from './posthogReader';
import { cellAttrs, INLINE_PH_NODES, isNode, isObject, linkAttrs, markRank, type PmMark, type PmNode } from './schema';
import { checkTag, parseTagAt, type ParsedTag } from './tags';

/** A top-level node read from Markdown, with the lines it came from (`endLine` exclusive). */
export interface ParsedBlock {
  readonly node: PmNode;
  readonly startLine: number;
  readonly endLine: number;
}

export interface ParsedMarkdown {
  readonly blocks: ParsedBlock[];
  readonly problems: MarkdownIssue[];
  /** The text's lines, line endings normalised to "\n" as the reader sees them. */
  readonly lines: string[];
}

/** An issue at lines (0-based, `endLine` inclusive); the message does not repeat the line (callers add it, 1-based). */
export function issueAt(line: number, endLine: number, message: string, severity: 'error' | 'warning'): MarkdownIssue {
  return { line, endLine, message, severity };
}

export function normaliseLineEndings(markdown: string): string {
  return markdown.replace(/\r\n?/g, '\n');
}

/**
 * A legacy notebook's Markdown read into ProseMirror nodes, with the editor's default attrs. Blocks and
 * inline text are read by PostHog's rules (posthogLines.ts, posthogInline.ts), so what PostHog writes reads
 * as PostHog reads it, mapped onto the legacy schema: a list's items, flat with depths, become nested lists
 * (bullets, numbers and tasks apart); a table's header row becomes tableHeader cells; `<ref id>` a comment
 * mark, `<mention id>` a mention node; a tag its node, TipTap's default attrs restored. The extension's own
 * spellings for what PostHog cannot hold (legacyWrite.ts) read back too: `<br>`, escaped whitespace, inline
 * tags, links to any address, a quote's lines as blocks of their own (a `>` line between them), a list
 * item's blocks indented under it after a blank line, a table without a header row (an empty header over
 * centred separators). Problems name, at their lines, what does
 * not become a node: a tag that does not read, a note or discussion thread, a mention without a member id…
 */
export function parseMarkdownBlocks(markdown: string): ParsedMarkdown {
  const lines = normaliseLineEndings(markdown).split('\n');
  const reader = new LegacyReader(lines);
  return { blocks: reader.read(), problems: reader.problems, lines };
}

const EMPTY_PARAGRAPH_LINE = ' ';

class LegacyReader {
  readonly problems: MarkdownIssue[] = [];
  private readonly trimmed: string[];
  private readonly comments: CommentEnds;

  constructor(
    private readonly lines: readonly string[],
    /** Where these lines are in the whole text (a quote's lines are read on their own). */
    private readonly lineOffset = 0,
    problems?: MarkdownIssue[],
  ) {
    this.trimmed = lines.map((line) => line.trim());
    this.comments = new CommentEnds(this.trimmed);
    if (problems) {
      this.problems = problems;
    }
  }

  read(): ParsedBlock[] {
    const blocks: ParsedBlock[] = [];
    let index = 0;
    while (index < this.lines.length) {
      if (this.lines[index] === EMPTY_PARAGRAPH_LINE) {
        blocks.push(this.at({ type: 'paragraph' }, index, index + 1));
        index++;
        continue;
      }
      if (this.trimmed[index] === '') {
        index++;
        continue;
      }
      const { node, next } = this.block(index);
      const end = Math.max(next, index + 1);
      if (node) {
        blocks.push(this.at(node, index, end));
      }
      index = end;
    }
    return blocks;
  }

  private at(node: PmNode, start: number, end: number): ParsedBlock {
    let last = end;
    while (last > start + 1 && this.trimmed[last - 1] === '') {
      last--;
    }
    return { node, startLine: start + this.lineOffset, endLine: last + this.lineOffset };
  }

  private problem(start: number, end: number, message: string, severity: 'error' | 'warning' = 'error'): void {
    this.problems.push(issueAt(start + this.lineOffset, Math.max(start, end - 1) + this.lineOffset, message, severity));
  }

  private block(index: number): { node?: PmNode; next: number } {
    const line = this.lines[index]!;
    const trimmed = this.trimmed[index]!;
    if (trimmed.startsWith('```')) {
      return this.codeBlock(index);
    }
    const image = imageOf(trimmed);
    if (image) {
      return { node: { type: 'ph-image', attrs: image.alt === '' ? { src: image.src } : { src: image.src, alt: image.alt } }, next: index + 1 };
    }
    if (isDivider(trimmed)) {
      return { node: { type: 'horizontalRule' }, next: index + 1 };
    }
    if (trimmed.startsWith('<!--')) {
      const end = this.comments.endOf(index);
      if (end !== -1) {
        this.problem(index, end + 1, 'A note (<!-- … -->) has no place in a legacy notebook; write it as text, or convert the notebook to a Markdown notebook.');
        return { node: textParagraph(this.lines.slice(index, end + 1).join('\n')), next: end + 1 };
      }
    }
    if (startsComponent(trimmed)) {
      const tag = this.blockTag(index);
      if (tag) {
        return tag;
      }
    }
    const heading = headingOf(line);
    if (heading) {
      return { node: withContent({ type: 'heading', attrs: { level: heading.level } }, this.inline(heading.text, index)), next: index + 1 };
    }
    if (isTableStart(trimmed, this.lines[index + 1])) {
      return this.table(index);
    }
    if (isListLine(line)) {
      return this.list(index);
    }
    if (trimmed.startsWith('>')) {
      return this.quote(index);
    }
    return this.paragraph(index);
  }

  private paragraph(start: number): { node: PmNode; next: number } {
    let index = start;
    while (index < this.lines.length && (index === start || !this.endsParagraph(index))) {
      index++;
    }
    return { node: withContent({ type: 'paragraph' }, this.inline(this.lines.slice(start, index).join('\n'), start)), next: index };
  }

  /** PostHog's paragraph ends, except at a tag with text after it on its line (an inline node there). */
  private endsParagraph(index: number): boolean {
    if (startsComponent(this.trimmed[index]!)) {
      return !this.inlineTagLine(index);
    }
    return endsParagraphAt(this.lines, this.trimmed, this.comments, index);
  }

  /** Whether the line starts with a tag that reads and has text after it on the same line. */
  private inlineTagLine(index: number): boolean {
    const line = this.lines[index]!;
    const parse = parseTagAt(line, line.length - line.trimStart().length);
    return parse.ok && line.slice(parse.end).trim() !== '';
  }

  /**
   * A tag starting the line: a block when it reads and ends its (last) line; a line that goes on after the
   * tag is a paragraph (undefined here); a tag that does not read is a problem, its lines kept as text.
   */
  private blockTag(index: number): { node?: PmNode; next: number } | undefined {
    // A tag ends at a blank line at the latest: its paragraph is all it can take in.
    let paragraphEnd = index + 1;
    while (paragraphEnd < this.lines.length && this.trimmed[paragraphEnd] !== '') {
      paragraphEnd++;
    }
    const text = this.lines.slice(index, paragraphEnd).join('\n');
    const offset = this.lines[index]!.length - this.lines[index]!.trimStart().length;
    const parse = parseTagAt(text, offset);
    if (parse.ok) {
      const before = text.slice(0, parse.end);
      const endLine = index + before.split('\n').length - 1;
      const lineEnd = text.indexOf('\n', parse.end);
      if (text.slice(parse.end, lineEnd === -1 ? text.length : lineEnd).trim() !== '') {
        return undefined;
      }
      const read = nodeOfTag(parse.tag);
      if ('problem' in read) {
        this.problem(index, endLine + 1, read.problem);
        return { node: textParagraph(before.slice(offset)), next: endLine + 1 };
      }
      const node = INLINE_PH_NODES.has(read.node.type) ? { type: 'paragraph', content: [read.node] } : read.node;
      return { node, next: endLine + 1 };
    }
    const { raw, next } = componentLines(this.lines, this.trimmed, index);
    this.problem(index, next, `${capitalise(parse.problem)}.`);
    return { node: textParagraph(raw), next };
  }

  private codeBlock(start: number): { node: PmNode; next: number } {
    const opening = this.trimmed[start]!;
    const fence = openingFence(opening);
    const language = opening.slice(fence).trim();
    let index = start + 1;
    while (index < this.lines.length && !isClosingFence(this.trimmed[index]!, fence)) {
      index++;
    }
    const code = this.lines.slice(start + 1, index).join('\n');
    const node = withContent({ type: 'codeBlock', attrs: { language: language === '' ? null : language } }, code === '' ? [] : [{ type: 'text', text: code }]);
    if (index >= this.lines.length) {
      this.problem(start, index, `${UNCLOSED_CODE_BLOCK}.`);
      return { node, next: index };
    }
    return { node, next: index + 1 };
  }

  /**
   * A table's header row becomes tableHeader cells; a header of empty cells over centred separators stands
   * for a table without one. Alignment has no place in a legacy table.
   */
  private table(start: number): { node: PmNode; next: number } {
    const header = splitTableRow(this.lines[start]!);
    const alignments = splitTableRow(this.lines[start + 1]!).map(alignmentOf);
    const headerless = header.every((cell) => cell === '') && alignments.every((alignment) => alignment === 'center');
    if (!headerless && alignments.some((alignment) => alignment !== null)) {
      this.problem(start + 1, start + 2, 'Column alignment has no place in a notebook table; it will not be kept.', 'warning');
    }
    const rows: PmNode[] = headerless ? [] : [this.tableRow(header, 'tableHeader', start)];
    let index = start + 2;
    while (index < this.lines.length && this.trimmed[index]!.startsWith('|')) {
      rows.push(this.tableRow(splitTableRow(this.lines[index]!), 'tableCell', index));
      index++;
    }
    return { node: { type: 'table', content: rows }, next: index };
  }

  private tableRow(cells: string[], type: string, line: number): PmNode {
    return {
      type: 'tableRow',
      content: cells.map((cell) => ({ type, attrs: cellAttrs(), content: [withContent({ type: 'paragraph' }, this.inline(cell, line))] })),
    };
  }

  /**
   * List lines, flat with depths, as nested lists: consecutive items of one kind (bullet, number, task) at a
   * depth make one list. An item's line followed by a blank line and lines indented one level deeper than the
   * item (two spaces more than its depth's) has those lines as blocks of its own after its paragraph (the
   * extension's spelling, legacyWrite.ts); the list goes on if an item's line follows them directly.
   */
  private list(start: number): { node: PmNode; next: number } {
    const items: { line: ListLine; index: number; blocks: PmNode[]; depth: number }[] = [];
    let index = start;
    while (index < this.lines.length) {
      const line = listLineOf(this.lines[index]!);
      if (!line) {
        break;
      }
      const region = this.indentedBlocks(index + 1, line.depth + 1);
      items.push({ line, index, blocks: region?.blocks ?? [], depth: 0 });
      index = region?.next ?? index + 1;
    }
    if (items.length === 0) {
      return { node: textParagraph(this.lines[start]!), next: start + 1 };
    }
    const depths = clampDepths(items.map((item) => item.line.depth));
    items.forEach((item, position) => (item.depth = depths[position]!));
    const [first] = nestLists(items, 0, 0, (item) => this.listItem(item.line, item.index, item.blocks));
    return { node: first!.node, next: first!.end === items.length ? index : items[first!.end]!.index };
  }

  /**
   * The blocks indented under an item: from `start`, blank lines then lines indented by `levels` times two
   * spaces, up to the
   * last such line (blank lines between them included), read without the indent. None unless a blank line comes
   * first and an indented line after it.
   */
  private indentedBlocks(start: number, levels: number): { blocks: PmNode[]; next: number } | undefined {
    let first = start;
    while (first < this.lines.length && this.trimmed[first] === '') {
      first++;
    }
    if (first === start || first >= this.lines.length) {
      return undefined; // most items: no blank line after them, so no indent string is made
    }
    const indent = '  '.repeat(levels);
    if (!this.lines[first]!.startsWith(indent)) {
      return undefined;
    }
    let last = first;
    for (let index = first + 1; index < this.lines.length; index++) {
      if (this.lines[index]!.startsWith(indent)) {
        last = index;
      } else if (this.trimmed[index] !== '') {
        break;
      }
    }
    const inner = this.lines.slice(first, last + 1).map((line) => (line.startsWith(indent) ? line.slice(indent.length) : ''));
    const blocks = new LegacyReader(inner, this.lineOffset + first, this.problems).read().map((block) => block.node);
    return { blocks, next: last + 1 };
  }

  private listItem(line: ListLine, index: number, blocks: readonly PmNode[] = []): PmNode {
    const paragraph = withContent({ type: 'paragraph' }, this.inline(line.text, index));
    const content = [paragraph, ...blocks];
    return line.checked === undefined ? { type: 'listItem', content } : { type: 'taskItem', attrs: { checked: line.checked }, content };
  }

  /**
   * `>` lines: a quote. Its lines, without their `>`, are read as blocks of their own, a `>` line between
   * two blocks separating them (PostHog reads a quote as one run of text, so its own spelling of a quote of
   * text or of a list reads the same).
   */
  private quote(start: number): { node: PmNode; next: number } {
    let index = start;
    while (index < this.lines.length && this.trimmed[index]!.startsWith('>')) {
      index++;
    }
    const lines = this.lines.slice(start, index);
    const starts = lines.map((line) => afterQuoteMarker(line, 0));
    // While every line still starts with `>`, the inner reading is one quote of them all (nothing else reads
    // a `>` line): such levels (`>>>>>>> x`) are peeled here, rather than by a reader of their own each.
    let levels = 1;
    while (peelQuoteLevel(lines, starts)) {
      if (++levels > MAX_QUOTE_LEVELS) {
        throw new RangeError('quotes nest too deeply'); // markdownToDoc says so at the deepest line
      }
    }
    const inner = lines.map((line, at) => line.slice(starts[at]));
    const blocks = new LegacyReader(inner, this.lineOffset + start, this.problems).read().map((block) => block.node);
    let node: PmNode = { type: 'blockquote', content: blocks.length > 0 ? blocks : [{ type: 'paragraph' }] };
    for (let level = 1; level < levels; level++) {
      node = { type: 'blockquote', content: [node] };
    }
    return { node, next: index };
  }

  private inline(text: string, line: number): PmNode[] {
    return legacyInlineNodes(readLegacyInline(text), (message) => this.problem(line, line + 1, message));
  }
}

/**
 * Peeled levels take no stack here, but what walks the document later (a save's checks, the writer) recurses per
 * level: this is about where the reader used to run out of stack itself, and those walks still pass at 3,000.
 */
const MAX_QUOTE_LEVELS = 2_000;

/** Whitespace (as trimStart sees it), `>`, and a space or tab, where a quote line's marker is. */
const QUOTE_MARKER = /\s*>[ \t]?/y;

/** Moves each line's start past one more quote marker, when every line has one. */
function peelQuoteLevel(lines: readonly string[], starts: number[]): boolean {
  for (let at = 0; at < lines.length; at++) {
    if (afterQuoteMarker(lines[at]!, starts[at]!) === -1) {
      return false;
    }
  }
  for (let at = 0; at < lines.length; at++) {
    starts[at] = afterQuoteMarker(lines[at]!, starts[at]!);
  }
  return true;
}

/** Where the line goes on after a quote marker at `from`; -1 when there is none. */
function afterQuoteMarker(line: string, from: number): number {
  QUOTE_MARKER.lastIndex = from;
  return QUOTE_MARKER.test(line) ? QUOTE_MARKER.lastIndex : -1;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

interface FlatItem {
  readonly depth: number;
}

/**
 * From `position`, the lists at `depth`: items of one kind in a row, each item followed by the lists one
 * level deeper. Returns each list with the position after it.
 */
function nestLists<T extends FlatItem & { line: ListLine }>(items: T[], position: number, depth: number, itemNode: (item: T) => PmNode): { node: PmNode; end: number }[] {
  const lists: { node: PmNode; end: number }[] = [];
  let at = position;
  while (at < items.length && items[at]!.depth === depth) {
    const kind = kindOf(items[at]!.line);
    const listItems: PmNode[] = [];
    const startNumber = items[at]!.line.number;
    while (at < items.length && items[at]!.depth === depth && kindOf(items[at]!.line) === kind) {
      const node = itemNode(items[at]!);
      at++;
      for (const nested of nestLists(items, at, depth + 1, itemNode)) {
        (node.content as PmNode[]).push(nested.node);
        at = nested.end;
      }
      listItems.push(node);
    }
    const list: PmNode =
      kind === 'ordered' ? { type: 'orderedList', attrs: { start: startNumber ?? 1 }, content: listItems } : { type: kind === 'task' ? 'taskList' : 'bulletList', content: listItems };
    lists.push({ node: list, end: at });
  }
  return lists;
}

function kindOf(line: ListLine): 'bullet' | 'ordered' | 'task' {
  return line.number !== undefined ? 'ordered' : line.checked !== undefined ? 'task' : 'bullet';
}

/** A paragraph of text as written (a tag or note that became no node). */
function textParagraph(text: string): PmNode {
  const nodes: PmNode[] = [];
  text.split('\n').forEach((line, index) => {
    if (index > 0) {
      nodes.push({ type: 'hardBreak' });
    }
    if (line !== '') {
      nodes.push({ type: 'text', text: line });
    }
  });
  return withContent({ type: 'paragraph' }, nodes);
}

/** The node (always one just made) with its content, if any. */
function withContent(node: PmNode, content: PmNode[]): PmNode {
  if (content.length > 0) {
    node.content = content;
  }
  return node;
}

/** PostHog's inline reading as legacy nodes: marks in the editor's order, mentions and tags as nodes. */
function legacyInlineNodes(inline: (PhInline | InlineTag)[], problem: (message: string) => void): PmNode[] {
  const nodes: PmNode[] = [];
  for (const item of inline) {
    if (item.type === 'hardBreak') {
      nodes.push({ type: 'hardBreak' });
      continue;
    }
    if (item.type === 'tag') {
      const read = nodeOfTag(item.tag);
      if ('problem' in read) {
        problem(read.problem);
        pushText(nodes, item.source, legacyMarksOf(item.marks ?? NO_PH_MARKS));
      } else if (read.node.type.startsWith('ph-') && !INLINE_PH_NODES.has(read.node.type)) {
        problem(`The tag <${item.tag.name}> stands for a block: put it alone on its own line.`);
        pushText(nodes, item.source, legacyMarksOf(item.marks ?? NO_PH_MARKS));
      } else {
        const marks = legacyMarksOf(item.marks ?? NO_PH_MARKS);
        nodes.push(marks.length > 0 ? { ...read.node, marks } : read.node);
      }
      continue;
    }
    const mention = item.marks && mentionOf(item.marks);
    if (mention) {
      const previous = nodes[nodes.length - 1];
      const id = /^\d+$/.test(mention.id) ? Number(mention.id) : undefined;
      if (id === undefined) {
        problem(`A mention needs a member's number as its id (<mention id="42">), not ${JSON.stringify(mention.id)}.`);
        pushText(nodes, item.text, legacyMarksOf(item.marks ?? NO_PH_MARKS));
      } else if (!(previous?.type === 'ph-mention' && previous.attrs?.['id'] === id)) {
        nodes.push({ type: 'ph-mention', attrs: { id } });
      }
      continue;
    }
    pushText(nodes, item.text, legacyMarksOf(item.marks ?? NO_PH_MARKS));
  }
  return nodes;
}

function mentionOf(marks: readonly PhMark[]): Extract<PhMark, { type: 'mention' }> | undefined {
  for (const mark of marks) {
    if (mark.type === 'mention') {
      return mark;
    }
  }
  return undefined;
}

function pushText(nodes: PmNode[], text: string, marks: PmMark[]): void {
  const previous = nodes[nodes.length - 1];
  if (previous?.type === 'text' && sameMarks(previous.marks ?? [], marks)) {
    previous.text = `${previous.text ?? ''}${text}`;
    return;
  }
  nodes.push(marks.length > 0 ? { type: 'text', text, marks } : { type: 'text', text });
}

/** Marks compared by type, and by attrs only where there are any (stringifying every text's marks was most of a read). */
function sameMarks(a: readonly PmMark[], b: readonly PmMark[]): boolean {
  if (a.length !== b.length) {
    return false;
  }
  for (let index = 0; index < a.length; index++) {
    if (!sameMark(a[index]!, b[index]!)) {
      return false;
    }
  }
  return true;
}

function sameMark(a: PmMark, b: PmMark): boolean {
  return a.type === b.type && ((a.attrs === undefined && b.attrs === undefined) || JSON.stringify(a.attrs) === JSON.stringify(b.attrs));
}

const NO_PH_MARKS: readonly PhMark[] = [];

/**
 * legacyMarks, converted once per marks array: PostHog's reader gives texts of the same marks one array, so
 * a paragraph of a million texts converts a handful of arrays, and its texts share the converted ones (which
 * nothing changes: a text's marks are only ever read or replaced). Weak: an array goes with its reading.
 */
const CONVERTED_MARKS = new WeakMap<readonly PhMark[], PmMark[]>();

function legacyMarksOf(marks: readonly PhMark[]): PmMark[] {
  let legacy = CONVERTED_MARKS.get(marks);
  if (legacy === undefined) {
    legacy = legacyMarks(marks);
    CONVERTED_MARKS.set(marks, legacy);
  }
  return legacy;
}

/** PostHog's marks as the legacy editor's, in its order: a ref is a comment highlight. One loop: this runs for every text read. */
function legacyMarks(marks: readonly PhMark[]): PmMark[] {
  const legacy: PmMark[] = [];
  for (const mark of marks) {
    const converted = legacyMark(mark);
    if (converted) {
      legacy.push(converted);
    }
  }
  return legacy.length > 1 ? legacy.sort((a, b) => markRank(a.type) - markRank(b.type)) : legacy;
}

function legacyMark(mark: PhMark): PmMark | undefined {
  switch (mark.type) {
    case 'link':
      return { type: 'link', attrs: linkAttrs(mark.href) };
    case 'ref':
      return { type: 'comment', attrs: { id: mark.id } };
    case 'mention':
      return undefined;
    default:
      return { type: mark.type };
  }
}

/**
 * The node a tag stands for: attrs from its props (TipTap's defaults restored for PostHog's nodes), content
 * and marks from `nodeContent` and `nodeMarks`; a problem for a tag that stands for no node.
 */
export function nodeOfTag(tag: ParsedTag): { node: PmNode } | { problem: string } {
  const { name, props } = tag;
  const type = name === UNKNOWN_TAG ? props['nodeType'] : nodeTypeOfTag(name);
  if (typeof type !== 'string') {
    if (name === COMMENT_TAG) {
      return { problem: `A <${COMMENT_TAG}> tag stands for a comment thread, which a legacy notebook keeps as a mark on text; it has no node form.` };
    }
    const unknown = checkTag(tag);
    return { problem: unknown ? `${capitalise(unknown.message)}; it stands for no notebook node.` : `The tag <${name}> stands for no notebook node.` };
  }
  const { [NODE_CONTENT_PROP]: content, [NODE_MARKS_PROP]: marks, [NODE_FIELDS_PROP]: fields, ...attrs } = props;
  if (name === UNKNOWN_TAG) {
    delete attrs['nodeType'];
  }
  if (fields !== undefined && !isObject(fields)) {
    return { problem: `The ${NODE_FIELDS_PROP} prop must be an object.` };
  }
  const defaults = name === UNKNOWN_TAG ? undefined : tiptapDefaults(type);
  const allAttrs = defaults ? { ...attrs, ...Object.fromEntries(Object.entries(defaults).filter(([key]) => !(key in attrs))) } : attrs;
  const node: PmNode = { ...(fields ?? {}), type };
  if (Object.keys(allAttrs).length > 0) {
    node.attrs = allAttrs;
  }
  if (content !== undefined) {
    if (!Array.isArray(content) || !content.every(isNode)) {
      return { problem: `The ${NODE_CONTENT_PROP} prop must be a list of nodes (objects with a "type").` };
    }
    node.content = content;
  }
  if (marks !== undefined) {
    if (!Array.isArray(marks) || !marks.every(isNode)) {
      return { problem: `The ${NODE_MARKS_PROP} prop must be a list of marks (objects with a "type").` };
    }
    node.marks = marks;
  }
  return { node };
}
