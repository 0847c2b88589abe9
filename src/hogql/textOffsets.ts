/**
 * Where a query's characters are in the document that holds it. A HogQL document holds its query as is; a
 * notebook's SQL cell holds it as a written prop value (a JSON string, or single-quoted text), where an escape
 * (`\n`, `\"`, `\u00e9`) is several characters of the document for one of the query. Offsets are UTF-16 code
 * units (JavaScript string indices) on both sides. vscode-free.
 */
export interface QueryTextMap {
  /** The query as PostHog reads it. */
  readonly text: string;
  /** The document offset of the query's offset `index` (0…text.length). */
  toDocument(index: number): number;
  /** The query offset at a document offset inside the query's span, or undefined outside it. */
  fromDocument(offset: number): number | undefined;
}

/** A whole document holding the query as is. */
export function plainTextMap(text: string): QueryTextMap {
  const clamp = (index: number) => Math.min(Math.max(0, index), text.length);
  return {
    text,
    toDocument: clamp,
    fromDocument: (offset) => (offset >= 0 && offset <= text.length ? offset : undefined),
  };
}

/**
 * A written prop value whose decoded text is `text`, starting at `start` in `document` (after its opening
 * quote). `quote` is the written quote: `"` (JSON escapes) or `'` (a backslash escapes the next character).
 */
export function writtenValueMap(document: string, start: number, text: string, quote: '"' | "'"): QueryTextMap {
  const offsets = writtenOffsets(document, start, text.length, quote);
  const end = offsets[offsets.length - 1]!;
  return {
    text,
    toDocument: (index) => offsets[Math.min(Math.max(0, index), offsets.length - 1)]!,
    fromDocument: (offset) => (offset < start || offset > end ? undefined : lastAtOrBefore(offsets, offset)),
  };
}

/** The quote a written value opens with, from the character before its text. */
export function quoteBefore(document: string, start: number): '"' | "'" {
  return document[start - 1] === "'" ? "'" : '"';
}

/** The document offset of each decoded character, and of the end: linear in the value. */
function writtenOffsets(document: string, start: number, length: number, quote: '"' | "'"): number[] {
  const offsets: number[] = [];
  let at = start;
  while (offsets.length < length && at < document.length) {
    offsets.push(at);
    at += escapeLength(document, at, quote);
  }
  while (offsets.length < length) {
    offsets.push(at);
  }
  offsets.push(at);
  return offsets;
}

function escapeLength(document: string, at: number, quote: '"' | "'"): number {
  if (document[at] !== '\\') {
    return 1;
  }
  return quote === '"' && document[at + 1] === 'u' ? 6 : 2;
}

function lastAtOrBefore(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (sorted[middle]! <= value) {
      low = middle;
    } else {
      high = middle - 1;
    }
  }
  return low;
}
