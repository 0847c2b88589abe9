import { canonical, type EditableNotebook, isObject, markdownOf, type ReadonlyBlock, sameJson, serializeDocument } from '../model/notebookDocument';
import { conflictLines, type MergeLabels } from './conflictMarkers';
import { type MarkdownMerge, markdownText, mergeMarkdownLines } from './markdownMerge';
import { mergeRegions, narrowConflict, type Region } from './sequenceMerge';

/**
 * Three-way merge of a notebook's JSON document. The top-level content nodes are merged like blocks (diff3
 * over the nodes as canonical JSON); a node both sides changed is merged field by field (type, attrs key by
 * key and into nested objects, marks, content, text), and a field both changed differently is a conflict
 * for that node. A Markdown notebook merges its Markdown with the Markdown merge, line conflicts becoming
 * conflicts between elements of the document's `markdown` lines. The title merges three ways.
 *
 * Conflicts are rendered in the document text as git-style markers at column 0 around the conflicting
 * array elements, each side at the array's indentation and ending with a comma exactly when an element
 * follows the conflict, so that Accept Current and Accept Incoming leave valid JSON. A side that would be
 * empty (deleted elements) takes in one neighbouring element on both sides. At the end of an array after
 * other elements, each side starts with the comma instead (on a line of its own), so Accept Both leaves
 * valid JSON there too; it does not where the conflict is the whole array.
 */
export interface JsonMergeOutcome {
  /** The merged fields, when nothing conflicted. */
  readonly merged: EditableNotebook | undefined;
  readonly conflicts: number;
  readonly changes: readonly string[];
  /** The whole document text (as serializeDocument lays it out), with conflict markers where needed. */
  render(readonly: ReadonlyBlock): string;
}

/** One element of a merged array, or both sides' elements where they conflict. */
type ArrayItem = { readonly kind: 'value'; readonly value: unknown } | Conflict;

interface Conflict {
  readonly kind: 'conflict';
  readonly ours: readonly unknown[];
  readonly theirs: readonly unknown[];
}

interface FieldMerge {
  readonly value: unknown;
  /** Fields both sides changed differently, e.g. "attrs.query". */
  readonly conflicts: readonly string[];
}

/** A merged content, or a conflict over the whole of it. */
type ContentMerge =
  | { readonly kind: 'merged'; readonly content: unknown; readonly textContent: string | null }
  | { readonly kind: 'items'; readonly shell: (items: readonly unknown[]) => unknown; readonly items: readonly ArrayItem[] }
  | { readonly kind: 'whole'; readonly conflict: Conflict };

export function mergeNotebookJson(base: EditableNotebook, ours: EditableNotebook, theirs: EditableNotebook, labels: MergeLabels): JsonMergeOutcome {
  const changes: string[] = [];
  const title = mergeValue(base.title, ours.title, theirs.title, 'title');
  noteField('the title', title, base.title, ours.title, theirs.title, changes);
  const content = mergeContent(base, ours, theirs, labels, changes);
  const itemConflicts = content.kind === 'items' ? content.items.filter((item) => item.kind === 'conflict').length : 0;
  const conflicts = (title.conflicts.length > 0 ? 1 : 0) + (content.kind === 'whole' ? 1 : 0) + itemConflicts;
  const merged =
    conflicts === 0 && content.kind === 'merged'
      ? { title: title.value as string | null, content: content.content, text_content: content.textContent }
      : undefined;
  return {
    merged,
    conflicts,
    changes,
    render: (readonly) => (merged ? serializeDocument(readonly, merged) : renderConflicts(readonly, { base, ours, theirs }, title, content, labels)),
  };
}

