import { readPostHogInline } from './posthogInline';
import {
  COMMENT_NOTE_TAG,
  DIVIDER_TAG,
  IMAGE_TAG,
  type PhAlignment,
  type PhBlock,
  type PhComponent,
  type PhDocument,
  type PhInline,
  type PhList,
  type PhListItem,
  type PhParagraph,
  type PhParseError,
  type PhTable,
} from './posthogModel';
import { readComponentTag, startsComponent } from './posthogProps';
import { hasLineTerminator, isAsciiDigitCode, isLineTerminatorCode, isWhitespaceCode, skipWhitespace } from './posthogText';

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
  return new BlockReader((markdown ?? '').replace(/\r\n?/g, '\n').split('\n')).read();
}

/** A line of exactly one space: PostHog's empty paragraph. */
export const EMPTY_PARAGRAPH_LINE = ' ';

interface BlockRead {
  readonly node?: PhBlock;
  readonly next: number;
  readonly error?: PhParseError;
}

class BlockReader {
  private readonly trimmed: string[];
  /** For each line, the first line from it on whose trimmed text holds `-->` (lines.length when none). */
  private commentEnds: Int32Array | undefined;

  constructor(private readonly lines: string[]) {
    this.trimmed = lines.map((line) => line.trim());
  }

  read(): PhDocument {
    const nodes: PhBlock[] = [];
    const errors: PhParseError[] = [];
    let index = 0;
    while (index < this.lines.length) {
      if (this.lines[index] === EMPTY_PARAGRAPH_LINE) {
        nodes.push({ type: 'paragraph', children: [] });
        index++;
        continue;
      }
      if (this.trimmed[index] === '') {
        index++;
        continue;
      }
      const read = this.block(index);
      if (read.error) {
        errors.push(read.error);
      }
      if (read.node) {
        nodes.push(read.node);
      }
      index = Math.max(read.next, index + 1);
    }
    return { type: 'doc', nodes, errors };
  }

  private block(index: number): BlockRead {
    const line = this.lines[index]!;
    const trimmed = this.trimmed[index]!;
    if (trimmed.startsWith('```')) {
      return this.codeBlock(index);
    }
    const image = imageOf(trimmed);
    if (image) {
      return { node: image, next: index + 1 };
    }
    if (isDivider(trimmed)) {
      return { node: { type: 'component', tagName: DIVIDER_TAG, props: {} }, next: index + 1 };
    }
    if (trimmed.startsWith('<!--')) {
      const end = this.commentEnd(index);
      if (end !== -1) {
        return this.commentNote(index, end);
      }
    }
    if (startsComponent(trimmed)) {
      return this.component(index);
    }
    const heading = headingOf(line);
    if (heading) {
      return { node: { type: 'heading', level: heading.level, children: readPostHogInline(heading.text) }, next: index + 1 };
    }
    if (this.isTableStart(index)) {
      return this.table(index);
    }
    if (isListLine(line)) {
      return readList(this.lines, index, this.lines.length);
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
    return { node, next: index };
  }

  private endsParagraph(index: number): boolean {
    const line = this.lines[index]!;
    const trimmed = this.trimmed[index]!;
    return (
      trimmed === '' ||
      trimmed.startsWith('```') ||
      imageOf(trimmed) !== undefined ||
      isDivider(trimmed) ||
      (trimmed.startsWith('<!--') && this.commentEnd(index) !== -1) ||
      startsComponent(trimmed) ||
      headingOf(line) !== undefined ||
      this.isTableStart(index) ||
      isListLine(line) ||
      trimmed.startsWith('>')
    );
  }

  private codeBlock(start: number): BlockRead {
    const opening = this.trimmed[start]!;
    let fence = 0;
    while (opening[fence] === '`') {
      fence++;
    }
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
      return { node, next: index + 1 };
    }
    return { node, next: index, error: { message: 'Unclosed code block', raw: this.lines.slice(start).join('\n'), line: start + 1 } };
  }

  /**
   * The line where a `<!--` note starting at `start` ends: the first `-->` (after the opening `<!--`) must
   * end its line; -1 when it does not, or never comes (the text is then not a note).
   */
  private commentEnd(start: number): number {
    const first = this.trimmed[start]!.indexOf('-->', 4);
    const [line, at] = first !== -1 ? [start, first] : this.nextArrow(start + 1);
    if (line === -1) {
      return -1;
    }
    return at === this.trimmed[line]!.length - 3 ? line : -1;
  }

  private nextArrow(from: number): [number, number] {
    if (!this.commentEnds) {
      const ends = new Int32Array(this.lines.length + 1);
      ends[this.lines.length] = this.lines.length;
      for (let index = this.lines.length - 1; index >= 0; index--) {
        ends[index] = this.trimmed[index]!.includes('-->') ? index : ends[index + 1]!;
      }
      this.commentEnds = ends;
    }
    const line = this.commentEnds[from]!;
    return line >= this.lines.length ? [-1, -1] : [line, this.trimmed[line]!.indexOf('-->')];
  }

