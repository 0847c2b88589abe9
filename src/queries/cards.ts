import { createHash } from 'node:crypto';
import type { QueryNode } from '../api';
import { readPostHogBlocks, scanTags, type PhBlock, type PhComponent, type PhLocatedBlock, type PhPropValue, type TagInfo } from '../notebooks';
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
  readonly sql?: { text: string; offset: number };
  /** A saved insight's short id (an Insight tag or a SavedInsightNode): shown in PostHog, not run here. */
  readonly savedInsight?: string;
}

/** Tags whose node is a query (ph-query): an inline query, or a saved insight by short id. */
const QUERY_TAGS = new Set(['Query', 'Insight']);
/**
 * Code cells that run HogQL against PostHog's data. DuckSQL cells run DuckDB over the notebook kernel's
 * frames, which PostHog's /query/ cannot reproduce, so they are left out rather than run wrongly.
 */
const SQL_TAGS = new Set(['HogQLSQL', 'SQLV2']);

const CARD_TAG_START = /^[ \t]*<(?:Query|Insight|HogQLSQL|SQLV2)\b/m;

/** Every query card and SQL cell of a notebook's Markdown, in document order. Linear in the text. */
export function findQueryCards(markdown: string): QueryCard[] {
  // PostHog's reader takes a few hundred ms on a 2 MB notebook; the lenses ask after each edit.
  if (!CARD_TAG_START.test(markdown)) {
    return [];
  }
  const { blocks } = readPostHogBlocks(markdown);
  const runnable = blocks.filter((block) => isCardBlock(block.node));
  if (runnable.length === 0) {
    return [];
  }
  const tagsByLine = tagsAtLineStarts(markdown);
  const seen = new Map<string, number>();
  return runnable.map((block) => {
    const previous = blocks[blocks.indexOf(block) - 1];
    return toCard(markdown, block, block.node as PhComponent, headingText(previous), tagsByLine.get(block.line), seen);
  });
}

function isCardBlock(node: PhBlock): node is PhComponent {
  return node.type === 'component' && (QUERY_TAGS.has(node.tagName) || SQL_TAGS.has(node.tagName));
}

function tagsAtLineStarts(markdown: string): Map<number, TagInfo> {
  const byLine = new Map<number, TagInfo>();
  for (const tag of scanTags(markdown).tags) {
    if (!byLine.has(tag.line)) {
      byLine.set(tag.line, tag);
    }
  }
  return byLine;
}

function toCard(markdown: string, block: PhLocatedBlock, node: PhComponent, heading: string | undefined, tag: TagInfo | undefined, seen: Map<string, number>): QueryCard {
  const range = { startLine: block.line, endLine: block.endLine };
  const id = cardId(node, seen);
  if (SQL_TAGS.has(node.tagName)) {
    const text = typeof node.props['code'] === 'string' ? node.props['code'] : '';
    const sql = { text, offset: codeOffset(markdown, tag, text) };
    return { id, kind: 'sql', tag: node.tagName, label: heading ?? sqlLabel(text), range, query: { kind: 'HogQLQuery', query: text }, sql };
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

/** Where the code's text starts in the document: after `"` or `'`, or after `{"` for a braced JSON string. */
function codeOffset(markdown: string, tag: TagInfo | undefined, text: string): number {
  const span = tag?.propSpans['code'];
  if (!span || text === '') {
    return span?.valueStart ?? -1;
  }
  return span.valueStart + (markdown.startsWith('{"', span.valueStart) ? 2 : 1);
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