function mergeContent(base: EditableNotebook, ours: EditableNotebook, theirs: EditableNotebook, labels: MergeLabels, changes: string[]): ContentMerge {
  const markdown = { base: markdownOf(base.content), ours: markdownOf(ours.content), theirs: markdownOf(theirs.content) };
  if (markdown.base !== undefined && markdown.ours !== undefined && markdown.theirs !== undefined) {
    const shell = mergeValue(withoutMarkdown(base.content), withoutMarkdown(ours.content), withoutMarkdown(theirs.content), 'content');
    if (shell.conflicts.length === 0) {
      return mergeMarkdownContent(shell.value, mergeMarkdownLines(markdown.base, markdown.ours, markdown.theirs), labels, changes);
    }
  }
  const docs = { base: asDoc(base.content), ours: asDoc(ours.content), theirs: asDoc(theirs.content) };
  const rest = docs.base && docs.ours && docs.theirs ? mergeValue(docs.base.rest, docs.ours.rest, docs.theirs.rest, 'content') : undefined;
  if (!docs.base || !docs.ours || !docs.theirs || !rest || rest.conflicts.length > 0) {
    const whole = mergeValue(base.content, ours.content, theirs.content, 'content');
    noteField('the content', whole, base.content, ours.content, theirs.content, changes);
    return whole.conflicts.length === 0
      ? { kind: 'merged', content: canonical(whole.value), textContent: mergeTextContent(base, ours, theirs) }
      : // Shown as stored (a Markdown notebook's Markdown as one string, which a save accepts too).
        { kind: 'whole', conflict: { kind: 'conflict', ours: [ours.content], theirs: [theirs.content] } };
  }
  const items = mergeNodes(docs.base.nodes, docs.ours.nodes, docs.theirs.nodes, changes);
  const shell = (nodes: readonly unknown[]) => canonical({ ...(rest.value as Record<string, unknown>), content: nodes });
  if (items.some((item) => item.kind === 'conflict')) {
    return { kind: 'items', shell, items: widenEmptySides(items) };
  }
  const nodes = items.flatMap((item) => (item.kind === 'value' ? [item.value] : []));
  return { kind: 'merged', content: shell(nodes), textContent: mergeTextContent(base, ours, theirs) };
}

/**
 * text_content follows the content on PostHog, and the caller recomputes it when the content merged, so it
 * gets the simple rule here without conflicts: ours where only ours changed it, else theirs.
 */
function mergeTextContent(base: EditableNotebook, ours: EditableNotebook, theirs: EditableNotebook): string | null {
  return ours.text_content !== base.text_content && theirs.text_content === base.text_content ? ours.text_content : theirs.text_content;
}

/** A Markdown notebook's content: the merged node with the merged Markdown, or lines with conflicts. */
function mergeMarkdownContent(shell: unknown, merge: MarkdownMerge, labels: MergeLabels, changes: string[]): ContentMerge {
  changes.push(...merge.changes.map((change) => `in the Markdown: ${change}`));
  const withMarkdown = (markdown: unknown) => canonical(replaceMarkdown(shell, markdown));
  if (merge.conflicts === 0) {
    const text = markdownText(merge, labels);
    // A Markdown notebook's text_content is its Markdown.
    return { kind: 'merged', content: withMarkdown(text), textContent: text };
  }
  const items: ArrayItem[] = merge.lines.map((line) =>
    typeof line === 'string' ? { kind: 'value', value: line } : { kind: 'conflict', ours: line.ours, theirs: line.theirs },
  );
  if (merge.endsWithNewline && merge.lines.length > 0) {
    // The document shows the Markdown split on "\n": a final newline is a last empty line.
    items.push({ kind: 'value', value: '' });
  }
  return { kind: 'items', shell: withMarkdown, items: widenEmptySides(items) };
}

function withoutMarkdown(content: unknown): unknown {
  return replaceMarkdown(content, '');
}

/** The Markdown notebook's content with its one node's attrs.markdown set to `markdown`. */
function replaceMarkdown(content: unknown, markdown: unknown): unknown {
  if (!isObject(content) || !Array.isArray(content['content'])) {
    return content;
  }
  const [node] = content['content'] as unknown[];
  const attrs = isObject(node) && isObject(node['attrs']) ? node['attrs'] : {};
  return { ...content, content: [{ ...(isObject(node) ? node : {}), attrs: { ...attrs, markdown } }] };
}

function asDoc(content: unknown): { nodes: readonly unknown[]; rest: Record<string, unknown> } | undefined {
  if (!isObject(content) || !Array.isArray(content['content'])) {
    return undefined;
  }
  const { content: nodes, ...rest } = content;
  return { nodes: nodes as unknown[], rest };
}

/** The top-level nodes merged as blocks; nodes both changed merged field by field. */
function mergeNodes(base: readonly unknown[], ours: readonly unknown[], theirs: readonly unknown[], changes: string[]): ArrayItem[] {
  const merge = new NodeMerge({ base, ours, theirs }, changes);
  for (const region of mergeRegions(merge.keys.base, merge.keys.ours, merge.keys.theirs)) {
    merge.take(region, false);
  }
  return merge.items;
}

type SideName = 'base' | 'ours' | 'theirs';

class NodeMerge {
  readonly items: ArrayItem[] = [];
  readonly keys: Record<SideName, string[]>;

  constructor(
    private readonly nodes: Record<SideName, readonly unknown[]>,
    private readonly changes: string[],
  ) {
    const keyOf = (node: unknown) => JSON.stringify(canonical(node));
    this.keys = { base: nodes.base.map(keyOf), ours: nodes.ours.map(keyOf), theirs: nodes.theirs.map(keyOf) };
  }

