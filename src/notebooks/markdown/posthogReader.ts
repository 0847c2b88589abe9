import { readPostHogInline } from './posthogInline';
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
  isOrderedListLine,
  isTableStart,
  listLineOf,
  openingFence,
  splitTableRow,
  startsComponent,
  unquote,
} from './posthogLines';
import {
  COMMENT_NOTE_TAG,
  DIVIDER_TAG,
  IMAGE_TAG,
  type PhBlock,
  type PhDocument,
  type PhInline,
  type PhList,
  type PhListItem,
  type PhParagraph,
  type PhParseError,
  type PhTable,
} from './posthogModel';
import { readComponentTag } from './posthogProps';

/**
 * Markdown read exactly as PostHog's web app reads a Markdown notebook (MarkdownNotebook parseMarkdownNotebook),
 * into PostHog's document model without ids. Not CommonMark: blocks are found line by line, in this order:
 * a line of exactly one space is an empty paragraph and blank lines separate blocks; then a backtick fence
 * (to a bare fence at least as long, else to the end: "Unclosed code block"), `![alt](src)` alone (Image),
 * `---`/`***`/`___` (Divider), `<!-- … -->` with `-->` ending a line (a Comment note), `<Capital` (a
 * component, up to a line ending `/>` or holding `</Name>`, before a blank line: else "Unclosed component
 * tag" and its raw lines stay a paragraph), `#`–`######` and whitespace (heading), a `|` line over a
 * separator row (table), a list line (one item per line, two columns of indent per level), `>` lines
 * (a quote of inline text, or a quoted list), else a paragraph, which ends at any line that starts another
 * block. Linear in the text's length.
 */
export function readPostHogMarkdown(markdown: string | null | undefined): PhDocument {
  const { blocks, errors } = readPostHogBlocks(markdown);
  return { type: 'doc', nodes: blocks.map((block) => block.node), errors };
}

/** A block of PostHog's reading at its lines (0-based, `endLine` exclusive; a list's items are its lines in order). */
export interface PhLocatedBlock {
  readonly node: PhBlock;
  readonly line: number;
  readonly endLine: number;
  /** A tag that did not read (its raw lines are the paragraph) or a code block left open. */
  readonly error?: PhParseError;
}

/** PostHog's reading of the text (as readPostHogMarkdown), each block with the lines it was read from. */
export function readPostHogBlocks(markdown: string | null | undefined): { blocks: PhLocatedBlock[]; errors: PhParseError[] } {
  const lines = postHogLines(markdown ?? '');
  const { blocks, errors } = new BlockReader(lines, lines.map((line) => line.trim())).read(0);
  return { blocks, errors };
}

/** The text's lines as PostHog's reader splits them (`\r\n`, `\r` and `\n` end a line). */
export function postHogLines(text: string): string[] {
  return text.replace(/\r\n?/g, '\n').split('\n');
}

/**
 * The blocks read from line `from` on, up to the end or the first line where `stop` says so, each with its
 * reach: the last line its reading looked at (a block depends on its lines up to its reach, never on lines
 * before it, which is what lets a reading resume after an edit: src/notebooks/markdown/blockReading.ts).
 */
export function readPostHogBlocksFrom(
  lines: readonly string[],
  trimmed: readonly string[],
  from: number,
  stop: (index: number) => boolean,
): { blocks: PhLocatedBlock[]; reaches: number[]; end: number } {
  const { blocks, reaches, end } = new BlockReader(lines, trimmed).read(from, stop);
  return { blocks, reaches, end };
}

/** A line of exactly one space: PostHog's empty paragraph. */
export const EMPTY_PARAGRAPH_LINE = ' ';

interface BlockRead {
  readonly node?: PhBlock;
  readonly next: number;
  /** The last line the reading looked at (at least the block's last line). */
  readonly reach: number;
  readonly error?: PhParseError;
}

class BlockReader {
  private readonly comments: CommentEnds;
  private readonly last: number;

  constructor(
    private readonly lines: readonly string[],
    private readonly trimmed: readonly string[],
  ) {
    this.comments = new CommentEnds(this.trimmed);
    this.last = lines.length - 1;
  }

