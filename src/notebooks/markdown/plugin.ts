/**
 * A markdown-it plugin for PostHog's notebook tags: a tag alone on its line(s) becomes one block token
 * (`posthog_tag`), a tag inside text an inline token (`posthog_tag_inline`); both carry the parsed tag (or
 * what is wrong with it) in `meta`, and in a notebook's Markdown render as a small card of escaped text, never
 * as raw HTML (elsewhere as the tag's text would render without the plugin).
 * VS Code's Markdown preview loads it through `markdown.markdownItPlugins`; the converter reads the tokens.
 */
import type MarkdownIt from 'markdown-it';
import { describeQuery, isKnownTag, nodeTypeOfTag, shorten, UNKNOWN_TAG } from './dialect';
import { isObject } from './schema';
import { checkTag, isTagStart, parseTagAt, type ParsedTag, tagNameAt } from './tags';

type Md = MarkdownIt.MarkdownIt;
type StateBlock = MarkdownIt.StateBlock;
type StateInline = MarkdownIt.StateInline;
type Token = MarkdownIt.Token;

export const BLOCK_TAG_TOKEN = 'posthog_tag';
export const INLINE_TAG_TOKEN = 'posthog_tag_inline';

/** What a tag token carries: the tag when it reads as one, and what is wrong with it, if anything. */
export type TagTokenMeta = {
  tag?: ParsedTag;
  problem?: string;
  /** A tag that does not read is an error; one PostHog will show as unknown only a warning. */
  severity?: 'error' | 'warning';
};

export interface PosthogTagsOptions {
  /** Whether the document being rendered is a notebook (VS Code passes `env.currentDocument`, a URI). */
  appliesTo?: (env: unknown) => boolean;
}

/**
 * VS Code's preview parses a document with an empty env and renders it with `env.currentDocument`: so the
 * rules make tokens unless the env names a document the plugin does not apply to, and the renderers draw
 * cards unless it does; a token in another document renders as markdown-it would render the tag's text
 * (raw HTML where HTML is allowed, as the preview's own HTML blocks are, else escaped).
 */
export function posthogTagsPlugin(md: Md, options: PosthogTagsOptions = {}): void {
  const appliesTo = options.appliesTo ?? (() => true);
  const applies = (env: unknown) => !namesDocument(env) || appliesTo(env);
  // Like an HTML block, a tag line ends a paragraph, a reference or a quote without a blank line before it.
  const interrupts = { alt: ['paragraph', 'reference', 'blockquote'] };
  md.block.ruler.before(
    'html_block',
    BLOCK_TAG_TOKEN,
    (state, startLine, endLine, silent) => applies(state.env) && blockTag(state, startLine, endLine, silent),
    interrupts,
  );
  md.inline.ruler.before('html_inline', INLINE_TAG_TOKEN, (state, silent) => applies(state.env) && inlineTag(state, silent));
  md.renderer.rules[BLOCK_TAG_TOKEN] = (tokens, index, _options, env, self) =>
    applies(env)
      ? `<div${self.renderAttrs(tokens[index]!)}>${cardBody(md, tokens[index]!)}</div>\n`
      : md.options.html
        ? `${tokens[index]!.content}\n`
        : `<p>${md.utils.escapeHtml(tokens[index]!.content)}</p>\n`;
  md.renderer.rules[INLINE_TAG_TOKEN] = (tokens, index, _options, env) =>
    applies(env)
      ? `<span class="${cardClass(tokens[index]!)}">${cardBody(md, tokens[index]!)}</span>`
      : md.options.html
        ? tokens[index]!.content
        : md.utils.escapeHtml(tokens[index]!.content);
}

function namesDocument(env: unknown): boolean {
  return typeof env === 'object' && env !== null && (env as { currentDocument?: unknown }).currentDocument !== undefined;
}

/**
 * A tag that starts a line and ends its last line. A tag that does not read becomes a card saying what is
 * wrong, up to the line where it ends, or else its paragraph's end (as in PostHog).
 */
function blockTag(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine]! - state.blkIndent >= 4) {
    return false;
  }
  const start = state.bMarks[startLine]! + state.tShift[startLine]!;
  if (!isTagStart(state.src, start)) {
    return false;
  }
  const parse = parseTagAt(state.src, start);
  const tagEndLine = lineOfOffset(state, startLine, endLine, parse.end);
  const endsItsLine = tagEndLine !== undefined && state.src.slice(parse.end, state.eMarks[tagEndLine]).trim() === '';
  if (parse.ok && !endsItsLine) {
    return false;
  }
  const lastLine = endsItsLine ? tagEndLine : paragraphLastLine(state, startLine, endLine);
  if (silent) {
    return true;
  }
  const token = state.push(BLOCK_TAG_TOKEN, 'div', 0);
  token.block = true;
  token.map = [startLine, lastLine + 1];
  token.content = state.src.slice(start, parse.ok ? parse.end : state.eMarks[lastLine]);
  token.meta = tokenMeta(parse);
  token.attrs = [['class', cardClass(token)]];
  state.line = lastLine + 1;
  return true;
}

