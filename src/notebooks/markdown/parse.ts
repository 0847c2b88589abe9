import MarkdownIt from 'markdown-it';
import type { MarkdownIssue } from './issues';
import { COMMENT_TAG, nodeTypeOfTag, UNKNOWN_TAG } from './dialect';
import { NODE_CONTENT_PROP, NODE_FIELDS_PROP, NODE_MARKS_PROP } from './inline';
import { BLOCK_TAG_TOKEN, INLINE_TAG_TOKEN, posthogTagsPlugin, type TagTokenMeta } from './plugin';
import { cellAttrs, childrenOf, EMPTY_PARAGRAPH, INLINE_PH_NODES, isNode, isObject, linkAttrs, markRank, type PmMark, type PmNode } from './schema';

type Token = MarkdownIt.Token;
type Md = MarkdownIt.MarkdownIt;

/** A top-level node read from Markdown, with the lines it came from (`endLine` exclusive). */
export interface ParsedBlock {
  readonly node: PmNode;
  readonly startLine: number;
  readonly endLine: number;
}

export interface ParsedMarkdown {
  readonly blocks: ParsedBlock[];
  readonly problems: MarkdownIssue[];
  /** The text's lines, line endings normalised to "\n" as the parser sees them. */
  readonly lines: string[];
}

/** An issue at lines (0-based, `endLine` inclusive); the message does not repeat the line (callers add it, 1-based). */
export function issueAt(line: number, endLine: number, message: string, severity: 'error' | 'warning'): MarkdownIssue {
  return { line, endLine, message, severity };
}

let parser: Md | undefined;

/**
 * CommonMark with GFM tables and strikethrough. Raw HTML is read (so it can be named as a problem rather
 * than kept as text); links are kept exactly as written (no percent-encoding, no scheme filter: the
 * document decides what a link holds, as PostHog's editor does).
 */
export function markdownParser(): Md {
  if (!parser) {
    parser = new MarkdownIt('commonmark', { html: true, linkify: false, typographer: false });
    parser.enable(['table', 'strikethrough']);
    parser.normalizeLink = (url: string) => url;
    parser.normalizeLinkText = (url: string) => url;
    parser.validateLink = () => true;
    parser.use(posthogTagsPlugin);
  }
  return parser;
}

export function normaliseLineEndings(markdown: string): string {
  return markdown.replace(/\r\n?/g, '\n');
}

/** Reads Markdown into top-level ProseMirror nodes, naming what cannot become a node without loss. */
export function parseMarkdownBlocks(markdown: string): ParsedMarkdown {
  const text = normaliseLineEndings(markdown);
  const lines = text.split('\n');
  const tokens = markdownParser().parse(text, {});
  const reader = new TokenReader(tokens, lines);
  const blocks: ParsedBlock[] = [];
  while (reader.index < tokens.length) {
    const first = tokens[reader.index]!;
    const node = reader.block();
    if (node) {
      const [startLine, endLine] = first.map ?? [0, 0];
      blocks.push({ node, startLine, endLine: trimBlankLines(lines, startLine, endLine) });
    }
  }
  return { blocks, problems: reader.problems, lines };
}

function trimBlankLines(lines: string[], start: number, end: number): number {
  let last = end;
  while (last > start + 1 && (lines[last - 1] ?? '').trim() === '') {
    last--;
  }
  return last;
}

const TASK_MARKER = /^\[([ xX])\](?: |$)/;
const LINE_BREAK_HTML = /^<br\s*\/?>$/i;

class TokenReader {
  index = 0;
  readonly problems: MarkdownIssue[] = [];

  constructor(
    private readonly tokens: Token[],
    private readonly lines: string[],
  ) {}

