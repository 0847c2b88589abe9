/**
 * VS Code's Markdown preview of a notebook's Markdown, as PostHog's web app shows it (a markdown-it plugin,
 * loaded through `markdown.markdownItPlugins`). A notebook's text is read with readPostHogMarkdown, not
 * markdown-it: hard breaks, one-line list items nested by their depth, quotes of inline text only, entities
 * shown as written, PostHog's emphasis pairing, tags as cards. The plugin turns PostHog's blocks into ordinary
 * markdown-it tokens (paragraphs, headings, lists, tables, fences, each with its lines in `map`), so VS Code's
 * own renderers, its `data-line` source map (scroll sync), and the Markdown language server's outline and
 * folding, which read the same tokens, agree with PostHog's reading. Every piece of the text is escaped; no
 * HTML of the text reaches the preview. Other Markdown texts are left to markdown-it, untouched.
 *
 * VS Code parses a document with an empty env (it names the document only when rendering), so which texts
 * are notebooks is the caller's to say from the text itself (the extension knows its open notebook files).
 */
import type MarkdownIt from 'markdown-it';
import { describeComment, describeQuery, isKnownTag, nodeTypeOfTag, shorten, UNKNOWN_TAG } from './dialect';
import { COMMENT_NOTE_TAG, DIVIDER_TAG, IMAGE_TAG, type PhComponent, type PhInline, type PhList, type PhListItem, type PhTable, type PhText } from './posthogModel';
import { type PhLocatedBlock, readPostHogBlocks } from './posthogReader';
import { isObject } from './schema';

type Md = MarkdownIt.MarkdownIt;
type StateBlock = MarkdownIt.StateBlock;
type Token = MarkdownIt.Token;

/** The block rule that reads a whole notebook text, PostHog's way. */
export const NOTEBOOK_RULE = 'posthog_notebook';
/** A component of PostHog's reading (a tag, a Comment note), drawn as a card. */
export const COMPONENT_TOKEN = 'posthog_component';
/** A task item's checkbox. */
export const CHECKBOX_TOKEN = 'posthog_checkbox';

export interface NotebookPreviewOptions {
  /** Whether the text being parsed is a notebook's Markdown (markdown-it's normalised text: `\n` line ends). */
  readonly isNotebookText: (text: string) => boolean;
}

export function posthogNotebookPlugin(md: Md, options: NotebookPreviewOptions): void {
  // Asked once per parse: the block state is made anew for each.
  const notebooks = new WeakMap<StateBlock, boolean>();
  md.block.ruler.before('table', NOTEBOOK_RULE, (state, _startLine, endLine, silent) => {
    let notebook = notebooks.get(state);
    if (notebook === undefined) {
      notebook = state.level === 0 && state.blkIndent === 0 && options.isNotebookText(state.src);
      notebooks.set(state, notebook);
    }
    if (!notebook || silent) {
      return false;
    }
    pushNotebook(state);
    state.line = endLine;
    return true;
  });
  // markdown-it tries block rules only from a line with text: a notebook of blank lines (PostHog reads a line
  // of one space as an empty paragraph) is read here.
  md.core.ruler.after('block', `${NOTEBOOK_RULE}_blank`, (state) => {
    if (!state.inlineMode && state.tokens.length === 0 && state.src.includes(' ') && state.src.trim() === '' && options.isNotebookText(state.src)) {
      pushNotebook(new state.md.block.State(state.src, state.md, state.env, state.tokens));
    }
  });
  md.renderer.rules[COMPONENT_TOKEN] = (tokens, index, _options, _env, self) => {
    const token = tokens[index]!;
    return `<div${self.renderAttrs(token)}>${cardBody(md, (token.meta as { component: PhComponent }).component)}</div>\n`;
  };
  md.renderer.rules[CHECKBOX_TOKEN] = (tokens, index) =>
    `<input type="checkbox" class="task-list-item-checkbox" disabled${tokens[index]!.meta?.checked === true ? ' checked' : ''}>`;
}

function pushNotebook(state: StateBlock): void {
  for (const block of readPostHogBlocks(state.src).blocks) {
    pushBlock(state, block);
  }
}

