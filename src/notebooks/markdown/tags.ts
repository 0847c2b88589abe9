/**
 * Reading and writing PostHog's notebook tags: `<Query query={{"kind":"SavedInsightNode"}} hideFilters />`.
 *
 * PostHog writes a tag as `<Name` + props + ` />`: a `true` prop as its bare name, a string as a JSON string
 * literal, anything else as `{` + compact JSON + `}`. Its own reader (the web app's MarkdownNotebook
 * parser) is more lenient, and so is this one where the meaning is clear:
 * - a tag may span several lines (a pretty-printed JSON prop) but ends at a blank line;
 * - `prop='text'` (backslash escapes any character) and bare values (`height=300`, read as JSON when they
 *   are JSON, else as text) are read;
 * - `<Name …></Name>` is read like `<Name … />` (PostHog ignores what is between; here it must be blank);
 * - prop names are `[A-Za-z_][A-Za-z0-9_-]*`; any name starting with an upper-case letter is a tag.
 * It differs where PostHog silently keeps bad text: a `{…}` value that is not JSON is an error here (PostHog
 * keeps it as the raw string), and so is a prop given twice (PostHog keeps the last). PostHog also decodes
 * HTML entities in quoted values (`"a &amp; b"` → "a & b") although its writer never encodes them; this
 * reader keeps the text as written, so that what formatTag writes reads back exactly.
 * PostHog's reader finds tags only at the start of a line (inside text it reads only `<u>`, `<ref id>` and
 * `<mention id>`); tags inside text are this extension's, for inline nodes (ReplayTimestamp, Backlink).
 */
import { JsonSyntaxError, parseJsonWithLocations } from '../../common/jsonWithLocations';
import { isKnownTag, nodeTypeOfTag, TAGS, UNKNOWN_TAG } from './dialect';
import type { MarkdownIssue } from './issues';
import { lowerBound } from './posthogText';

export interface PropSpan {
  /** Where the prop's name starts. */
  readonly start: number;
  /** Where the prop ends (after its value, or its name when it has none). */
  readonly end: number;
  /** The value as written, quotes or braces included; empty at `end` for a bare name. */
  readonly valueStart: number;
  readonly valueEnd: number;
}

export interface ParsedTag {
  readonly name: string;
  readonly props: Record<string, unknown>;
  readonly propSpans: Record<string, PropSpan>;
  /** Offsets into the text: `<` and after `/>` (or after `</Name>`). */
  readonly start: number;
  readonly end: number;
}

export type TagParse =
  | { readonly ok: true; readonly tag: ParsedTag; readonly end: number }
  | {
      readonly ok: false;
      readonly problem: string;
      readonly problemStart: number;
      readonly problemEnd: number;
      /** Where reading stopped: after the whole tag when its end was found, else at the problem. */
      readonly end: number;
    };

const TAG_NAME = /[A-Z][A-Za-z0-9]*/y;
const PROP_NAME = /[A-Za-z_][A-Za-z0-9_-]*/y;
const BARE_VALUE = /[^\s/>]+/y;

const WHOLE_PROP_NAME = new RegExp(`^${PROP_NAME.source}$`);

export function isPropName(name: string): boolean {
  return WHOLE_PROP_NAME.test(name);
}

/** Whether a PostHog tag starts at the offset: `<`, an upper-case letter, then a name ending in a space, `/` or `>`. */
export function isTagStart(text: string, offset: number): boolean {
  return tagNameAt(text, offset) !== undefined;
}

/** The name of the tag starting at the offset, if one does. */
export function tagNameAt(text: string, offset: number): string | undefined {
  if (text.charCodeAt(offset) !== 0x3c /* < */) {
    return undefined;
  }
  TAG_NAME.lastIndex = offset + 1;
  const name = TAG_NAME.exec(text)?.[0];
  if (name === undefined) {
    return undefined;
  }
  const after = text[offset + 1 + name.length];
  return after === undefined || after === '/' || after === '>' || /\s/.test(after) ? name : undefined;
}

