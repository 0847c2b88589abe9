/// <reference lib="dom" />
// An event's properties as an expandable tree, with a search box and copy of a property's path or value.
import { debounce, el } from '../shared/dom';

/** The words the tree shows, localised by the caller (see l10n.ts). */
export interface TreeTexts {
  searchProperties: string;
  copyPath: string;
  copyValue: string;
  noPropertyMatches: string;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `properties.$browser`, `properties["$set"].email`, `properties.list[0]`: a path to paste in code or a filter. */
export function propertyPath(segments: readonly (string | number)[], root = 'properties'): string {
  return segments.reduce<string>(
    (path, segment) => (typeof segment === 'number' ? `${path}[${segment}]` : IDENTIFIER.test(segment) ? `${path}.${segment}` : `${path}[${JSON.stringify(segment)}]`),
    root,
  );
}

/** A value as it is copied: strings without quotes, anything else as (pretty) JSON. */
export function copiedValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2) ?? String(value);
}

/** Whether a node matches the search: its key or (for a leaf) its value contains the text, any case. */
export function nodeMatches(key: string, value: unknown, search: string): boolean {
  if (!search) return true;
  const needle = search.toLowerCase();
  if (key.toLowerCase().includes(needle)) return true;
  return (value === null || typeof value !== 'object') && copiedValue(value).toLowerCase().includes(needle);
}

interface TreeNode {
  key: string;
  value: unknown;
  element: HTMLElement;
  details?: HTMLDetailsElement;
  children: TreeNode[];
}

const isBranch = (value: unknown): value is Record<string, unknown> | unknown[] => value !== null && typeof value === 'object';

/** Builds the tree of `properties` (an object); `copy` puts text on the clipboard. */
export function propertyTree(properties: unknown, texts: TreeTexts, copy: (text: string) => void): HTMLElement {
  const container = el('div', { class: 'property-tree' });
  const search = el('input', { type: 'search', class: 'native-input tree-search', placeholder: texts.searchProperties, 'aria-label': texts.searchProperties, spellcheck: 'false' });
  const none = el('p', { class: 'field-note', role: 'status', hidden: true }, texts.noPropertyMatches);
  const list = el('ul', { class: 'tree', 'aria-label': texts.searchProperties });
  const roots = isBranch(properties) ? entries(properties).map(([key, value]) => buildNode(key, value, [key], texts, copy)) : [];
  list.append(...roots.map((node) => node.element));
  search.addEventListener(
    'input',
    debounce(() => {
      const text = search.value.trim();
      const shown = roots.map((node) => filter(node, text, false)).filter(Boolean).length;
      none.hidden = shown > 0;
    }, 150),
  );
  container.append(search, none, list);
  return container;
}

function entries(value: Record<string, unknown> | unknown[]): [string | number, unknown][] {
  return Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
}

function buildNode(key: string | number, value: unknown, path: (string | number)[], texts: TreeTexts, copy: (text: string) => void): TreeNode {
  const element = el('li', { class: 'tree-node' });
  const line = el('div', { class: 'tree-line' });
  const name = el('span', { class: 'tree-key' }, typeof key === 'number' ? `[${key}]` : key);
  const copyPath = el('button', { type: 'button', class: 'tree-copy', title: propertyPath(path) }, texts.copyPath);
  copyPath.addEventListener('click', () => copy(propertyPath(path)));
  const copyValue = el('button', { type: 'button', class: 'tree-copy' }, texts.copyValue);
  copyValue.addEventListener('click', () => copy(copiedValue(value)));
  const node: TreeNode = { key: String(key), value, element, children: [] };
  if (isBranch(value)) {
    const details = el('details');
    const summary = el('summary', { class: 'tree-line' });
    const size = Array.isArray(value) ? `[${value.length}]` : `{${Object.keys(value).length}}`;
    summary.append(name, el('span', { class: 'tree-value' }, size), copyPath, copyValue);
    const children = el('ul', { class: 'tree' });
    node.children = entries(value).map(([childKey, child]) => buildNode(childKey, child, [...path, childKey], texts, copy));
    children.append(...node.children.map((child) => child.element));
    details.append(summary, children);
    node.details = details;
    element.append(details);
  } else {
    // Text only: values come from the public internet.
    line.append(name, el('span', { class: 'tree-value', title: copiedValue(value) }, JSON.stringify(value) ?? String(value)), copyPath, copyValue);
    element.append(line);
  }
  return node;
}

/** Shows the node when it, an ancestor or a descendant matches; opens branches that lead to a match. */
function filter(node: TreeNode, search: string, ancestorMatches: boolean): boolean {
  const own = nodeMatches(node.key, node.value, search);
  const inside = node.children.map((child) => filter(child, search, ancestorMatches || own)).some(Boolean);
  const shown = own || inside || ancestorMatches;
  node.element.hidden = !shown;
  if (node.details && search) {
    node.details.open = inside;
  }
  return own || inside;
}
