import type { PhInline, PhMark, PhText } from './posthogModel';
import { parseTagAt, type ParsedTag } from './tags';
import {
  isAsciiAlphanumericAt,
  isEscapableAt,
  isLineTerminatorCode,
  isWhitespaceAt,
  isWhitespaceCode,
  lowerBound,
  lowerBoundNear,
} from './posthogText';

/**
 * Inline Markdown read exactly as PostHog's web app reads it (MarkdownNotebook parseInlineMarkdown), in
 * linear time. PostHog's rules, left to right:
 * - a newline is a hard break; `\X` is X for the escapable characters only (any other backslash is shown);
 * - `**`/`__` bold, `*`/`_` italic, `~~` strike: an opener is not followed by whitespace (`_`/`__` also not
 *   preceded by an ASCII letter or digit, and `*`/`_` not doubled); its closer is the first one after it,
 *   outside code spans, not preceded by whitespace (`_`/`__` also not followed by a letter or digit); what
 *   is between is read the same way with the mark added;
 * - `<u>…</u>`, `<ref id="x">…</ref>` and `<mention id="5">…</mention>` mark what they enclose (the first
 *   closing tag outside code spans ends it, and an empty id is no tag);
 * - a backtick opens a code span closed by the next backtick that is not escaped; inside, only `` \` `` and
 *   `\\` are escapes;
 * - `[label](href)`: the label ends at the first `](` outside code spans, the href at the `)` that balances
 *   its parentheses (escapes removed); only http(s) hrefs without spaces are kept, other links keep their label;
 * - anything else, HTML and entities included, is text.
 * Marks are kept once per type, in PostHog's order; neighbouring texts with equal marks join and runs of
 * hard breaks become one. Texts of the same marks share one marks array, not to be changed (a copy for each
 * of about a million texts was most of the garbage, and a third of the time, on 2 MB of emphasis delimiters).
 *
 * PostHog searches forward from every candidate, which on unclosed delimiters takes quadratic time. Here
 * each closer search is a lookup in sorted lists of the candidates, made once per text, and the whole text
 * is read once (nested content is read in place, its bounds on a stack).
 */
export function readPostHogInline(text: string): PhInline[] {
  if (!SPECIAL_ANYWHERE.test(text)) {
    // Plain text (most cells and many lines): nothing to read but the text itself.
    return text === '' ? [] : [{ type: 'text', text }];
  }
  return new InlineReader(text, false).read() as PhInline[];
}

