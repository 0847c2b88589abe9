import type { Notebook, NotebookWritable, User } from '../../api';
import { describePath, JsonSyntaxError, type Location, parseJsonWithLocations, type ParsedJson } from '../../common/jsonWithLocations';
import { oneSafeLine } from '../../common/text';

/**
 * The text of a notebook opened as a file:
 *
 *   {
 *     "_readonly": { "about": "...", "short_id", "version", "created_at", "created_by", "last_modified_at", "last_modified_by" },
 *     "title": "...",
 *     "content": { "type": "doc", "content": [ ...ProseMirror nodes... ] },
 *     "text_content": "..."
 *   }
 *
 * Keys come in a fixed order (nodes: type, attrs, text, marks, content, then the rest sorted), two spaces
 * of indentation, a final newline, so the same notebook always reads the same.
 *
 * A Markdown notebook (content is one ph-markdown-notebook node, the form PostHog is migrating notebooks to)
 * shows its Markdown as a list of lines, `attrs.markdown: ["# Title", "", "Text"]`, saved back as the one
 * string those lines make joined with "\n" (so the round trip is exact: a line keeps a "\r" it had). Its
 * text_content is the Markdown, so the document leaves it out and a save keeps it equal to the Markdown.
 */
export const READONLY_KEY = '_readonly';
export const EDITABLE_FIELDS = ['title', 'content', 'text_content'] as const;
export const READONLY_NOTE = 'Read-only, kept by PostHog: changes here are refused. Edit title, content and text_content.';
export const MARKDOWN_READONLY_NOTE =
  'Read-only, kept by PostHog: changes here are refused. Edit title and the Markdown (content.content[0].attrs.markdown, one string per line); text_content is the Markdown.';
export const MARKDOWN_NODE = 'ph-markdown-notebook';
/** The nodeId PostHog gives the one node of a Markdown notebook. */
export const MARKDOWN_NODE_ID = 'markdown-notebook-v2';

export interface EditableNotebook {
  readonly title: string | null;
  readonly content: unknown;
  readonly text_content: string | null;
}

export interface ReadonlyBlock {
  readonly about: string;
  readonly short_id: string;
  readonly version: number;
  readonly created_at: string;
  readonly created_by: string | null;
  readonly last_modified_at: string;
  readonly last_modified_by: string | null;
}

export const EMPTY_DOC = { type: 'doc', content: [] } as const;

export function editableOf(notebook: Pick<Notebook, 'title' | 'content' | 'text_content'>): EditableNotebook {
  return {
    title: notebook.title ?? null,
    content: canonical(notebook.content ?? EMPTY_DOC),
    text_content: notebook.text_content ?? null,
  };
}

export function readonlyOf(notebook: Notebook): ReadonlyBlock {
  return {
    about: markdownOf(notebook.content) === undefined ? READONLY_NOTE : MARKDOWN_READONLY_NOTE,
    short_id: notebook.short_id,
    version: notebook.version,
    created_at: notebook.created_at,
    created_by: describeUser(notebook.created_by),
    last_modified_at: notebook.last_modified_at,
    last_modified_by: describeUser(notebook.last_modified_by),
  };
}

export function serializeNotebook(notebook: Notebook): string {
  return serializeDocument(readonlyOf(notebook), editableOf(notebook));
}

/** The document text of a notebook's read-only block and editable fields (content in canonical key order). */
export function serializeDocument(readonly: ReadonlyBlock, editable: EditableNotebook): string {
  const fields = documentFieldsOf({ ...editable, content: canonical(editable.content) });
  return `${JSON.stringify({ [READONLY_KEY]: readonly, ...fields }, null, 2)}\n`;
}

/** The editable fields as the document shows them: a Markdown notebook with its Markdown as lines, without text_content. */
function documentFieldsOf(editable: EditableNotebook): Record<string, unknown> {
  if (markdownOf(editable.content) === undefined) {
    return { ...editable };
  }
  return { title: editable.title, content: mapMarkdownNodes(editable.content, (markdown) => (typeof markdown === 'string' ? markdown.split('\n') : markdown)) };
}

/**
 * The Markdown of a Markdown notebook, or undefined for any other document. As PostHog decides: the content
 * is exactly one ph-markdown-notebook node; a node without attrs.markdown holds "".
 */
export function markdownOf(content: unknown): string | undefined {
  const nodes = isObject(content) && Array.isArray(content['content']) ? content['content'] : [];
  const [node] = nodes;
  if (nodes.length !== 1 || !isObject(node) || node['type'] !== MARKDOWN_NODE) {
    return undefined;
  }
  const markdown = isObject(node['attrs']) ? node['attrs']['markdown'] : undefined;
  return typeof markdown === 'string' ? markdown : '';
}