/** A tag as PostHog writes it, props in the object's order (`undefined` props are left out). */
export function formatTag(name: string, props: Record<string, unknown>): string {
  let text = `<${name}`;
  for (const [key, value] of Object.entries(props)) {
    if (!isPropName(key)) {
      throw new Error(`"${key}" cannot be a prop of <${name}>: prop names are letters, digits, "_" and "-".`);
    }
    if (value === undefined) {
      continue;
    }
    text += value === true ? ` ${key}` : ` ${key}=${formatPropValue(value)}`;
  }
  return `${text} />`;
}

/**
 * As PostHog's reader reads it back: a string as a JSON string, unless it holds `&` (PostHog decodes entities in
 * quoted values), anything else as `{JSON}` with backslashes written `\u005c` (PostHog's reader of braces
 * misreads a string ending in an escaped backslash).
 */
function formatPropValue(value: unknown): string {
  if (typeof value === 'string' && !value.includes('&')) {
    return JSON.stringify(value);
  }
  return `{${JSON.stringify(value).replace(/\\\\/g, '\\u005c')}}`;
}

/**
 * Where `</Name>` first comes in `text` from an offset, on the same line and ending by `limit` (-1 when it
 * does not): a scanner reading many tags of one text passes an index of them, so that looking for closings
 * never reads a line over and over.
 */
export type ClosingFinder = (closing: string, from: number, limit: number) => number;

function closingFinder(text: string): ClosingFinder {
  return (closing, from, limit) => {
    const lineEnd = text.indexOf('\n', from);
    const at = text.indexOf(closing, from);
    return at !== -1 && at + closing.length <= Math.min(limit, lineEnd === -1 ? text.length : lineEnd) ? at : -1;
  };
}

/** Reads the tag whose `<` is at the offset. */
export function parseTagAt(text: string, offset: number, closings: ClosingFinder = closingFinder(text)): TagParse {
  return new TagReader(text, offset, closings).read();
}

interface Problem {
  readonly message: string;
  readonly start: number;
  readonly end: number;
}

/** A problem at one character. */
function problemAt(message: string, offset: number): Problem {
  return { message, start: offset, end: offset + 1 };
}

function failure(problem: Problem, end: number): TagParse {
  return { ok: false, problem: problem.message, problemStart: problem.start, problemEnd: problem.end, end };
}

type ValueRead = { readonly value: unknown; readonly end: number } | { readonly problem: Problem; readonly end: number };

class TagReader {
  private position: number;
  private name = '';
  private readonly props: [string, unknown][] = [];
  private readonly spans: [string, PropSpan][] = [];
  private firstProblem: Problem | undefined;
  /** A tag ends at a blank line at the latest. */
  private limit = 0;

  constructor(
    private readonly text: string,
    private readonly start: number,
    private readonly closings: ClosingFinder,
  ) {
    this.position = start;
  }

  read(): TagParse {
    const name = tagNameAt(this.text, this.start);
    if (name === undefined) {
      return this.stop(problemAt('no tag starts here: a tag is "<" and a name starting with an upper-case letter', this.start));
    }
    this.name = name;
    this.limit = paragraphEnd(this.text, this.start);
    this.position = this.start + 1 + name.length;
    for (;;) {
      if (!this.skipSpace()) {
        return this.stop(this.unclosed());
      }
      const char = this.text[this.position];
      if (char === '/') {
        if (this.text[this.position + 1] === '>') {
          return this.finish(this.position + 2);
        }
        return this.stop(problemAt(`"/" in <${name}> must be followed by ">"`, this.position));
      }
      if (char === '>') {
        return this.readClosingTag();
      }
      if (char === '<') {
        return this.stop(this.unclosed());
      }
      if (!this.readProp()) {
        const message = `unexpected ${JSON.stringify(char)} in <${name}>: props are written name="text", name={JSON} or a bare name`;
        return this.stop(problemAt(message, this.position));
      }
    }
  }