const SPECIAL_ANYWHERE = /[\n\\*_~<`[]/;

/** A tag inside text (a legacy notebook's inline node), with the marks around it. */
export interface InlineTag {
  type: 'tag';
  tag: ParsedTag;
  /** The tag's text as written. */
  source: string;
  marks?: PhMark[];
}

/**
 * Inline text of a legacy notebook's Markdown: PostHog's rules (so PostHog's own spelling reads the same), and
 * this extension's spellings for what PostHog cannot hold: `<br>` is a line break where a newline cannot be
 * one (hard breaks do not merge), `<Tag … />` inside text is an inline node, a backslash before whitespace
 * keeps that whitespace (at an emphasis edge, where PostHog would not see the delimiter), and a link keeps
 * any href (PostHog shows only the label of one that is not http(s)).
 * Texts and tags of the same marks share one marks array, not to be changed (the legacy reader makes its
 * own marks from it; a copy for each of many short texts was most of a read's garbage).
 */
export function readLegacyInline(text: string): (PhInline | InlineTag)[] {
  if (!SPECIAL_ANYWHERE.test(text)) {
    // The extensions' spellings start with special characters too.
    return text === '' ? [] : [{ type: 'text', text }];
  }
  return new InlineReader(text, true).read();
}

interface Emphasis {
  readonly token: string;
  readonly mark: 'bold' | 'italic' | 'strike';
  /** `_` and `__` are not emphasis inside words (snake_case). */
  readonly wordBoundary: boolean;
}

const EMPHASIS: readonly Emphasis[] = [
  { token: '**', mark: 'bold', wordBoundary: false },
  { token: '__', mark: 'bold', wordBoundary: true },
  { token: '~~', mark: 'strike', wordBoundary: false },
  { token: '*', mark: 'italic', wordBoundary: false },
  { token: '_', mark: 'italic', wordBoundary: true },
];

/** One mark of each emphasis for every mark set (texts get copies, or the legacy reader's read-only arrays). */
const EMPHASIS_MARKS: Readonly<Record<Emphasis['mark'], PhMark>> = { bold: { type: 'bold' }, italic: { type: 'italic' }, strike: { type: 'strike' } };

const MARK_ORDER: Readonly<Record<string, number>> = { code: 0, bold: 1, italic: 2, underline: 3, strike: 4, link: 5, mention: 6, ref: 7 };

/** Marks as PostHog keeps them: the first of each type, in its order. */
export function normaliseMarks(marks: readonly PhMark[]): PhMark[] {
  const seen = new Set<string>();
  const kept = marks.filter((mark) => !seen.has(mark.type) && seen.add(mark.type));
  return kept.sort((a, b) => (MARK_ORDER[a.type] ?? 5) - (MARK_ORDER[b.type] ?? 5));
}

/** `<br>`, `<br/>` or `<br />` (sticky: matched where a `<br` starts). */
const LINE_BREAK_TAG = /<br\s*\/?>/y;

/** Characters where something other than plain text may start (1 at their codes). */
const SPECIAL_CODES = (() => {
  const codes = new Uint8Array(128);
  for (const char of '\n\\*_~<`[') {
    codes[char.charCodeAt(0)] = 1;
  }
  return codes;
})();

/**
 * A set of marks as PostHog keeps them, shared by every text that has it: adding a mark makes (once) the
 * set with it, so texts compare their marks by identity.
 */
class MarkSet {
  /** Made when first needed: most texts read are short, and most sets get no mark added. */
  private added: Map<string, MarkSet> | undefined;
  private codeSet: MarkSet | undefined;

  constructor(readonly marks: readonly PhMark[]) {}

  with(mark: PhMark): MarkSet {
    // A loop, not `some`: a closure for every emphasis read was a fifth of the garbage on delimiter-heavy text.
    for (const existing of this.marks) {
      if (existing.type === mark.type) return this;
    }
    const key = mark.type === 'link' ? `link\u0000${mark.href}` : mark.type === 'ref' || mark.type === 'mention' ? `${mark.type}\u0000${mark.id}` : mark.type;
    this.added ??= new Map();
    let set = this.added.get(key);
    if (!set) {
      set = new MarkSet(normaliseMarks([...this.marks, mark]));
      this.added.set(key, set);
    }
    return set;
  }

  withCode(): MarkSet {
    this.codeSet ??= this.with({ type: 'code' });
    return this.codeSet;
  }
}

interface Frame {
  pos: number;
  readonly end: number;
  readonly marks: MarkSet;
}

class InlineReader {
  private readonly closers: CloserIndex;
  private readonly nodes: (PhInline | InlineTag)[] = [];
  /** The text node being built, its marks and its text so far (one string until a second part comes). */
  private lastNode: PhText | undefined;
  private lastMarks: MarkSet | undefined;
  private pending: string | string[] = '';
  /** A stretch of the source that the text being built ends with, longer than its last part says (pushSource). */
  private sourceStart = -1;
  private sourceEnd = -1;
  /** The last search for a special character: from where, and where it found one. */
  private specialFrom = -1;
  private specialAt = -1;

  constructor(
    private readonly text: string,
    private readonly extensions: boolean,
  ) {
    this.closers = new CloserIndex(text, extensions);
  }