/** The document's Markdown lines back into the one string PostHog stores. */
function markdownFromLines(content: unknown): unknown {
  return mapMarkdownNodes(content, (markdown) =>
    Array.isArray(markdown) && markdown.every((line) => typeof line === 'string') ? markdown.join('\n') : markdown,
  );
}

/** The content with `attrs.markdown` of each top-level ph-markdown-notebook node replaced. */
function mapMarkdownNodes(content: unknown, map: (markdown: unknown) => unknown): unknown {
  if (!isObject(content) || !Array.isArray(content['content'])) {
    return content;
  }
  const nodes = content['content'].map((node) => {
    if (!isObject(node) || node['type'] !== MARKDOWN_NODE || !isObject(node['attrs']) || !('markdown' in node['attrs'])) {
      return node;
    }
    return { ...node, attrs: { ...node['attrs'], markdown: map(node['attrs']['markdown']) } };
  });
  return { ...content, content: nodes };
}

/** "Name <email>" as one safe line (it reaches marker lines, messages and labels), or null for nobody. */
export function describeUser(user: User | null | undefined): string | null {
  if (!user) {
    return null;
  }
  const name = oneSafeLine([user.first_name, user.last_name].filter(Boolean).join(' '), MAX_NAME_LENGTH);
  const email = oneSafeLine(user.email ?? '', MAX_NAME_LENGTH);
  return name && email ? `${name} <${email}>` : name || email || null;
}

const MAX_NAME_LENGTH = 100;

const NODE_KEY_ORDER = ['type', 'attrs', 'text', 'marks', 'content'];

/** The value with object keys in the document's fixed order (see above), for output and comparison. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(canonical);
  }
  if (!isObject(value)) {
    return value;
  }
  const keys = Object.keys(value);
  const isNode = typeof value['type'] === 'string';
  const ordered = isNode
    ? [...NODE_KEY_ORDER.filter((key) => keys.includes(key)), ...keys.filter((key) => !NODE_KEY_ORDER.includes(key)).sort()]
    : [...keys].sort();
  // fromEntries defines each key as the object's own, so a member named __proto__ stays a member.
  return Object.fromEntries(ordered.map((key) => [key, canonical(value[key])]));
}

/** Whether two JSON values are equal, whatever the order of their keys (a key set to undefined counts as absent). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) {
    return true;
  }
  if (Array.isArray(a)) {
    return Array.isArray(b) && sameArrays(a, b);
  }
  if (!isObject(a) || !isObject(b)) {
    return false;
  }
  return sameObjects(a, b);
}

// Loops, not every/filter: a notebook's read-back check compares every node of it, and the callbacks and
// filtered key lists were most of its garbage.
function sameArrays(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) {
    return false;
  }
  for (let index = 0; index < a.length; index++) {
    if (!sameJson(a[index], b[index])) {
      return false;
    }
  }
  return true;
}

// for…in with hasOwn, not Object.keys: no list of keys is made for each of a notebook's objects.
function sameObjects(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  let keys = 0;
  for (const key in a) {
    if (!Object.hasOwn(a, key) || a[key] === undefined) {
      continue;
    }
    if (!(key in b) || !sameJson(a[key], b[key])) {
      return false;
    }
    keys++;
  }
  return keys === definedKeyCount(b);
}

function definedKeyCount(value: Record<string, unknown>): number {
  let count = 0;
  for (const key in value) {
    if (Object.hasOwn(value, key) && value[key] !== undefined) {
      count++;
    }
  }
  return count;
}

const TEXT_BLOCKS = new Set(['paragraph', 'heading', 'codeBlock']);

/**
 * The plain text PostHog keeps beside the content, as its editor makes it: the text of each text block
 * (paragraph, heading, code block, or any node holding text), blocks separated by a blank line; PostHog's
 * own nodes (ph-*) have no text. A Markdown notebook's is its Markdown.
 */
export function textContentOf(content: unknown): string {
  const markdown = markdownOf(content);
  if (markdown !== undefined) {
    return markdown;
  }
  const blocks: string[] = [];
  const walk = (node: unknown): void => {
    if (!isObject(node)) {
      return;
    }
    const type = node['type'];
    if (typeof type === 'string' && type.startsWith('ph-')) {
      return;
    }
    const children = Array.isArray(node['content']) ? node['content'] : [];
    if ((typeof type === 'string' && TEXT_BLOCKS.has(type)) || children.some((child) => isObject(child) && typeof child['text'] === 'string')) {
      blocks.push(inlineText(children));
      return;
    }
    children.forEach(walk);
  };
  walk(content);
  return blocks.join('\n\n');
}