function pushBlock(state: StateBlock, located: PhLocatedBlock): void {
  const { node, line, endLine, error } = located;
  const map: [number, number] = [line, endLine];
  switch (node.type) {
    case 'paragraph': {
      const open = pushOpen(state, 'paragraph_open', 'p', map);
      if (error) {
        open.attrJoin('class', 'posthog-unread');
        open.attrSet('title', error.message);
      } else if (node.children.length === 0) {
        open.attrJoin('class', 'posthog-empty-paragraph');
      }
      pushInline(state, node.children, map);
      state.push('paragraph_close', 'p', -1);
      return;
    }
    case 'heading': {
      const tag = `h${node.level}`;
      pushOpen(state, 'heading_open', tag, map).markup = '#'.repeat(node.level);
      pushInline(state, node.children, map);
      state.push('heading_close', tag, -1).markup = '#'.repeat(node.level);
      return;
    }
    case 'blockquote':
      pushOpen(state, 'blockquote_open', 'blockquote', map).markup = '>';
      pushOpen(state, 'paragraph_open', 'p', map);
      pushInline(state, node.children, map);
      state.push('paragraph_close', 'p', -1);
      state.push('blockquote_close', 'blockquote', -1);
      return;
    case 'list':
      pushList(state, node, line);
      return;
    case 'table':
      pushTable(state, node, line);
      return;
    case 'code': {
      const fence = pushOpen(state, 'fence', 'code', map, 0);
      fence.info = node.language ?? '';
      fence.markup = '```';
      fence.content = node.text === '' ? '' : `${node.text}\n`;
      return;
    }
    default:
      pushComponent(state, node, map);
  }
}

function pushOpen(state: StateBlock, type: string, tag: string, map: [number, number], nesting: 1 | 0 = 1): Token {
  const token = state.push(type, tag, nesting);
  token.map = map;
  return token;
}

/** Inline content, its tokens made here: markdown-it's inline rules (and linkify, typographer) never see its text. */
function pushInline(state: StateBlock, nodes: readonly PhInline[], map: [number, number], first: Token[] = []): void {
  const token = state.push('inline', '', 0);
  token.map = map;
  token.content = '';
  token.children = [...first, ...inlineTokens(state, nodes)];
}

/** A mark's element, outermost first; code is innermost (its text is the code span). */
const MARK_ELEMENTS: readonly { mark: string; type: string; tag: string; markup?: string }[] = [
  { mark: 'ref', type: 'posthog_ref', tag: 'mark' },
  { mark: 'mention', type: 'posthog_mention', tag: 'span' },
  { mark: 'link', type: 'link', tag: 'a' },
  { mark: 'strike', type: 's', tag: 's', markup: '~~' },
  { mark: 'underline', type: 'posthog_underline', tag: 'u' },
  { mark: 'bold', type: 'strong', tag: 'strong', markup: '**' },
  { mark: 'italic', type: 'em', tag: 'em', markup: '*' },
];

function inlineTokens(state: StateBlock, nodes: readonly PhInline[]): Token[] {
  const tokens: Token[] = [];
  for (const node of nodes) {
    if (node.type === 'hardBreak') {
      tokens.push(new state.Token('hardbreak', 'br', 0));
      continue;
    }
    const elements = MARK_ELEMENTS.filter((element) => node.marks?.some((mark) => mark.type === element.mark));
    for (const element of elements) {
      const open = new state.Token(`${element.type}_open`, element.tag, 1);
      open.markup = element.markup ?? '';
      markAttrs(open, element.mark, node);
      tokens.push(open);
    }
    const isCode = node.marks?.some((mark) => mark.type === 'code') === true;
    const content = new state.Token(isCode ? 'code_inline' : 'text', isCode ? 'code' : '', 0);
    content.content = node.text;
    content.markup = isCode ? '`' : '';
    tokens.push(content);
    for (const element of [...elements].reverse()) {
      tokens.push(new state.Token(`${element.type}_close`, element.tag, -1));
    }
  }
  return tokens;
}

function markAttrs(token: Token, markType: string, node: PhText): void {
  const mark = node.marks?.find((candidate) => candidate.type === markType);
  if (mark?.type === 'link') {
    token.attrSet('href', mark.href);
  } else if (mark?.type === 'mention') {
    token.attrSet('class', 'posthog-mention');
    token.attrSet('data-mention', mark.id);
  } else if (mark?.type === 'ref') {
    token.attrSet('class', 'posthog-ref');
    token.attrSet('data-ref', mark.id);
  }
}

