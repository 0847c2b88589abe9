import MarkdownIt from 'markdown-it';
import { formatTag, isPropName } from './tags';
import { tagOfNodeType, UNKNOWN_TAG } from './dialect';
import { type JsonObject, markRank, type PmMark, type PmNode } from './schema';

/**
 * Writes a paragraph's (or heading's, or table cell's) inline content in PostHog's Markdown dialect so that
 * markdown-it reads back the same nodes: marks as `**bold**`, `*italic*`, `` `code` ``, `~~strike~~`,
 * `<u>underline</u>`, `[text](href)`; a hard break as a backslash at the end of the line; PostHog's inline
 * nodes as tags. Text is escaped where Markdown would read it as syntax, and where CommonMark's
 * emphasis rules would not see a delimiter (a space just inside `**`, a letter just outside after
 * punctuation) the neighbouring character is written as a numeric entity (`&#32;`), which markdown-it reads
 * back as that character. Marks with no Markdown form are left out here; the caller's comparison names them.
 */
export interface InlineOptions {
  readonly inTable?: boolean;
  readonly inHeading?: boolean;
  /**
   * The text is for a Markdown notebook, which PostHog's web app reads: a hard break between two texts is
   * two spaces ending the line, which both markdown-it and PostHog's reader (a newline in a paragraph is a
   * hard break there, and a backslash is shown) read as a hard break.
   */
  readonly forMarkdownNotebook?: boolean;
}

type Piece =
  | { kind: 'text'; text: string; entityFirst: boolean; entityLast: boolean }
  | { kind: 'code'; text: string }
  | { kind: 'raw'; text: string }
  | { kind: 'break'; text: string }
  | { kind: 'delim'; mark: PmMark; opening: boolean; text: string };

const WRITTEN_MARKS = new Set(['bold', 'italic', 'strike', 'underline', 'link']);
const utils = new MarkdownIt().utils;

export function writeInline(nodes: PmNode[], options: InlineOptions = {}): string {
  const pieces = piecesOf(nodes, options);
  chooseBreaks(pieces, options);
  chooseItalicDelimiters(pieces);
  fixFlanking(pieces, options);
  return render(pieces, options);
}

interface Item {
  node: PmNode;
  marks: PmMark[];
}

function piecesOf(nodes: PmNode[], options: InlineOptions): Piece[] {
  const items: Item[] = nodes.map((node) => ({ node, marks: (Array.isArray(node.marks) ? node.marks : []).filter((mark) => WRITTEN_MARKS.has(mark.type)) }));
  const pieces: Piece[] = [];
  const stack: PmMark[] = [];
  items.forEach((item, index) => {
    let keep = 0;
    while (keep < stack.length && item.marks.some((mark) => sameMark(mark, stack[keep]!))) {
      keep++;
    }
    while (stack.length > keep) {
      pieces.push(delimiter(stack.pop()!, false));
    }
    const opening = item.marks.filter((mark) => !stack.some((open) => sameMark(open, mark)));
    const lasting = (mark: PmMark) => {
      let count = 0;
      while (items[index + count]?.marks.some((other) => sameMark(other, mark))) {
        count++;
      }
      return count;
    };
    opening.sort((a, b) => lasting(b) - lasting(a) || markRank(a.type) - markRank(b.type));
    for (const mark of opening) {
      stack.push(mark);
      pieces.push(delimiter(mark, true));
    }
    pieces.push(pieceOf(item.node, options));
  });
  while (stack.length > 0) {
    pieces.push(delimiter(stack.pop()!, false));
  }
  return pieces;
}

function sameMark(a: PmMark, b: PmMark): boolean {
  return a.type === b.type && JSON.stringify(a.attrs ?? null) === JSON.stringify(b.attrs ?? null);
}

function delimiter(mark: PmMark, opening: boolean): Piece {
  const text = {
    bold: '**',
    italic: '*',
    strike: '~~',
    underline: opening ? '<u>' : '</u>',
    link: opening ? '[' : `](${linkDestination(String(mark.attrs?.['href'] ?? ''))})`,
  }[mark.type as 'bold'];
  return { kind: 'delim', mark, opening, text };
}