  /** The node starting at the current token (consuming it and its children), or undefined for none. */
  block(): PmNode | undefined {
    const token = this.tokens[this.index]!;
    switch (token.type) {
      case 'paragraph_open':
        return this.paragraph();
      case 'heading_open': {
        const inline = this.tokens[this.index + 1]!;
        this.index += 3;
        return withContent({ type: 'heading', attrs: { level: Number(token.tag.slice(1)) } }, this.inline(inline));
      }
      case 'bullet_list_open':
      case 'ordered_list_open':
        return this.list(token);
      case 'blockquote_open':
        this.index++;
        return withContent({ type: 'blockquote' }, this.blocksUntil('blockquote_close'));
      case 'fence':
      case 'code_block':
        this.index++;
        return codeBlock(token);
      case 'hr':
        this.index++;
        return { type: 'horizontalRule' };
      case 'table_open':
        return this.table();
      case 'html_block':
        this.index++;
        return this.htmlBlock(token);
      case BLOCK_TAG_TOKEN: {
        this.index++;
        const node = this.tagNode(token, token.map);
        if (!node) {
          return withContent({ type: 'paragraph' }, [{ type: 'text', text: token.content }]);
        }
        return INLINE_PH_NODES.has(node.type) ? { type: 'paragraph', content: [node] } : node;
      }
      default:
        this.index++;
        if (token.nesting !== -1) {
          this.problem(token.map, `Markdown of the kind "${token.type}" has no notebook form.`);
        }
        return undefined;
    }
  }

  private blocksUntil(closeType: string): PmNode[] {
    const nodes: PmNode[] = [];
    while (this.index < this.tokens.length && this.tokens[this.index]!.type !== closeType) {
      const node = this.block();
      if (node) {
        nodes.push(node);
      }
    }
    this.index++;
    return nodes;
  }

  private paragraph(): PmNode {
    const inline = this.tokens[this.index + 1]!;
    this.index += 3;
    const children = inline.children ?? [];
    const image = children.length === 1 && children[0]!.type === 'image' ? children[0]! : undefined;
    if (image) {
      const alt = image.children?.map((child) => child.content).join('') ?? '';
      const src = image.attrGet('src') ?? '';
      if (image.attrGet('title') !== null) {
        this.problem(inline.map, 'An image title has no place in a notebook image; remove the title.');
      }
      return { type: 'ph-image', attrs: alt === '' ? { src } : { src, alt } };
    }
    return withContent({ type: 'paragraph' }, this.inline(inline));
  }

  private list(open: Token): PmNode {
    const ordered = open.type === 'ordered_list_open';
    const closeType = ordered ? 'ordered_list_close' : 'bullet_list_close';
    this.index++;
    const items: { node: PmNode; checked: boolean | undefined }[] = [];
    while (this.tokens[this.index]!.type !== closeType) {
      items.push(this.listItem());
    }
    this.index++;
    if (!ordered && items.every((item) => item.checked !== undefined)) {
      const content = items.map(({ node, checked }) => ({ type: 'taskItem', attrs: { checked }, content: withoutTaskMarker(node) }));
      return { type: 'taskList', content };
    }
    const content = items.map(({ node }) => node);
    return ordered ? { type: 'orderedList', attrs: { start: Number(open.attrGet('start') ?? 1) }, content } : { type: 'bulletList', content };
  }

  private listItem(): { node: PmNode; checked: boolean | undefined } {
    this.index++;
    const first = this.tokens[this.index]!;
    const inline = first.type === 'paragraph_open' ? this.tokens[this.index + 1]! : undefined;
    const marker = inline ? TASK_MARKER.exec(inline.content) : null;
    const content = this.blocksUntil('list_item_close');
    if (content[0]?.type !== 'paragraph') {
      content.unshift({ type: 'paragraph' });
    }
    return { node: { type: 'listItem', content }, checked: marker ? marker[1] !== ' ' : undefined };
  }

