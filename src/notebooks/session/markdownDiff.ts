/**
 * PostHog's Markdown diffs (products/notebooks/backend/markdown_collab.py): replaced spans in UTF-16 code
 * units, which JavaScript strings index directly, checked against the CRC-32 of the text they apply to.
 */

export interface TextSpan {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
    }
    table[byte] = crc;
  }
  return table;
})();

/** CRC-32 (zlib's) of the text's UTF-16-LE bytes, lone surrogates as they are: PostHog's base_crc. */
export function markdownCrc(text: string): number {
  let crc = -1;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    crc = CRC_TABLE[(crc ^ unit) & 0xff]! ^ (crc >>> 8);
    crc = CRC_TABLE[(crc ^ (unit >>> 8)) & 0xff]! ^ (crc >>> 8);
  }
  return (crc ^ -1) >>> 0;
}

/** The text with the spans applied, or undefined when they do not fit it (out of order, overlapping, past its end). */
export function applySpans(text: string, spans: readonly TextSpan[]): string | undefined {
  const parts: string[] = [];
  let cursor = 0;
  for (const span of spans) {
    if (!Number.isInteger(span.start) || !Number.isInteger(span.end) || span.start < cursor || span.start > span.end || span.end > text.length) {
      return undefined;
    }
    parts.push(text.slice(cursor, span.start), span.text);
    cursor = span.end;
  }
  parts.push(text.slice(cursor));
  return parts.join('');
}

/** One update of a Markdown text: its spans, and the CRC of the text they apply to. */
export interface TextUpdate {
  readonly diff: readonly TextSpan[];
  readonly baseCrc?: number | null;
}

/**
 * The text after the updates in order, each checked against its base CRC; undefined as soon as one does not
 * apply or has no CRC to check (the caller then fetches the notebook).
 */
export function replayUpdates(text: string, updates: readonly TextUpdate[]): string | undefined {
  let current: string | undefined = text;
  for (const update of updates) {
    if (current === undefined || typeof update.baseCrc !== 'number' || update.baseCrc !== markdownCrc(current)) {
      return undefined;
    }
    current = applySpans(current, update.diff);
  }
  return current;
}