  /**
   * After `<Name …>`: `</Name>`, with nothing but spaces or line breaks before it, ends the tag. Content
   * before a `</Name>` on the same line is a problem; anything else leaves the tag unclosed.
   */
  private readClosingTag(): TagParse {
    const contentStart = this.position + 1;
    const closing = `</${this.name}>`;
    const afterSpaces = skipSpaces(this.text, contentStart);
    if (afterSpaces < this.limit && this.text.startsWith(closing, afterSpaces)) {
      return this.finish(afterSpaces + closing.length);
    }
    const closingAt = this.closings(closing, contentStart, this.limit);
    if (closingAt === -1) {
      return this.stop(this.unclosed(contentStart));
    }
    this.note({
      message: `<${this.name}> cannot hold content (PostHog ignores it): write <${this.name} … /> instead`,
      start: contentStart,
      end: closingAt,
    });
    return this.finish(closingAt + closing.length);
  }

  private unclosed(end = this.position): Problem {
    const nameEnd = this.start + 1 + this.name.length;
    return { message: `unclosed tag <${this.name}: it needs "/>"`, start: this.start, end: Math.max(end, nameEnd) };
  }

  /** Reads one prop at the position; false when no prop name is there. */
  private readProp(): boolean {
    PROP_NAME.lastIndex = this.position;
    const key = PROP_NAME.exec(this.text)?.[0];
    if (key === undefined) {
      return false;
    }
    const keyStart = this.position;
    const keyEnd = keyStart + key.length;
    if (this.props.some(([existing]) => existing === key)) {
      this.note({ message: `prop "${key}" is given twice in <${this.name}>`, start: keyStart, end: keyEnd });
    }
    this.position = keyEnd;
    const afterSpaces = skipSpaces(this.text, keyEnd);
    if (afterSpaces >= this.limit || this.text[afterSpaces] !== '=') {
      this.addProp(key, true, { start: keyStart, end: keyEnd, valueStart: keyEnd, valueEnd: keyEnd });
      return true;
    }
    const valueStart = skipSpaces(this.text, afterSpaces + 1);
    const read = this.readValue(key, afterSpaces, valueStart);
    this.position = read.end;
    if ('problem' in read) {
      this.note(read.problem);
    } else {
      this.addProp(key, read.value, { start: keyStart, end: read.end, valueStart, valueEnd: read.end });
    }
    return true;
  }

  private readValue(key: string, equalsAt: number, valueStart: number): ValueRead {
    const char = valueStart < this.limit ? this.text[valueStart] : undefined;
    if (char === '"') {
      return this.readJsonString(valueStart);
    }
    if (char === "'") {
      return this.readSingleQuoted(key, valueStart);
    }
    if (char === '{') {
      return this.readBraced(key, valueStart);
    }
    BARE_VALUE.lastIndex = valueStart;
    const bare = char === undefined ? undefined : BARE_VALUE.exec(this.text)?.[0];
    if (bare === undefined) {
      return { problem: problemAt(`\`=\` without a value for prop "${key}" in <${this.name}>`, equalsAt), end: equalsAt + 1 };
    }
    return { value: readBareValue(bare), end: valueStart + bare.length };
  }

  private readJsonString(valueStart: number): ValueRead {
    let index = valueStart + 1;
    while (index < this.text.length && this.text[index] !== '"' && this.text[index] !== '\n') {
      index += this.text[index] === '\\' ? 2 : 1;
    }
    if (this.text[index] !== '"') {
      return { problem: this.invalidJson(valueStart, index, 'the string is not closed with "'), end: index };
    }
    return this.parseJson(valueStart, index + 1);
  }

  private readSingleQuoted(key: string, valueStart: number): ValueRead {
    let value = '';
    for (let index = valueStart + 1; index < this.limit; index++) {
      const char = this.text[index]!;
      if (char === '\\' && index + 1 < this.limit) {
        value += this.text[++index];
      } else if (char === "'") {
        return { value, end: index + 1 };
      } else {
        value += char;
      }
    }
    return { problem: problemAt(`the value of prop "${key}" in <${this.name}> is not closed with '`, valueStart), end: this.limit };
  }

