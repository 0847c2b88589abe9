import { tagDefinition, tagOfNodeType, UNKNOWN_TAG } from './dialect';
import { escapeLineStart, fencedCode } from './legacyConversion';
import { isWhitespaceCode } from './posthogText';
import { childrenOf, isObject, type JsonObject, LIST_TYPES, type PmMark, type PmNode } from './schema';
import { formatTag, isPropName } from './tags';

/**
 * A legacy (ProseMirror) notebook's blocks as Markdown in PostHog's dialect: what PostHog's model can hold
 * is written as PostHog writes it (a newline in a paragraph is a line break, list items one line each with
 * nested items two spaces deeper, quotes of text, `**_x_**`, an empty paragraph a line of one space, tags
 * without TipTap's default attrs); what it cannot hold gets a spelling of its own that the extension reads
 * back exactly (legacyRead.ts): `<br>` for a line break where a newline cannot be one, a backslash before
 * whitespace at an emphasis edge, `<Tag … />` inside text for inline nodes, quotes holding other blocks
 * (`>` lines between them), a list item's other blocks indented under it after a blank line, tables without a
 * header row (centred separators under an empty header), and for any other structure the node itself as
 * `<UnknownNode nodeType=… nodeContent={…} />`.
 */

/** TipTap's defaults for the attrs every PostHog node has: left out of tags, restored when read. */
export function tiptapDefaults(nodeType: string): JsonObject | undefined {
  const tag = tagOfNodeType(nodeType);
  const definition = tag === undefined ? undefined : tagDefinition(tag);
  if (!definition || definition.inline) {
    return undefined;
  }
  return nodeType === 'ph-recording' ? { height: null, title: null, __init: null, noInspector: false } : { height: null, title: null, __init: null };
}

export const NODE_CONTENT_PROP = 'nodeContent';
export const NODE_MARKS_PROP = 'nodeMarks';
/** Keys of the node itself other than type, attrs, content and marks, as an object. */
export const NODE_FIELDS_PROP = 'nodeFields';

/**
 * A node as its tag: attrs as props (TipTap's defaults left out), and what else the node holds in
 * `nodeContent`, `nodeMarks` (block nodes) and `nodeFields`. A node PostHog has no tag for is an
 * `<UnknownNode nodeType=…>`. Attrs whose names cannot be props are left out (the read-back check names them).
 */
export function formatNodeTag(node: PmNode, isBlock: boolean): string {
  const known = tagOfNodeType(node.type);
  const defaults = tiptapDefaults(node.type) ?? {};
  // Entries, made an object once by fromEntries: a prop named __proto__ stays a prop (an assignment would set the prototype).
  const props: [string, unknown][] = known ? [] : [['nodeType', node.type]];
  for (const [key, value] of Object.entries(node.attrs ?? {})) {
    const isDefault = Object.hasOwn(defaults, key) && JSON.stringify(defaults[key]) === JSON.stringify(value);
    if (isPropName(key) && !(key === 'nodeType' && !known) && !isDefault) {
      props.push([key, value]);
    }
  }
  if (node.content !== undefined) {
    props.push([NODE_CONTENT_PROP, node.content]);
  }
  if (isBlock && node.marks !== undefined) {
    props.push([NODE_MARKS_PROP, node.marks]);
  }
  const otherKeys = Object.keys(node).filter((key) => !['type', 'attrs', 'content', 'marks', 'text'].includes(key));
  if (otherKeys.length > 0) {
    props.push([NODE_FIELDS_PROP, Object.fromEntries(otherKeys.map((key) => [key, node[key]]))]);
  }
  return formatTag(known ?? UNKNOWN_TAG, Object.fromEntries(props) as JsonObject);
}

/** Where inline content is written: where a newline can be a line break, and which edges PostHog trims. */
export type InlineWhere = 'paragraph' | 'quote' | 'heading' | 'item' | 'cell';

const BREAK_TAG = '<br>';

type Piece = { kind: 'text'; text: string; tag: boolean } | { kind: 'break' };

