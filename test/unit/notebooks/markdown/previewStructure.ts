import type { PhBlock, PhDocument, PhInline, PhList, PhListItem } from '../../../../src/notebooks/markdown';

/**
 * The structure of a preview, to compare what a Markdown engine rendered with PostHog's reading: elements with
 * the attributes that carry meaning (a link's href, a list's start, an image's src, a cell's alignment, a task's
 * checkbox), texts, cards by their tag name, code blocks by their text. Both sides are reduced to it:
 * renderedStructure reads the HTML (VS Code's engine adds ids, classes and data-line attributes, which are
 * left out), readingStructure draws PostHog's document model as PostHog's web app does.
 */
export type StructureNode = string | { readonly tag: string; readonly attrs?: Record<string, string>; readonly children?: StructureNode[] };

const VOID = new Set(['br', 'hr', 'img', 'input']);
const KEPT_ATTRS: Readonly<Record<string, readonly string[]>> = {
  a: ['href'],
  ol: ['start'],
  img: ['src', 'alt'],
  th: ['style'],
  td: ['style'],
  input: ['checked'],
  mark: ['data-ref'],
  span: ['data-mention'],
};
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", nbsp: '\u00a0' };

function decode(text: string): string {
  return text.replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
    if (ENTITIES[name.toLowerCase()] !== undefined) {
      return ENTITIES[name.toLowerCase()]!;
    }
    if (name.startsWith('#')) {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return String.fromCodePoint(code);
    }
    return whole;
  });
}

interface Element {
  tag: string;
  attrs: Record<string, string>;
  children: (Element | string)[];
}

/** The structure of rendered HTML (well-formed, as markdown-it writes it). */
export function renderedStructure(html: string): StructureNode[] {
  const root: Element = { tag: '#root', attrs: {}, children: [] };
  const stack: Element[] = [root];
  const pattern = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*\/?>|([^<]+)/g;
  for (const match of html.matchAll(pattern)) {
    const top = stack[stack.length - 1]!;
    if (match[4] !== undefined) {
      top.children.push(decode(match[4]));
      continue;
    }
    const tag = match[2]!.toLowerCase();
    if (match[1] === '/') {
      while (stack.length > 1 && stack.pop()!.tag !== tag) {
        // an element left open ends with its parent
      }
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const attr of match[3]!.matchAll(/([^\s=>/]+)(?:="([^"]*)")?/g)) {
      attrs[attr[1]!.toLowerCase()] = decode(attr[2] ?? '');
    }
    const element: Element = { tag, attrs, children: [] };
    top.children.push(element);
    if (!VOID.has(tag)) {
      stack.push(element);
    }
  }
  return simplify(root.children, false);
}

function simplify(nodes: readonly (Element | string)[], inPre: boolean): StructureNode[] {
  const out: StructureNode[] = [];
  for (const node of nodes) {
    if (typeof node === 'string') {
      const text = inPre ? node : node.replace(/\n/g, '');
      if (text !== '') {
        const last = out[out.length - 1];
        if (typeof last === 'string') {
          out[out.length - 1] = last + text;
        } else {
          out.push(text);
        }
      }
      continue;
    }
    const simplified = simplifyElement(node);
    if (simplified !== undefined) {
      out.push(simplified);
    }
  }
  return out;
}

function textOf(node: Element | string): string {
  return typeof node === 'string' ? node : node.children.map(textOf).join('');
}

function simplifyElement(element: Element): StructureNode | undefined {
  const classes = (element.attrs.class ?? '').split(/\s+/);
  if (classes.includes('posthog-tag')) {
    const name = element.children.find((child) => typeof child !== 'string' && (child.attrs.class ?? '').split(/\s+/).includes('posthog-tag-name'));
    return { tag: 'card', attrs: { name: name ? textOf(name) : '' } };
  }
  if (element.tag === 'pre') {
    const code = textOf(element).replace(/\n$/, '');
    return code === '' ? { tag: 'pre' } : { tag: 'pre', children: [code] };
  }
  if (element.tag === 'span' && !classes.includes('posthog-mention')) {
    const children = simplify(element.children, false);
    return children.length === 1 ? children[0] : { tag: 'span', children };
  }
  const attrs: Record<string, string> = {};
  for (const name of KEPT_ATTRS[element.tag] ?? []) {
    if (element.attrs[name] !== undefined) {
      attrs[name] = name === 'checked' ? 'checked' : element.attrs[name]!;
    }
  }
  const children = simplify(element.children, false);
  return { tag: element.tag, ...(Object.keys(attrs).length > 0 ? { attrs } : {}), ...(children.length > 0 ? { children } : {}) };
}