  /** `{…}`: balanced braces outside JSON strings, stopping at a blank line, and JSON inside. */
  private readBraced(key: string, valueStart: number): ValueRead {
    let depth = 0;
    let index = valueStart;
    const limit = this.limit;
    for (; index < limit; index++) {
      const char = this.text[index];
      if (char === '"') {
        index = skipJsonString(this.text, index, limit);
      } else if (char === '{') {
        depth++;
      } else if (char === '}' && --depth === 0) {
        break;
      }
    }
    if (index >= limit) {
      return { problem: problemAt(`the value of prop "${key}" in <${this.name}> has no closing "}"`, valueStart), end: limit };
    }
    if (this.text.slice(valueStart + 1, index).trim() === '') {
      const message = `prop "${key}" in <${this.name}> has empty braces: write a JSON value inside them`;
      return { problem: { message, start: valueStart, end: index + 1 }, end: index + 1 };
    }
    const parsed = this.parseJson(valueStart + 1, index);
    return 'problem' in parsed ? { problem: parsed.problem, end: index + 1 } : { value: parsed.value, end: index + 1 };
  }

  private parseJson(start: number, end: number): ValueRead {
    try {
      return { value: parseJsonWithLocations(this.text.slice(start, end)).value, end };
    } catch (error) {
      if (!(error instanceof JsonSyntaxError)) {
        throw error;
      }
      return { problem: this.invalidJson(start, start + error.location.offset, error.reason), end };
    }
  }

  private invalidJson(jsonStart: number, at: number, reason: string): Problem {
    const lineStart = this.text.lastIndexOf('\n', at - 1) + 1;
    const column = at - lineStart + 1;
    const end = at < this.text.length && this.text[at] !== '\n' ? at + 1 : Math.max(at, jsonStart + 1);
    return { message: `the props of <${this.name}> are not valid JSON at column ${column}: ${reason}`, start: Math.min(at, end - 1), end };
  }

  private addProp(key: string, value: unknown, span: PropSpan): void {
    if (!this.props.some(([existing]) => existing === key)) {
      this.props.push([key, value]);
      this.spans.push([key, span]);
    }
  }

  /** Spaces and line breaks; false at the end of the text or at a blank line (which ends a tag). */
  private skipSpace(): boolean {
    this.position = Math.min(skipSpaces(this.text, this.position), this.limit);
    return this.position < this.limit;
  }

  private note(problem: Problem): void {
    this.firstProblem ??= problem;
  }

  private stop(problem: Problem): TagParse {
    return failure(this.firstProblem ?? problem, Math.max(this.position, problem.end));
  }

  private finish(end: number): TagParse {
    this.position = end;
    if (this.firstProblem) {
      return failure(this.firstProblem, end);
    }
    const tag: ParsedTag = {
      name: this.name,
      props: Object.fromEntries(this.props),
      propSpans: Object.fromEntries(this.spans),
      start: this.start,
      end,
    };
    return { ok: true, tag, end };
  }
}

function skipSpaces(text: string, from: number): number {
  let index = from;
  while (index < text.length && isSpace(text.charCodeAt(index))) {
    index++;
  }
  return index;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x0c;
}

const BLANK_LINE = /\n[ \t\f\r]*\n/g;

/** The last answer of paragraphEnd: reading every tag of a long paragraph must not search its end each time. */
let lastParagraph: { text: string; from: number; end: number } | undefined;

/** Where the paragraph around the offset ends: the line break before its first blank line, or the end of the text. */
function paragraphEnd(text: string, from: number): number {
  // The first blank line after `from` is the one found from an earlier offset, when `from` is not past it.
  if (lastParagraph && lastParagraph.text === text && lastParagraph.from <= from && from <= lastParagraph.end) {
    return lastParagraph.end;
  }
  BLANK_LINE.lastIndex = from;
  const match = BLANK_LINE.exec(text);
  const end = match === null ? text.length : match.index;
  lastParagraph = { text, from, end };
  return end;
}

/** At a `"`: the index of its closing quote (or the limit). */
function skipJsonString(text: string, from: number, limit: number): number {
  let index = from + 1;
  while (index < limit && text[index] !== '"') {
    index += text[index] === '\\' ? 2 : 1;
  }
  return index;
}

function readBareValue(bare: string): unknown {
  try {
    return JSON.parse(bare) as unknown;
  } catch {
    return bare;
  }
}

