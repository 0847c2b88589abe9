import { createHash } from 'node:crypto';
import type { QueryNode } from '../api';
import { type LinePosition, parseTagAt, postHogLines, readPostHogBlocks, type PhBlock, type PhComponent, type PhLocatedBlock, type PhPropValue } from '../notebooks';
import { innerQuery, queryKindLabel } from './innerQuery';

/** A query card or SQL cell of a notebook's Markdown, as PostHog's web app reads it. */
export interface QueryCard {
  /** Stable while the card's text is unchanged: its tag's text and how many identical ones come before it. */
  readonly id: string;
  readonly kind: 'query' | 'sql';
  /** The tag as written: Query, Insight, HogQLSQL, SQLV2. */
  readonly tag: string;
  readonly label: string;
  /** 0-based lines; `endLine` exclusive. */
  readonly range: { startLine: number; endLine: number };
  /** The inner query to send (a wrapper's `source`; a SQL cell's HogQLQuery); absent when it cannot be run here. */
  readonly query?: QueryNode;
  /**
   * A SQL cell's code, and the offset in the document where its written value's text starts (after the quote).
   * The offset maps characters exactly up to the first escape (`\n`, `\"`) in the written value.
   */
  readonly sql?: SqlCode;
  /** A saved insight's short id (an Insight tag or a SavedInsightNode): shown in PostHog, not run here. */
  readonly savedInsight?: string;
}

/** A SQL cell's code: as PostHog reads it (`text`, HTML entities decoded), and as written (for editor offsets). */
export interface SqlCode {
  readonly text: string;
  /** Where `text` starts in the document (after the quote); -1 when the tag has no `code` prop. */
  readonly offset: number;
  /** Where the `code` prop's written value starts (its quote or brace), and its value as written (scanTags' reading). */
  readonly written?: { readonly valueStart: number; readonly code: unknown };
}

/** Tags whose node is a query (ph-query): an inline query, or a saved insight by short id. */
const QUERY_TAGS = new Set(['Query', 'Insight']);
/**
 * Code cells that run HogQL against PostHog's data. DuckSQL cells run DuckDB over the notebook kernel's
 * frames, which PostHog's /query/ cannot reproduce, so they are left out rather than run wrongly.
 */
const SQL_TAGS = new Set(['HogQLSQL', 'SQLV2']);

const CARD_TAG_NAMES = [...QUERY_TAGS, ...SQL_TAGS];
const CARD_TAG_START = new RegExp(`^[ \\t]*<(?:${CARD_TAG_NAMES.join('|')})\\b`, 'm');
/** A tag's `<` and name: a tag that an edit completes starts at most this far before the edit. */
const LONGEST_TAG_OPENING = 1 + Math.max(...CARD_TAG_NAMES.map((name) => name.length));

/** Where a text's lines are: a line's text (without its line break) and the offset in the text where it starts. */
export interface CardText {
  lineText(line: number): string;
  offsetOfLine(line: number): number;
}

/** Whether a line starts with a card's tag: a text without one has no card (a quick test, before reading). */
export function mayHoldQueryCards(markdown: string): boolean {
  return CARD_TAG_START.test(markdown);
}

/** A text's lines, without their line breaks (VS Code's documents: `lineAt(line).text`). */
export interface TextLines {
  lineText(line: number): string;
}

/**
 * Whether an edit made a card tag start a line, given that the text before it had none: then it equals
 * mayHoldQueryCards of the new text, without reading the whole text. `start` and `end` are where the inserted
 * text lies in the new text (equal for a deletion). A new tag depends on a character the edit touched: its
 * name's end is at most a tag's opening before the edit, and only blanks lie between the edit and its `<` when it
 * starts after it (a deletion before the blanks that precede a tag). Reads the edited lines only, and of each, the
 * inserted text, a tag's opening before it and the blanks after it (plus the blanks before a `<` found there).
 */