  private table(): PmNode {
    this.index++;
    const rows: PmNode[] = [];
    let width = 0;
    let headerEmpty = false;
    while (this.tokens[this.index]!.type !== 'table_close') {
      const token = this.tokens[this.index]!;
      if (token.type !== 'tr_open') {
        this.index++;
        continue;
      }
      const inHeader = rows.length === 0;
      const rowStart = this.index;
      const cells = this.tableRow(inHeader);
      if (inHeader) {
        width = cells.length;
        headerEmpty = this.tokens.slice(rowStart, this.index).every((cell) => cell.type !== 'inline' || cell.content.trim() === '');
      } else {
        this.checkRowWidth(token, width);
      }
      rows.push({ type: 'tableRow', content: cells });
    }
    this.index++;
    // A header row of empty cells stands for a table without one (Markdown tables always have a header).
    if (headerEmpty && rows.length > 1) {
      rows.shift();
    }
    return { type: 'table', content: rows };
  }

  private tableRow(inHeader: boolean): PmNode[] {
    this.index++;
    const cells: PmNode[] = [];
    while (this.tokens[this.index]!.type !== 'tr_close') {
      const token = this.tokens[this.index]!;
      if (token.type === 'th_open' || token.type === 'td_open') {
        if (token.attrGet('style')) {
          this.warning(token.map, 'Column alignment has no place in a notebook table; it will not be kept.');
        }
        const inline = this.tokens[this.index + 1]!;
        const paragraph = inline.content.trim() === EMPTY_PARAGRAPH ? { type: 'paragraph' } : withContent({ type: 'paragraph' }, this.inline(inline));
        cells.push({ type: inHeader ? 'tableHeader' : 'tableCell', attrs: cellAttrs(), content: [paragraph] });
        this.index += 3;
      } else {
        this.index++;
      }
    }
    this.index++;
    return cells;
  }

  private checkRowWidth(row: Token, width: number): void {
    const line = row.map ? this.lines[row.map[0]] : undefined;
    if (line === undefined) {
      return;
    }
    const cells = countCells(line);
    if (cells !== width) {
      this.problem(row.map, `This table row has ${cells} cells but the table has ${width} columns; give every row ${width} cells.`);
    }
  }

  private htmlBlock(token: Token): PmNode {
    const html = token.content.trim();
    if (html === EMPTY_PARAGRAPH) {
      return { type: 'paragraph' };
    }
    if (LINE_BREAK_HTML.test(html)) {
      return { type: 'paragraph', content: [{ type: 'hardBreak' }] };
    }
    this.problem(token.map, 'Raw HTML has no notebook form; write it as Markdown or escape the "<" with a backslash.');
    return withContent({ type: 'paragraph' }, [{ type: 'text', text: token.content.trimEnd() }]);
  }

  /**
   * The node a tag stands for: attrs from its props, content and marks from `nodeContent` and `nodeMarks`;
   * undefined (with a problem) for a tag that does not read or stands for no node.
   */
  tagNode(token: Token, map: [number, number] | null | undefined): PmNode | undefined {
    const meta = (token.meta ?? {}) as TagTokenMeta;
    if (!meta.tag || (meta.problem !== undefined && meta.severity !== 'warning')) {
      this.problem(map, `${meta.problem ?? 'this tag does not read'}.`);
      return undefined;
    }
    const { name, props } = meta.tag;
    const type = name === UNKNOWN_TAG ? props['nodeType'] : nodeTypeOfTag(name);
    if (typeof type !== 'string') {
      this.problem(map, noNodeMessage(name, meta.problem));
      return undefined;
    }
    const { [NODE_CONTENT_PROP]: content, [NODE_MARKS_PROP]: marks, [NODE_FIELDS_PROP]: fields, ...attrs } = props;
    if (name === UNKNOWN_TAG) {
      delete attrs['nodeType'];
    }
    if (fields !== undefined && !isObject(fields)) {
      this.problem(map, `The ${NODE_FIELDS_PROP} prop must be an object.`);
      return undefined;
    }
    const node: PmNode = { ...(fields ?? {}), type };
    if (Object.keys(attrs).length > 0) {
      node.attrs = attrs;
    }
    if (content !== undefined) {
      if (!Array.isArray(content) || !content.every(isNode)) {
        this.problem(map, `The ${NODE_CONTENT_PROP} prop must be a list of nodes (objects with a "type").`);
        return undefined;
      }
      node.content = content;
    }
    if (marks !== undefined) {
      if (!Array.isArray(marks) || !marks.every(isNode)) {
        this.problem(map, `The ${NODE_MARKS_PROP} prop must be a list of marks (objects with a "type").`);
        return undefined;
      }
      node.marks = marks;
    }
    return node;
  }

