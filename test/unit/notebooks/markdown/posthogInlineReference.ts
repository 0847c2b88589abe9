import type { PhInline, PhMark } from '../../../../src/notebooks/markdown';
import { normaliseMarks, sanitizeLinkHref } from '../../../../src/notebooks/markdown/posthogInline';

/**
 * PostHog's inline rules written the plain way, for the property tests only: each construct searched for
 * from where it starts, nested content read from a copy of its text. Slow on long texts (quadratic), but
 * simple enough to check by eye against PostHog's description, so the linear reader can be compared with it.
 */
export function referenceInline(text: string): PhInline[] {
  return joinNodes(readPart(text, []));
}

const ESCAPABLE = new Set(Array.from('\\`*_~[]()<>#+-.|!•'));
const EMPHASIS = [
  { token: '**', mark: 'bold', wordBoundary: false },
  { token: '__', mark: 'bold', wordBoundary: true },
  { token: '~~', mark: 'strike', wordBoundary: false },
  { token: '*', mark: 'italic', wordBoundary: false },
  { token: '_', mark: 'italic', wordBoundary: true },
] as const;

const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char);
const isWordChar = (char: string | undefined) => char !== undefined && /[A-Za-z0-9]/.test(char);

function readPart(text: string, marks: PhMark[]): PhInline[] {
  const nodes: PhInline[] = [];
  const addText = (value: string, extra: PhMark[] = marks) => nodes.push({ type: 'text', text: value, marks: extra });
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '\n') {
      nodes.push({ type: 'hardBreak' });
      index++;
      continue;
    }
    if (char === '\\') {
      const next = text[index + 1];
      if (next !== undefined && ESCAPABLE.has(next)) {
        addText(next);
        index += 2;
      } else {
        addText('\\');
        index++;
      }
      continue;
    }
    const emphasis = EMPHASIS.find(
      ({ token, wordBoundary }) =>
        text.startsWith(token, index) &&
        !(token.length === 1 && text[index + 1] === token) &&
        text[index + token.length] !== undefined &&
        !isSpace(text[index + token.length]) &&
        !(wordBoundary && isWordChar(text[index - 1])),
    );
    if (emphasis) {
      const start = index + emphasis.token.length;
      const close = emphasisCloser(text, emphasis.token, start, emphasis.wordBoundary);
      if (close !== -1) {
        nodes.push(...readPart(text.slice(start, close), [...marks, { type: emphasis.mark }]));
        index = close + emphasis.token.length;
        continue;
      }
    }
    if (text.startsWith('<u>', index)) {
      const close = outsideCode(text, '</u>', index + 3);
      if (close !== -1) {
        nodes.push(...readPart(text.slice(index + 3, close), [...marks, { type: 'underline' }]));
        index = close + 4;
        continue;
      }
    }
    if (char === '<') {
      const opening = /^<(ref|mention)\s+id=(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\s*>/.exec(text.slice(index));
      if (opening) {
        const name = opening[1] as 'ref' | 'mention';
        const id = (opening[2] ?? opening[3] ?? '').replace(/\\(.)/g, '$1');
        const start = index + opening[0].length;
        const close = outsideCode(text, `</${name}>`, start);
        if (close !== -1 && id !== '') {
          nodes.push(...readPart(text.slice(start, close), [...marks, { type: name, id }]));
          index = close + name.length + 3;
          continue;
        }
      }
    }
    if (char === '`') {
      const close = unescaped(text, '`', index + 1);
      if (close !== -1) {
        addText(text.slice(index + 1, close).replace(/\\([\\`])/g, '$1'), [...marks, { type: 'code' }]);
        index = close + 1;
        continue;
      }
    }
    if (char === '[') {
      const link = linkAt(text, index);
      if (link) {
        nodes.push(...readPart(link.label, link.href === undefined ? marks : [...marks, { type: 'link', href: link.href }]));
        index = link.next;
        continue;
      }
    }
    addText(char);
    index++;
  }
  return nodes;
}

function unescaped(text: string, token: string, from: number): number {
  for (let at = text.indexOf(token, from); at !== -1; at = text.indexOf(token, at + 1)) {
    let backslashes = 0;
    while (text[at - backslashes - 1] === '\\') {
      backslashes++;
    }
    if (backslashes % 2 === 0) {
      return at;
    }
  }
  return -1;
}

function outsideCode(text: string, token: string, from: number): number {
  let search = from;
  for (;;) {
    const at = unescaped(text, token, search);
    if (at === -1) {
      return -1;
    }
    const codeStart = unescaped(text, '`', search);
    if (codeStart !== -1 && codeStart < at) {
      const codeEnd = unescaped(text, '`', codeStart + 1);
      if (codeEnd !== -1) {
        search = codeEnd + 1;
        continue;
      }
    }
    return at;
  }
}

function emphasisCloser(text: string, token: string, from: number, wordBoundary: boolean): number {
  let search = from;
  for (;;) {
    const at = outsideCode(text, token, search);
    if (at === -1) {
      return -1;
    }
    if (at > from && !isSpace(text[at - 1]) && !(wordBoundary && isWordChar(text[at + token.length]))) {
      return at;
    }
    search = at + 1;
  }
}

function linkAt(text: string, index: number): { label: string; href: string | undefined; next: number } | undefined {
  const labelEnd = outsideCode(text, '](', index + 1);
  if (labelEnd === -1) {
    return undefined;
  }
  let depth = 0;
  let href = '';
  for (let cursor = labelEnd + 2; cursor < text.length; cursor++) {
    const char = text[cursor]!;
    if (char === '\\' && text[cursor + 1] !== undefined && ESCAPABLE.has(text[cursor + 1]!)) {
      href += text[++cursor];
      continue;
    }
    if (char === ')') {
      if (depth === 0) {
        return { label: text.slice(index + 1, labelEnd), href: sanitizeLinkHref(href), next: cursor + 1 };
      }
      depth--;
    } else if (char === '(') {
      depth++;
    }
    href += char;
  }
  return undefined;
}

function joinNodes(nodes: PhInline[]): PhInline[] {
  const joined: PhInline[] = [];
  for (const node of nodes) {
    const last = joined[joined.length - 1];
    if (node.type === 'hardBreak') {
      if (last?.type !== 'hardBreak') {
        joined.push(node);
      }
      continue;
    }
    if (node.text === '') {
      continue;
    }
    const marks = normaliseMarks(node.marks ?? []);
    if (last?.type === 'text' && JSON.stringify(last.marks ?? []) === JSON.stringify(marks)) {
      last.text += node.text;
      continue;
    }
    joined.push(marks.length > 0 ? { type: 'text', text: node.text, marks } : { type: 'text', text: node.text });
  }
  return joined;
}