function inlineText(nodes: unknown[]): string {
  return nodes
    .map((node) => (!isObject(node) ? '' : typeof node['text'] === 'string' ? node['text'] : node['type'] === 'hardBreak' ? '\n' : ''))
    .join('');
}

/** One reason a save is refused, with where it is in the text. */
export interface DocumentProblem {
  readonly message: string;
  readonly location?: Location;
  /** e.g. "content.content[2].type" */
  readonly field?: string;
}

export class NotebookDocumentError extends Error {
  constructor(readonly problems: readonly DocumentProblem[]) {
    super(describeProblems(problems));
  }
}

function describeProblems(problems: readonly DocumentProblem[]): string {
  const lines = problems.map((problem) =>
    problem.location ? `Line ${problem.location.line}, column ${problem.location.column}: ${problem.message}` : problem.message,
  );
  const head = problems.length === 1 ? 'Not saved' : `Not saved (${problems.length} problems)`;
  return `${head}: ${lines.join('; ')}`;
}

export interface ParsedNotebookDocument {
  readonly editable: EditableNotebook;
  /** False when the text has no text_content: it then follows the content. */
  readonly hasTextContent: boolean;
  readonly readonly: Record<string, unknown> | undefined;
  readonly json: ParsedJson;
}

const MAX_PROBLEMS = 5;

/** Reads a notebook document's text; throws NotebookDocumentError saying what is wrong and where. */
export function parseNotebookDocument(text: string): ParsedNotebookDocument {
  let json: ParsedJson;
  try {
    json = parseJsonWithLocations(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) {
      throw new NotebookDocumentError([{ message: `invalid JSON: ${error.reason}`, location: error.location }]);
    }
    throw error;
  }
  const problems = new Problems(json);
  const root = json.value;
  if (!isObject(root)) {
    throw new NotebookDocumentError([{ message: 'the document must be a JSON object with title, content and text_content', location: json.locate([]) }]);
  }
  for (const key of Object.keys(root)) {
    if (key !== READONLY_KEY && !(EDITABLE_FIELDS as readonly string[]).includes(key)) {
      problems.atKey([key], `unknown field "${key}": a notebook has title, content and text_content (and the ${READONLY_KEY} block)`);
    }
  }
  if (!('title' in root)) {
    problems.at([], 'the field "title" is missing (a string, or null for an untitled notebook)');
  } else if (root['title'] !== null && typeof root['title'] !== 'string') {
    problems.at(['title'], `title must be a string or null, not ${typeName(root['title'])}`);
  }
  if (!('content' in root)) {
    problems.at([], 'the field "content" is missing (a document: {"type": "doc", "content": [...]})');
  } else {
    validateDoc(root['content'], problems);
  }
  if ('text_content' in root && root['text_content'] !== null && typeof root['text_content'] !== 'string') {
    problems.at(['text_content'], `text_content must be a string or null, not ${typeName(root['text_content'])}`);
  }
  const readonlyBlock = root[READONLY_KEY];
  if (readonlyBlock !== undefined && !isObject(readonlyBlock)) {
    problems.at([READONLY_KEY], `${READONLY_KEY} is read-only and must stay as it was`);
  }
  problems.throwIfAny();
  return {
    editable: {
      title: (root['title'] as string | null) ?? null,
      content: canonical(markdownFromLines(root['content'])),
      text_content: (root['text_content'] as string | null | undefined) ?? null,
    },
    hasTextContent: 'text_content' in root,
    readonly: isObject(readonlyBlock) ? readonlyBlock : undefined,
    json,
  };
}

function validateDoc(doc: unknown, problems: Problems): void {
  const path = ['content'];
  if (!isObject(doc)) {
    problems.at(path, `content must be a document object {"type": "doc", "content": [...]}, not ${typeName(doc)}`);
    return;
  }
  if (doc['type'] !== 'doc') {
    problems.at(doc['type'] === undefined ? path : [...path, 'type'], 'content.type must be "doc"');
  }
  validateNode(doc, path, problems, true);
}