export function cardTagAppears(lines: TextLines, start: LinePosition, end: LinePosition): boolean {
  for (let line = start.line; line <= end.line; line++) {
    const text = lines.lineText(line);
    const from = line === start.line ? start.character : 0;
    const to = line === end.line ? end.character : text.length;
    if (tagStartsAround(text, from, to)) {
      return true;
    }
  }
  return false;
}

function tagStartsAround(text: string, from: number, to: number): boolean {
  for (let at = Math.max(0, from - LONGEST_TAG_OPENING); at < to; at++) {
    if (text.charCodeAt(at) === LESS_THAN && tagStartsLineAt(text, at)) {
      return true;
    }
  }
  let afterBlanks = to;
  while (isBlank(text.charCodeAt(afterBlanks))) afterBlanks++;
  return tagStartsLineAt(text, afterBlanks);
}

/** CARD_TAG_START at a `<`: a card tag's name after it, ending a word, and only blanks before it on its line. */
function tagStartsLineAt(text: string, at: number): boolean {
  if (text.charCodeAt(at) !== LESS_THAN || !CARD_TAG_NAMES.some((name) => text.startsWith(name, at + 1) && !isWordCharacter(text.charCodeAt(at + 1 + name.length)))) {
    return false;
  }
  let lineStart = at;
  while (lineStart > 0 && isBlank(text.charCodeAt(lineStart - 1))) lineStart--;
  return lineStart === 0 || isLineTerminator(text.charCodeAt(lineStart - 1));
}

const LESS_THAN = 0x3c;

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/** Where a regular expression's `^` matches in multiline mode; VS Code's lines end only at \n and \r. */
function isLineTerminator(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
}

/** `\b`'s word characters (without the u flag). */
function isWordCharacter(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f;
}

/** Every query card and SQL cell of a notebook's Markdown, in document order. Linear in the text. */
export function findQueryCards(markdown: string): QueryCard[] {
  // Most notebooks have no card, and PostHog's reader takes a few hundred ms on 2 MB.
  if (!mayHoldQueryCards(markdown)) {
    return [];
  }
  return cardsOfBlocks(readPostHogBlocks(markdown).blocks, linesOf(markdown));
}

/**
 * The query cards and SQL cells among blocks of PostHog's reading (readPostHogBlocks, or a reading that follows
 * edits: QueryCardReading) of a text. Linear in the blocks; each card is read from its own lines only.
 */
export function cardsOfBlocks(blocks: readonly PhLocatedBlock[], text: CardText, cardIndexes = cardBlockIndexes(blocks, 0, blocks.length)): QueryCard[] {
  const seen = new Map<string, number>();
  return cardIndexes.map((index) => {
    const block = blocks[index]!;
    return toCard(text, block, block.node as PhComponent, headingText(blocks[index - 1]), seen);
  });
}

/** The indexes of the card blocks among blocks [from, to). */
export function cardBlockIndexes(blocks: readonly PhLocatedBlock[], from: number, to: number): number[] {
  const indexes: number[] = [];
  for (let index = from; index < to; index++) {
    if (isCardBlock(blocks[index]!.node)) {
      indexes.push(index);
    }
  }
  return indexes;
}

function isCardBlock(node: PhBlock): node is PhComponent {
  return node.type === 'component' && (QUERY_TAGS.has(node.tagName) || SQL_TAGS.has(node.tagName));
}

/** A text's lines as PostHog's reader splits them, found only when a SQL cell asks. */
function linesOf(markdown: string): CardText {
  let lines: string[] | undefined;
  let starts: number[] | undefined;
  return {
    lineText: (line) => (lines ??= postHogLines(markdown))[line] ?? '',
    offsetOfLine: (line) => (starts ??= lineStarts(markdown))[line] ?? markdown.length,
  };
}

function lineStarts(markdown: string): number[] {
  const starts = [0];
  for (const match of markdown.matchAll(/\r\n?|\n/g)) {
    starts.push(match.index + match[0].length);
  }
  return starts;
}