  private commentNote(start: number, end: number): BlockRead {
    const raw = this.lines
      .slice(start, end + 1)
      .join('\n')
      .trim();
    const text = raw.slice(4, raw.length - 3).trim();
    return { node: { type: 'component', tagName: COMMENT_NOTE_TAG, props: { text } }, next: end + 1 };
  }

  /** A tag runs over non-blank lines until one ends with `/>` or holds `</Name>`. */
  private component(start: number): BlockRead {
    const name = /^<([A-Z][A-Za-z0-9]*)/.exec(this.trimmed[start]!)![1]!;
    const closing = `</${name}>`;
    let index = start;
    let closed = false;
    while (index < this.lines.length && (index === start || this.trimmed[index] !== '')) {
      const line = this.lines[index]!;
      if (line.trimEnd().endsWith('/>') || line.includes(closing)) {
        closed = true;
        break;
      }
      index++;
    }
    const raw = this.lines
      .slice(start, closed ? index + 1 : index)
      .join('\n')
      .trim();
    if (!closed) {
      return { node: rawParagraph(raw), next: index, error: { message: 'Unclosed component tag', raw, line: start + 1 } };
    }
    const component = readComponentTag(raw);
    if (!component) {
      return { node: rawParagraph(raw), next: index + 1, error: { message: 'Invalid notebook component tag', raw, line: start + 1 } };
    }
    return { node: component, next: index + 1 };
  }

  private isTableStart(index: number): boolean {
    if (!this.trimmed[index]!.startsWith('|')) {
      return false;
    }
    const separator = splitTableRow(this.lines[index + 1] ?? '');
    return separator.length >= 1 && separator.every(isSeparatorCell);
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
    return { node: { type: 'table', headers, rows, alignments }, next: index };
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
    return { node: { type: 'blockquote', children: readPostHogInline(texts.join('\n')) }, next: index };
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
    return { node: { ...(read.node as PhList), blockquote: true }, next: start + read.next };
  }
}

/** A trimmed quote line without its `>` and one whitespace character after it. */
function unquote(trimmed: string): string {
  return trimmed.slice(trimmed.length > 1 && isWhitespaceCode(trimmed.charCodeAt(1)) ? 2 : 1);
}

function isDivider(trimmed: string): boolean {
  if (trimmed.length < 3) {
    return false;
  }
  const char = trimmed[0];
  if (char !== '-' && char !== '*' && char !== '_') {
    return false;
  }
  for (let index = 1; index < trimmed.length; index++) {
    if (trimmed[index] !== char) {
      return false;
    }
  }
  return true;
}

function isClosingFence(trimmed: string, length: number): boolean {
  if (trimmed.length < length) {
    return false;
  }
  for (let index = 0; index < trimmed.length; index++) {
    if (trimmed[index] !== '`') {
      return false;
    }
  }
  return true;
}

/**
 * `![alt](src)` as a whole trimmed line: in the alt a backslash takes the next character (not a line
 * terminator) and `]` ends it; in the src the same, with `)`. Only `\\`, `\]` and `\)` are unescaped.
 */
function imageOf(trimmed: string): PhComponent | undefined {
  if (!trimmed.startsWith('![')) {
    return undefined;
  }
  const altEnd = escapedRunEnd(trimmed, 2, ']');
  if (altEnd === -1 || trimmed[altEnd + 1] !== '(') {
    return undefined;
  }
  const srcEnd = escapedRunEnd(trimmed, altEnd + 2, ')');
  if (srcEnd !== trimmed.length - 1) {
    return undefined;
  }
  const alt = unescapeImageText(trimmed.slice(2, altEnd));
  const src = unescapeImageText(trimmed.slice(altEnd + 2, srcEnd));
  return { type: 'component', tagName: IMAGE_TAG, props: { alt, src } };
}

/** Where `stop` ends a run in which a backslash takes the next character; -1 at a bad escape or the end. */
function escapedRunEnd(text: string, from: number, stop: string): number {
  let index = from;
  while (index < text.length) {
    const char = text[index];
    if (char === stop) {
      return index;
    }
    if (char === '\\') {
      if (index + 1 >= text.length || isLineTerminatorCode(text.charCodeAt(index + 1))) {
        return -1;
      }
      index += 2;
    } else {
      index++;
    }
  }
  return -1;
}

function unescapeImageText(text: string): string {
  return text.indexOf('\\') === -1 ? text : text.replace(/\\([\\\])])/g, '$1');
}

/** `#`–`######`, whitespace, then the text (which may hold no line separator). */
function headingOf(line: string): { level: number; text: string } | undefined {
  let level = 0;
  while (level < line.length && line[level] === '#') {
    level++;
  }
  if (level === 0 || level > 6 || level >= line.length || !isWhitespaceCode(line.charCodeAt(level))) {
    return undefined;
  }
  const textStart = skipWhitespace(line, level);
  return hasLineTerminator(line, textStart) ? undefined : { level, text: line.slice(textStart) };
}