function pieceOf(node: PmNode, options: InlineOptions): Piece {
  if (node.type === 'text') {
    const text = node.text ?? '';
    const isCode = node.marks?.some((mark) => mark.type === 'code') ?? false;
    return isCode ? { kind: 'code', text } : { kind: 'text', text, entityFirst: false, entityLast: false };
  }
  if (node.type === 'hardBreak') {
    return { kind: 'break', text: LINE_BREAK };
  }
  return { kind: 'raw', text: inlineTag(node, options) };
}

/** An inline node other than text as its tag: PostHog's tag for its type, else UnknownNode. */
function inlineTag(node: PmNode, options: InlineOptions): string {
  const tag = formatNodeTag(node, false);
  return options.inTable ? tag.replace(/\|/g, '\\|') : tag;
}

/**
 * A node as its tag: attrs as props, and what else the node holds in `nodeContent` (its content),
 * `nodeMarks` (marks on a block node) and `nodeFields` (any other key, as an object). Attrs whose names cannot be props are left out (the caller's comparison
 * names them).
 */
export function formatNodeTag(node: PmNode, isBlock: boolean): string {
  const known = tagOfNodeType(node.type);
  const props: JsonObject = known ? {} : { nodeType: node.type };
  for (const [key, value] of Object.entries(node.attrs ?? {})) {
    if (isPropName(key) && !(key in props)) {
      props[key] = value;
    }
  }
  if (node.content !== undefined) {
    props[NODE_CONTENT_PROP] = node.content;
  }
  if (isBlock && node.marks !== undefined) {
    props[NODE_MARKS_PROP] = node.marks;
  }
  const otherKeys = Object.keys(node).filter((key) => !['type', 'attrs', 'content', 'marks', 'text'].includes(key));
  if (otherKeys.length > 0) {
    props[NODE_FIELDS_PROP] = Object.fromEntries(otherKeys.map((key) => [key, node[key]]));
  }
  return formatTag(known ?? UNKNOWN_TAG, props);
}

export const NODE_CONTENT_PROP = 'nodeContent';
export const NODE_MARKS_PROP = 'nodeMarks';
/** Keys of the node itself other than type, attrs, content and marks, as an object. */
export const NODE_FIELDS_PROP = 'nodeFields';

/** The link's destination, in angle brackets when it holds what a bare destination cannot. */
export function linkDestination(href: string): string {
  const escaped = href.replace(/\\/g, '\\\\').replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&');
  if (href === '' || /[\s()<>]/.test(href)) {
    return `<${escaped.replace(/[<>]/g, '\\$&').replace(/\n/g, '&#10;')}>`;
  }
  return escaped;
}

const LINE_BREAK = '\\\n';
const SPACES_BREAK = '  \n';
const HTML_BREAK = '<br>';

/**
 * A hard break is a backslash ending the line, or `<br>` where that cannot work: in a heading or a table
 * cell (one line each), after the last text (a backslash there is only a backslash), before a tag that
 * would stand alone on its line (it would read as a block), and before a closing delimiter (at a line's
 * start it could not close).
 */
function chooseBreaks(pieces: Piece[], options: InlineOptions): void {
  pieces.forEach((piece, index) => {
    if (piece.kind !== 'break') {
      return;
    }
    const rest = pieces.slice(index + 1).filter((next) => next.kind !== 'delim');
    const next = rest[0];
    const tagAloneNext = next?.kind === 'raw' && (rest[1] === undefined || rest[1].kind === 'break');
    const following = pieces[index + 1];
    const closesNext = following?.kind === 'delim' && !following.opening;
    if (options.inTable || options.inHeading || rest.every((other) => other.kind === 'break') || tagAloneNext || closesNext) {
      piece.text = HTML_BREAK;
    } else if (options.forMarkdownNotebook && index > 0 && pieces[index - 1]!.kind !== 'break' && next?.kind !== 'break') {
      // Spaces alone on a line would be a blank line, ending the paragraph: only between texts.
      piece.text = SPACES_BREAK;
    }
  });
}