  private inline(token: Token): PmNode[] {
    return new InlineReader(token, this).read();
  }

  problem(map: [number, number] | null | undefined, message: string): void {
    this.report(map, message, 'error');
  }

  warning(map: [number, number] | null | undefined, message: string): void {
    this.report(map, message, 'warning');
  }

  private report(map: [number, number] | null | undefined, message: string, severity: 'error' | 'warning'): void {
    const [line, end] = map ?? [0, 1];
    this.problems.push(issueAt(line, Math.max(line, end - 1), message, severity));
  }
}

class InlineReader {
  private readonly nodes: PmNode[] = [];
  /** The marks opened and not yet closed, in opening order (a mark opened twice, `<u><u>`, is there twice). */
  private open: PmMark[] = [];
  /** The marks on text here: each once, in the schema's order. */
  private marks: PmMark[] = [];

  constructor(
    private readonly token: Token,
    private readonly reporter: Pick<TokenReader, 'problem' | 'tagNode'>,
  ) {}

  read(): PmNode[] {
    for (const child of this.token.children ?? []) {
      this.child(child);
    }
    return this.nodes;
  }

  private child(token: Token): void {
    switch (token.type) {
      case 'text':
        return this.text(token.content);
      case 'softbreak':
        return this.text(' ');
      case 'hardbreak':
        return this.atom({ type: 'hardBreak' });
      case 'code_inline':
        return this.text(token.content, { type: 'code' });
      case 'strong_open':
        return this.openMark({ type: 'bold' });
      case 'em_open':
        return this.openMark({ type: 'italic' });
      case 's_open':
        return this.openMark({ type: 'strike' });
      case 'link_open':
        if (token.attrGet('title') !== null) {
          this.reporter.problem(this.token.map, 'A link title has no place in a notebook link; remove the title.');
        }
        return this.openMark({ type: 'link', attrs: linkAttrs(String(token.attrGet('href') ?? '')) });
      case 'strong_close':
        return this.close('bold');
      case 'em_close':
        return this.close('italic');
      case 's_close':
        return this.close('strike');
      case 'link_close':
        return this.close('link');
      case 'html_inline':
        return this.html(token.content);
      case INLINE_TAG_TOKEN:
        return this.tag(token);
      case 'image':
        this.reporter.problem(this.token.map, 'An image must be a paragraph of its own to become a notebook image.');
        return this.text(`![${token.content}](${token.attrGet('src') ?? ''})`);
      default:
        this.reporter.problem(this.token.map, `Markdown of the kind "${token.type}" has no notebook form.`);
        return this.text(token.content);
    }
  }

  private tag(token: Token): void {
    const node = this.reporter.tagNode(token, this.token.map);
    if (!node) {
      return this.text(token.content);
    }
    if (node.type.startsWith('ph-') && !INLINE_PH_NODES.has(node.type)) {
      this.reporter.problem(this.token.map, `The tag <${(token.meta as TagTokenMeta).tag?.name ?? node.type}> stands for a block: put it alone on its own line.`);
      return this.text(token.content);
    }
    this.atom(node);
  }

  private html(content: string): void {
    const tag = content.toLowerCase();
    if (LINE_BREAK_HTML.test(tag)) {
      return this.atom({ type: 'hardBreak' });
    }
    if (tag === '<u>') {
      return this.openMark({ type: 'underline' });
    }
    if (tag === '</u>') {
      return this.close('underline');
    }
    this.reporter.problem(this.token.map, `The HTML ${JSON.stringify(content)} has no notebook form; escape its "<" with a backslash.`);
    this.text(content);
  }