export interface TagProblem {
  readonly message: string;
  readonly start: number;
  readonly end: number;
  /** A tag that does not read is an error; one PostHog reads but does not know (or cannot place) a warning. */
  readonly severity: 'error' | 'warning';
}

/**
 * What is worth saying about a well-formed tag, if anything: a name PostHog does not know (its web app shows
 * such a tag as an unknown component; a warning, not an error), or an `<UnknownNode>` without the `nodeType`
 * it stands for.
 */
export function checkTag(tag: ParsedTag): TagProblem | undefined {
  const nameStart = tag.start + 1;
  const nameEnd = nameStart + tag.name.length;
  if (!isKnownTag(tag.name)) {
    const suggestion = closestTagName(tag.name);
    const hint = suggestion ? ` (did you mean ${suggestion}?)` : '';
    return {
      message: `PostHog does not know the tag <${tag.name}> and will show it as unknown${hint}`,
      start: nameStart,
      end: nameEnd,
      severity: 'warning',
    };
  }
  if (tag.name === UNKNOWN_TAG && typeof tag.props.nodeType !== 'string') {
    const span = tag.propSpans.nodeType;
    return {
      message: `<${UNKNOWN_TAG}> needs the type of the node it keeps as a string prop, e.g. nodeType="ph-something"`,
      start: span ? span.start : nameStart,
      end: span ? span.end : nameEnd,
      severity: 'warning',
    };
  }
  return undefined;
}

const KNOWN_TAG_NAMES = TAGS.map((definition) => definition.tag);

const closestNames = new Map<string, string | undefined>();

/** The known tag a name is a slip of, if one is close (remembered: a notebook repeats its names). */
function closestTagName(name: string): string | undefined {
  if (!closestNames.has(name)) {
    if (closestNames.size >= 1000) {
      closestNames.clear();
    }
    closestNames.set(name, findClosestTagName(name));
  }
  return closestNames.get(name);
}