function toCard(text: CardText, block: PhLocatedBlock, node: PhComponent, heading: string | undefined, seen: Map<string, number>): QueryCard {
  const range = { startLine: block.line, endLine: block.endLine };
  const id = cardId(node, seen);
  if (SQL_TAGS.has(node.tagName)) {
    const code = typeof node.props['code'] === 'string' ? node.props['code'] : '';
    const sql = sqlCode(text, block, node, code);
    return { id, kind: 'sql', tag: node.tagName, label: heading ?? sqlLabel(code), range, query: { kind: 'HogQLQuery', query: code }, sql };
  }
  const saved = savedInsightOf(node);
  const query = saved === undefined ? innerQuery(node.props['query']) : undefined;
  const label = heading ?? (saved !== undefined ? `Insight ${saved}` : queryKindLabel(query));
  return { id, kind: 'query', tag: node.tagName, label, range, ...(query ? { query } : {}), ...(saved !== undefined ? { savedInsight: saved } : {}) };
}

function cardId(node: PhComponent, seen: Map<string, number>): string {
  const digest = createHash('sha256').update(`${node.tagName}\n${node.raw ?? JSON.stringify(node.props)}`).digest('hex').slice(0, 16);
  const occurrence = seen.get(digest) ?? 0;
  seen.set(digest, occurrence + 1);
  return `${node.tagName}-${digest}-${occurrence}`;
}

function savedInsightOf(node: PhComponent): string | undefined {
  if (node.tagName === 'Insight') {
    return typeof node.props['id'] === 'string' ? node.props['id'] : '';
  }
  const query = node.props['query'];
  if (isObject(query) && query['kind'] === 'SavedInsightNode') {
    return typeof query['shortId'] === 'string' ? query['shortId'] : '';
  }
  return undefined;
}

/**
 * Where the code's text starts in the document: after `"` or `'`, or after `{"` for a braced JSON string.
 * Read from the card's own tag (its trimmed lines, `raw`), so that it depends on the card's lines only.
 */
function sqlCode(text: CardText, block: PhLocatedBlock, node: PhComponent, code: string): SqlCode {
  const raw = node.raw ?? '';
  const parse = parseTagAt(raw, 0);
  const span = parse.ok ? parse.tag.propSpans['code'] : undefined;
  if (!parse.ok || !span) {
    return { text: code, offset: -1 };
  }
  const textStart = code === '' ? span.valueStart : span.valueStart + (raw.startsWith('{"', span.valueStart) ? 2 : 1);
  const written = { valueStart: offsetInDocument(text, block, raw, span.valueStart), code: parse.tag.props['code'] };
  return { text: code, offset: offsetInDocument(text, block, raw, textStart), written };
}

/** The document offset of an offset in a card's `raw` (its lines joined, the first line's indent trimmed). */
function offsetInDocument(text: CardText, block: PhLocatedBlock, raw: string, at: number): number {
  const lineBreak = raw.lastIndexOf('\n', at - 1);
  if (lineBreak === -1) {
    const firstLine = text.lineText(block.line);
    return text.offsetOfLine(block.line) + firstLine.length - firstLine.trimStart().length + at;
  }
  return text.offsetOfLine(block.line + countLineBreaks(raw, at)) + at - lineBreak - 1;
}

function countLineBreaks(text: string, end: number): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1 && index < end; index = text.indexOf('\n', index + 1)) {
    count++;
  }
  return count;
}

/** A heading written just before a card names it, as notebooks are written. */
function headingText(previous: PhLocatedBlock | undefined): string | undefined {
  if (previous?.node.type !== 'heading') {
    return undefined;
  }
  const text = previous.node.children.map((child) => (child.type === 'text' ? child.text : ' ')).join('').trim();
  return text === '' ? undefined : text;
}

function sqlLabel(text: string): string {
  const firstLine = text.trim().split('\n', 1)[0] ?? '';
  return firstLine.length > 60 ? `${firstLine.slice(0, 59)}…` : firstLine || 'SQL';
}

function isObject(value: PhPropValue | unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
