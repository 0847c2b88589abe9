import { tagDefinition, tagOfNodeType, UNKNOWN_TAG } from './dialect';
import { escapeInlineText, escapeLineStart } from './posthogWriter';
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
 * (`>` lines between them), tables without a header row (centred separators under an empty header), and
 * for any other structure the node itself as `<UnknownNode nodeType=… nodeContent={…} />`.
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
  const props: JsonObject = known ? {} : { nodeType: node.type };
  for (const [key, value] of Object.entries(node.attrs ?? {})) {
    const isDefault = key in defaults && JSON.stringify(defaults[key]) === JSON.stringify(value);
    if (isPropName(key) && !(key in props) && !isDefault) {
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
    const newline = breaksAsNewlines && line.length > 0 && next !== undefined && next.kind === 'text' && !loneTagLine(line, lines.length === 1 ? 'first' : 'middle');
    if (newline && !loneTagLine(lineAfter(pieces, index), 'middle')) {
      lines.push([]);
    } else {
      line.push({ kind: 'text', text: BREAK_TAG, tag: true });
    }
  });
  return lines.map((line, index) => writeLine(line, where, index === 0)).join('\n');
}

/** A line holding only one tag would read as a block tag: the paragraph's only line may, others not. */
function loneTagLine(line: Piece[], position: 'first' | 'middle'): boolean {
  return position === 'middle' && line.length === 1 && line[0]!.kind === 'text' && line[0]!.tag;
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
  const startsWithText = line[0]?.kind === 'text' && !line[0].tag;
  if (startsWithText && !(first && (where === 'heading' || where === 'item' || where === 'cell'))) {
    text = escapeLineStart(text);
    if (/^!\[/.test(text)) {
      text = `\\${text}`;
    }
  }
  const keepsLeading = where === 'paragraph' || where === 'quote';
  const leadingDropped = !keepsLeading || text.trim() === '';
  if (startsWithText && leadingDropped && isWhitespaceCode(text.charCodeAt(0))) {
    text = `\\${text}`;
  }
  const trailingDropped = where === 'cell' || where === 'quote';
  const last = line[line.length - 1];
  if (trailingDropped && last?.kind === 'text' && !last.tag && text.length > 1 && isWhitespaceCode(text.charCodeAt(text.length - 1))) {
    text = `${text.slice(0, -1)}\\${text.slice(-1)}`;
  }
  return text;
}

function inlinePiece(node: PmNode): Piece {
  if (node.type === 'text') {
    return { kind: 'text', text: writeText(typeof node.text === 'string' ? node.text : ''), tag: false };
  }
  if (node.type === 'ph-mention' && isPlainMention(node)) {
    return { kind: 'text', text: `<mention id="${String(node.attrs!['id'])}">@member</mention>`, tag: false };
  }
  return { kind: 'text', text: formatNodeTag(node, false), tag: true };
}

/** A mention PostHog's `<mention>` holds exactly: only a member id (the name comes from the members). */
function isPlainMention(node: PmNode): boolean {
  const id = node.attrs?.['id'];
  return Object.keys(node).every((key) => key === 'type' || key === 'attrs') && Object.keys(node.attrs ?? {}).length === 1 && typeof id === 'number' && Number.isSafeInteger(id) && id >= 0;
}

const WRITTEN_MARKS = new Set(['bold', 'italic', 'strike', 'underline', 'code', 'link', 'comment']);

/**
 * A text with its marks, nested as PostHog reads them: code innermost, then the link, `<u>`, bold and italic
 * (`**_x_**`), strike, and comment highlights (`<ref id>`) outermost. Marks with no place are left out here;
 * the read-back check names them.
 */
function writeText(text: string, marks: PmMark[] = []): string {
  return text === '' ? '' : markText(text, marks);
}

export function markText(text: string, marks: PmMark[]): string {
  const has = (type: string) => marks.some((mark) => mark.type === type && WRITTEN_MARKS.has(type));
  let written = has('code') ? `\`${text.replace(/[\\`]/g, '\\$&')}\`` : escapeText(text);
  let wrapped = has('code');
  const link = marks.find((mark) => mark.type === 'link');
  if (link && isObject(link.attrs) && typeof link.attrs['href'] === 'string') {
    written = `[${written}](${escapeHref(link.attrs['href'])})`;
    wrapped = true;
  }
  if (has('underline')) {
    written = `<u>${written}</u>`;
    wrapped = true;
  }
  written = emphasise(written, wrapped, has('bold'), has('italic'), has('strike'));
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
 * Text that reads back as written: PostHog's escapes, a `~` at either end (which could join a strike
 * delimiter beside it), `<` before a letter or `/` (a tag or `<br>` here), a `!` at the end (an image with a
 * link after it).
 */
function escapeText(text: string): string {
  return escapeInlineText(text)
    .replace(/^~|(?<!\\)~$/g, '\\~')
    .replace(/(?<!\\)<(?=[A-Za-z/])/g, '\\<')
    .replace(/!$/, '\\!');
}

function escapeHref(href: string): string {
  return href.replace(/[\\()*_~`[\]]/g, '\\$&');
}

export function hasOnlyKeys(value: unknown, keys: readonly string[]): boolean {
  return isObject(value) && Object.keys(value).every((key) => keys.includes(key));
}

export { LIST_TYPES, childrenOf };