  take(region: Region, narrowed: boolean): void {
    const slice = (name: SideName) => this.nodes[name].slice(region[name].start, region[name].end);
    const first = this.items.length + 1;
    if (region.kind === 'unchanged') {
      slice('base').forEach((value) => this.items.push({ kind: 'value', value }));
      return;
    }
    if (region.kind !== 'conflict') {
      const taken = slice(region.kind === 'theirs' ? 'theirs' : 'ours');
      taken.forEach((value) => this.items.push({ kind: 'value', value }));
      this.changes.push(describeNodes(region.kind, first, taken.length));
      return;
    }
    const [base, ours, theirs] = [slice('base'), slice('ours'), slice('theirs')];
    if (narrowed) {
      this.items.push({ kind: 'conflict', ours, theirs });
      this.changes.push(`conflict at content ${nodeRange(first, Math.max(ours.length, theirs.length))}`);
    } else if (ours.length !== base.length || theirs.length !== base.length) {
      narrowConflict(region, this.keys.base, this.keys.ours, this.keys.theirs).forEach((part) => this.take(part, true));
    } else {
      base.forEach((node, offset) => this.mergeFields(node, ours[offset], theirs[offset]));
    }
  }

  private mergeFields(base: unknown, ours: unknown, theirs: unknown): void {
    const merged = mergeValue(base, ours, theirs, 'node');
    const position = this.items.length + 1;
    if (merged.conflicts.length === 0) {
      this.items.push({ kind: 'value', value: merged.value });
      this.changes.push(`merged both changes to content node ${position} field by field`);
    } else {
      this.items.push({ kind: 'conflict', ours: [ours], theirs: [theirs] });
      this.changes.push(`conflict at content node ${position} (${merged.conflicts.join(', ')} changed on both sides)`);
    }
  }

}

function describeNodes(kind: 'ours' | 'theirs' | 'both', first: number, count: number): string {
  const who = kind === 'ours' ? 'kept your' : kind === 'theirs' ? "took PostHog's" : 'both made the same';
  if (count === 0) {
    return kind === 'both' ? `both deleted the same content nodes at node ${first}` : `${who} deletion at content node ${first}`;
  }
  return `${who} change to content ${nodeRange(first, count)}`;
}

function nodeRange(first: number, count: number): string {
  return count <= 1 ? `node ${first}` : `nodes ${first}-${first + count - 1}`;
}

/**
 * Conflicts where one side is empty take in the next element (or, at the end, the previous one) on both
 * sides, so that each side has elements and the commas work out whichever is accepted; conflicts that end up
 * side by side become one.
 */
function widenEmptySides(items: readonly ArrayItem[]): ArrayItem[] {
  const widened = joinAdjacentConflicts(items);
  for (let index = 0; index < widened.length; index++) {
    const item = widened[index];
    if (item?.kind !== 'conflict' || (item.ours.length > 0 && item.theirs.length > 0)) {
      continue;
    }
    const next = widened[index + 1];
    const previous = widened[index - 1];
    if (next?.kind === 'value') {
      widened.splice(index, 2, { kind: 'conflict', ours: [...item.ours, next.value], theirs: [...item.theirs, next.value] });
    } else if (previous?.kind === 'value') {
      widened.splice(index - 1, 2, { kind: 'conflict', ours: [previous.value, ...item.ours], theirs: [previous.value, ...item.theirs] });
      index--;
    }
  }
  return joinAdjacentConflicts(widened);
}

function joinAdjacentConflicts(items: readonly ArrayItem[]): ArrayItem[] {
  const joined: ArrayItem[] = [];
  for (const item of items) {
    const previous = joined[joined.length - 1];
    if (item.kind === 'conflict' && previous?.kind === 'conflict') {
      joined[joined.length - 1] = { kind: 'conflict', ours: [...previous.ours, ...item.ours], theirs: [...previous.theirs, ...item.theirs] };
    } else {
      joined.push(item);
    }
  }
  return joined;
}

/**
 * Three-way merge of one JSON value: the changed side's value where one side changed it; objects changed on
 * both sides key by key (a missing key is a deleted one); anything else changed differently is a conflict.
 */