/** A list line: optional whitespace, `-`, `*`, `+`, `•` or digits and `.`/`)`, then whitespace or the end. */
export function isListLine(line: string): boolean {
  const marker = listMarkerAt(line);
  return marker !== undefined && (marker.end === line.length || isWhitespaceCode(line.charCodeAt(marker.end)));
}

function listMarkerAt(line: string): { indent: number; end: number; number: string | undefined } | undefined {
  const indent = skipWhitespace(line, 0);
  const char = line[indent];
  if (char === '-' || char === '*' || char === '+' || char === '•') {
    return { indent, end: indent + 1, number: undefined };
  }
  let index = indent;
  while (index < line.length && isAsciiDigitCode(line.charCodeAt(index))) {
    index++;
  }
  if (index === indent || (line[index] !== '.' && line[index] !== ')')) {
    return undefined;
  }
  return { indent, end: index + 1, number: line.slice(indent, index) };
}

/**
 * List lines from `start` while each is an item (marker, then the end or whitespace and text without line
 * separators). Depth is the indent's columns (a tab counts 4) halved, at most one more than the item before.
 */
function readList(lines: readonly string[], start: number, end: number): BlockRead {
  const ordered = isOrderedListLine(lines[start]!);
  const items: PhListItem[] = [];
  let index = start;
  for (; index < end; index++) {
    const item = listItemOf(lines[index]!);
    if (!item) {
      break;
    }
    items.push(item);
  }
  let previousDepth = -1;
  for (const item of items) {
    item.depth = Math.min(item.depth, previousDepth + 1);
    previousDepth = item.depth;
  }
  const node: PhList = { type: 'list', ordered, items };
  if (ordered) {
    const first = items.find((item) => item.depth === 0 && item.ordered)?.start;
    if (first !== undefined) {
      node.start = first;
    }
  }
  return { node, next: index };
}

function isOrderedListLine(line: string): boolean {
  const marker = listMarkerAt(line);
  return marker?.number !== undefined && (marker.end === line.length || isWhitespaceCode(line.charCodeAt(marker.end)));
}

function listItemOf(line: string): PhListItem | undefined {
  const marker = listMarkerAt(line);
  if (!marker) {
    return undefined;
  }
  let text = '';
  if (marker.end < line.length) {
    if (!isWhitespaceCode(line.charCodeAt(marker.end))) {
      return undefined;
    }
    const textStart = skipWhitespace(line, marker.end);
    if (hasLineTerminator(line, textStart)) {
      return undefined;
    }
    text = line.slice(textStart);
  }
  const ordered = marker.number !== undefined;
  const task = ordered ? undefined : taskOf(text);
  const item: PhListItem = { children: readPostHogInline(task ? task.text : text), depth: depthOf(line.slice(0, marker.indent)), ordered };
  if (ordered) {
    item.start = Number(marker.number);
  }
  if (task) {
    item.checked = task.checked;
  }
  return item;
}

/** `[ ]`, `[x]` or `[X]`, then the end or whitespace and the item's text. */
function taskOf(text: string): { checked: boolean; text: string } | undefined {
  if (text[0] !== '[' || text[2] !== ']' || !' xX'.includes(text[1] ?? '-')) {
    return undefined;
  }
  if (text.length === 3) {
    return { checked: text[1] !== ' ', text: '' };
  }
  if (!isWhitespaceCode(text.charCodeAt(3))) {
    return undefined;
  }
  return { checked: text[1] !== ' ', text: text.slice(skipWhitespace(text, 3)) };
}

function depthOf(indent: string): number {
  let columns = 0;
  for (const char of indent) {
    columns += char === '\t' ? 4 : 1;
  }
  return Math.floor(columns / 2);
}

/**
 * A table line's cells: trimmed, one leading and one trailing `|` dropped, split at each `|` not escaped
 * as `\|` (which becomes `|`), each cell trimmed. No `|` at all: no cells.
 */
export function splitTableRow(line: string): string[] {
  if (!line.includes('|')) {
    return [];
  }
  let source = line.trim();
  if (source.startsWith('|')) {
    source = source.slice(1);
  }
  if (source.endsWith('|')) {
    source = source.slice(0, -1);
  }
  const cells: string[] = [];
  let parts: string[] = [];
  let partStart = 0;
  for (let index = 0; index < source.length; index++) {
    const char = source[index];
    if (char === '\\' && source[index + 1] === '|') {
      parts.push(source.slice(partStart, index));
      partStart = index + 1;
      index++;
    } else if (char === '|') {
      parts.push(source.slice(partStart, index));
      cells.push(parts.join('').trim());
      parts = [];
      partStart = index + 1;
    }
  }
  parts.push(source.slice(partStart));
  cells.push(parts.join('').trim());
  return cells;
}

function isSeparatorCell(cell: string): boolean {
  return /^:?-{3,}:?$/.test(cell.trim());
}

function alignmentOf(cell: string): PhAlignment | null {
  const trimmed = cell.trim();
  const left = trimmed.startsWith(':');
  const right = trimmed.endsWith(':');
  return left && right ? 'center' : left ? 'left' : right ? 'right' : null;
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
