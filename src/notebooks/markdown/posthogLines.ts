import { hasLineTerminator, isAsciiDigitCode, isLineTerminatorCode, isWhitespaceCode, skipWhitespace } from './posthogText';
import type { PhAlignment } from './posthogModel';

/**
 * PostHog's Markdown reader, line by line (MarkdownNotebook markdown.ts): what each kind of line is. Shared
 * by the reader of PostHog's document model and the reader of a legacy notebook's Markdown, which differ in
 * what they build, not in how they see lines.
 */

/** A trimmed quote line without its `>` and one whitespace character after it. */
export function unquote(trimmed: string): string {
  return trimmed.slice(trimmed.length > 1 && isWhitespaceCode(trimmed.charCodeAt(1)) ? 2 : 1);
}

/** `---`, `***` or `___` (three or more), the whole trimmed line. */
export function isDivider(trimmed: string): boolean {
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

/** The length of the backtick fence a trimmed line opens with (at least 3), or 0. */
export function openingFence(trimmed: string): number {
  let fence = 0;
  while (trimmed[fence] === '`') {
    fence++;
  }
  return fence >= 3 ? fence : 0;
}

/** A trimmed line of only backticks, at least as many as the fence. */
export function isClosingFence(trimmed: string, length: number): boolean {
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
export function imageOf(trimmed: string): { alt: string; src: string } | undefined {
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
  return { alt: unescapeImageText(trimmed.slice(2, altEnd)), src: unescapeImageText(trimmed.slice(altEnd + 2, srcEnd)) };
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
export function headingOf(line: string): { level: number; text: string } | undefined {
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

export function isOrderedListLine(line: string): boolean {
  const marker = listMarkerAt(line);
  return marker?.number !== undefined && (marker.end === line.length || isWhitespaceCode(line.charCodeAt(marker.end)));
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

export interface ListLine {
  /** Two columns of indent per level (a tab counts 4), before clamping. */
  readonly depth: number;
  /** The number written on a numbered item. */
  readonly number: number | undefined;
  /** Task items (bullets only). */
  readonly checked: boolean | undefined;
  /** The item's text, after the marker and task box. */
  readonly text: string;
}

/** A list item line (marker, then the end or whitespace and text without line separators), if the line is one. */
export function listLineOf(line: string): ListLine | undefined {
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
  const task = marker.number === undefined ? taskOf(text) : undefined;
  return {
    depth: depthOf(line.slice(0, marker.indent)),
    number: marker.number === undefined ? undefined : Number(marker.number),
    checked: task?.checked,
    text: task ? task.text : text,
  };
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

/** Depths as PostHog keeps them: the first item at 0, each at most one deeper than the item before. */
export function clampDepths(depths: readonly number[]): number[] {
  let previous = -1;
  return depths.map((depth) => (previous = Math.min(depth, previous + 1)));
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

/** A table starts at a line beginning `|` over a row of separator cells (`---`, `:---`, `:---:`, `---:`). */
export function isTableStart(trimmed: string, nextLine: string | undefined): boolean {
  if (!trimmed.startsWith('|')) {
    return false;
  }
  const separator = splitTableRow(nextLine ?? '');
  return separator.length >= 1 && separator.every((cell) => /^:?-{3,}:?$/.test(cell.trim()));
}

export function alignmentOf(cell: string): PhAlignment | null {
  const trimmed = cell.trim();
  const left = trimmed.startsWith(':');
  const right = trimmed.endsWith(':');
  return left && right ? 'center' : left ? 'left' : right ? 'right' : null;
}

/** Whether a trimmed line starts a component: `<`, a capital, letters or digits, then whitespace, `>` or `/`. */
export function startsComponent(trimmed: string): boolean {
  if (trimmed.charCodeAt(0) !== 0x3c /* < */) {
    return false;
  }
  const first = trimmed.charCodeAt(1);
  if (!(first >= 0x41 && first <= 0x5a)) {
    return false;
  }
  let index = 2;
  while (index < trimmed.length && /[A-Za-z0-9]/.test(trimmed[index]!)) {
    index++;
  }
  const after = trimmed.charCodeAt(index);
  return index < trimmed.length && (after === 0x3e /* > */ || after === 0x2f /* / */ || isWhitespaceCode(after));
}

/**
 * For each line, the first line from it on whose trimmed text holds `-->`, so that finding where a
 * `<!--` note ends never searches the rest of the text again.
 */
export class CommentEnds {
  private ends: Int32Array | undefined;

  constructor(private readonly trimmed: readonly string[]) {}

  /**
   * The line where a `<!--` note starting at `start` ends: the first `-->` (after the opening `<!--`) must
   * end its line; -1 when it does not, or never comes (the text is then not a note).
   */
  endOf(start: number): number {
    const first = this.trimmed[start]!.indexOf('-->', 4);
    const [line, at] = first !== -1 ? [start, first] : this.nextArrow(start + 1);
    if (line === -1) {
      return -1;
    }
    return at === this.trimmed[line]!.length - 3 ? line : -1;
  }

  /** The last line `endOf(start)` looks at: the line of the first `-->`, or the last line when none comes. */
  reachOf(start: number): number {
    if (this.trimmed[start]!.indexOf('-->', 4) !== -1) {
      return start;
    }
    const [line] = this.nextArrow(start + 1);
    return line === -1 ? this.trimmed.length - 1 : line;
  }

  private nextArrow(from: number): [number, number] {
    const count = this.trimmed.length;
    if (!this.ends) {
      const ends = new Int32Array(count + 1);
      ends[count] = count;
      for (let index = count - 1; index >= 0; index--) {
        ends[index] = this.trimmed[index]!.includes('-->') ? index : ends[index + 1]!;
      }
      this.ends = ends;
    }
    const line = this.ends[from]!;
    return line >= count ? [-1, -1] : [line, this.trimmed[line]!.indexOf('-->')];
  }
}

/**
 * Whether a line other than a component tag ends PostHog's paragraph before it: a blank line, a fence, an
 * image, a divider, a closed comment, a heading, a table, a list item or a quote. (At a tag the readers
 * differ: PostHog's own ends there, a legacy notebook's only where the tag is alone on its line.)
 */
export function endsParagraphAt(lines: readonly string[], trimmedLines: readonly string[], comments: CommentEnds, index: number): boolean {
  const line = lines[index]!;
  const trimmed = trimmedLines[index]!;
  return (
    trimmed === '' ||
    trimmed.startsWith('```') ||
    imageOf(trimmed) !== undefined ||
    isDivider(trimmed) ||
    (trimmed.startsWith('<!--') && comments.endOf(index) !== -1) ||
    headingOf(line) !== undefined ||
    isTableStart(trimmed, lines[index + 1]) ||
    isListLine(line) ||
    trimmed.startsWith('>')
  );
}

/** PostHog's error for a fence that never closes (the code then runs to the end of the text). */
export const UNCLOSED_CODE_BLOCK = 'Unclosed code block: end it with a line of as many backticks as open it';

/**
 * The line (0-based) of a code fence that is never closed, as PostHog reads fences (outside quotes), if
 * there is one: a quick check of the lines alone, for diagnostics while typing.
 */
export function unclosedFenceLine(text: string): number | undefined {
  const lines = text.split(/\r\n?|\n/);
  for (let line = 0; line < lines.length; line++) {
    const fence = openingFence(lines[line]!.trim());
    if (fence === 0) {
      continue;
    }
    let close = line + 1;
    while (close < lines.length && !isClosingFence(lines[close]!.trim(), fence)) {
      close++;
    }
    if (close >= lines.length) {
      return line;
    }
    line = close;
  }
  return undefined;
}