  read(): (PhInline | InlineTag)[] {
    const stack: Frame[] = [{ pos: 0, end: this.text.length, marks: new MarkSet([]) }];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      if (frame.pos >= frame.end) {
        stack.pop();
        continue;
      }
      const child = this.step(frame);
      if (child) {
        stack.push(child);
      }
    }
    this.endText();
    return this.nodes;
  }

  /** Reads what starts at the frame's position; a construct with content gives the frame to read it in. */
  private step(frame: Frame): Frame | undefined {
    const { text } = this;
    const pos = frame.pos;
    switch (text.charCodeAt(pos)) {
      case 0x0a /* \n */:
        this.pushBreak();
        frame.pos++;
        return undefined;
      case 0x5c /* \ */: {
        const control = this.extensions && pos + 1 < frame.end ? LINE_ESCAPES[text[pos + 1]!] : undefined;
        const escaped = control === undefined && (isEscapableAt(text, pos + 1, frame.end) || (this.extensions && isEscapedWhitespaceAt(text, pos + 1, frame.end)));
        this.pushText(control ?? (escaped ? text[pos + 1]! : '\\'), frame.marks);
        frame.pos += control !== undefined || escaped ? 2 : 1;
        return undefined;
      }
      case 0x2a /* * */:
      case 0x5f /* _ */:
      case 0x7e /* ~ */:
        return this.emphasis(frame) ?? this.plainText(frame);
      case 0x3c /* < */:
        if (this.extensions && (this.lineBreakTag(frame) || this.nodeTag(frame))) {
          return undefined;
        }
        return this.underline(frame) ?? this.inlineTag(frame) ?? this.plainText(frame);
      case 0x60 /* ` */:
        return this.codeSpan(frame) ? undefined : this.plainText(frame);
      case 0x5b /* [ */:
        return this.link(frame) ?? this.plainText(frame);
      default:
        return this.plainText(frame);
    }
  }

  /** `<br>`, `<br/>` or `<br />`: a hard break (extensions only). */
  private lineBreakTag(frame: Frame): boolean {
    if (!this.text.startsWith('<br', frame.pos)) {
      return false;
    }
    const match = LINE_BREAK_TAG;
    match.lastIndex = frame.pos;
    const found = match.exec(this.text);
    if (!found || frame.pos + found[0].length > frame.end) {
      return false;
    }
    this.endText();
    this.nodes.push({ type: 'hardBreak' });
    frame.pos += found[0].length;
    return true;
  }

  /** `<Tag … />` inside text: a legacy notebook's inline node (extensions only). */
  private nodeTag(frame: Frame): boolean {
    const first = this.text.charCodeAt(frame.pos + 1);
    if (!(first >= 0x41 && first <= 0x5a)) {
      return false;
    }
    const parse = parseTagAt(this.text, frame.pos);
    if (!parse.ok || parse.end > frame.end) {
      return false;
    }
    this.endText();
    const node: InlineTag = { type: 'tag', tag: parse.tag, source: this.text.slice(frame.pos, parse.end) };
    if (frame.marks.marks.length > 0) {
      node.marks = frame.marks.marks as PhMark[];
    }
    this.nodes.push(node);
    frame.pos = parse.end;
    return true;
  }

  private emphasis(frame: Frame): Frame | undefined {
    const emphasis = this.emphasisAt(frame.pos, frame.end);
    if (!emphasis) {
      return undefined;
    }
    const contentStart = frame.pos + emphasis.token.length;
    const closer = this.closers.find(emphasis.token, contentStart, frame.end, true, emphasis.wordBoundary);
    if (closer === -1) {
      return undefined;
    }
    frame.pos = closer + emphasis.token.length;
    return { pos: contentStart, end: closer, marks: frame.marks.with(EMPHASIS_MARKS[emphasis.mark]) };
  }

  private emphasisAt(pos: number, end: number): Emphasis | undefined {
    const first = this.text.charCodeAt(pos);
    for (const emphasis of EMPHASIS) {
      if (emphasis.token.charCodeAt(0) === first && this.opensEmphasis(emphasis, pos, end)) {
        return emphasis;
      }
    }
    return undefined;
  }

  private opensEmphasis(emphasis: Emphasis, pos: number, end: number): boolean {
    const { text } = this;
    const length = emphasis.token.length;
    if (pos + length > end || !text.startsWith(emphasis.token, pos)) {
      return false;
    }
    if (length === 1 && pos + 1 < end && text[pos + 1] === emphasis.token) {
      return false;
    }
    const contentStart = pos + length;
    if (contentStart >= end || isWhitespaceCode(text.charCodeAt(contentStart))) {
      return false;
    }
    // A frame starts after a delimiter, never after a letter, so the text before it can be looked at.
    return !(emphasis.wordBoundary && isAsciiAlphanumericAt(text, pos - 1));
  }

  private underline(frame: Frame): Frame | undefined {
    const pos = frame.pos;
    if (pos + 3 > frame.end || !this.text.startsWith('<u>', pos)) {
      return undefined;
    }
    const closer = this.closers.find('</u>', pos + 3, frame.end, false, false);
    if (closer === -1) {
      return undefined;
    }
    frame.pos = closer + 4;
    return { pos: pos + 3, end: closer, marks: frame.marks.with({ type: 'underline' }) };
  }

  private inlineTag(frame: Frame): Frame | undefined {
    const tag = this.inlineTagOpening(frame.pos, frame.end);
    if (!tag) {
      return undefined;
    }
    const closing = `</${tag.name}>`;
    const closer = this.closers.find(closing, tag.contentStart, frame.end, false, false);
    if (closer === -1 || tag.id === '') {
      return undefined;
    }
    frame.pos = closer + closing.length;
    return { pos: tag.contentStart, end: closer, marks: frame.marks.with({ type: tag.name, id: tag.id }) };
  }

  /** `<ref id="x">` or `<mention id='5'>`: the name, the id (escapes removed) and where the content starts. */
  private inlineTagOpening(pos: number, end: number): { name: 'ref' | 'mention'; id: string; contentStart: number } | undefined {
    const { text } = this;
    const name = text.startsWith('<ref', pos) ? 'ref' : text.startsWith('<mention', pos) ? 'mention' : undefined;
    if (name === undefined) {
      return undefined;
    }
    let index = pos + 1 + name.length;
    if (index >= end || !isWhitespaceCode(text.charCodeAt(index))) {
      return undefined;
    }
    while (index < end && isWhitespaceCode(text.charCodeAt(index))) {
      index++;
    }
    if (index + 4 > end || !text.startsWith('id=', index)) {
      return undefined;
    }
    const quote = text[index + 3];
    if (quote !== '"' && quote !== "'") {
      return undefined;
    }
    const idStart = index + 4;
    let cursor = idStart;
    const parts: string[] = [];
    let partStart = idStart;
    for (;;) {
      if (cursor >= end) {
        return undefined;
      }
      const char = text[cursor];
      if (char === quote) {
        break;
      }
      if (char === '\\') {
        if (cursor + 1 >= end || isLineTerminatorCode(text.charCodeAt(cursor + 1))) {
          return undefined;
        }
        parts.push(text.slice(partStart, cursor));
        partStart = cursor + 1;
        cursor += 2;
        continue;
      }
      cursor++;
    }
    parts.push(text.slice(partStart, cursor));
    index = cursor + 1;
    while (index < end && isWhitespaceCode(text.charCodeAt(index))) {
      index++;
    }
    if (index >= end || text[index] !== '>') {
      return undefined;
    }
    return { name, id: parts.join(''), contentStart: index + 1 };
  }

  /** A code span has no content to read: it is read here, and the frame goes on. */
  private codeSpan(frame: Frame): boolean {
    const pos = frame.pos;
    if (this.text[pos] !== '`') {
      return false;
    }
    const close = this.closers.nextBacktick(pos + 1, frame.end);
    if (close === -1) {
      return false;
    }
    this.pushText(unescapeCode(this.text.slice(pos + 1, close)), frame.marks.withCode());
    frame.pos = close + 1;
    return true;
  }

  private link(frame: Frame): Frame | undefined {
    const pos = frame.pos;
    if (this.text[pos] !== '[') {
      return undefined;
    }
    const labelEnd = this.closers.find('](', pos + 1, frame.end, false, false);
    if (labelEnd === -1) {
      return undefined;
    }
    const close = this.closers.hrefClose(labelEnd + 2);
    if (close === -1 || close >= frame.end) {
      return undefined;
    }
    const raw = unescapeHref(this.text.slice(labelEnd + 2, close));
    const href = this.extensions ? raw : sanitizeLinkHref(raw);
    frame.pos = close + 1;
    return { pos: pos + 1, end: labelEnd, marks: href === undefined ? frame.marks : frame.marks.with({ type: 'link', href }) };
  }

  private plainText(frame: Frame): undefined {
    const next = this.nextSpecial(frame.pos + 1, frame.end);
    this.pushSource(frame.pos, next, frame.marks);
    frame.pos = next;
    return undefined;
  }

  /**
   * The source's text from `from` to `to`, as pushText; a stretch that continues the text being built extends
   * it, sliced once (text of delimiters that close nothing came a character at a time, each its own string).
   */
  private pushSource(from: number, to: number, marks: MarkSet): void {
    if (from === to) {
      return;
    }
    if (this.lastNode && this.lastMarks === marks && this.sourceEnd === from) {
      this.sourceEnd = to;
      return;
    }
    this.pushText(this.text.slice(from, to), marks);
    this.sourceStart = from;
    this.sourceEnd = to;
  }

  /** The first special character at or after `from` (before `end`). Positions only grow, so one search serves many calls. */
  private nextSpecial(from: number, end: number): number {
    if (from > this.specialAt || from < this.specialFrom) {
      this.specialFrom = from;
      this.specialAt = nextSpecialCode(this.text, from);
    }
    return Math.min(this.specialAt, end);
  }

  private pushText(text: string, marks: MarkSet): void {
    if (text === '') {
      return;
    }
    this.flushSource();
    if (this.lastNode && this.lastMarks === marks) {
      if (typeof this.pending === 'string') {
        this.pending = [this.pending, text];
      } else {
        this.pending.push(text);
      }
      return;
    }
    this.endText();
    const node: PhText = marks.marks.length > 0 ? { type: 'text', text: '', marks: marks.marks as PhMark[] } : { type: 'text', text: '' };
    this.nodes.push(node);
    this.lastNode = node;
    this.lastMarks = marks;
    this.pending = text;
  }

  /** PostHog keeps one of a run of hard breaks; a legacy notebook keeps each. */
  private pushBreak(): void {
    this.endText();
    if (this.extensions || this.nodes[this.nodes.length - 1]?.type !== 'hardBreak') {
      this.nodes.push({ type: 'hardBreak' });
    }
  }

  /** The stretch of source pushSource extended replaces the text's last part (its first slice). */
  private flushSource(): void {
    if (this.sourceEnd === -1) {
      return;
    }
    const [start, end] = [this.sourceStart, this.sourceEnd];
    this.sourceStart = this.sourceEnd = -1;
    const last = typeof this.pending === 'string' ? this.pending : this.pending[this.pending.length - 1]!;
    if (last.length === end - start) {
      return;
    }
    if (typeof this.pending === 'string') {
      this.pending = this.text.slice(start, end);
    } else {
      this.pending[this.pending.length - 1] = this.text.slice(start, end);
    }
  }

  private endText(): void {
    this.flushSource();
    if (this.lastNode) {
      this.lastNode.text = typeof this.pending === 'string' ? this.pending : this.pending.join('');
      this.lastNode = undefined;
      this.lastMarks = undefined;
      this.pending = '';
    }
  }
}