interface ItemTree {
  readonly item: PhListItem;
  readonly line: number;
  readonly children: ItemTree[];
}

/**
 * A list as PostHog's web app draws it: its flat items nested by depth (each under the nearest shallower item
 * before it); a group is numbered when its first item is, the top group from the first top-level number, a
 * nested one from 1; a bullet item with `[ ]`/`[x]` is a task. A quoted list (`> - a`) is inside a quote.
 */
function pushList(state: StateBlock, list: PhList, line: number): void {
  const map: [number, number] = [line, line + list.items.length];
  if (list.blockquote) {
    pushOpen(state, 'blockquote_open', 'blockquote', map).markup = '>';
  }
  const roots: ItemTree[] = [];
  const stack: { depth: number; tree: ItemTree }[] = [];
  list.items.forEach((item, index) => {
    const depth = Math.max(0, item.depth);
    while (stack.length > 0 && depth <= stack[stack.length - 1]!.depth) {
      stack.pop();
    }
    const tree: ItemTree = { item, line: line + index, children: [] };
    (stack.length > 0 ? stack[stack.length - 1]!.tree.children : roots).push(tree);
    stack.push({ depth, tree });
  });
  const first = list.items.find((item) => item.depth === 0 && item.ordered);
  pushItems(state, roots, list.ordered, first?.start ?? list.start ?? 1);
  if (list.blockquote) {
    state.push('blockquote_close', 'blockquote', -1);
  }
}

function pushItems(state: StateBlock, trees: readonly ItemTree[], ordered: boolean, start: number): void {
  const map: [number, number] = [trees[0]!.line, lastLine(trees[trees.length - 1]!) + 1];
  const kind = ordered ? { type: 'ordered_list', tag: 'ol' } : { type: 'bullet_list', tag: 'ul' };
  const open = pushOpen(state, `${kind.type}_open`, kind.tag, map);
  if (ordered && start !== 1) {
    open.attrSet('start', String(start));
  }
  for (const tree of trees) {
    const itemOrdered = tree.item.ordered;
    const task = !itemOrdered && tree.item.checked !== undefined;
    const itemMap: [number, number] = [tree.line, tree.line + 1];
    const item = pushOpen(state, 'list_item_open', 'li', itemMap);
    item.markup = ordered ? '.' : '-';
    if (task) {
      item.attrJoin('class', 'task-list-item');
    }
    const paragraph = pushOpen(state, 'paragraph_open', 'p', itemMap);
    paragraph.hidden = true;
    const checkbox = new state.Token(CHECKBOX_TOKEN, 'input', 0);
    checkbox.meta = { checked: tree.item.checked === true };
    pushInline(state, tree.item.children, itemMap, task ? [checkbox] : []);
    state.push('paragraph_close', 'p', -1).hidden = true;
    if (tree.children.length > 0) {
      pushItems(state, tree.children, tree.children[0]!.item.ordered, 1);
    }
    state.push('list_item_close', 'li', -1);
  }
  state.push(`${kind.type}_close`, kind.tag, -1);
}

function lastLine(tree: ItemTree): number {
  return tree.children.length === 0 ? tree.line : lastLine(tree.children[tree.children.length - 1]!);
}

/** A table as read: the header row, then each row with the cells written, aligned by their column. */
function pushTable(state: StateBlock, table: PhTable, line: number): void {
  pushOpen(state, 'table_open', 'table', [line, line + 2 + table.rows.length]);
  pushOpen(state, 'thead_open', 'thead', [line, line + 1]);
  pushRow(state, table, table.headers, 'th', line);
  state.push('thead_close', 'thead', -1);
  if (table.rows.length > 0) {
    pushOpen(state, 'tbody_open', 'tbody', [line + 2, line + 2 + table.rows.length]);
    table.rows.forEach((row, index) => pushRow(state, table, row, 'td', line + 2 + index));
    state.push('tbody_close', 'tbody', -1);
  }
  state.push('table_close', 'table', -1);
}