  read(from: number, stop: (index: number) => boolean = () => false): { blocks: PhLocatedBlock[]; reaches: number[]; errors: PhParseError[]; end: number } {
    const blocks: PhLocatedBlock[] = [];
    const reaches: number[] = [];
    const errors: PhParseError[] = [];
    let index = from;
    while (index < this.lines.length && !stop(index)) {
      if (this.lines[index] === EMPTY_PARAGRAPH_LINE) {
        blocks.push({ node: { type: 'paragraph', children: [] }, line: index, endLine: index + 1 });
        reaches.push(index);
        index++;
        continue;
      }
      if (this.trimmed[index] === '') {
        index++;
        continue;
      }
      const read = this.block(index);
      const next = Math.max(read.next, index + 1);
      if (read.error) {
        errors.push(read.error);
      }
      if (read.node) {
        blocks.push(read.error ? { node: read.node, line: index, endLine: next, error: read.error } : { node: read.node, line: index, endLine: next });
        reaches.push(Math.max(read.reach, next - 1));
      }
      index = next;
    }
    return { blocks, reaches, errors, end: index };
  }

  /** The line after a run that stopped at `next`, looked at to end it (the last line when the run reached the end). */
  private stoppedAt(next: number): number {
    return Math.min(next, this.last);
  }

  private block(index: number): BlockRead {
    const line = this.lines[index]!;
    const trimmed = this.trimmed[index]!;
    if (trimmed.startsWith('```')) {
      return this.codeBlock(index);
    }
    const image = imageOf(trimmed);
    if (image) {
      return { node: { type: 'component', tagName: IMAGE_TAG, props: { alt: image.alt, src: image.src } }, next: index + 1, reach: index };
    }
    if (isDivider(trimmed)) {
      return { node: { type: 'component', tagName: DIVIDER_TAG, props: {} }, next: index + 1, reach: index };
    }
    if (trimmed.startsWith('<!--')) {
      const end = this.comments.endOf(index);
      if (end !== -1) {
        return this.commentNote(index, end);
      }
    }
    if (startsComponent(trimmed)) {
      return this.component(index);
    }
    const heading = headingOf(line);
    if (heading) {
      return { node: { type: 'heading', level: heading.level, children: readPostHogInline(heading.text) }, next: index + 1, reach: index };
    }
    if (isTableStart(trimmed, this.lines[index + 1])) {
      return this.table(index);
    }
    if (isListLine(line)) {
      const list = readList(this.lines, index, this.lines.length);
      return { ...list, reach: this.stoppedAt(list.next) };
    }
    if (trimmed.startsWith('>')) {
      return this.quote(index);
    }
    return this.paragraph(index);
  }

  private paragraph(start: number): BlockRead {
    let index = start;
    while (index < this.lines.length && !this.endsParagraph(index)) {
      index++;
    }
    const node: PhParagraph = { type: 'paragraph', children: readPostHogInline(this.lines.slice(start, index).join('\n')) };
    return { node, next: index, reach: this.paragraphReach(start, index) };
  }

  /**
   * A paragraph looked at the line ending it, after a `|` line at the next one too (a table's separator row),
   * and from each `<!--` line it passed or stopped at, as far as the `-->` that would close a note.
   */
  private paragraphReach(start: number, next: number): number {
    let reach = this.stoppedAt(next < this.lines.length && this.trimmed[next]!.startsWith('|') ? next + 1 : next);
    for (let index = start; index <= Math.min(next, this.last); index++) {
      if (this.trimmed[index]!.startsWith('<!--')) {
        reach = Math.max(reach, this.comments.reachOf(index));
      }
    }
    return reach;
  }

  private endsParagraph(index: number): boolean {
    return startsComponent(this.trimmed[index]!) || endsParagraphAt(this.lines, this.trimmed, this.comments, index);
  }

  private codeBlock(start: number): BlockRead {
    const opening = this.trimmed[start]!;
    const fence = openingFence(opening);
    const language = opening.slice(fence).trim();
    let index = start + 1;
    while (index < this.lines.length && !isClosingFence(this.trimmed[index]!, fence)) {
      index++;
    }
    const node: PhBlock = { type: 'code', text: this.lines.slice(start + 1, index).join('\n') };
    if (language !== '') {
      node.language = language;
    }
    if (index < this.lines.length) {
      return { node, next: index + 1, reach: index };
    }
    return { node, next: index, reach: this.last, error: { message: 'Unclosed code block', raw: this.lines.slice(start).join('\n'), line: start + 1 } };
  }

  private commentNote(start: number, end: number): BlockRead {
    const raw = this.lines
      .slice(start, end + 1)
      .join('\n')
      .trim();
    const text = raw.slice(4, raw.length - 3).trim();
    return { node: { type: 'component', tagName: COMMENT_NOTE_TAG, props: { text } }, next: end + 1, reach: end };
  }