/** Italic is `*`, or `_` where a `*` would run into a bold `**` beside it. */
function chooseItalicDelimiters(pieces: Piece[]): void {
  const isBold = (piece: Piece | undefined) => piece?.kind === 'delim' && piece.mark.type === 'bold';
  const opens = new Map<PmMark, number>();
  pieces.forEach((piece, index) => {
    if (piece.kind !== 'delim' || piece.mark.type !== 'italic') {
      return;
    }
    if (piece.opening) {
      opens.set(piece.mark, index);
      return;
    }
    const start = opens.get(piece.mark)!;
    if ([pieces[start - 1], pieces[start + 1], pieces[index - 1], pieces[index + 1]].some(isBold)) {
      (pieces[start] as { text: string }).text = '_';
      piece.text = '_';
    }
  });
}

/** The code point at a string's start or end, for the emphasis rules. */
function firstCodePoint(text: string): number {
  return text.codePointAt(0) ?? 0x20;
}

function lastCodePoint(text: string): number {
  const last = text.charCodeAt(text.length - 1);
  if (text.length >= 2 && last >= 0xdc00 && last <= 0xdfff) {
    return text.codePointAt(text.length - 2)!;
  }
  return Number.isNaN(last) ? 0x20 : last;
}

function isPunct(code: number): boolean {
  return utils.isMdAsciiPunct(code) || utils.isPunctChar(String.fromCodePoint(code));
}

/**
 * Makes every emphasis delimiter open or close as meant, by writing the neighbouring text character as an
 * entity (read back as the character, but seen by the emphasis rules as punctuation).
 */
function fixFlanking(pieces: Piece[], options: InlineOptions): void {
  for (let pass = 0; pass < 3; pass++) {
    let changed = false;
    pieces.forEach((piece, index) => {
      if (piece.kind !== 'delim' || !['bold', 'italic', 'strike'].includes(piece.mark.type)) {
        return;
      }
      changed = fixDelimiter(pieces, index, options) || changed;
    });
    if (!changed) {
      return;
    }
  }
}

function fixDelimiter(pieces: Piece[], index: number, options: InlineOptions): boolean {
  const piece = pieces[index] as Extract<Piece, { kind: 'delim' }>;
  const before = pieces[index - 1];
  const after = pieces[index + 1];
  const underscore = piece.text === '_';
  const state = () => {
    const last = before ? lastCodePoint(renderPiece(before, options)) : 0x20;
    const next = after ? firstCodePoint(renderPiece(after, options)) : 0x20;
    const lastWhite = utils.isWhiteSpace(last);
    const nextWhite = utils.isWhiteSpace(next);
    const lastPunct = isPunct(last);
    const nextPunct = isPunct(next);
    const left = !nextWhite && (!nextPunct || lastWhite || lastPunct);
    const right = !lastWhite && (!lastPunct || nextWhite || nextPunct);
    const canOpen = left && (!underscore || !right || lastPunct);
    const canClose = right && (!underscore || !left || nextPunct);
    return piece.opening ? canOpen : canClose;
  };
  if (state()) {
    return false;
  }
  const inner = piece.opening ? after : before;
  const outer = piece.opening ? before : after;
  let changed = false;
  if (inner?.kind === 'text') {
    changed = setEntity(inner, piece.opening ? 'first' : 'last') || changed;
  }
  if (!state() && outer?.kind === 'text') {
    changed = setEntity(outer, piece.opening ? 'last' : 'first') || changed;
  }
  return changed;
}

function setEntity(piece: Extract<Piece, { kind: 'text' }>, end: 'first' | 'last'): boolean {
  const key = end === 'first' ? 'entityFirst' : 'entityLast';
  if (piece[key]) {
    return false;
  }
  piece[key] = true;
  return true;
}

function render(pieces: Piece[], options: InlineOptions): string {
  let output = '';
  let lineStart = true;
  pieces.forEach((piece, index) => {
    if (piece.kind === 'text') {
      const next = pieces[index + 1];
      const lineEnd = next === undefined || next.kind === 'break';
      output += escapeText(piece, options, lineStart, lineEnd);
    } else {
      output += renderPiece(piece, options);
    }
    lineStart = output === '' || output.endsWith('\n');
  });
  return output;
}

