import type { MarkdownIssue } from './issues';
import { sanitizeLinkHref } from './posthogInline';
import type { PhBlock, PhInline, PhMark, PhPropValue } from './posthogModel';
import { readPostHogMarkdown } from './posthogReader';
import { isPythonBlank, isPythonSpace, pythonJoinLines, pythonStrip, pythonStripEnd } from './pythonText';
import { isWhitespaceCode } from './posthogText';

/**
 * A legacy (ProseMirror) notebook as the Markdown PostHog's migration writes for it
 * (products/notebooks/backend/markdown_conversion.py), corrected where PostHog's own reader would misread
 * that Markdown (../shared/posthog-dialect/README.md lists the faults):
 * - marks nest code, link, `<u>`, emphasis (bold and italic as `**_x_**`), strike, then `<ref>`, with spaces
 *   at a text's edges outside the emphasis that would touch them;
 * - hrefs escape what would end a link or an emphasis; numbered items count from the list's start;
 * - a list item's other blocks keep their order (a block ends the list; the items after it start another);
 *   in a quote or callout the list's lines and paragraphs stay quoted, other blocks are written between;
 * - a callout's emoji is a quote line of its own before a list, its paragraphs and lists joined by plain quote
 *   lines (a blank one beside a quoted list reads as a break); lines after a break in a heading are escaped;
 * - a `!` right before a link and a `~` at a text's edge are escaped (an image; a strike's `~~` moving);
 * - a JSON prop writes backslashes as `\u005c`, and a text prop holding `&` is written `{"…"}`.
 * PostHog's design choices are kept: tags from its table (hideFilters added unless set), legacy ph-insight,
 * query, ph-link, ph-text and ph-dashboard nodes as it converts them, `<Comment ref replies />` before the
 * block holding a comment's highlight (`<ref id>`), mentions as `<mention id>`, callouts as quotes.
 *
 * What PostHog's model cannot hold is a named loss at the lines written for its top-level block: a second
 * block in a list item, blocks in quotes, links that are not http(s), inline nodes, marks it has no place
 * for, breaks in items and cells, a first table row that is not a header, image attributes, unknown nodes; and
 * the README's loss classes: two breaks in a row or one at a paragraph's end, a mention whose name is not known,
 * merged table cells, a link's attributes besides its address, CR line ends in code, headings below level 6.
 */
export interface PostHogConversionOptions {
  /** A comment thread's replies ({id, text, author?, authorId?, at}), by the comment mark's id. */
  readonly commentReplies?: Readonly<Record<string, readonly PhPropValue[]>>;
  /** A mentioned member's name, by id, for mentions whose node has no label. */
  readonly mentionLabel?: (id: number) => string | undefined;
}

export type PostHogLossKind =
  | 'block-in-list-item'
  | 'block-in-quote'
  | 'callout'
  | 'break-in-item'
  | 'break-in-heading'
  | 'inline-node'
  | 'mark'
  | 'link'
  | 'table-header'
  | 'image-attributes'
  | 'unknown-node'
  | 'blank-paragraph'
  | 'mention'
  | 'mention-label'
  | 'paragraph-breaks'
  | 'table-spans'
  | 'link-attributes'
  | 'code-line-endings'
  | 'heading-level'
  | 'text';

/** What PostHog's model cannot hold of the notebook, at the lines written for its block (0-based, `endLine` inclusive). */
export interface PostHogLoss extends MarkdownIssue {
  readonly kind: PostHogLossKind;
}

export interface PostHogConversion {
  readonly markdown: string;
  readonly losses: PostHogLoss[];
}

type Json = Record<string, unknown>;

const NODE_TAGS: Readonly<Record<string, string>> = {
  'ph-query': 'Query',
  'ph-python': 'Python',
  'ph-duck-sql': 'DuckSQL',
  'ph-hogql-sql': 'HogQLSQL',
  'ph-recording': 'Recording',
  'ph-recording-playlist': 'RecordingPlaylist',
  'ph-feature-flag': 'FeatureFlag',
  'ph-feature-flag-code-example': 'FeatureFlagCodeExample',
  'ph-experiment': 'Experiment',
  'ph-early-access-feature': 'EarlyAccessFeature',
  'ph-survey': 'Survey',
  'ph-person': 'Person',
  'ph-group': 'Group',
  'ph-cohort': 'Cohort',
  'ph-backlink': 'Backlink',
  'ph-replay-timestamp': 'ReplayTimestamp',
  'ph-image': 'Image',
  'ph-person-feed': 'PersonFeed',
  'ph-person-properties': 'PersonProperties',
  'ph-group-properties': 'GroupProperties',
  'ph-map': 'Map',
  'ph-embed': 'Embed',
  'ph-latex': 'Latex',
  'ph-task-create': 'TaskCreate',
  'ph-llm-trace': 'LLMTrace',
  'ph-issues': 'Issues',
  'ph-usage-metrics': 'UsageMetrics',
  'ph-zendesk-tickets': 'ZendeskTickets',
  'ph-related-groups': 'RelatedGroups',
  'ph-customer-journey': 'CustomerJourney',
  'ph-support-tickets': 'SupportTickets',
};

const TYPE_ALIASES: Readonly<Record<string, string>> = {
  bullet_list: 'bulletList',
  ordered_list: 'orderedList',
  list_item: 'listItem',
  code_block: 'codeBlock',
  table_row: 'tableRow',
  table_cell: 'tableCell',
  table_header: 'tableHeader',
};

const LIST_TYPES = new Set(['bulletList', 'orderedList', 'taskList']);
const ITEM_TYPES = new Set(['listItem', 'taskItem']);
const MARKDOWN_NOTEBOOK = 'ph-markdown-notebook';

export function toPostHogMarkdown(content: unknown, options: PostHogConversionOptions = {}): PostHogConversion {
  const normalised = normaliseContent(content);
  if (typeof normalised === 'string') {
    return { markdown: normalised, losses: [] };
  }
  const stored = markdownNotebookText(normalised);
  if (stored !== undefined) {
    return { markdown: stored, losses: [] };
  }
  return new PostHogWriter(options).document(normalised);
}

/** Content as PostHog's converter takes it: a document, a list of nodes, or either JSON-encoded in a string. */
/**
 * The ids of a legacy notebook's comment highlights (its discussion threads), each once, in document order:
 * the threads a conversion writes as `<Comment ref="…" replies={…} />`.
 */