/** A paragraph's (heading's, item's, cell's) inline content. */
export function writeInline(nodes: PmNode[], where: InlineWhere): string {
  const pieces = nodes.map((node): Piece => (node.type === 'hardBreak' ? { kind: 'break' } : inlinePiece(node)));
  const lines: Piece[][] = [[]];
  const breaksAsNewlines = where === 'paragraph' || where === 'quote';
  pieces.forEach((piece, index) => {
    if (piece.kind === 'text') {
      lines[lines.length - 1]!.push(piece);
      return;
    }
    const line = lines[lines.length - 1]!;
    const next = pieces[index + 1];
    // A line holding only a tag would read as a block tag, ending the paragraph: such a line stays joined.
    const newline = breaksAsNewlines && line.length > 0 && next !== undefined && next.kind === 'text' && !loneTag(line);
    if (newline && !loneTag(lineAfter(pieces, index))) {
      lines.push([]);
    } else {
      line.push({ kind: 'text', text: BREAK_TAG, tag: true });
    }
  });
  return lines.map((line, index) => writeLine(line, where, index === 0)).join('\n');
}

/** Whether the line holds one tag and nothing else but whitespace. */
function loneTag(line: Piece[]): boolean {
  // A loop that stops at the second piece of content: a paragraph's line can hold a million pieces.
  let tag = false;
  let content = 0;
  for (const piece of line) {
    if (piece.kind === 'text' && (piece.tag || piece.text.trim() !== '')) {
      if (++content > 1) {
        return false;
      }
      tag = piece.tag;
    }
  }
  return content === 1 && tag;
}

function lineAfter(pieces: Piece[], breakIndex: number): Piece[] {
  const line: Piece[] = [];
  for (let index = breakIndex + 1; index < pieces.length && pieces[index]!.kind === 'text'; index++) {
    line.push(pieces[index]!);
  }
  return line;
}

/**
 * A line's text: a line that would read as another block gets a backslash (PostHog's rule), and whitespace
 * the reader would drop or read as a blank line is kept with a backslash before it.
 */
function writeLine(line: Piece[], where: InlineWhere, first: boolean): string {
  let text = line.map((piece) => (piece.kind === 'text' ? piece.text : '')).join('');
  // The line's first character that is not whitespace: in a text (escaped where it would start a block) or a tag.
  const firstContent = line.find((piece) => piece.kind === 'text' && (piece.tag || piece.text.trim() !== ''));
  const startsWithText = firstContent === undefined ? line.length > 0 : firstContent.kind === 'text' && !firstContent.tag;
  if (startsWithText && !(first && (where === 'heading' || where === 'item' || where === 'cell'))) {
    text = escapeLineStart(text);
    if (/^!\[/.test(text)) {
      text = `\\${text}`;
    }
  }
  const keepsLeading = where === 'paragraph' || where === 'quote';
  // A tag alone after whitespace would read as a block tag, dropping the whitespace.
  const leadingDropped = !keepsLeading || text.trim() === '' || loneTag(line);
  const escapesLeading = leadingDropped && isWhitespaceCode(text.charCodeAt(0));
  // Whitespace after a paragraph's tag alone on its line is dropped too: the line reads as a block tag.
  const trailingDropped = where === 'cell' || where === 'quote' || (where === 'paragraph' && loneTag(line) && !escapesLeading);
  const last = line[line.length - 1];
  // A line of one whitespace character is kept by the escape before it: a second would escape the first.
  const escapesTrailing = trailingDropped && last?.kind === 'text' && !last.tag && !(escapesLeading && text.length === 1) && isWhitespaceCode(text.charCodeAt(text.length - 1));
  if (escapesTrailing) {
    text = `${text.slice(0, -1)}\\${text.slice(-1)}`;
  }
  return escapesLeading ? `\\${text}` : text;
}

function inlinePiece(node: PmNode): Piece {
  if (node.type === 'text') {
    return { kind: 'text', text: writeText(typeof node.text === 'string' ? node.text : '', objectMarks(node)), tag: false };
  }
  if (node.type === 'ph-mention' && isPlainMention(node)) {
    return { kind: 'text', text: `<mention id="${String(node.attrs!['id'])}">@member</mention>`, tag: false };
  }
  const tag = formatNodeTag(node, false);
  const marks = objectMarks(node);
  // Marks around a tag (bold, a link…) are written around it; a tag inside marks starts no block.
  return marks.length > 0 ? { kind: 'text', text: wrapMarks(tag, marks, true), tag: false } : { kind: 'text', text: tag, tag: true };
}

const NO_MARKS: PmMark[] = [];

/** The node's marks that are objects (others have no place; the read-back check names them): its own array when all are. */
function objectMarks(node: PmNode): PmMark[] {
  if (!Array.isArray(node.marks)) {
    return NO_MARKS;
  }
  return node.marks.every(isObject) ? node.marks : (node.marks.filter(isObject) as PmMark[]);
}

/** A mention PostHog's `<mention>` holds exactly: only a member id (the name comes from the members). */
function isPlainMention(node: PmNode): boolean {
  const id = node.attrs?.['id'];
  return Object.keys(node).every((key) => key === 'type' || key === 'attrs') && Object.keys(node.attrs ?? {}).length === 1 && typeof id === 'number' && Number.isSafeInteger(id) && id >= 0;
}

/** The marks written around a text's content (code is written with it, comments outermost). */
const WRAPPING_MARKS = new Set(['link', 'underline', 'bold', 'italic', 'strike']);

/**
 * A text with its marks, nested as PostHog reads them: code innermost, then the link, `<u>`, bold and italic
 * (`**_x_**`), strike, and comment highlights (`<ref id>`) outermost. Marks with no place are left out here;
 * the read-back check names them.
 */
function writeText(text: string, marks: PmMark[] = []): string {
  return text === '' ? '' : markText(text, marks);
}

export function markText(text: string, marks: PmMark[]): string {
  const code = marks.some((mark) => mark.type === 'code');
  return code ? wrapMarks(`\`${text.replace(/[\\`]/g, '\\$&')}\``, marks.filter((mark) => mark.type !== 'code'), true) : wrapMarks(escapeText(text), marks, false);
}