function findClosestTagName(name: string): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of KNOWN_TAG_NAMES) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance, adjacent transpositions counting as one edit ("Qurey" is one edit from "Query"). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const substitution = rows[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      }
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** A tag found in a notebook's Markdown, with its place (0-based lines and columns; the end is exclusive). */
export interface TagInfo extends ParsedTag {
  /** The node type it stands for: from the tag table, or an `<UnknownNode>`'s `nodeType` prop. */
  readonly nodeType: string | undefined;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

export interface TagScan {
  readonly tags: TagInfo[];
  readonly problems: MarkdownIssue[];
}

/**
 * Every PostHog tag in a notebook's Markdown, alone on its line or inside text, and what is wrong with
 * the ones that are not valid. Code (PostHog's backtick fences, code spans), notes (`<!-- … -->`) and escaped
 * `\<` are skipped, and so is lower-case HTML (`<u>`, `<mention …>`). Inside text, a `<Name` that does not
 * read as a tag and is not one of PostHog's names is taken for prose ("List<String>"), not reported.
 * Linear in the text: each part of it is read once, closings and code spans found through indexes.
 */
export function scanTags(markdown: string): TagScan {
  const scanner = new TagScanner(markdown);
  scanner.scan();
  return { tags: scanner.tags, problems: scanner.problems };
}

const SCAN_TARGETS = /[\\`<]/g;

class TagScanner {
  readonly tags: TagInfo[] = [];
  readonly problems: MarkdownIssue[] = [];
  private readonly lineStarts: number[] = [0];
  private readonly blockPrefixEnds = new Map<number, number>();
  /** The last `-->` found, and where its search started: notes before it end there. */
  private noteEnd = { from: -1, at: -1 };
  private closingIndex: Map<string, number[]> | undefined;
  private codeRuns: CodeRuns | undefined;

  constructor(private readonly text: string) {
    for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
      this.lineStarts.push(index + 1);
    }
  }

  scan(): void {
    let line = 0;
    for (const [codeStart, codeEnd] of fenceLineRanges(this.text, this.lineStarts)) {
      this.scanText(this.offsetOfLine(line), this.offsetOfLine(codeStart));
      line = codeEnd;
    }
    this.scanText(this.offsetOfLine(line), this.text.length);
  }

  private scanText(from: number, to: number): void {
    let index = from;
    while (index < to) {
      SCAN_TARGETS.lastIndex = index;
      const found = SCAN_TARGETS.exec(this.text);
      if (found === null || found.index >= to) {
        return;
      }
      index = found.index;
      const char = found[0];
      if (char === '\\') {
        index += 2;
      } else if (char === '`') {
        index = this.afterCodeSpan(index, to);
      } else if (this.text.startsWith('<!--', index)) {
        index = this.afterNote(index);
      } else {
        index = this.readTag(index);
      }
    }
  }

  /** After the `-->` closing a note opened at `start`, or after the `<!--` when none does; one search serves many notes. */
  private afterNote(start: number): number {
    const stale = start < this.noteEnd.from || (this.noteEnd.at !== -1 && this.noteEnd.at < start + 4);
    if (this.noteEnd.from === -1 || stale) {
      const at = this.text.indexOf('-->', start + 4);
      this.noteEnd = { from: start, at };
    }
    return this.noteEnd.at === -1 ? start + 4 : this.noteEnd.at + 3;
  }

  /** At a run of backticks: after the code span it opens (up to a run as long, in its paragraph), or after the run. */
  private afterCodeSpan(start: number, to: number): number {
    this.codeRuns ??= new CodeRuns(this.text);
    const run = this.codeRuns.at(start);
    const close = this.codeRuns.closing(start);
    const limit = Math.min(to, paragraphEnd(this.text, start));
    return close !== undefined && close.start < limit ? close.end : run.end;
  }

  private readTag(start: number): number {
    const name = tagNameAt(this.text, start);
    if (name === undefined) {
      return start + 1;
    }
    const parse = parseTagAt(this.text, start, (closing, from, to) => this.closing(closing, from, to));
    if (parse.ok) {
      this.tags.push(this.located(parse.tag));
      const problem = checkTag(parse.tag);
      if (problem) {
        this.report(problem.message, problem.start, problem.end, problem.severity);
      }
      return parse.end;
    }
    if (isKnownTag(name) || this.startsItsLine(start)) {
      this.report(parse.problem, parse.problemStart, parse.problemEnd);
    }
    // What a broken tag took in is not read again (a tag inside its unclosed braces is part of it).
    return Math.max(parse.end, start + 1);
  }

  /** `</Name>` on the line of `from`, ending by `limit`, from an index of every closing tag in the text. */
  private closing(closing: string, from: number, limit: number): number {
    if (!this.closingIndex) {
      this.closingIndex = new Map();
      for (const match of this.text.matchAll(/<\/[A-Za-z][A-Za-z0-9]*>/g)) {
        const list = this.closingIndex.get(match[0]) ?? [];
        list.push(match.index);
        this.closingIndex.set(match[0], list);
      }
    }
    const list = this.closingIndex.get(closing) ?? [];
    const at = list[lowerBound(list, from)];
    const sameLine = at !== undefined && this.position(at).line === this.position(from).line;
    return sameLine && at + closing.length <= limit ? at : -1;
  }

  /** Whether only whitespace, quote markers and list markers come before the offset on its line. */
  private startsItsLine(offset: number): boolean {
    const lineStart = this.lineStarts[this.position(offset).line]!;
    let end = this.blockPrefixEnds.get(lineStart);
    if (end === undefined) {
      end = blockPrefixEnd(this.text, lineStart);
      this.blockPrefixEnds.set(lineStart, end);
    }
    return end === offset;
  }

  private located(tag: ParsedTag): TagInfo {
    const start = this.position(tag.start);
    const end = this.position(tag.end);
    const nodeType = tag.name === UNKNOWN_TAG && typeof tag.props.nodeType === 'string' ? tag.props.nodeType : nodeTypeOfTag(tag.name);
    return { ...tag, nodeType, line: start.line, column: start.column, endLine: end.line, endColumn: end.column };
  }

  private report(message: string, startOffset: number, endOffset: number, severity: 'error' | 'warning' = 'error'): void {
    const start = this.position(startOffset);
    const end = this.position(Math.max(endOffset, startOffset));
    this.problems.push({ line: start.line, column: start.column, endLine: end.line, endColumn: end.column, message, severity });
  }

  private offsetOfLine(line: number): number {
    return line < this.lineStarts.length ? this.lineStarts[line]! : this.text.length;
  }

  private position(offset: number): { line: number; column: number } {
    const line = Math.max(0, lowerBound(this.lineStarts, offset + 1) - 1);
    return { line, column: offset - this.lineStarts[line]! };
  }
}