export function commentThreadIds(content: unknown): string[] {
  const normalised = normaliseContent(content);
  if (typeof normalised === 'string' || markdownNotebookText(normalised) !== undefined) {
    return [];
  }
  return [...new Set(childrenOf(normalised).flatMap((node) => commentIds(node)))];
}

/**
 * The member ids of a legacy notebook's mentions that have no label, each once: the names a conversion looks
 * up (PostHog's migration reads them from its database; a client from the organization's members).
 */
export function unlabelledMentionIds(content: unknown): number[] {
  const normalised = normaliseContent(content);
  if (typeof normalised === 'string' || markdownNotebookText(normalised) !== undefined) {
    return [];
  }
  const ids = new Set<number>();
  const visit = (node: Json): void => {
    if (typeOf(node) === 'ph-mention') {
      const { id, label } = attrsOf(node) ?? {};
      if (typeof id === 'number' && Number.isInteger(id) && !(typeof label === 'string' && !isPythonBlank(label))) {
        ids.add(id);
      }
    }
    childrenOf(node).forEach(visit);
  };
  childrenOf(normalised).forEach(visit);
  return [...ids];
}

function normaliseContent(content: unknown): Json | string | undefined {
  if (typeof content === 'string') {
    return parseEncodedContent(content) ?? content;
  }
  if (Array.isArray(content)) {
    return { type: 'doc', content };
  }
  return isObject(content) ? content : undefined;
}