function renderPiece(piece: Piece, options: InlineOptions): string {
  switch (piece.kind) {
    case 'text':
      return escapeText(piece, options, false, false);
    case 'code':
      return codeSpan(piece.text, options);
    default:
      return piece.text;
  }
}

function codeSpan(text: string, options: InlineOptions): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') || (text.startsWith(' ') && text.endsWith(' ') && !/^ *$/.test(text)) ? ' ' : '';
  const body = text.replace(/\r?\n|\r/g, ' ');
  const written = `${fence}${pad}${body}${pad}${fence}`;
  return options.inTable ? written.replace(/\|/g, '\\|') : written;
}

const ALWAYS_ESCAPED = new Set(['\\', '*', '`', '[', ']', '|']);
const LINE_START_ESCAPED = new Set(['#', '>', '-', '+', '=', '~', '<']);
const ENTITY_LIKE = /^&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});/;
const WORD_CHAR = /[\p{L}\p{N}]/u;

function entity(char: string): string {
  return `&#${char.codePointAt(0)};`;
}

/** Text escaped so that markdown-it reads it back as the same characters. */
function escapeText(piece: Extract<Piece, { kind: 'text' }>, options: InlineOptions, atLineStart: boolean, atLineEnd: boolean): string {
  if (isPlain(piece, options, atLineStart, atLineEnd)) {
    return piece.text;
  }
  const chars = Array.from(piece.text);
  let output = '';
  chars.forEach((char, index) => {
    const first = index === 0;
    const last = index === chars.length - 1;
    if ((first && (piece.entityFirst || (atLineStart && /\s/.test(char)))) || (last && (piece.entityLast || (atLineEnd && /\s/.test(char))))) {
      output += entity(char);
      return;
    }
    // A neighbour written as an entity is punctuation to the emphasis rules, so "_" next to it is escaped.
    const besideEntity = (index === 1 && piece.entityFirst) || (index === chars.length - 2 && piece.entityLast);
    output += besideEntity && char === '_' ? '\\_' : escapeChar(chars, index, options, first && atLineStart);
  });
  return atLineStart ? escapeOrderedMarker(output) : output;
}

const MAYBE_SPECIAL = /[\\*`[\]|~_<&!\n\r\t#]/;

/** Text with nothing to escape, the common case, found without looking at each character. */
function isPlain(piece: Extract<Piece, { kind: 'text' }>, options: InlineOptions, atLineStart: boolean, atLineEnd: boolean): boolean {
  if (piece.entityFirst || piece.entityLast || MAYBE_SPECIAL.test(piece.text)) {
    return false;
  }
  if (atLineStart && (/^[\s>\-+=]/.test(piece.text) || /^\d{1,9}[.)]/.test(piece.text))) {
    return false;
  }
  return !(atLineEnd && /\s$/.test(piece.text)) && !(options.inHeading && piece.text.includes('#'));
}

function escapeChar(chars: string[], index: number, options: InlineOptions, atLineStart: boolean): string {
  const char = chars[index]!;
  const previous = chars[index - 1];
  const next = chars[index + 1];
  if (char === '\n' || char === '\r' || char === '\t') {
    return entity(char);
  }
  if (ALWAYS_ESCAPED.has(char) || (atLineStart && LINE_START_ESCAPED.has(char)) || (options.inHeading && char === '#')) {
    return `\\${char}`;
  }
  if (char === '!' && next === undefined) {
    return '\\!';
  }
  if (char === '~' && (previous === undefined || next === undefined || previous === '~' || next === '~')) {
    return '\\~';
  }
  if (char === '_' && !(previous && next && WORD_CHAR.test(previous) && WORD_CHAR.test(next))) {
    return '\\_';
  }
  if (char === '<' && (next === undefined || !/\s/.test(next))) {
    return '\\<';
  }
  if (char === '&' && ENTITY_LIKE.test(chars.slice(index, index + 40).join(''))) {
    return '\\&';
  }
  return char;
}

/** "1. " or "1) " at a line's start would start an ordered list. */
function escapeOrderedMarker(text: string): string {
  return text.replace(/^(\d{1,9})([.)])/, '$1\\$2');
}