/**
 * Where the whitespace, `>` quote markers and list markers (`-`, `*`, `+`, `1.`, `1)`) at a line's start
 * end: a tag there starts its line.
 */
function blockPrefixEnd(text: string, lineStart: number): number {
  let index = lineStart;
  for (;;) {
    while (text[index] === ' ' || text[index] === '\t') {
      index++;
    }
    const char = text[index];
    if (char === '>' || char === '-' || char === '*' || char === '+') {
      index++;
      continue;
    }
    let digits = index;
    while (digits < text.length && digits - index < 9 && text.charCodeAt(digits) >= 0x30 && text.charCodeAt(digits) <= 0x39) {
      digits++;
    }
    if (digits > index && (text[digits] === '.' || text[digits] === ')')) {
      index = digits + 1;
      continue;
    }
    return index;
  }
}

/** The runs of backticks of a text, each with the next run as long (a code span's closer, CommonMark's way). */
class CodeRuns {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly next: number[] = [];

  constructor(text: string) {
    for (const match of text.matchAll(/`+/g)) {
      this.starts.push(match.index);
      this.ends.push(match.index + match[0].length);
    }
    const lastOfLength = new Map<number, number>();
    for (let run = this.starts.length - 1; run >= 0; run--) {
      const length = this.ends[run]! - this.starts[run]!;
      this.next[run] = lastOfLength.get(length) ?? -1;
      lastOfLength.set(length, run);
    }
  }

  at(start: number): { start: number; end: number } {
    const run = lowerBound(this.starts, start);
    return { start: this.starts[run]!, end: this.ends[run]! };
  }

  closing(start: number): { start: number; end: number } | undefined {
    const next = this.next[lowerBound(this.starts, start)]!;
    return next === -1 ? undefined : { start: this.starts[next]!, end: this.ends[next]! };
  }
}

/**
 * The lines of PostHog's code blocks, as [first, after last), in order: a trimmed line starting with three or
 * more backticks, up to a trimmed line of only backticks, at least as many, or the end of the text.
 */
function fenceLineRanges(text: string, lineStarts: readonly number[]): [number, number][] {
  const ranges: [number, number][] = [];
  // A quote's lines hold its blocks (a legacy notebook's quote can hold code): their markers are set aside.
  const lineText = (line: number) =>
    text
      .slice(lineStarts[line], line + 1 < lineStarts.length ? lineStarts[line + 1]! - 1 : text.length)
      .replace(/^\s*(?:>\s?)*/, '')
      .trim();
  const closes = (line: number, fence: number) => {
    const trimmed = lineText(line);
    return trimmed.length >= fence && /^`+$/.test(trimmed);
  };
  for (let line = 0; line < lineStarts.length; line++) {
    const trimmed = lineText(line);
    if (!trimmed.startsWith('```')) {
      continue;
    }
    const fence = /^`+/.exec(trimmed)![0].length;
    let close = line + 1;
    while (close < lineStarts.length && !closes(close, fence)) {
      close++;
    }
    ranges.push([line, Math.min(close + 1, lineStarts.length)]);
    line = close;
  }
  return ranges;
}

/**
 * What completion can offer at the cursor: a tag name after `<`, a query kind in a `<Query>`'s `"kind":"…`, a
 * prop name inside a tag (with the props already given), or a named view in `view="…`.
 */
export type CompletionContext =
  | { readonly kind: 'tagName' | 'queryKind'; readonly typed: string }
  | { readonly kind: 'propName'; readonly tag: string; readonly typed: string; readonly given: readonly string[] }
  | { readonly kind: 'viewName'; readonly tag: string; readonly typed: string };

const KIND_VALUE_BEFORE_CURSOR = /"kind"\s*:\s*"([A-Za-z]*)$/;
const TAG_NAME_BEFORE_CURSOR = /(^|[^\\])<([A-Za-z0-9]*)$/;
const OPEN_TAG = /<([A-Z][A-Za-z0-9]*)(?=[\s/>])/g;

/**
 * What to complete, from the text before the cursor (the cursor is at its end; a few thousand characters
 * are enough). `typed` is what the completion replaces.
 */
export function completionContext(textBeforeCursor: string): CompletionContext | undefined {
  const line = textBeforeCursor.slice(textBeforeCursor.lastIndexOf('\n') + 1);
  const kindValue = KIND_VALUE_BEFORE_CURSOR.exec(line);
  if (kindValue) {
    const queryTag = textBeforeCursor.lastIndexOf('<Query');
    return queryTag !== -1 && !textBeforeCursor.includes('/>', queryTag) ? { kind: 'queryKind', typed: kindValue[1]! } : undefined;
  }
  const tagName = TAG_NAME_BEFORE_CURSOR.exec(line);
  if (tagName) {
    return { kind: 'tagName', typed: tagName[2]! };
  }
  return insideTag(textBeforeCursor);
}

/** A prop name or view being typed inside the last tag opened before the cursor, if the cursor is in one. */
function insideTag(text: string): CompletionContext | undefined {
  const paragraphStart = Math.max(text.lastIndexOf('\n\n'), -1) + 1;
  let open: RegExpExecArray | undefined;
  OPEN_TAG.lastIndex = paragraphStart;
  for (let match = OPEN_TAG.exec(text); match; match = OPEN_TAG.exec(text)) {
    open = match;
  }
  if (!open) {
    return undefined;
  }
  const tag = open[1]!;
  const state = scanProps(text, open.index + open[0].length);
  if (state === undefined) {
    return undefined;
  }
  if (state.quoteStart !== undefined) {
    const view = /(?:^|\s)view\s*=\s*["']$/.test(text.slice(0, state.quoteStart + 1));
    return view ? { kind: 'viewName', tag, typed: text.slice(state.quoteStart + 1) } : undefined;
  }
  const word = /(?:^|\s)([A-Za-z_][A-Za-z0-9_-]*)?$/.exec(text.slice(open.index + open[0].length));
  return word && !state.inValue ? { kind: 'propName', tag, typed: word[1] ?? '', given: state.given } : undefined;
}

/**
 * The props given between a tag's name and the end of the text: undefined once the tag has ended (`/>` or
 * `>`), else where an open quote starts (if the text ends inside one) and whether it ends inside a value.
 */
function scanProps(text: string, from: number): { given: string[]; quoteStart?: number; inValue: boolean } | undefined {
  const given: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let quoteStart = 0;
  let afterEquals = false;
  for (let index = from; index < text.length; index++) {
    const char = text[index]!;
    if (quote !== undefined) {
      if (char === '\\') {
        index++;
      } else if (char === quote) {
        quote = undefined;
        afterEquals = depth > 0;
      }
      continue;
    }
    if (char === '"' || char === "'") {
      quote = char;
      quoteStart = index;
    } else if (char === '{') {
      depth++;
    } else if (char === '}') {
      depth = Math.max(0, depth - 1);
      afterEquals = depth > 0;
    } else if (depth === 0 && (char === '>' || (char === '/' && text[index + 1] === '>'))) {
      return undefined;
    } else if (depth === 0 && char === '=') {
      afterEquals = true;
    } else if (depth === 0 && /\s/.test(char)) {
      afterEquals = false;
    } else if (depth === 0 && !afterEquals && /[A-Za-z_]/.test(char) && (index === from || /\s/.test(text[index - 1]!))) {
      const name = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(text.slice(index, index + 100))![0];
      if (index + name.length < text.length) {
        given.push(name);
      }
      index += name.length - 1;
    }
  }
  if (quote !== undefined) {
    return depth === 0 ? { given, quoteStart, inValue: true } : { given, inValue: true };
  }
  return { given, inValue: depth > 0 || afterEquals };
}