/** Marks other than code around written content; `wrapped` when something already stands at its edges. */
function wrapMarks(content: string, marks: PmMark[], wrappedAlready: boolean): string {
  const has = { link: false, underline: false, bold: false, italic: false, strike: false };
  for (const mark of marks) {
    if (WRAPPING_MARKS.has(mark.type)) {
      has[mark.type as keyof typeof has] = true;
    }
  }
  let written = content;
  let wrapped = wrappedAlready;
  const link = has.link ? marks.find((mark) => mark.type === 'link') : undefined;
  if (link && isObject(link.attrs) && typeof link.attrs['href'] === 'string') {
    written = `[${written}](${escapeHref(link.attrs['href'])})`;
    wrapped = true;
  }
  if (has.underline) {
    written = `<u>${written}</u>`;
    wrapped = true;
  }
  written = emphasise(written, wrapped, has.bold, has.italic, has.strike);
  for (const mark of marks) {
    const id = mark.type === 'comment' && isObject(mark.attrs) ? mark.attrs['id'] : undefined;
    if (typeof id === 'string' && id !== '') {
      written = `<ref id="${id.replace(/["\\]/g, '\\$&')}">${written}</ref>`;
    }
  }
  return written;
}

/** Emphasis around a text; whitespace at its edges (which would stop a delimiter) keeps a backslash before it. */
function emphasise(text: string, wrapped: boolean, bold: boolean, italic: boolean, strike: boolean): string {
  if (!bold && !italic && !strike) {
    return text;
  }
  let core = text;
  if (!wrapped) {
    if (isWhitespaceCode(core.charCodeAt(core.length - 1))) {
      core = `${core.slice(0, -1)}\\${core.slice(-1)}`;
    }
    if (isWhitespaceCode(core.charCodeAt(0))) {
      core = `\\${core}`;
    }
  }
  if (bold && italic) {
    core = `**_${core}_**`;
  } else if (bold) {
    core = `**${core}**`;
  } else if (italic) {
    core = `*${core}*`;
  }
  return strike ? `~~${core}~~` : core;
}

/**
 * Text that reads back as written: PostHog's escapes (`\ ` * [ ] |`, runs of `~`, `_` outside words, `<`
 * before its inline tags), and also a `~` at either end (which could join a strike delimiter beside it),
 * `<` before any letter or `/` (a tag or `<br>` here), a `!` at the end (an image, with a link after it), and
 * a line feed or carriage return inside a text as `\n` or `\r`.
 */
function escapeText(text: string): string {
  // Unchanged stretches are sliced, not added a character at a time: a text's characters each became a
  // string of their own, most of the garbage of a paragraph of many short texts.
  const parts: string[] = [];
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const escaped = escapedChar(text, index);
    if (escaped !== undefined) {
      parts.push(text.slice(start, index), escaped);
      start = index + 1;
    }
  }
  if (start === 0) {
    return text;
  }
  parts.push(text.slice(start));
  return parts.join('');
}