function validateNode(node: Record<string, unknown>, path: (string | number)[], problems: Problems, isDoc = false): void {
  const where = describePath(path);
  if (!isDoc) {
    if (typeof node['type'] !== 'string' || node['type'] === '') {
      problems.at(node['type'] === undefined ? path : [...path, 'type'], `${where}.type must be a node type such as "paragraph"`);
    }
    if (node['type'] === 'text' && (typeof node['text'] !== 'string' || node['text'] === '')) {
      problems.at(node['text'] === undefined ? path : [...path, 'text'], `${where} is a text node and needs a non-empty "text"`);
    }
  }
  if ('text' in node && typeof node['text'] !== 'string') {
    problems.at([...path, 'text'], `${where}.text must be a string, not ${typeName(node['text'])}`);
  }
  if ('attrs' in node && node['attrs'] !== null && !isObject(node['attrs'])) {
    problems.at([...path, 'attrs'], `${where}.attrs must be an object, not ${typeName(node['attrs'])}`);
  }
  if (node['type'] === MARKDOWN_NODE && isObject(node['attrs']) && 'markdown' in node['attrs']) {
    validateMarkdown(node['attrs']['markdown'], [...path, 'attrs', 'markdown'], problems);
  }
  if ('marks' in node) {
    if (!Array.isArray(node['marks'])) {
      problems.at([...path, 'marks'], `${where}.marks must be a list, not ${typeName(node['marks'])}`);
    } else {
      node['marks'].forEach((mark, index) => {
        if (!isObject(mark) || typeof mark['type'] !== 'string') {
          problems.at([...path, 'marks', index], `${where}.marks[${index}] must be an object with a "type" such as "bold"`);
        }
      });
    }
  }
  if ('content' in node) {
    const children = node['content'];
    if (!Array.isArray(children)) {
      problems.at([...path, 'content'], `${where}.content must be a list of nodes, not ${typeName(children)}`);
      return;
    }
    children.forEach((child, index) => {
      const childPath = [...path, 'content', index];
      if (!isObject(child)) {
        problems.at(childPath, `${describePath(childPath)} must be a node object, not ${typeName(child)}`);
      } else {
        validateNode(child, childPath, problems);
      }
    });
  }
}

function validateMarkdown(markdown: unknown, path: (string | number)[], problems: Problems): void {
  const where = describePath(path);
  if (typeof markdown === 'string') {
    return;
  }
  if (!Array.isArray(markdown)) {
    problems.at(path, `${where} must be the Markdown as a list of lines (strings), or one string, not ${typeName(markdown)}`);
    return;
  }
  markdown.forEach((line, index) => {
    if (typeof line !== 'string') {
      problems.at([...path, index], `${where}[${index}] must be a line of Markdown (a string), not ${typeName(line)}`);
    }
  });
}

class Problems {
  private readonly list: DocumentProblem[] = [];

  constructor(private readonly json: ParsedJson) {}

  at(path: (string | number)[], message: string): void {
    this.add(message, this.json.locate(path), path);
  }

  atKey(path: (string | number)[], message: string): void {
    this.add(message, this.json.locateKey(path), path);
  }

  throwIfAny(): void {
    if (this.list.length > 0) {
      throw new NotebookDocumentError(this.list);
    }
  }

  private add(message: string, location: Location | undefined, path: (string | number)[]): void {
    if (this.list.length < MAX_PROBLEMS) {
      this.list.push({ message, location, field: describePath(path) });
    }
  }
}

/** Problems with the read-only block compared with the one the editor was given. */
export function readonlyProblems(parsed: ParsedNotebookDocument, served: ReadonlyBlock): DocumentProblem[] {
  const block = parsed.readonly;
  const where = (key?: string) =>
    key === undefined
      ? parsed.json.locateKey([READONLY_KEY])
      : (parsed.json.locate([READONLY_KEY, key]) ?? parsed.json.locateKey([READONLY_KEY])) ;
  if (!block) {
    return [{ message: `the ${READONLY_KEY} block was removed; undo that change (it is read-only)`, field: READONLY_KEY }];
  }
  const problems: DocumentProblem[] = [];
  const expected = served as unknown as Record<string, unknown>;
  for (const key of Object.keys(expected)) {
    if (!sameJson(block[key], expected[key])) {
      problems.push({
        message: `${READONLY_KEY}.${key} is read-only and was changed (it is ${JSON.stringify(expected[key])}); edit title, content or text_content instead`,
        location: where(key),
        field: `${READONLY_KEY}.${key}`,
      });
    }
  }
  for (const key of Object.keys(block)) {
    if (!(key in expected)) {
      problems.push({
        message: `${READONLY_KEY}.${key} is not part of the read-only block; remove it`,
        location: parsed.json.locateKey([READONLY_KEY, key]),
        field: `${READONLY_KEY}.${key}`,
      });
    }
  }
  return problems;
}

/** The displayed version of a document, if its read-only block still has a usable one. */
export function displayedVersion(parsed: ParsedNotebookDocument): number | undefined {
  const version = parsed.readonly?.['version'];
  return typeof version === 'number' && Number.isSafeInteger(version) ? version : undefined;
}

export type SaveBody = NotebookWritable & { content: unknown; version: number };

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return 'a list';
  }
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
