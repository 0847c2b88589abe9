import { sameJson } from '../model/notebookDocument';
import { cellAttrs, CELL_TYPES, childrenOf, isNode, isObject, linkAttrs, MARK_ORDER, markRank, type PmMark, type PmNode, plainText, quote } from './schema';

/**
 * What the Markdown of a block cannot hold, as phrases for messages, given the original block and the
 * nodes its Markdown reads back as (which differ). Known causes are named (an unknown mark, a cell
 * spanning columns, a line break ending a paragraph…); anything else by its first difference.
 */
export function describeLosses(original: unknown, readBack: PmNode[]): string[] {
  const causes = isNode(original) ? knownCauses(original) : [];
  if (causes.length > 0) {
    return causes.slice(0, MAX_CAUSES);
  }
  const label = isNode(original) ? describeNode(original) : 'this block';
  if (readBack.length !== 1) {
    return [`${label} cannot be written in Markdown exactly: it reads back as ${readBack.length} blocks`];
  }
  const difference = firstDifference(original, readBack[0], '');
  const where = difference ? ` (${difference.path || 'the node'} is ${preview(difference.original)}, but would read back as ${preview(difference.readBack)})` : '';
  return [`${label} cannot be written in Markdown exactly${where}`];
}

const MAX_CAUSES = 5;

function describeNode(node: PmNode): string {
  const text = plainText(node);
  return text.trim() === '' ? `the ${node.type}` : `the ${node.type} ${quote(text)}`;
}

function knownCauses(root: PmNode): string[] {
  const causes: string[] = [];
  const visit = (node: PmNode, parent: PmNode | undefined): void => {
    causes.push(...markCauses(node));
    if (CELL_TYPES.has(node.type) && parent) {
      causes.push(...cellCauses(node));
    }
    childrenOf(node).forEach((child) => visit(child, node));
  };
  visit(root, undefined);
  return causes;
}

function markCauses(node: PmNode): string[] {
  const marks = Array.isArray(node.marks) ? node.marks.filter((mark): mark is PmMark => isObject(mark)) : [];
  const on = quote(node.text ?? node.type);
  const causes: string[] = [];
  for (const mark of marks) {
    if (!(MARK_ORDER as readonly string[]).includes(mark.type)) {
      causes.push(`the mark "${mark.type}" on ${on} has no Markdown form`);
    } else if (mark.type === 'link' && !sameJson(mark.attrs, linkAttrs(String(mark.attrs?.['href'] ?? '')))) {
      causes.push(`the link on ${on} has attributes Markdown cannot hold (${preview(mark.attrs)}; a link in Markdown has only its address)`);
    } else if (mark.type !== 'link' && mark.attrs !== undefined && Object.keys(mark.attrs).length > 0) {
      causes.push(`the mark "${mark.type}" on ${on} has attributes Markdown cannot hold (${preview(mark.attrs)})`);
    }
  }
  const types = marks.map((mark) => mark.type);
  const sorted = [...types].sort((a, b) => markRank(a) - markRank(b));
  if (types.join() !== sorted.join()) {
    causes.push(`the marks on ${on} are in an order the editor does not make (${types.join(', ')})`);
  }
  return causes;
}

function cellCauses(cell: PmNode): string[] {
  const attrs = cell.attrs ?? {};
  const name = `the table cell ${quote(plainText(cell))}`;
  const causes: string[] = [];
  for (const span of ['colspan', 'rowspan'] as const) {
    if (attrs[span] !== undefined && attrs[span] !== 1) {
      causes.push(`${name} spans ${String(attrs[span])} ${span === 'colspan' ? 'columns' : 'rows'}, which a Markdown table cannot`);
    }
  }
  if (attrs['colwidth'] !== undefined && attrs['colwidth'] !== null) {
    causes.push(`${name} has a set column width (${preview(attrs['colwidth'])}), which a Markdown table cannot hold`);
  }
  const defaults = cellAttrs();
  if (!Object.keys(defaults).every((key) => key in attrs) || Object.keys(attrs).some((key) => !(key in defaults))) {
    causes.push(`${name} has attributes a Markdown table cannot hold (${preview(attrs)})`);
  }
  const blocks = childrenOf(cell);
  if (blocks.length !== 1 || blocks[0]!.type !== 'paragraph') {
    causes.push(`${name} holds ${blocks.length === 1 ? `a ${blocks[0]!.type}` : `${blocks.length} blocks`}, but a Markdown table cell holds one line of text`);
  }
  return causes;
}

interface Difference {
  readonly path: string;
  readonly original: unknown;
  readonly readBack: unknown;
}

function firstDifference(a: unknown, b: unknown, path: string): Difference | undefined {
  if (sameJson(a, b)) {
    return undefined;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let index = 0; index < Math.max(a.length, b.length); index++) {
      const found = firstDifference(a[index], b[index], `${path}[${index}]`);
      if (found) {
        return found;
      }
    }
  }
  if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const found = firstDifference(a[key], b[key], path ? `${path}.${key}` : key);
      if (found) {
        return found;
      }
    }
  }
  return { path, original: a, readBack: b };
}

function preview(value: unknown): string {
  if (value === undefined) {
    return 'missing';
  }
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