/** How the character at `index` is written, when not as itself. */
function escapedChar(text: string, index: number): string | undefined {
  const char = text[index]!;
  if ('\\`*[]|'.includes(char)) {
    return `\\${char}`;
  }
  if (char === '~') {
    const run = text[index - 1] === '~' || text[index + 1] === '~' || index === 0 || index === text.length - 1;
    return run ? '\\~' : undefined;
  }
  if (char === '_') {
    return isAsciiWord(text[index - 1]) && isAsciiWord(text[index + 1]) ? undefined : '\\_';
  }
  if (char === '<') {
    return /[A-Za-z/]/.test(text[index + 1] ?? '') ? '\\<' : undefined;
  }
  if (char === '\n' || char === '\r') {
    return char === '\n' ? '\\n' : '\\r';
  }
  return char === '!' && index === text.length - 1 ? '\\!' : undefined;
}

function isAsciiWord(char: string | undefined): boolean {
  return char !== undefined && /^[A-Za-z0-9]$/.test(char);
}

function escapeHref(href: string): string {
  return href.replace(/[\\()*_~`[\]]/g, '\\$&');
}

export function hasOnlyKeys(value: unknown, keys: readonly string[]): boolean {
  return isObject(value) && Object.keys(value).every((key) => keys.includes(key));
}

/**
 * A block node's Markdown: PostHog's spelling where PostHog's model holds the node exactly, the extension's
 * own where it holds it differently, the node as an `<UnknownNode …>` tag where there is neither.
 */
export function writeBlock(node: PmNode, where: 'paragraph' | 'quote' = 'paragraph'): string {
  switch (node.type) {
    case 'paragraph':
      return isPlain(node) ? writeParagraph(node, where) : formatNodeTag(node, true);
    case 'heading':
      return writeHeading(node) ?? formatNodeTag(node, true);
    case 'bulletList':
    case 'orderedList':
    case 'taskList':
      return isWritableList(node) ? writeList(node, 0).join('\n') : formatNodeTag(node, true);
    case 'blockquote':
      return isPlain(node) && childrenOf(node).length > 0 ? writeQuote(node) : formatNodeTag(node, true);
    case 'codeBlock':
      return writeCode(node) ?? formatNodeTag(node, true);
    case 'horizontalRule':
      return Object.keys(node).every((key) => key === 'type') ? '---' : formatNodeTag(node, true);
    case 'table':
      return writeTable(node) ?? formatNodeTag(node, true);
    case 'ph-image':
      return writeImage(node) ?? formatNodeTag(node, true);
    default:
      return formatNodeTag(node, true);
  }
}

/** A node with nothing but its type and content (no attrs, marks or other keys). */
function isPlain(node: PmNode): boolean {
  return Object.keys(node).every((key) => key === 'type' || key === 'content');
}

/** An empty paragraph is a line of one space, PostHog's spelling; a paragraph of text its lines. */
function writeParagraph(node: PmNode, where: 'paragraph' | 'quote'): string {
  const content = childrenOf(node);
  if (content.length === 0) {
    return ' ';
  }
  const text = writeInline(content, where);
  return text === '' || text === ' ' ? formatNodeTag(node, true) : text;
}

function writeHeading(node: PmNode): string | undefined {
  const level = node.attrs?.['level'];
  if (!hasOnlyKeys(node, ['type', 'attrs', 'content']) || !hasOnlyKeys(node.attrs, ['level']) || typeof level !== 'number' || !Number.isInteger(level) || level < 1 || level > 6) {
    return undefined;
  }
  return `${'#'.repeat(level)} ${writeInline(childrenOf(node), 'heading')}`;
}

const LIST_ITEM_TYPE: Readonly<Record<string, string>> = { bulletList: 'listItem', orderedList: 'listItem', taskList: 'taskItem' };

/**
 * A list written as list lines: the editor's attrs only (an ordered list's start, a task's checked), each item
 * starting with a paragraph (its line). What else an item holds is written after its line: nested lists two
 * spaces deeper where PostHog's flat list holds them (see isFlatRest), else every other block of the item
 * indented under it after a blank line (writeList), a spelling of the extension's own.
 */
function isWritableList(list: PmNode): boolean {
  const attrsOk =
    list.type === 'orderedList'
      ? hasOnlyKeys(list.attrs, ['start']) && isStart(list.attrs?.['start'])
      : list.attrs === undefined || (isObject(list.attrs) && Object.keys(list.attrs).length === 0);
  if (!attrsOk || !hasOnlyKeys(list, ['type', 'attrs', 'content']) || childrenOf(list).length === 0) {
    return false;
  }
  return childrenOf(list).every((item) => {
    const itemOk = item.type === LIST_ITEM_TYPE[list.type] && hasOnlyKeys(item, ['type', 'attrs', 'content']);
    const checkedOk = item.type === 'taskItem' ? hasOnlyKeys(item.attrs, ['checked']) && typeof item.attrs?.['checked'] === 'boolean' : item.attrs === undefined;
    const [first] = childrenOf(item);
    return itemOk && checkedOk && first?.type === 'paragraph' && isPlain(first);
  });
}

/** An item's blocks after its paragraph that PostHog's flat list holds: lists only, no two of one kind in a row (they would read as one). */
function isFlatRest(rest: readonly PmNode[]): boolean {
  const kinds = rest.map((child) => child.type);
  return rest.every((child) => LIST_TYPES.has(child.type) && isWritableList(child)) && kinds.every((kind, index) => index === 0 || kind !== kinds[index - 1]);
}

function isStart(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Two spaces a level: an item's line at its depth, its other blocks one level deeper. */
function indentOf(depth: number): string {
  return '  '.repeat(depth);
}

/**
 * The list's lines. An item holding blocks PostHog's flat list does not (a second paragraph, code, a table,
 * lists of one kind in a row) has them after a blank line, every line indented one level deeper than the item
 * (blank lines left empty); the next item follows the last of them directly (a blank line there would end the
 * list). legacyRead.ts reads them back into the item.
 */
function writeList(list: PmNode, depth: number): string[] {
  const start = list.type === 'orderedList' ? Number(list.attrs?.['start']) : 0;
  return childrenOf(list).flatMap((item, index) => {
    const [paragraph, ...rest] = childrenOf(item);
    const marker = list.type === 'orderedList' ? `${start + index}.` : '-';
    const box = item.type === 'taskItem' ? (item.attrs?.['checked'] === true ? ' [x]' : ' [ ]') : '';
    const text = writeInline(childrenOf(paragraph!), 'item');
    const line = `${indentOf(depth)}${marker}${box}${text === '' ? '' : ` ${text}`}`;
    if (isFlatRest(rest)) {
      return [line, ...rest.flatMap((child) => writeList(child, depth + 1))];
    }
    const indent = indentOf(depth + 1);
    const blocks = writeBlocks(rest, '\n\n').split('\n').map((blockLine) => (blockLine === '' ? '' : `${indent}${blockLine}`));
    return [line, '', ...blocks];
  });
}

/**
 * Blocks written one after another with `separator` between (a blank line at the top level), each spelled so
 * that it reads back on its own there: a paragraph starting with two spaces after a list would read as indented
 * under the list's last item, so its first space is escaped.
 */
export function writeBlocks(nodes: readonly PmNode[], separator: string | ((previous: PmNode, next: PmNode) => string), where: 'paragraph' | 'quote' = 'paragraph'): string {
  return nodes
    .map((node, index) => {
      const previous = nodes[index - 1];
      const text = writeBlockAfter(previous, node, where);
      return previous === undefined ? text : `${typeof separator === 'string' ? separator : separator(previous, node)}${text}`;
    })
    .join('');
}

/** A block's Markdown after `previous` (see writeBlocks). */
export function writeBlockAfter(previous: PmNode | undefined, node: PmNode, where: 'paragraph' | 'quote' = 'paragraph'): string {
  const text = writeBlock(node, where);
  return previous !== undefined && LIST_TYPES.has(previous.type) && text.startsWith('  ') ? `\\${text}` : text;
}

/**
 * A quote's blocks, each line after `> ` (`>` alone between blocks): a quote of one paragraph is PostHog's
 * quote of text, one of a list its quoted list.
 */
function writeQuote(node: PmNode): string {
  return writeBlocks(childrenOf(node), (previous, next) => `\n${quoteSeparator(previous, next)}`, 'quote')
    .split('\n')
    .map((line) => (line === '' ? '>' : `> ${line}`))
    .join('\n');
}

/**
 * Between two blocks of a quote, a `>` line where they would otherwise read as one (two paragraphs, two
 * lists of a kind) or for air around other blocks; none between a paragraph and a list, as PostHog writes them.
 */
function quoteSeparator(previous: PmNode, next: PmNode): string {
  const listKind = (node: PmNode) => (LIST_TYPES.has(node.type) ? (node.type === 'orderedList' ? 'ordered' : node.type) : undefined);
  const textual = (node: PmNode) => node.type === 'paragraph' || listKind(node) !== undefined;
  const merges = (previous.type === 'paragraph' && next.type === 'paragraph') || (listKind(previous) !== undefined && listKind(previous) === listKind(next));
  return merges || !textual(previous) || !textual(next) ? '\n' : '';
}

/** PostHog's fenced code; the language as the info string (none for null). */
function writeCode(node: PmNode): string | undefined {
  const language = node.attrs?.['language'];
  const content = childrenOf(node);
  const languageOk = language === null || (typeof language === 'string' && language !== '' && language.trim() === language && !/[\n\r]/.test(language));
  const contentOk = content.length === 0 || (content.length === 1 && content[0]!.type === 'text' && hasOnlyKeys(content[0], ['type', 'text']) && typeof content[0]!.text === 'string');
  const code = content[0]?.text ?? '';
  if (!hasOnlyKeys(node, ['type', 'attrs', 'content']) || !hasOnlyKeys(node.attrs, ['language']) || !languageOk || !contentOk || code.includes('\r')) {
    return undefined;
  }
  return fencedCode(language ?? '', code);
}

/**
 * PostHog's table: the first row the header (tableHeader cells), a cell one paragraph; a table without a
 * header row is written under a header of empty cells with centred separators, which reads back as none.
 */
function writeTable(node: PmNode): string | undefined {
  const rows = childrenOf(node);
  if (!isPlain(node) || rows.length === 0 || !rows.every((row) => row.type === 'tableRow' && isPlain(row) && childrenOf(row).length > 0)) {
    return undefined;
  }
  const cells = rows.map(childrenOf);
  const headed = cells[0]!.every((cell) => cell.type === 'tableHeader');
  const body = headed ? cells.slice(1) : cells;
  if (!body.every((row) => row.every((cell) => cell.type === 'tableCell')) || !cells.every((row) => row.every(isPlainCell))) {
    return undefined;
  }
  const row = (texts: string[]) => `| ${texts.join(' | ')} |`;
  const width = cells[0]!.length;
  const header = headed ? row(cells[0]!.map(cellText)) : row(new Array<string>(width).fill(''));
  const separator = row(new Array<string>(width).fill(headed ? '---' : ':---:'));
  return [header, separator, ...body.map((texts) => row(texts.map(cellText)))].join('\n');
}

function isPlainCell(cell: PmNode): boolean {
  const [paragraph, ...rest] = childrenOf(cell);
  const defaults = cellAttrsOf(cell);
  return hasOnlyKeys(cell, ['type', 'attrs', 'content']) && defaults && rest.length === 0 && paragraph?.type === 'paragraph' && isPlain(paragraph);
}

function cellAttrsOf(cell: PmNode): boolean {
  const attrs = cell.attrs;
  return isObject(attrs) && Object.keys(attrs).length === 3 && attrs['colspan'] === 1 && attrs['rowspan'] === 1 && attrs['colwidth'] === null;
}

/** A cell's line, every pipe escaped (the row is split at the others before its text is read). */
function cellText(cell: PmNode): string {
  return writeInline(childrenOf(childrenOf(cell)[0]!), 'cell').replace(/\\[\s\S]|\|/g, (match) => (match === '|' ? '\\|' : match));
}

/** `![alt](src)` for an image that holds only a source and a text alternative. */
function writeImage(node: PmNode): string | undefined {
  const attrs = node.attrs ?? {};
  const { src, alt } = attrs;
  const simple =
    hasOnlyKeys(node, ['type', 'attrs']) &&
    hasOnlyKeys(attrs, ['src', 'alt']) &&
    typeof src === 'string' &&
    src !== '' &&
    (alt === undefined || (typeof alt === 'string' && alt !== '')) &&
    !/[\n\r\u2028\u2029]/.test(`${src}${alt ?? ''}`) &&
    src.trim() === src &&
    (alt ?? '').trim() === (alt ?? '');
  if (!simple) {
    return undefined;
  }
  return `![${(alt ?? '').replace(/\\/g, '\\\\').replace(/]/g, '\\]')}](${src.replace(/\\/g, '\\\\').replace(/\)/g, '\\)')})`;
}