  /** A tag runs over non-blank lines until one ends with `/>` or holds `</Name>`. */
  private component(start: number): BlockRead {
    const { raw, next, closed } = componentLines(this.lines, this.trimmed, start);
    if (!closed) {
      return { node: rawParagraph(raw), next, reach: this.stoppedAt(next), error: { message: 'Unclosed component tag', raw, line: start + 1 } };
    }
    const component = readComponentTag(raw);
    const reach = next - 1;
    if (!component) {
      return { node: rawParagraph(raw), next, reach, error: { message: 'Invalid notebook component tag', raw, line: start + 1 } };
    }
    return { node: component, next, reach };
  }

  private table(start: number): BlockRead {
    const headers = splitTableRow(this.lines[start]!).map(tableCell);
    const alignments = splitTableRow(this.lines[start + 1]!).map(alignmentOf);
    const rows: PhTable['rows'] = [];
    let index = start + 2;
    while (index < this.lines.length && this.trimmed[index]!.startsWith('|')) {
      rows.push(splitTableRow(this.lines[index]!).map(tableCell));
      index++;
    }
    return { node: { type: 'table', headers, rows, alignments }, next: index, reach: this.stoppedAt(index) };
  }

  private quote(start: number): BlockRead {
    if (isListLine(unquote(this.trimmed[start]!))) {
      return this.quotedList(start);
    }
    const texts: string[] = [];
    let index = start;
    while (index < this.lines.length && this.trimmed[index]!.startsWith('>') && !isListLine(unquote(this.trimmed[index]!))) {
      texts.push(unquote(this.trimmed[index]!));
      index++;
    }
    return { node: { type: 'blockquote', children: readPostHogInline(texts.join('\n')) }, next: index, reach: this.stoppedAt(index) };
  }

  private quotedList(start: number): BlockRead {
    const listLines: string[] = [];
    for (let index = start; index < this.lines.length; index++) {
      const trimmed = this.trimmed[index]!;
      if (!trimmed.startsWith('>') || !isListLine(unquote(trimmed))) {
        break;
      }
      listLines.push(unquote(trimmed));
    }
    const read = readList(listLines, 0, listLines.length);
    return { node: { ...(read.node as PhList), blockquote: true }, next: start + read.next, reach: this.stoppedAt(start + listLines.length) };
  }
}

/**
 * A component's lines from `start`: non-blank lines up to one ending with `/>` or holding `</Name>`
 * (`closed`), else up to the blank line; `raw` is their text trimmed, `next` the line after.
 */
export function componentLines(lines: readonly string[], trimmed: readonly string[], start: number): { raw: string; next: number; closed: boolean } {
  const name = /^<([A-Z][A-Za-z0-9]*)/.exec(trimmed[start]!)![1]!;
  const closing = `</${name}>`;
  let index = start;
  while (index < lines.length && (index === start || trimmed[index] !== '')) {
    const line = lines[index]!;
    if (line.trimEnd().endsWith('/>') || line.includes(closing)) {
      return { raw: lines.slice(start, index + 1).join('\n').trim(), next: index + 1, closed: true };
    }
    index++;
  }
  return { raw: lines.slice(start, index).join('\n').trim(), next: index, closed: false };
}

/**
 * List lines from `start` while each is an item. Depth is the indent's columns (a tab counts 4) halved, at
 * most one more than the item before.
 */
function readList(lines: readonly string[], start: number, end: number): { node: PhList; next: number } {
  const ordered = isOrderedListLine(lines[start]!);
  const parsed = [];
  let index = start;
  for (; index < end; index++) {
    const item = listLineOf(lines[index]!);
    if (!item) {
      break;
    }
    parsed.push(item);
  }
  const depths = clampDepths(parsed.map((item) => item.depth));
  const items = parsed.map((line, position): PhListItem => {
    const item: PhListItem = { children: readPostHogInline(line.text), depth: depths[position]!, ordered: line.number !== undefined };
    if (line.number !== undefined) {
      item.start = line.number;
    }
    if (line.checked !== undefined) {
      item.checked = line.checked;
    }
    return item;
  });
  const node: PhList = { type: 'list', ordered, items };
  if (ordered) {
    const first = items.find((item) => item.depth === 0 && item.ordered)?.start;
    if (first !== undefined) {
      node.start = first;
    }
  }
  return { node, next: index };
}

function tableCell(cell: string): { children: PhInline[] } {
  return { children: readPostHogInline(cell) };
}

/** A tag that does not read stays as its raw lines, without inline reading. */
function rawParagraph(raw: string): PhParagraph {
  const children: PhInline[] = [];
  raw.split('\n').forEach((line, index) => {
    if (index > 0 && children[children.length - 1]?.type !== 'hardBreak') {
      children.push({ type: 'hardBreak' });
    }
    if (line !== '') {
      children.push({ type: 'text', text: line });
    }
  });
  return { type: 'paragraph', children };
}