/** The structure PostHog's web app shows for its reading of a text. */
export function readingStructure(doc: PhDocument): StructureNode[] {
  return doc.nodes.flatMap(blockStructure);
}

function element(tag: string, children: StructureNode[] = [], attrs?: Record<string, string>): StructureNode {
  return { tag, ...(attrs && Object.keys(attrs).length > 0 ? { attrs } : {}), ...(children.length > 0 ? { children } : {}) };
}

function blockStructure(block: PhBlock): StructureNode[] {
  switch (block.type) {
    case 'paragraph':
      return [element('p', inlineStructure(block.children))];
    case 'heading':
      return [element(`h${block.level}`, inlineStructure(block.children))];
    case 'blockquote':
      return [element('blockquote', [element('p', inlineStructure(block.children))])];
    case 'list': {
      const list = listStructure(block);
      return [block.blockquote ? element('blockquote', [list]) : list];
    }
    case 'table': {
      const cellAttrs = (column: number) => (block.alignments[column] ? { style: `text-align:${block.alignments[column]}` } : undefined);
      const row = (cells: typeof block.headers, tag: string) => element('tr', cells.map((cell, column) => element(tag, inlineStructure(cell.children), cellAttrs(column))));
      const parts = [element('thead', [row(block.headers, 'th')])];
      if (block.rows.length > 0) {
        parts.push(element('tbody', block.rows.map((cells) => row(cells, 'td'))));
      }
      return [element('table', parts)];
    }
    case 'code':
      return [element('pre', block.text === '' ? [] : [block.text])];
    case 'component':
      if (block.tagName === 'Divider') {
        return [element('hr')];
      }
      if (block.tagName === 'Image' && typeof block.props.src === 'string') {
        return [element('p', [element('img', [], { src: block.props.src, alt: typeof block.props.alt === 'string' ? block.props.alt : '' })])];
      }
      return [element('card', [], { name: block.tagName })];
  }
}

/** A flat list nested by depth, as PostHog's web app draws it: a group numbered when its first item is. */
function listStructure(list: PhList): StructureNode {
  interface Tree {
    item: PhListItem;
    children: Tree[];
  }
  const roots: Tree[] = [];
  const stack: Tree[] = [];
  for (const item of list.items) {
    while (stack.length > 0 && item.depth <= stack[stack.length - 1]!.item.depth) {
      stack.pop();
    }
    const tree: Tree = { item, children: [] };
    (stack.length > 0 ? stack[stack.length - 1]!.children : roots).push(tree);
    stack.push(tree);
  }
  const group = (trees: Tree[], ordered: boolean, start: number): StructureNode =>
    element(
      ordered ? 'ol' : 'ul',
      trees.map((tree) => {
        const task = !tree.item.ordered && tree.item.checked !== undefined;
        const box = task ? [element('input', [], tree.item.checked ? { checked: 'checked' } : undefined)] : [];
        const nested = tree.children.length > 0 ? [group(tree.children, tree.children[0]!.item.ordered, 1)] : [];
        return element('li', [...box, ...inlineStructure(tree.item.children), ...nested]);
      }),
      ordered && start !== 1 ? { start: String(start) } : undefined,
    );
  const first = list.items.find((item) => item.depth === 0 && item.ordered);
  return group(roots, list.ordered, first?.start ?? list.start ?? 1);
}

const MARK_TAGS: readonly [string, string][] = [
  ['ref', 'mark'],
  ['mention', 'span'],
  ['link', 'a'],
  ['strike', 's'],
  ['underline', 'u'],
  ['bold', 'strong'],
  ['italic', 'em'],
];

function inlineStructure(nodes: readonly PhInline[]): StructureNode[] {
  const out: StructureNode[] = [];
  for (const node of nodes) {
    if (node.type === 'hardBreak') {
      out.push(element('br'));
      continue;
    }
    const marks = node.marks ?? [];
    const text = node.text.replace(/\n/g, '');
    let inner: StructureNode[] = marks.some((mark) => mark.type === 'code') ? [element('code', text === '' ? [] : [text])] : text === '' ? [] : [text];
    for (const [type, tag] of [...MARK_TAGS].reverse()) {
      const mark = marks.find((candidate) => candidate.type === type);
      if (!mark) {
        continue;
      }
      const attrs: Record<string, string> | undefined = mark.type === 'link' ? { href: mark.href } : mark.type === 'mention' ? { 'data-mention': mark.id } : mark.type === 'ref' ? { 'data-ref': mark.id } : undefined;
      inner = [element(tag, inner, attrs)];
    }
    for (const piece of inner) {
      const last = out[out.length - 1];
      if (typeof piece === 'string' && typeof last === 'string') {
        out[out.length - 1] = last + piece;
      } else {
        out.push(piece);
      }
    }
  }
  return out;
}