export function mergeValue(base: unknown, ours: unknown, theirs: unknown, path: string): FieldMerge {
  if (sameJson(ours, theirs) || sameJson(base, theirs)) {
    return { value: ours, conflicts: [] };
  }
  if (sameJson(base, ours)) {
    return { value: theirs, conflicts: [] };
  }
  if (!isObject(ours) || !isObject(theirs) || (base !== undefined && !isObject(base))) {
    return { value: ours, conflicts: [path] };
  }
  const baseObject = isObject(base) ? base : {};
  const entries: [string, unknown][] = [];
  const conflicts: string[] = [];
  for (const key of new Set([...Object.keys(ours), ...Object.keys(theirs), ...Object.keys(baseObject)])) {
    const merged = mergeValue(ownValue(baseObject, key), ownValue(ours, key), ownValue(theirs, key), path === 'node' ? key : `${path}.${key}`);
    conflicts.push(...merged.conflicts);
    if (merged.value !== undefined) {
      entries.push([key, merged.value]);
    }
  }
  // fromEntries defines each key as the object's own, so a member named __proto__ stays a member.
  return { value: Object.fromEntries(entries), conflicts };
}

function noteField(name: string, merge: FieldMerge, base: unknown, ours: unknown, theirs: unknown, changes: string[]): void {
  if (merge.conflicts.length > 0) {
    const fields = merge.conflicts.filter((field) => field.includes('.'));
    changes.push(`conflict in ${name}${fields.length > 0 ? ` (${fields.join(', ')} changed on both sides)` : ''}`);
  } else if (sameJson(ours, theirs)) {
    if (!sameJson(base, ours)) {
      changes.push(`both made the same change to ${name}`);
    }
  } else if (!sameJson(base, ours)) {
    changes.push(sameJson(base, theirs) ? `kept your change to ${name}` : `merged both changes to ${name} field by field`);
  } else {
    changes.push(`took PostHog's change to ${name}`);
  }
}

const PLACEHOLDER = '\u0000merge-conflict-';
/** A placeholder's line in the document: indentation and, for a field, its key; the placeholder; a comma. */
const PLACEHOLDER_LINE = /^( *(?:"[a-z_]+": )?)"\\u0000merge-conflict-(\d+)"(,?)$/;

/** The document with a placeholder for each conflict, laid out by serializeDocument, then the markers put in. */
function renderConflicts(
  readonly: ReadonlyBlock,
  sides: { base: EditableNotebook; ours: EditableNotebook; theirs: EditableNotebook },
  title: FieldMerge,
  content: ContentMerge,
  labels: MergeLabels,
): string {
  const conflicts: Conflict[] = [];
  const placeholder = (conflict: Conflict): string => `${PLACEHOLDER}${conflicts.push(conflict) - 1}`;
  const titleValue = title.conflicts.length > 0 ? placeholder({ kind: 'conflict', ours: [sides.ours.title], theirs: [sides.theirs.title] }) : title.value;
  const contentValue =
    content.kind === 'merged'
      ? content.content
      : content.kind === 'whole'
        ? placeholder(content.conflict)
        : content.shell(content.items.map((item) => (item.kind === 'value' ? item.value : placeholder(item))));
  const textContent = content.kind === 'merged' ? content.textContent : mergeTextContent(sides.base, sides.ours, sides.theirs);
  const text = serializeDocument(readonly, { title: titleValue as string | null, content: contentValue, text_content: textContent });
  const output: string[] = [];
  for (const line of text.split('\n')) {
    const found = PLACEHOLDER_LINE.exec(line);
    const conflict = found ? conflicts[Number(found[2])] : undefined;
    if (!found || !conflict) {
      output.push(line);
      continue;
    }
    const [, prefix = '', , comma] = found;
    const previous = output[output.length - 1] ?? '';
    // The last elements of an array after others: the comma moves from the element before into each
    // side, so that Accept Both leaves valid JSON too.
    const commaFirst = comma !== ',' && /^ *$/.test(prefix) && previous.endsWith(',');
    if (commaFirst) {
      output[output.length - 1] = previous.slice(0, -1);
    }
    const side = (values: readonly unknown[]) => renderElements(values, prefix, { after: comma === ',', before: commaFirst });
    output.push(...conflictLines(side(conflict.ours), side(conflict.theirs), labels, ''));
  }
  return output.join('\n');
}

/**
 * Elements as the document shows them at `prefix` (indentation, and a key for a field), with commas
 * between, after them if `after`, and on a line of its own before them if `before`.
 */
function renderElements(values: readonly unknown[], prefix: string, commas: { after: boolean; before: boolean }): string[] {
  const indent = /^ */.exec(prefix)?.[0] ?? '';
  const elements = values.flatMap((value, index) => {
    const json = JSON.stringify(canonical(value ?? null), null, 2);
    const lines = json.split('\n').map((line, lineIndex) => (lineIndex === 0 ? prefix : indent) + line);
    if (index < values.length - 1 || commas.after) {
      lines[lines.length - 1] += ',';
    }
    return lines;
  });
  return commas.before && elements.length > 0 ? [`${indent},`, ...elements] : elements;
}

/** The object's own member `key` (an absent `__proto__` is not the prototype). */
function ownValue(object: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}