function parseEncodedContent(text: string): Json | string | undefined {
  const trimmed = pythonStrip(text);
  if (trimmed === '' || !'{["'.includes(trimmed[0]!)) {
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (typeof parsed === 'string') {
    return parseEncodedContent(parsed) ?? parsed;
  }
  if (Array.isArray(parsed)) {
    return { type: 'doc', content: parsed };
  }
  return isObject(parsed) ? parsed : undefined;
}

function markdownNotebookText(doc: Json | undefined): string | undefined {
  const nodes = doc?.['content'];
  if (!Array.isArray(nodes) || nodes.length !== 1 || !isObject(nodes[0]) || nodes[0]['type'] !== MARKDOWN_NOTEBOOK) {
    return undefined;
  }
  const attrs = nodes[0]['attrs'];
  return isObject(attrs) && typeof attrs['markdown'] === 'string' ? attrs['markdown'] : undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// childrenOf and marksOf give the node's own array when all of it is objects (the usual case): nothing here
// changes them, and a copy per node was much of Convert's garbage on a paragraph of 200,000 runs.
function childrenOf(node: Json | undefined): readonly Json[] {
  return objectsIn(node?.['content']);
}

function typeOf(node: Json): string | undefined {
  const type = node['type'];
  return typeof type === 'string' ? (TYPE_ALIASES[type] ?? type) : undefined;
}

function attrsOf(node: Json): Json | undefined {
  const attrs = node['attrs'];
  return isObject(attrs) ? attrs : undefined;
}

function marksOf(node: Json): readonly Json[] {
  return objectsIn(node['marks']);
}

const NO_OBJECTS: readonly Json[] = [];

function objectsIn(value: unknown): readonly Json[] {
  if (!Array.isArray(value)) {
    return NO_OBJECTS;
  }
  return value.every(isObject) ? (value as Json[]) : value.filter(isObject);
}

/** A list's Markdown in parts: runs of lines (items, nested items, paragraphs that may stay quoted) and blocks between them. */
type Part = { readonly lines: string[] } | { readonly block: string };

interface Written {
  readonly text: string;
  readonly losses: { kind: PostHogLossKind; message: string }[];
}

class PostHogWriter {
  private losses: { kind: PostHogLossKind; message: string }[] = [];

  constructor(private readonly options: PostHogConversionOptions) {}

  document(doc: Json | undefined): PostHogConversion {
    const written: Written[] = [];
    const emitted = new Set<string>();
    for (const node of childrenOf(doc)) {
      for (const id of commentIds(node)) {
        if (!emitted.has(id)) {
          emitted.add(id);
          written.push({ text: formatTag('Comment', { ref: id, replies: [...(this.options.commentReplies?.[id] ?? [])] }), losses: [] });
        }
      }
      this.losses = [];
      const text = this.block(node, 0);
      if (!isPythonBlank(text)) {
        this.checkReading(node, text);
        written.push({ text, losses: this.losses });
      } else if (childrenOf(node).length > 0) {
        // Empty paragraphs are everywhere in TipTap's documents and mean nothing; one with spaces or breaks does.
        this.lose('blank-paragraph', `A ${describeType(node)} of nothing but spaces or line breaks is left out: PostHog drops blank blocks.`);
        written.push({ text: '', losses: this.losses });
      }
    }
    return place(written);
  }

  /**
   * Reads the block's Markdown back: its text, character by character with its marks, must be the
   * notebook's text as PostHog keeps it (what the losses above already name left out). Anything else,
   * e.g. a `~` at a text's edge joining a strike next to it, is a loss too.
   */
  private checkReading(node: Json, markdown: string): void {
    const expected = this.keptText(node);
    if (expected === undefined) {
      return;
    }
    const read = readingText(readPostHogMarkdown(markdown).nodes);
    const index = firstDifference(expected, read);
    if (index !== undefined) {
      const near = expected.near(index);
      this.lose('text', `PostHog reads this ${describeType(node)}'s text differently from the notebook near ${JSON.stringify(near)}: a character or mark there changes.`);
    }
  }

  /** Each character (not whitespace) of the text PostHog keeps of a node, with its marks; undefined for nodes not checked. */
  private keptText(root: Json): MarkedText | undefined {
    const chars = new MarkedText();
    let checkable = true;
    const visit = (node: Json, inCode: boolean): void => {
      const type = typeOf(node);
      if (type === 'ph-text' || type === 'ph-link') {
        checkable = false;
        return;
      }
      if (type === 'text') {
        chars.push(textOf(node), inCode ? ['codeBlock'] : keptMarks(marksOf(node)));
        return;
      }
      if (type === 'ph-mention') {
        const { shown, id } = this.mentionLabel(node);
        chars.push(shown, id === undefined ? [] : [`mention:${id}`]);
        return;
      }
      if (type === 'ph-dashboard') {
        const id = attrsOf(node)?.['id'];
        chars.push(`Dashboard ${String(id)}`, []);
        return;
      }
      if (type === 'callout') {
        const emoji = attrsOf(node)?.['emoji'];
        chars.push(typeof emoji === 'string' ? emoji : '', []);
      }
      if (type !== undefined && (NODE_TAGS[type] !== undefined || type === 'ph-insight' || type === 'query')) {
        return;
      }
      childrenOf(node).forEach((child) => visit(child, inCode || type === 'codeBlock'));
    };
    visit(root, false);
    return checkable ? chars : undefined;
  }

  private lose(kind: PostHogLossKind, message: string): void {
    this.losses.push({ kind, message });
  }

  /** A block node's Markdown (PostHog's _serialize_rich_content_node), items of lists nested `depth` deep. */
  private block(node: Json, depth: number): string {
    const type = typeOf(node);
    switch (type) {
      case 'text':
        return escapeBlockLines(this.inlineNode(node));
      case 'heading':
        return this.heading(node);
      case 'paragraph':
        return this.paragraph(node);
      case 'blockquote':
        return this.quote(node, depth);
      case 'bulletList':
      case 'orderedList':
      case 'taskList':
        return joinParts(this.list(node, depth));
      case 'horizontalRule':
        return '---';
      case 'codeBlock':
        return this.code(node);
      case 'table':
        return this.table(node);
      case 'ph-text':
        return this.legacyText(node);
      case 'ph-insight':
        return this.legacyInsight(node);
      case 'ph-dashboard':
        return this.legacyDashboard(node);
      case 'query':
        return this.legacyQuery(node);
      case 'ph-link':
        return this.legacyLink(node);
      case 'callout':
        return this.callout(node);
      default:
        return this.other(node, type, depth);
    }
  }

  /** A paragraph's lines; a blank one (two breaks in a row, or one at an end) PostHog cannot read as written. */
  private paragraph(node: Json): string {
    const text = escapeBlockLines(this.inline(childrenOf(node)));
    if (!isPythonBlank(text) && text.split('\n').some(isPythonBlank)) {
      this.lose(
        'paragraph-breaks',
        'A line break at the start or end of this paragraph, or two in a row, cannot be written: PostHog drops a break at either end and reads two in a row as a new paragraph (in a quote, as one break).',
      );
    }
    return text;
  }

  /** A code block, its line ends written `\n` as PostHog reads every one (CRLF and a lone CR are lost). */
  private code(node: Json): string {
    const language = attrsOf(node)?.['language'];
    const text = childrenOf(node)
      .map((child) => (typeOf(child) === 'hardBreak' ? '\n' : textOf(child)))
      .join('');
    if (text.includes('\r')) {
      this.lose('code-line-endings', "The code block's CRLF or CR line ends become LF: PostHog reads every line end in code as a newline.");
    }
    return fencedCode(typeof language === 'string' ? language : '', text.replace(/\r\n?/g, '\n'));
  }

  private other(node: Json, type: string | undefined, depth: number): string {
    if (type !== undefined && NODE_TAGS[type] !== undefined) {
      return this.tag(NODE_TAGS[type], node);
    }
    const inner = childrenOf(node)
      .map((child) => this.block(child, depth))
      .filter((text) => text !== '')
      .join('\n\n');
    if (inner !== '' || !type) {
      return inner;
    }
    return this.unknownNode(node);
  }

  private tag(name: string, node: Json): string {
    const props = withHiddenFilters(serializableAttrs(attrsOf(node)));
    if (name === 'Image') {
      const extra = Object.keys(props).filter((key) => key !== 'src' && key !== 'alt' && key !== 'hideFilters');
      if (extra.length > 0) {
        this.lose('image-attributes', `The image's ${extra.map((key) => `"${key}"`).join(', ')} ${extra.length === 1 ? 'has' : 'have'} no place in PostHog's image (only src and alt).`);
      }
      return imageMarkdown(props);
    }
    return formatTag(name, props);
  }

  private unknownNode(node: Json): string {
    const type = node['type'];
    const props = serializableAttrs(attrsOf(node));
    const named = typeof type === 'string' && type !== '' ? { nodeType: type, ...props } : props;
    this.lose('unknown-node', `PostHog has no tag for the node ${typeof type === 'string' ? `"${type}"` : 'without a type'}: it is kept as an <UnknownNode> that PostHog shows as unknown.`);
    return formatTag('UnknownNode', named);
  }

  private heading(node: Json): string {
    const level = attrsOf(node)?.['level'];
    const integer = typeof level === 'number' && Number.isInteger(level);
    if (integer && level > 6) {
      this.lose('heading-level', `A heading of level ${level} is written as level 6: PostHog's headings go to 6.`);
    }
    const hashes = '#'.repeat(integer ? Math.min(Math.max(level, 1), 6) : 1);
    const [first = '', ...rest] = this.inline(childrenOf(node)).split('\n');
    if (rest.length > 0) {
      this.lose('break-in-heading', 'A line break in a heading ends the heading there in PostHog: the rest becomes a paragraph.');
    }
    return [`${hashes} ${first}`, ...rest.map(escapeLineStart)].join('\n');
  }

  /**
   * A quote holds inline text (and list lines) only: paragraphs and lists stay quoted, any other block is
   * written on its own between the quoted parts.
   */
  private quote(node: Json, depth: number): string {
    const blocks: string[] = [];
    let pending: string[] = [];
    const flush = () => {
      if (pending.length > 0) {
        blocks.push(pending.map((line) => `> ${line}`).join('\n'));
        pending = [];
      }
    };
    for (const child of childrenOf(node)) {
      const type = typeOf(child);
      if (type === 'paragraph' || type === 'text') {
        pending.push(...this.block(child, depth).split('\n'));
        continue;
      }
      if (type !== undefined && LIST_TYPES.has(type)) {
        for (const part of this.list(child, depth, true)) {
          if ('lines' in part) {
            pending.push(...part.lines);
          } else {
            flush();
            blocks.push(part.block);
          }
        }
        continue;
      }
      const text = this.block(child, depth);
      if (!isPythonBlank(text)) {
        this.lose('block-in-quote', `A ${describeType(child)} inside a quote is written after the quote's text: PostHog's quotes hold text and lists only.`);
        flush();
        blocks.push(text);
      }
    }
    flush();
    return blocks.join('\n\n');
  }

  /** A callout is a quote starting with its emoji (alone on its line before a list). */
  private callout(node: Json): string {
    const rawEmoji = attrsOf(node)?.['emoji'];
    const emoji = typeof rawEmoji === 'string' && !isPythonBlank(rawEmoji) ? escapeInlineText(pythonStrip(rawEmoji)) : '';
    const blocks: string[] = [];
    let bodies: { lines: string[]; isList: boolean }[] = [];
    let emojiPlaced = false;
    const flush = () => {
      if (bodies.length === 0) {
        return;
      }
      // Plain quote lines, as a quote's: a blank quote line beside a quoted list reads as a hard break.
      const lines = bodies.flatMap((body) => body.lines);
      if (emoji !== '' && !emojiPlaced) {
        if (bodies[0]!.isList) {
          lines.unshift(emoji);
        } else {
          lines[0] = `${emoji} ${lines[0]}`;
        }
        emojiPlaced = true;
      }
      blocks.push(lines.map((line) => `> ${line}`).join('\n'));
      bodies = [];
    };
    for (const child of childrenOf(node)) {
      const type = typeOf(child);
      if (type !== undefined && LIST_TYPES.has(type)) {
        let listLines: string[] | undefined;
        for (const part of this.list(child, 0, true)) {
          if ('lines' in part) {
            if (!listLines) {
              listLines = [...part.lines];
              bodies.push({ lines: listLines, isList: true });
            } else {
              listLines.push(...part.lines);
            }
          } else {
            flush();
            listLines = undefined;
            blocks.push(part.block);
          }
        }
        continue;
      }
      const text = this.block(child, 0);
      if (isPythonBlank(text)) {
        continue;
      }
      if (type === 'paragraph' || type === 'text') {
        bodies.push({ lines: text.split('\n'), isList: false });
      } else {
        this.lose('block-in-quote', `A ${describeType(child)} inside a callout is written after the callout's text: PostHog's quotes hold text and lists only.`);
        flush();
        blocks.push(text);
      }
    }
    flush();
    if (emoji !== '' && !emojiPlaced) {
      blocks.unshift(`> ${emoji}`);
    }
    if (blocks.length === 0) {
      return this.unknownNode(node);
    }
    this.lose('callout', 'PostHog has no callouts: this one is written as a quote starting with its emoji.');
    return blocks.join('\n\n');
  }

  /**
   * A list's items, one line each (breaks become spaces), numbered from the list's start; nested lists two
   * spaces deeper, in the document's order. Any other block of an item ends the list there; in a quote,
   * paragraphs stay in the lines (quoted after the list), other blocks are written between.
   */
  private list(node: Json, depth: number, quoted = false): Part[] {
    const type = typeOf(node);
    const start = listStart(node);
    const parts: Part[] = [];
    let lines: string[] = [];
    const flush = () => {
      if (lines.length > 0) {
        parts.push({ lines });
        lines = [];
      }
    };
    const items = childrenOf(node).filter((child) => ITEM_TYPES.has(typeOf(child) ?? ''));
    items.forEach((item, index) => {
      const marker = type === 'orderedList' ? `${start + index}.` : '-';
      const checked = attrsOf(item)?.['checked'];
      const checkbox = typeOf(item) === 'taskItem' ? (isPythonTruthy(checked) ? '[x] ' : '[ ] ') : '';
      const children = childrenOf(item);
      const textIndex = children.findIndex((child) => typeOf(child) === 'paragraph');
      const text = textIndex === -1 ? '' : this.itemText(children[textIndex]!);
      lines.push(pythonStripEnd(`${'  '.repeat(depth)}${marker} ${checkbox}${text}`));
      children.forEach((child, childIndex) => {
        if (childIndex === textIndex) {
          return;
        }
        const childType = typeOf(child);
        if (childType !== undefined && LIST_TYPES.has(childType)) {
          for (const part of this.list(child, depth + 1, quoted)) {
            if ('lines' in part) {
              lines.push(...part.lines);
            } else {
              flush();
              parts.push(part);
            }
          }
          return;
        }
        const block = this.block(child, 0);
        if (isPythonBlank(block)) {
          return;
        }
        if (quoted && childType === 'paragraph') {
          this.lose('block-in-list-item', "A paragraph after a list item's text is written after the list, still quoted: PostHog's list items hold one line of text.");
          lines.push(...block.split('\n'));
          return;
        }
        this.lose('block-in-list-item', `A ${describeType(child)} after a list item's text is written after the item: PostHog's list items hold one line of text.`);
        if (quoted) {
          this.lose('block-in-quote', `A ${describeType(child)} in a quoted list is written after the quote's text: PostHog's quotes hold text and lists only.`);
        }
        flush();
        parts.push({ block });
      });
    });
    flush();
    return parts;
  }

  private itemText(paragraph: Json): string {
    const text = this.inline(childrenOf(paragraph));
    if (text.includes('\n')) {
      this.lose('break-in-item', "A line break in a list item is written as a space: PostHog's list items are one line.");
    }
    return pythonJoinLines(text);
  }

  private table(node: Json): string {
    const rows = childrenOf(node).filter((child) => typeOf(child) === 'tableRow');
    if (rows.length === 0) {
      return '';
    }
    const cellRows = rows.map((row) => childrenOf(row).filter((cell) => typeOf(cell) === 'tableCell' || typeOf(cell) === 'tableHeader'));
    this.checkSpans(cellRows.flat());
    const first = cellRows[0]!;
    if (first.length === 0 || first.some((cell) => typeOf(cell) !== 'tableHeader')) {
      this.lose('table-header', "The table's first row is not a header row: PostHog's tables always have one, so the first row becomes the header.");
    }
    const texts = cellRows.map((cells) => cells.map((cell) => this.cellText(cell)));
    const columns = texts.reduce((widest, row) => Math.max(widest, row.length), 0);
    const padded = (row: string[]) => Array.from({ length: columns }, (_, index) => row[index] ?? '');
    const separator = new Array<string>(columns).fill('---');
    return [padded(texts[0]!), separator, ...texts.slice(1).map(padded)].map((row) => `| ${row.join(' | ')} |`).join('\n');
  }

  /** Merged cells: PostHog's table has one cell per column, so the cells after a merged one move left. */
  private checkSpans(cells: Json[]): void {
    const merged = cells.filter((cell) => [attrsOf(cell)?.['colspan'], attrsOf(cell)?.['rowspan']].some((span) => typeof span === 'number' && span > 1));
    if (merged.length > 0) {
      const names = merged.slice(0, 3).map((cell) => quoteText(plainTextOf(cell)));
      this.lose(
        'table-spans',
        `${merged.length === 1 ? 'A merged cell' : `${merged.length} merged cells`} (${names.join(', ')}${merged.length > 3 ? ', …' : ''}) cannot be written: PostHog's table cells span one column and row, so the cells after ${merged.length === 1 ? 'it' : 'them'} move left.`,
      );
    }
  }

  private cellText(cell: Json): string {
    // A cell's paragraph is one line whatever its breaks: those are a break-in-item loss, not a paragraph's.
    const text = childrenOf(cell)
      .map((child) => (typeOf(child) === 'paragraph' ? escapeBlockLines(this.inline(childrenOf(child))) : this.block(child, 0)))
      .join(' ');
    if (text.includes('\n')) {
      this.lose('break-in-item', "A line break in a table cell is written as a space: PostHog's table cells are one line.");
    }
    return escapeTableCell(pythonJoinLines(text));
  }

  private legacyText(node: Json): string {
    const body = attrsOf(node)?.['body'];
    return typeof body === 'string' ? body : this.unknownNode(node);
  }

  private legacyInsight(node: Json): string {
    const attrs = attrsOf(node);
    if (!attrs) {
      return this.unknownNode(node);
    }
    const shortId = typeof attrs['short_id'] === 'string' ? attrs['short_id'] : attrs['id'];
    if (typeof shortId !== 'string' || shortId === '') {
      return this.unknownNode(node);
    }
    return formatTag('Query', withHiddenFilters({ query: { kind: 'SavedInsightNode', shortId } }));
  }

  private legacyDashboard(node: Json): string {
    const id = attrsOf(node)?.['id'];
    if (typeof id !== 'string' && !(typeof id === 'number' && Number.isInteger(id))) {
      return this.unknownNode(node);
    }
    return escapeBlockLines(escapeInlineText(`Dashboard ${String(id)}`));
  }

  private legacyQuery(node: Json): string {
    const props = serializableAttrs(attrsOf(node));
    const query = props['query'];
    if (isObject(query) && query['kind'] === 'HogQLQuery') {
      props['query'] = { kind: 'DataVisualizationNode', source: query as PhPropValue };
    }
    return formatTag('Query', withHiddenFilters(props));
  }

  private legacyLink(node: Json): string {
    const href = attrsOf(node)?.['href'];
    const kept = typeof href === 'string' ? keptHref(href) : undefined;
    const label = pythonStrip(this.inline(childrenOf(node)));
    if (kept !== undefined) {
      return `[${label || escapeInlineText(kept)}](${escapeHref(kept)})`;
    }
    if (typeof href === 'string') {
      this.lose('link', `The link to ${JSON.stringify(href)} is dropped: PostHog keeps only http(s) links.`);
    }
    if (label !== '') {
      return label;
    }
    if (typeof href === 'string' && !isPythonBlank(href)) {
      return escapeBlockLines(escapeInlineText(pythonStrip(href)));
    }
    return this.unknownNode(node);
  }

  private inline(nodes: readonly Json[]): string {
    const written = nodes.map((node) => this.inlineNode(node));
    // A `!` right before a link's `[` would make it an image: `![label](url)` alone on a line is one.
    return written.map((text, index) => (text.endsWith('!') && written[index + 1]?.startsWith('[') ? `${text.slice(0, -1)}\\!` : text)).join('');
  }

  private inlineNode(node: Json): string {
    const type = typeOf(node);
    if (type === 'text') {
      return this.text(node);
    }
    if (type === 'hardBreak') {
      return '\n';
    }
    if (type === 'ph-mention') {
      return this.mention(node);
    }
    this.lose('inline-node', `The inline ${describeType(node)} has no place in PostHog's Markdown and is left out${childrenOf(node).length > 0 ? ' (its text is kept)' : ''}.`);
    return this.inline(childrenOf(node));
  }

  /** A mention's label as PostHog shows it ("@Name", "@member" when no name is known) and its member id, if it has one. */
  private mentionLabel(node: Json): { shown: string; id: number | undefined; named: boolean } {
    const attrs = attrsOf(node);
    const id = attrs?.['id'];
    const attrLabel = attrs?.['label'];
    const numericId = typeof id === 'number' && Number.isInteger(id) ? id : undefined;
    const label =
      (typeof attrLabel === 'string' && !isPythonBlank(attrLabel) ? pythonStrip(attrLabel) : undefined) ??
      (numericId !== undefined ? this.options.mentionLabel?.(numericId) : undefined);
    const shown = label ?? '@member';
    return { shown: shown.startsWith('@') ? shown : `@${shown}`, id: numericId, named: label !== undefined };
  }

  private mention(node: Json): string {
    const { shown, id: numericId, named } = this.mentionLabel(node);
    if (numericId !== undefined && !named) {
      this.lose('mention-label', `The name of member ${numericId} is not known, so the mention is written "@member" (PostHog's migration looks the name up).`);
    }
    if (numericId === undefined) {
      this.lose('mention', `The mention ${JSON.stringify(shown)} has no member id, so it is written as text.`);
      return escapeInlineText(shown);
    }
    return `<mention id="${numericId}">${escapeInlineText(shown)}</mention>`;
  }

  /** A Markdown link holds only its address: target, rel and the like (not null) are lost. */
  private checkLinkAttributes(link: Json, text: string): void {
    const extra = Object.entries(attrsOf(link) ?? {}).filter(([key, value]) => key !== 'href' && value !== null && value !== undefined);
    if (extra.length > 0) {
      this.lose('link-attributes', `The link on ${quoteText(text)} loses its ${extra.map(([key]) => `"${key}"`).join(', ')}: a link in PostHog's Markdown holds only its address.`);
    }
  }

  private text(node: Json): string {
    const text = textOf(node);
    const marks = marksOf(node);
    const code = hasMarkType(marks, 'code');
    let written = code ? `\`${escapeCode(text)}\`` : escapeInlineText(text);
    let wrapped = code;
    const link = marks.find((mark) => mark.type === 'link');
    if (link) {
      const href = attrsOf(link)?.['href'];
      const kept = typeof href === 'string' ? keptHref(href) : undefined;
      if (kept !== undefined) {
        written = `[${written}](${escapeHref(kept)})`;
        wrapped = true;
        this.checkLinkAttributes(link, text);
      } else {
        this.lose('link', `The link to ${JSON.stringify(href ?? null)} on ${quoteText(text)} is dropped: PostHog keeps only http(s) links.`);
      }
    }
    if (hasMarkType(marks, 'underline')) {
      written = `<u>${written}</u>`;
      wrapped = true;
    }
    written = emphasise(written, wrapped, {
      bold: hasMarkType(marks, 'bold') || hasMarkType(marks, 'strong'),
      italic: hasMarkType(marks, 'italic') || hasMarkType(marks, 'em'),
      strike: hasMarkType(marks, 'strike'),
    });
    for (const mark of marks) {
      if (!KNOWN_MARKS.has(String(mark.type))) {
        this.lose('mark', `The mark "${String(mark.type)}" on ${quoteText(text)} has no place in PostHog's Markdown.`);
      }
    }
    for (const id of commentMarkIds(marks)) {
      written = `<ref id="${escapeQuoted(id)}">${written}</ref>`;
    }
    return written;
  }
}

/** Whether a mark of the type is among the marks: a loop, as a Set of types per text was a sixth of Convert's garbage. */
function hasMarkType(marks: readonly Json[], type: string): boolean {
  for (const mark of marks) {
    if (mark.type === type) {
      return true;
    }
  }
  return false;
}

/** keptMarks of a text with one simple mark, shared (MarkedText only reads them). */
const ONE_KEPT_MARK = new Map<string, readonly string[]>();

/** The marks PostHog keeps of a text, as strings: code, bold, italic, underline, strike, http(s) links and comment highlights. */
function keptMarks(marks: readonly Json[]): readonly string[] {
  if (marks.length === 0) {
    return NO_MARKS;
  }
  const only = marks.length === 1 ? String(marks[0]!.type) : undefined;
  if (only !== undefined && only !== 'link' && only !== 'comment' && KNOWN_MARKS.has(only)) {
    let kept = ONE_KEPT_MARK.get(only);
    if (kept === undefined) {
      kept = [only === 'strong' ? 'bold' : only === 'em' ? 'italic' : only];
      ONE_KEPT_MARK.set(only, kept);
    }
    return kept;
  }
  const kept = new Set<string>();
  for (const mark of marks) {
    const type = String(mark.type);
    if (type === 'link') {
      const href = attrsOf(mark)?.['href'];
      const url = typeof href === 'string' ? keptHref(href) : undefined;
      if (url !== undefined) {
        kept.add(`link:${url}`);
      }
    } else if (type === 'comment') {
      commentMarkIds([mark]).forEach((id) => kept.add(`ref:${id}`));
    } else if (KNOWN_MARKS.has(type)) {
      kept.add(type === 'strong' ? 'bold' : type === 'em' ? 'italic' : type);
    }
  }
  return [...kept].sort();
}

/**
 * The characters (not whitespace) of a text, with their marks: the characters in one string, the marks by runs
 * (a string per character made Convert of a paragraph of 200,000 runs spend most of its second collecting them).
 */
class MarkedText {
  private readonly parts: string[] = [];
  private length = 0;
  private joined: string | undefined;
  /** Where each run of characters with the same marks ends, and its marks. */
  readonly runEnds: number[] = [];
  readonly runMarks: string[] = [];

  /** `marks` in sorted order. */
  push(text: string, marks: readonly string[]): void {
    const kept = withoutWhitespace(text);
    if (kept === '') {
      return;
    }
    const key = marks.length === 1 ? marks[0]! : marks.join(',');
    this.parts.push(kept);
    this.joined = undefined;
    this.length += kept.length;
    if (this.runMarks[this.runMarks.length - 1] === key) {
      this.runEnds[this.runEnds.length - 1] = this.length;
    } else {
      this.runEnds.push(this.length);
      this.runMarks.push(key);
    }
  }

  get text(): string {
    this.joined ??= this.parts.join('');
    return this.joined;
  }

  /** Up to eight characters either side of the code unit `at`. */
  near(at: number): string {
    const before = Array.from(this.text.slice(Math.max(0, at - 16), at)).slice(-8);
    const after = Array.from(this.text.slice(at, at + 16)).slice(0, 8);
    return [...before, ...after].join('');
  }
}

function withoutWhitespace(text: string): string {
  let kept = '';
  let from = 0;
  for (let index = 0; index < text.length; index++) {
    if (isWhitespaceCode(text.charCodeAt(index))) {
      kept += text.slice(from, index);
      from = index + 1;
    }
  }
  return from === 0 ? text : kept + text.slice(from);
}

/** The code unit where two marked texts first differ in a character or its marks; undefined when they are the same. */
function firstDifference(a: MarkedText, b: MarkedText): number | undefined {
  const [left, right] = [a.text, b.text];
  const shorter = Math.min(left.length, right.length);
  let at = 0;
  while (at < shorter && left.charCodeAt(at) === right.charCodeAt(at)) {
    at++;
  }
  let [aRun, bRun, position] = [0, 0, 0];
  while (position < at && aRun < a.runEnds.length && bRun < b.runEnds.length) {
    if (a.runMarks[aRun] !== b.runMarks[bRun]) {
      return position;
    }
    position = Math.min(a.runEnds[aRun]!, b.runEnds[bRun]!);
    aRun += a.runEnds[aRun] === position ? 1 : 0;
    bRun += b.runEnds[bRun] === position ? 1 : 0;
  }
  return at === left.length && at === right.length ? undefined : at;
}

const NO_MARKS: readonly never[] = [];

/** The characters (not whitespace) of a reading's text, with their marks, in order. */
function readingText(blocks: PhBlock[]): MarkedText {
  const chars = new MarkedText();
  // PostHog's reader gives texts of the same marks one array: each is turned into strings once.
  const keys = new Map<readonly PhMark[], string[]>();
  const keysOf = (marks: readonly PhMark[]): string[] => {
    let kept = keys.get(marks);
    if (kept === undefined) {
      kept = marks.map((mark) => (mark.type === 'link' ? `link:${mark.href}` : mark.type === 'ref' || mark.type === 'mention' ? `${mark.type}:${mark.id}` : mark.type)).sort();
      keys.set(marks, kept);
    }
    return kept;
  };
  const inline = (nodes: readonly PhInline[]) => {
    for (const node of nodes) {
      if (node.type === 'text') {
        chars.push(node.text, keysOf(node.marks ?? NO_MARKS));
      }
    }
  };
  for (const block of blocks) {
    if (block.type === 'paragraph' || block.type === 'heading' || block.type === 'blockquote') {
      inline(block.children);
    } else if (block.type === 'list') {
      block.items.forEach((item) => inline(item.children));
    } else if (block.type === 'table') {
      [block.headers, ...block.rows].forEach((row) => row.forEach((cell) => inline(cell.children)));
    } else if (block.type === 'code') {
      chars.push(block.text, ['codeBlock']);
    }
  }
  return chars;
}

const KNOWN_MARKS = new Set(['bold', 'strong', 'italic', 'em', 'underline', 'strike', 'code', 'link', 'comment']);

/**
 * Bold, italic and strike around a text: `**_x_**` for both bold and italic, strike outermost. A delimiter
 * beside whitespace neither opens nor closes, so spaces at the text's edges go outside, unless something
 * (`[`, `` ` ``, `<u>`) stands between; emphasis on spaces alone is left out.
 */
function emphasise(text: string, wrapped: boolean, marks: { bold: boolean; italic: boolean; strike: boolean }): string {
  if (!marks.bold && !marks.italic && !marks.strike) {
    return text;
  }
  let leading = '';
  let trailing = '';
  let core = text;
  if (!wrapped) {
    let start = 0;
    while (start < text.length && isWhitespaceCode(text.charCodeAt(start))) {
      start++;
    }
    let end = text.length;
    while (end > start && isWhitespaceCode(text.charCodeAt(end - 1))) {
      end--;
    }
    leading = text.slice(0, start);
    trailing = text.slice(end);
    core = text.slice(start, end);
    if (core === '') {
      return text;
    }
  }
  if (marks.bold && marks.italic) {
    core = `**_${core}_**`;
  } else if (marks.bold) {
    core = `**${core}**`;
  } else if (marks.italic) {
    core = `*${core}*`;
  }
  if (marks.strike) {
    core = `~~${core}~~`;
  }
  return leading + core + trailing;
}

function commentMarkIds(marks: readonly Json[]): string[] {
  const ids: string[] = [];
  for (const mark of marks) {
    const id = mark.type === 'comment' ? attrsOf(mark)?.['id'] : undefined;
    if (typeof id === 'string' && id !== '') {
      ids.push(id);
    }
  }
  return ids;
}

/** Every comment mark id in a node and what it holds, in document order. */
function commentIds(node: Json, ids: string[] = []): string[] {
  if (Array.isArray(node['marks'])) {
    ids.push(...commentMarkIds(marksOf(node)));
  }
  if (Array.isArray(node['content'])) {
    childrenOf(node).forEach((child) => commentIds(child, ids));
  }
  return ids;
}

/** Python's truth of a JSON value, as the converter tests it: false, 0, "", null, [] and {} are false. */
function isPythonTruthy(value: unknown): boolean {
  if (Array.isArray(value)) {
    return value.length > 0;
  }
  if (isObject(value)) {
    return Object.keys(value).length > 0;
  }
  return Boolean(value);
}

/** A node's text as the converter takes it (`str(node.get("text") or "")`). */
function textOf(node: Json): string {
  const raw = node['text'];
  return !isPythonTruthy(raw) ? '' : typeof raw === 'string' ? raw : typeof raw === 'boolean' ? (raw ? 'True' : 'False') : typeof raw === 'object' ? JSON.stringify(raw) : String(raw);
}

/** A node's text, its children's joined (for naming it in a message). */
function plainTextOf(node: Json): string {
  return typeOf(node) === 'text' ? textOf(node) : childrenOf(node).map(plainTextOf).join(' ');
}

function describeType(node: Json): string {
  const type = node['type'];
  return typeof type === 'string' ? type : 'node';
}

function quoteText(text: string): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(single.length > 30 ? `${single.slice(0, 29)}…` : single);
}

function listStart(node: Json): number {
  const start = attrsOf(node)?.['start'];
  return typeof start === 'number' && Number.isSafeInteger(start) && start >= 0 ? start : 1;
}

function joinParts(parts: Part[]): string {
  return parts.map((part) => ('lines' in part ? part.lines.join('\n') : part.block)).join('\n\n');
}

/**
 * A code block: a fence longer than any run of backticks in the code, the language its info string. A
 * language starting with a backtick is a space away from the fence, which would otherwise take it in.
 */
export function fencedCode(language: string, code: string): string {
  let longest = 0;
  // A loop, not Math.max(...runs): a code block of a million backtick runs would overflow the call stack.
  for (const run of code.matchAll(/`+/g)) {
    longest = Math.max(longest, run[0].length);
  }
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language.startsWith('`') ? ' ' : ''}${language}\n${code}\n${fence}`;
}

function imageMarkdown(props: Record<string, PhPropValue>): string {
  const src = typeof props['src'] === 'string' ? props['src'] : '';
  const alt = typeof props['alt'] === 'string' ? props['alt'] : '';
  return `![${alt.replace(/\\/g, '\\\\').replace(/]/g, '\\]')}](${src.replace(/\\/g, '\\\\').replace(/\)/g, '\\)')})`;
}

/**
 * A node's attrs as props: strings holding JSON objects or arrays are read as JSON, and values JSON
 * cannot hold are left out.
 */
function serializableAttrs(attrs: Json | undefined): Record<string, PhPropValue> {
  const props: Record<string, PhPropValue> = {};
  for (const [key, value] of Object.entries(attrs ?? {})) {
    const revived = reviveJson(value);
    const text = JSON.stringify(revived);
    if (text !== undefined) {
      props[key] = JSON.parse(text) as PhPropValue;
    }
  }
  return props;
}

function reviveJson(value: unknown): unknown {
  if (typeof value !== 'string') {
    return value;
  }
  const trimmed = pythonStrip(value);
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) {
    return value;
  }
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return typeof parsed === 'object' && parsed !== null ? parsed : value;
  } catch {
    return value;
  }
}

/** PostHog hides an embedded card's filters unless the node says otherwise (hideFilters or legacy edit). */
function withHiddenFilters(props: Record<string, PhPropValue>): Record<string, PhPropValue> {
  if (typeof props['hideFilters'] === 'boolean' || typeof props['edit'] === 'boolean') {
    return props;
  }
  return { ...props, hideFilters: true };
}

/**
 * `<Name props />` as PostHog writes a component: legacy `view`/`edit` booleans become hideResults/hideFilters,
 * which come first; `true` is a bare name, a string is a JSON string (`{"…"}` when it holds `&`, which quoted
 * values would decode), anything else `{JSON}` with backslashes as `\u005c`.
 */
export function formatTag(name: string, props: Record<string, PhPropValue>): string {
  const rest: [string, PhPropValue][] = Object.entries(props).filter(([key]) => !['view', 'edit', 'hideFilters', 'hideResults'].includes(key));
  const hideFilters = typeof props['hideFilters'] === 'boolean' ? props['hideFilters'] : props['edit'] === false;
  const hideResults = typeof props['hideResults'] === 'boolean' ? props['hideResults'] : props['view'] === false;
  const entries: [string, PhPropValue][] = [...(hideFilters ? [['hideFilters', true] as [string, PhPropValue]] : []), ...(hideResults ? [['hideResults', true] as [string, PhPropValue]] : []), ...rest];
  const written = entries.map(([key, value]) => (value === true ? ` ${key}` : ` ${key}=${propValue(value)}`)).join('');
  return `<${name}${written} />`;
}

export function propValue(value: PhPropValue): string {
  if (typeof value === 'string' && !value.includes('&')) {
    return JSON.stringify(value);
  }
  return `{${JSON.stringify(value).replace(/\\\\/g, '\\u005c')}}`;
}

/** An href PostHog both writes (http(s) with a host) and reads back; undefined for one it drops. */
function keptHref(href: string): string | undefined {
  const trimmed = pythonStrip(href);
  if (!/^https?:\/\/\S+$/i.test(trimmed) || [...trimmed].some(isPythonSpace)) {
    return undefined;
  }
  const host = /^https?:\/\/([^/?#]*)/i.exec(trimmed)?.[1] ?? '';
  if (host === '' || host.includes('[') !== host.includes(']')) {
    return undefined;
  }
  return sanitizeLinkHref(trimmed);
}

/** Backslash, parentheses, emphasis characters, backticks and brackets escaped: nothing in an href ends the link or an emphasis. */
function escapeHref(href: string): string {
  return href.replace(/[\\()*_~`[\]]/g, '\\$&');
}

/**
 * Text escaped as PostHog's converter escapes it (escape_inline_markdown_text), and a `~` at the text's
 * start or end too: PostHog leaves a single one, which then joins a strike's `~~` beside it.
 */
export function escapeInlineText(text: string): string {
  if (!MAY_NEED_ESCAPE.test(text)) {
    return text;
  }
  return text
    .replace(/[\\`*[\]|]/g, '\\$&')
    .replace(/~~+|^~|~$/g, (run) => '\\~'.repeat(run.length))
    .replace(/_/g, (_underscore, offset: number, source: string) => (isAsciiWordChar(source[offset - 1]) && isAsciiWordChar(source[offset + 1]) ? '_' : '\\_'))
    .replace(/<(?=\/?(?:u>|ref[\s>]|mention[\s>]))/g, '\\<');
}

/** Every character escapeInlineText may escape: text without them (most runs) is taken as it is, at once. */
const MAY_NEED_ESCAPE = /[\\`*[\]|~_<]/;

function isAsciiWordChar(char: string | undefined): boolean {
  return char !== undefined && /^[A-Za-z0-9]$/.test(char);
}

function escapeCode(text: string): string {
  return text.replace(/[\\`]/g, '\\$&');
}

/** A quoted id for `<ref id="…">`: the reader takes a backslash's next character as it is. */
function escapeQuoted(text: string): string {
  return text.replace(/["\\]/g, '\\$&');
}

export function escapeBlockLines(text: string): string {
  return text.split('\n').map(escapeLineStart).join('\n');
}

/** A text line that would start another block (heading, list, quote, rule, tag, note) gets a backslash. */
export function escapeLineStart(line: string): string {
  let indent = 0;
  while (indent < line.length && isPythonSpace(line[indent]!)) {
    indent++;
  }
  const leading = line.slice(0, indent);
  const content = line.slice(indent);
  const ordered = /^(\d+)([.)])(\s|$)/.exec(content);
  if (ordered) {
    return `${leading}${ordered[1]}\\${content.slice(ordered[1]!.length)}`;
  }
  if (/^(#{1,6}\s|>|[-+•](\s|$)|-{3,}\s*$|<[A-Z]|<!--)/.test(content)) {
    return `${leading}\\${content}`;
  }
  return line;
}

/** Pipes in a cell escaped, except after a backslash that already escapes them. */
function escapeTableCell(text: string): string {
  return text.replace(/\\[\s\S]|\|/g, (match) => (match === '|' ? '\\|' : match));
}

/** Blocks joined by blank lines, each block's losses at its lines. */
function place(written: Written[]): PostHogConversion {
  const texts: string[] = [];
  const losses: PostHogLoss[] = [];
  let line = 0;
  for (const block of written) {
    const lineCount = block.text.split('\n').length;
    // A block left out has no lines: its losses are at the end of the block before it.
    const [start, end] = block.text === '' ? [Math.max(0, line - 2), Math.max(0, line - 2)] : [line, line + lineCount - 1];
    for (const loss of block.losses) {
      losses.push({ kind: loss.kind, message: loss.message, line: start, endLine: end, severity: 'warning' });
    }
    if (block.text !== '') {
      texts.push(block.text);
      line += lineCount + 1;
    }
  }
  return { markdown: texts.join('\n\n'), losses };
}