  private openMark(mark: PmMark): void {
    this.open = [...this.open, mark];
    this.updateMarks();
  }

  private close(type: string): void {
    const index = this.open.map((mark) => mark.type).lastIndexOf(type);
    if (index !== -1) {
      this.open = this.open.filter((_, at) => at !== index);
      this.updateMarks();
    }
  }

  private updateMarks(): void {
    const unique = this.open.filter((mark, index) => this.open.findIndex((other) => sameMarks([other], [mark])) === index);
    this.marks = unique.sort((a, b) => markRank(a.type) - markRank(b.type));
  }

  private text(text: string, extra?: PmMark): void {
    if (text === '') {
      return;
    }
    const marks = extra ? [...this.marks, extra].sort((a, b) => markRank(a.type) - markRank(b.type)) : this.marks;
    const last = this.nodes[this.nodes.length - 1];
    if (last?.type === 'text' && sameMarks(last.marks ?? [], marks)) {
      last.text += text;
      return;
    }
    this.nodes.push(marks.length > 0 ? { type: 'text', text, marks } : { type: 'text', text });
  }

  atom(node: PmNode): void {
    this.nodes.push(this.marks.length > 0 ? { ...node, marks: this.marks } : node);
  }
}

/** Why a tag that reads becomes no node of a legacy notebook. */
function noNodeMessage(name: string, problem: string | undefined): string {
  if (name === COMMENT_TAG) {
    return `A <${COMMENT_TAG}> tag stands for a comment thread, which a legacy notebook keeps as a mark on text; it has no node form.`;
  }
  return problem !== undefined ? `${problem}; it stands for no notebook node.` : `The tag <${name}> stands for no notebook node.`;
}

function sameMarks(a: PmMark[], b: PmMark[]): boolean {
  return a.length === b.length && a.every((mark, index) => JSON.stringify(mark) === JSON.stringify(b[index]));
}

function withContent(node: PmNode, content: PmNode[]): PmNode {
  return content.length > 0 ? { ...node, content } : node;
}

function codeBlock(token: Token): PmNode {
  const language = token.type === 'fence' && token.info.trim() !== '' ? token.info.trim() : null;
  const code = token.content.endsWith('\n') ? token.content.slice(0, -1) : token.content;
  return withContent({ type: 'codeBlock', attrs: { language } }, code === '' ? [] : [{ type: 'text', text: code }]);
}

/** The task item's paragraph without its "[ ] " or "[x] ". */
function withoutTaskMarker(item: PmNode): PmNode[] {
  const [paragraph, ...rest] = childrenOf(item);
  if (!paragraph) {
    return [];
  }
  const inline = childrenOf(paragraph);
  const first = inline[0];
  const markerLength = first?.text && /^\[[ xX]\] /.test(first.text) ? 4 : 3;
  const remaining = first?.text !== undefined ? first.text.slice(markerLength) : '';
  const content = remaining === '' ? inline.slice(1) : [{ ...first!, text: remaining }, ...inline.slice(1)];
  return [withContent({ type: 'paragraph' }, content), ...rest];
}

/**
 * The cells of a table row as written (after any quote markers), split as markdown-it splits them: at
 * each pipe not right after a backslash, a pipe at either end only closing the row.
 */
function countCells(line: string): number {
  const trimmed = line.replace(/^(?:\s*>)*/, '').trim();
  let cells = 1;
  for (let index = 0; index < trimmed.length; index++) {
    if (trimmed[index] === '|' && trimmed[index - 1] !== '\\') {
      cells++;
    }
  }
  return cells - (trimmed.startsWith('|') ? 1 : 0) - (trimmed.endsWith('|') && trimmed.length > 1 && trimmed[trimmed.length - 2] !== '\\' ? 1 : 0);
}