function inlineTag(state: StateInline, silent: boolean): boolean {
  const name = tagNameAt(state.src, state.pos);
  if (name === undefined) {
    return false;
  }
  const parse = parseTagAt(state.src, state.pos);
  // Inside text, "List<String>" is prose: only a well-formed tag or a PostHog name is taken for a tag.
  // A tag must also end where the text being read ends (a link's label, say).
  const end = parse.end;
  if ((!parse.ok && !isKnownTag(name)) || end > state.posMax || end <= state.pos) {
    return false;
  }
  if (!silent) {
    const token = state.push(INLINE_TAG_TOKEN, 'span', 0);
    token.content = state.src.slice(state.pos, end);
    token.meta = tokenMeta(parse);
  }
  state.pos = end;
  return true;
}

function tokenMeta(parse: ReturnType<typeof parseTagAt>): TagTokenMeta {
  if (!parse.ok) {
    return { problem: parse.problem, severity: 'error' };
  }
  const problem = checkTag(parse.tag);
  return problem ? { tag: parse.tag, problem: problem.message, severity: problem.severity } : { tag: parse.tag };
}

/** The line holding the offset, if it is within the block's lines. */
function lineOfOffset(state: StateBlock, startLine: number, endLine: number, offset: number): number | undefined {
  for (let line = startLine; line < endLine; line++) {
    if (offset <= state.eMarks[line]!) {
      return line;
    }
  }
  return undefined;
}

function paragraphLastLine(state: StateBlock, startLine: number, endLine: number): number {
  let line = startLine;
  while (line + 1 < endLine && !state.isEmpty(line + 1)) {
    line++;
  }
  return line;
}

function cardClass(token: Token): string {
  return (token.meta as TagTokenMeta | null)?.problem ? 'posthog-tag posthog-tag-invalid' : 'posthog-tag';
}

const SHOWN_PROPS = 6;
const SHOWN_VALUE_LENGTH = 60;
const SHOWN_SOURCE_LENGTH = 200;

/** The card's inside: every piece of text from the document goes through markdown-it's escapeHtml. */
function cardBody(md: Md, token: Token): string {
  const escape = md.utils.escapeHtml;
  const element = (name: string, className: string, text: string) => `<${name} class="${className}">${escape(text)}</${name}>`;
  const meta = (token.meta ?? {}) as TagTokenMeta;
  const tag = meta.tag;
  const parts = [element('span', 'posthog-tag-name', tag?.name ?? tagNameAt(token.content, 0) ?? '')];
  if (meta.problem) {
    parts.push(element('span', 'posthog-tag-problem', meta.problem));
  }
  if (!tag) {
    parts.push(element('code', 'posthog-tag-source', shorten(token.content, SHOWN_SOURCE_LENGTH)));
    return parts.join(' ');
  }
  const summary = tagSummary(tag);
  if (summary) {
    parts.push(element('span', 'posthog-tag-summary', summary));
  }
  const props = shownProps(tag).map(
    ([key, value]) => `<span class="posthog-tag-prop">${element('span', 'posthog-tag-prop-name', key)} ${escape(value)}</span>`,
  );
  if (props.length > 0) {
    parts.push(`<span class="posthog-tag-props">${props.join(' ')}</span>`);
  }
  return parts.join(' ');
}

function tagSummary(tag: ParsedTag): string | undefined {
  if (tag.name === 'Query') {
    return describeQuery(tag.props);
  }
  if (tag.name === UNKNOWN_TAG && typeof tag.props.nodeType === 'string') {
    return tag.props.nodeType;
  }
  return nodeTypeOfTag(tag.name);
}

/** The props worth a glance: ids, titles and other short values; the query is in the summary. */
function shownProps(tag: ParsedTag): [string, string][] {
  const inSummary = (key: string) => (tag.name === 'Query' && key === 'query') || (tag.name === UNKNOWN_TAG && key === 'nodeType');
  return Object.entries(tag.props)
    .filter(([key, value]) => !inSummary(key) && value !== true)
    .map(([key, value]): [string, string] => [key, shorten(propText(value), SHOWN_VALUE_LENGTH)])
    .slice(0, SHOWN_PROPS);
}

function propText(value: unknown): string {
  if (typeof value === 'string') {
    return value;
  }
  if (Array.isArray(value)) {
    return `[${value.length} items]`;
  }
  if (isObject(value)) {
    return typeof value.kind === 'string' ? `{${value.kind}}` : '{…}';
  }
  return JSON.stringify(value) ?? String(value);
}