/** The first special character at or after `from`, else the text's length (a loop: a regular expression's match per delimiter was most of the garbage on delimiter-heavy text). */
function nextSpecialCode(text: string, from: number): number {
  for (let index = from; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 128 && SPECIAL_CODES[code] === 1) {
      return index;
    }
  }
  return text.length;
}

/** `\n` and `\r`: a line feed and a carriage return inside a text (extensions only; a newline is a line break). */
const LINE_ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r' };

/** Whitespace other than a newline, escaped by the backslash before it (extensions only). */
function isEscapedWhitespaceAt(text: string, index: number, end: number): boolean {
  return index < end && text[index] !== '\n' && isWhitespaceCode(text.charCodeAt(index));
}

/** Inside a code span only `` \` `` and `\\` are escapes. */
function unescapeCode(text: string): string {
  return text.indexOf('\\') === -1 ? text : text.replace(/\\([\\`])/g, '$1');
}

function unescapeHref(text: string): string {
  let result = '';
  let start = 0;
  for (let index = text.indexOf('\\'); index !== -1 && index < text.length; index = text.indexOf('\\', index)) {
    if (isEscapableAt(text, index + 1)) {
      result += text.slice(start, index);
      start = index + 1;
      index += 2;
    } else {
      index += 1;
    }
  }
  return result + text.slice(start);
}

/** The href PostHog keeps: http(s), no spaces, a URL that parses; else undefined (the link keeps only its label). */
export function sanitizeLinkHref(href: string): string | undefined {
  const trimmed = href.trim();
  if (!/^https?:\/\/\S+$/i.test(trimmed)) {
    return undefined;
  }
  try {
    const url = new URL(trimmed);
    return url.protocol === 'http:' || url.protocol === 'https:' ? trimmed : undefined;
  } catch {
    return undefined;
  }
}

/** Where a closer can be: everywhere, and outside the code spans of each pairing (made when first needed). */
const EMPHASIS_CHARS = new Set(EMPHASIS.map((emphasis) => emphasis.token[0]!));

/** Every index where `token` starts, overlapping ones too, in one pass (a growing typed array: no count pass). */
function allIndexesOf(text: string, token: string): Int32Array {
  let found = new Int32Array(16);
  let count = 0;
  for (let at = text.indexOf(token); at !== -1; at = text.indexOf(token, at + 1)) {
    if (count === found.length) {
      const grown = new Int32Array(found.length * 2);
      grown.set(found);
      found = grown;
    }
    found[count++] = at;
  }
  return found.subarray(0, count);
}

interface Candidates {
  readonly all: Int32Array;
  readonly outside: (ArrayLike<number> | undefined)[];
  /** Where the last search in these lists ended, to search from there next time. */
  hint: number;
}

/**
 * Where each kind of closer can be, so that a search is a lookup. A closer is never escaped (an even run of
 * backslashes before it) and is outside code spans. Code spans pair backticks from where the search starts,
 * so there are two pairings, by the parity of the first backtick searched; each kind keeps its candidates
 * outside the spans of each pairing. A text read in parts (nested content) sees only its part: a pairing
 * whose last backtick is unpaired there, and a closer at the part's very end, are looked at on their own.
 */
class CloserIndex {
  /** 1 where an odd run of backslashes ends just before. */
  private readonly escaped: Uint8Array;
  private readonly backticks: number[] = [];
  /** Closer candidates by token, for text (0) and for emphasis (1); made when first needed, as most texts need none. */
  private candidates: [Map<string, Candidates>, Map<string, Candidates>] | undefined;
  /** Where each emphasis character is, found when first needed. */
  private charPlaces: Map<string, Int32Array> | undefined;
  private hrefCloses: Map<number, number> | undefined;

  constructor(
    private readonly text: string,
    /** A backslash before whitespace keeps it as text, which then does not stop a closer. */
    private readonly escapedWhitespace = false,
  ) {
    this.escaped = new Uint8Array(text.length + 1);
    let run = 0;
    for (let index = 0; index < text.length; index++) {
      this.escaped[index] = run % 2;
      const char = text.charCodeAt(index);
      if (char === 0x60 /* ` */ && run % 2 === 0) {
        this.backticks.push(index);
      }
      run = char === 0x5c /* \ */ ? run + 1 : 0;
    }
    this.escaped[text.length] = run % 2;
  }

  /** The first backtick at or after `from`, before `end`; -1 when none. */
  nextBacktick(from: number, end: number): number {
    const found = this.backticks[lowerBound(this.backticks, from)];
    return found !== undefined && found < end ? found : -1;
  }

  /**
   * The first closer `token` at or after `from` (after it, when `afterFrom`) that ends by `end`, outside the
   * code spans paired from `from`. For emphasis (`afterFrom`), a closer is not preceded by whitespace, and a
   * `wordBoundary` one is not followed by a letter or digit (the end of the part counts as none).
   */
  find(token: string, from: number, end: number, afterFrom: boolean, wordBoundary: boolean): number {
    const { backticks } = this;
    const lowest = afterFrom ? from + 1 : from;
    const highest = end - token.length;
    if (highest < lowest) {
      return -1;
    }
    const first = lowerBound(backticks, from);
    const last = lowerBound(backticks, end);
    const unpaired = (last - first) % 2 === 1 ? backticks[last - 1]! : -1;
    const candidates = this.candidatesOf(token, afterFrom, wordBoundary);
    const { all, outside } = candidates;
    const list = (outside[first % 2] ??= this.outsideSpans(all, first % 2));
    candidates.hint = lowerBoundNear(list, lowest, candidates.hint);
    const found = list[candidates.hint];
    if (found !== undefined && found <= highest && (unpaired === -1 || found < unpaired)) {
      return found;
    }
    if (unpaired !== -1) {
      const after = all[lowerBound(all, Math.max(lowest, unpaired + 1))];
      if (after !== undefined && after <= highest) {
        return after;
      }
    }
    if (wordBoundary && this.isCloserAtPartEnd(token, highest, lowest) && !this.insideSpan(highest, first, last)) {
      return highest;
    }
    return -1;
  }

  /** A `_`/`__` closer followed by a letter only outside the part: at the part's end it closes. */
  private isCloserAtPartEnd(token: string, at: number, lowest: number): boolean {
    const { text } = this;
    return (
      at >= lowest && text.startsWith(token, at) && this.escaped[at] === 0 && !this.whitespaceBefore(at) && isAsciiAlphanumericAt(text, at + token.length)
    );
  }

  /** Whether whitespace that counts comes just before the position (escaped whitespace does not, with extensions). */
  private whitespaceBefore(at: number): boolean {
    return isWhitespaceAt(this.text, at - 1) && !(this.escapedWhitespace && this.escaped[at - 1] === 1);
  }

  private insideSpan(position: number, first: number, last: number): boolean {
    const before = lowerBound(this.backticks, position);
    return (before - first) % 2 === 1 && before < last;
  }

  private candidatesOf(token: string, emphasis: boolean, wordBoundary: boolean): Candidates {
    this.candidates ??= [new Map(), new Map()];
    const cache = this.candidates[emphasis ? 1 : 0];
    let entry = cache.get(token);
    if (!entry) {
      const { text } = this;
      // Typed arrays: on delimiter-heavy text the lists have a million entries, and growing arrays of that
      // size was much of a read's garbage.
      const occurrences = this.occurrencesOf(token);
      const found = new Int32Array(occurrences.length);
      let kept = 0;
      // Indexed loops over typed arrays here and below: `for…of` made an iterator result per entry where the
      // loop was not optimised, which was 40% of a delimiter-heavy read's garbage.
      for (let index = 0; index < occurrences.length; index++) {
        const at = occurrences[index]!;
        if (this.escaped[at] === 1) {
          continue;
        }
        if (emphasis && (at === 0 || this.whitespaceBefore(at))) {
          continue;
        }
        if (wordBoundary && isAsciiAlphanumericAt(text, at + token.length)) {
          continue;
        }
        found[kept++] = at;
      }
      const all = found.subarray(0, kept);
      entry = { all, outside: [undefined, undefined], hint: 0 };
      cache.set(token, entry);
    }
    return entry;
  }

  /**
   * Where `token` starts in the text, in order (overlapping ones too). An emphasis token (`*`, `**`, `_`, `__`,
   * `~~`) is found among the places of its character, found once for all its tokens: on delimiter-heavy text a
   * call of indexOf per match was most of the time of a read.
   */
  private occurrencesOf(token: string): Int32Array {
    const char = token[0]!;
    if (!EMPHASIS_CHARS.has(char) || token !== char.repeat(token.length)) {
      return allIndexesOf(this.text, token);
    }
    this.charPlaces ??= new Map();
    let places = this.charPlaces.get(char);
    if (!places) {
      places = allIndexesOf(this.text, char);
      this.charPlaces.set(char, places);
    }
    if (token.length === 1) {
      return places;
    }
    const { text } = this;
    const code = char.charCodeAt(0);
    const found = new Int32Array(places.length);
    let count = 0;
    for (let index = 0; index < places.length; index++) {
      const at = places[index]!;
      if (text.charCodeAt(at + 1) === code) {
        found[count++] = at;
      }
    }
    return found.subarray(0, count);
  }

  /** The candidates outside the code spans of the pairing that opens at backticks of this parity. */
  private outsideSpans(all: Int32Array, parity: number): ArrayLike<number> {
    const { backticks } = this;
    if (backticks.length < 2) {
      return all;
    }
    const kept: number[] = [];
    let before = 0;
    for (let index = 0; index < all.length; index++) {
      const at = all[index]!;
      while (before < backticks.length && backticks[before]! < at) {
        before++;
      }
      const inside = before > 0 && (before - 1) % 2 === parity && before < backticks.length;
      if (!inside) {
        kept.push(at);
      }
    }
    return kept;
  }

  /**
   * Where a link's href starting at `start` ends: the `)` (not escaped) that balances the parentheses
   * after `start`; -1 when the text ends first. Found for every `](` in one pass.
   */
  hrefClose(start: number): number {
    this.hrefCloses ??= this.findHrefCloses();
    return this.hrefCloses.get(start) ?? -1;
  }

  private findHrefCloses(): Map<number, number> {
    const { text } = this;
    const starts: number[] = [];
    for (let at = text.indexOf(']('); at !== -1; at = text.indexOf('](', at + 1)) {
      starts.push(at + 2);
    }
    const closes = new Map<number, number>();
    // Waiting starts by the depth whose `)` closes them; the deepest waits on top.
    const waiting: { target: number; starts: number[] }[] = [];
    let depth = 0;
    let next = 0;
    for (let index = 0; index <= text.length; index++) {
      for (; next < starts.length && starts[next] === index; next++) {
        const top = waiting[waiting.length - 1];
        if (top?.target === depth - 1) {
          top.starts.push(index);
        } else {
          waiting.push({ target: depth - 1, starts: [index] });
        }
      }
      if (index === text.length || this.escaped[index] === 1) {
        continue;
      }
      const char = text.charCodeAt(index);
      if (char === 0x28 /* ( */) {
        depth++;
      } else if (char === 0x29 /* ) */) {
        depth--;
        while (waiting.length > 0 && waiting[waiting.length - 1]!.target === depth) {
          // A loop, not forEach with a closure: a closure over `index` gave every character read a context of its own.
          for (const start of waiting.pop()!.starts) {
            closes.set(start, index);
          }
        }
      }
    }
    return closes;
  }
}