function pushRow(state: StateBlock, table: PhTable, cells: PhTable['headers'], tag: 'th' | 'td', line: number): void {
  const map: [number, number] = [line, line + 1];
  pushOpen(state, 'tr_open', 'tr', map);
  cells.forEach((cell, column) => {
    const open = pushOpen(state, `${tag}_open`, tag, map);
    const alignment = table.alignments[column];
    if (alignment) {
      open.attrSet('style', `text-align:${alignment}`);
    }
    pushInline(state, cell.children, map);
    state.push(`${tag}_close`, tag, -1);
  });
  state.push('tr_close', 'tr', -1);
}

/** A divider is a rule and an image an image, as PostHog shows them; every other component is a card. */
function pushComponent(state: StateBlock, component: PhComponent, map: [number, number]): void {
  if (component.tagName === DIVIDER_TAG) {
    pushOpen(state, 'hr', 'hr', map, 0).markup = '---';
    return;
  }
  if (component.tagName === IMAGE_TAG && typeof component.props.src === 'string') {
    pushOpen(state, 'paragraph_open', 'p', map);
    const image = new state.Token('image', 'img', 0);
    const alt = typeof component.props.alt === 'string' ? component.props.alt : '';
    image.attrs = [
      ['src', component.props.src],
      ['alt', ''],
    ];
    const altText = new state.Token('text', '', 0);
    altText.content = alt;
    image.children = [altText];
    image.content = alt;
    pushInline(state, [], map, [image]);
    state.push('paragraph_close', 'p', -1);
    return;
  }
  const card = pushOpen(state, COMPONENT_TOKEN, 'div', map, 0);
  card.block = true;
  card.meta = { component };
  card.attrJoin('class', cardClass(component));
}

function cardClass(component: PhComponent): string {
  if ((component.errors?.length ?? 0) > 0) {
    return 'posthog-tag posthog-tag-invalid';
  }
  return isKnownTag(component.tagName) || isNote(component) ? 'posthog-tag' : 'posthog-tag posthog-tag-unknown';
}

/** A Comment note (`<!-- text -->`), not a discussion thread (`<Comment ref="…" replies={…} />`). */
function isNote(component: PhComponent): boolean {
  return component.tagName === COMMENT_NOTE_TAG && typeof component.props.ref !== 'string';
}

const SHOWN_PROPS = 6;
const SHOWN_VALUE_LENGTH = 60;
const SHOWN_NOTE_LENGTH = 400;

/** The card's inside: every piece of text from the document goes through markdown-it's escapeHtml. */
function cardBody(md: Md, component: PhComponent): string {
  const escape = md.utils.escapeHtml;
  const element = (name: string, className: string, text: string) => `<${name} class="${className}">${escape(text)}</${name}>`;
  const parts = [element('span', 'posthog-tag-name', component.tagName)];
  if (isNote(component)) {
    parts.push(element('span', 'posthog-tag-note', shorten(String(component.props.text ?? ''), SHOWN_NOTE_LENGTH)));
    return parts.join(' ');
  }
  for (const problem of component.errors ?? []) {
    parts.push(element('span', 'posthog-tag-problem', problem));
  }
  if (!isKnownTag(component.tagName)) {
    parts.push(element('span', 'posthog-tag-problem', 'PostHog does not know this tag and shows it as unknown'));
  }
  const summary = cardSummary(component);
  if (summary) {
    parts.push(element('span', 'posthog-tag-summary', summary));
  }
  const props = shownProps(component).map(
    ([key, value]) => `<span class="posthog-tag-prop">${element('span', 'posthog-tag-prop-name', key)} ${escape(value)}</span>`,
  );
  if (props.length > 0) {
    parts.push(`<span class="posthog-tag-props">${props.join(' ')}</span>`);
  }
  return parts.join(' ');
}

function cardSummary(component: PhComponent): string | undefined {
  if (component.tagName === 'Query') {
    return describeQuery(component.props);
  }
  if (component.tagName === 'Comment') {
    return describeComment(component.props);
  }
  if (component.tagName === UNKNOWN_TAG && typeof component.props.nodeType === 'string') {
    return component.props.nodeType;
  }
  return nodeTypeOfTag(component.tagName);
}

/** The props worth a glance: ids, titles and other short values; what the summary says is left out. */
function shownProps(component: PhComponent): [string, string][] {
  const inSummary = (key: string) =>
    (component.tagName === 'Query' && key === 'query') ||
    (component.tagName === 'Comment' && key === 'replies') ||
    (component.tagName === UNKNOWN_TAG && key === 'nodeType');
  return Object.entries(component.props)
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
