/**
 * PostHog's Markdown diffs (products/notebooks/backend/markdown_collab.py): replaced spans in UTF-16 code
 * units, which JavaScript strings index directly, checked against the CRC-32 of the text they apply to.
 */

export interface TextSpan {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** zlib's CRC-32 table, and seven more for slicing by 8 bytes: four UTF-16 units take eight independent lookups. */
const CRC_TABLES = (() => {
  const tables = Array.from({ length: 8 }, () => new Int32Array(256));
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
    }
    tables[0]![byte] = crc;
  }
  for (let byte = 0; byte < 256; byte++) {
    for (let table = 1; table < 8; table++) {
      const previous = tables[table - 1]![byte]!;
      tables[table]![byte] = (previous >>> 8) ^ tables[0]![previous & 0xff]!;
    }
  }
  return tables;
})();
// Module constants rather than a destructuring (an iterator call) on every call of the CRC loop.
const [CRC0, CRC1, CRC2, CRC3, CRC4, CRC5, CRC6, CRC7] = CRC_TABLES as [Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array];

/** CRC-32 (zlib's) of the text's UTF-16-LE bytes, lone surrogates as they are: PostHog's base_crc. */
export function markdownCrc(text: string): number {
  return continueCrc(0, text);
}

/** The CRC-32 of a text followed by `text`, from the CRC of the text before it. */
function continueCrc(before: number, text: string): number {
  let crc = before ^ -1;
  let index = 0;
  for (const quads = text.length - 3; index < quads; index += 4) {
    const x = crc ^ (text.charCodeAt(index) | (text.charCodeAt(index + 1) << 16));
    const y = text.charCodeAt(index + 2) | (text.charCodeAt(index + 3) << 16);
    crc =
      CRC7[x & 0xff]! ^ CRC6[(x >>> 8) & 0xff]! ^ CRC5[(x >>> 16) & 0xff]! ^ CRC4[x >>> 24]! ^
      CRC3[y & 0xff]! ^ CRC2[(y >>> 8) & 0xff]! ^ CRC1[(y >>> 16) & 0xff]! ^ CRC0[y >>> 24]!;
  }
  for (const pairs = text.length - 1; index < pairs; index += 2) {
    const x = crc ^ (text.charCodeAt(index) | (text.charCodeAt(index + 1) << 16));
    crc = CRC3[x & 0xff]! ^ CRC2[(x >>> 8) & 0xff]! ^ CRC1[(x >>> 16) & 0xff]! ^ CRC0[x >>> 24]!;
  }
  if (index < text.length) {
    const x = crc ^ text.charCodeAt(index);
    crc = CRC1[x & 0xff]! ^ CRC0[(x >>> 8) & 0xff]! ^ (x >>> 16);
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
 * apply or has no CRC to check (the caller then fetches the notebook). Linear in the text plus the updates:
 * the text is kept in chunks that know their CRC, so an update re-reads only the chunks it changes (the CRC
 * of the whole text for every update blocked the host 7.9 s for 1,000 updates of 1 MB).
 */
export function replayUpdates(text: string, updates: readonly TextUpdate[]): string | undefined {
  const chunks = new ChunkedText(text);
  for (const update of updates) {
    if (typeof update.baseCrc !== 'number' || update.baseCrc !== chunks.crc() || !chunks.apply(update.diff)) {
      return undefined;
    }
  }
  return chunks.text();
}

/** About how long a chunk is, in UTF-16 code units. */
const CHUNK = 1_024;
/** How many chunks a group holds, about: a group is split when it holds twice as many. */
const GROUP = 32;
/**
 * Below this many code units a chunk's text is read on from the CRC before it (a few table lookups per unit)
 * rather than combined by multiplyModP (32 rounds): edits leave many short remainders between full chunks.
 */
const SHORT_CHUNK = 48;
const SHORT = -1;
/** CRC-32's polynomial, bits reversed (as markdownCrc reads bytes). */
const POLYNOMIAL = 0xedb88320;

/** a(x)·b(x) modulo the CRC polynomial, both as CRC-32 holds them (bit 31 the lowest power). */
function multiplyModP(a: number, b: number): number {
  let product = 0;
  for (let bit = 0x80000000; bit !== 0; bit >>>= 1) {
    if ((a & bit) !== 0) {
      product ^= b;
      if ((a & (bit - 1)) === 0) break; // no higher power of x left in a
    }
    b = b & 1 ? (b >>> 1) ^ POLYNOMIAL : b >>> 1;
  }
  return product >>> 0;
}

/** x^(2^k) modulo the polynomial, for k from 0. */
const POWERS = (() => {
  const powers = [0x40000000];
  for (let k = 1; k < 64; k++) {
    powers.push(multiplyModP(powers[k - 1]!, powers[k - 1]!));
  }
  return powers;
})();

/** x^(8·bytes) modulo the polynomial: what a CRC is multiplied by when `bytes` bytes follow its text. */
function shiftFor(bytes: number): number {
  let power = 0x80000000;
  for (let k = 3; bytes > 0; bytes = Math.floor(bytes / 2), k++) {
    if (bytes % 2 === 1) {
      power = multiplyModP(POWERS[k]!, power);
    }
  }
  return power;
}

/** Multiplication by x^(8·2·CHUNK) as four byte tables (it is linear): a full chunk's shift in four lookups. */
const CHUNK_SHIFT_TABLES = (() => {
  const shift = shiftFor(2 * CHUNK);
  return [0, 8, 16, 24].map((bits) => Int32Array.from({ length: 256 }, (_, byte) => multiplyModP(shift, byte << bits)));
})();

const [SHIFT0, SHIFT1, SHIFT2, SHIFT3] = CHUNK_SHIFT_TABLES as [Int32Array, Int32Array, Int32Array, Int32Array];

function shiftByChunk(crc: number): number {
  return (SHIFT0[crc & 0xff]! ^ SHIFT1[(crc >>> 8) & 0xff]! ^ SHIFT2[(crc >>> 16) & 0xff]! ^ SHIFT3[crc >>> 24]!) >>> 0;
}

interface Chunk {
  readonly text: string;
  readonly crc: number;
  /**
   * What a CRC is multiplied by when this chunk follows its text; none for a full chunk (shiftByChunk), SHORT
   * for a chunk so short that reading its text on from the CRC before it is faster than a multiplication.
   */
  readonly shift?: number;
}

/**
 * A text as groups of chunks, each knowing its CRC: an update re-reads only the chunks it changes and
 * re-combines only their group, and the whole text's CRC is combined from the groups'. Small chunks keep
 * the text an update re-reads short; groups keep the combining short (one multiplication per group).
 */
class ChunkedText {
  private groups: ChunkGroup[];
  private length: number;
  /**
   * The CRC of the text before each group, known for the groups up to `knownPrefixes`: an update changes
   * the CRCs only from its first group on.
   */
  private readonly prefixes: number[] = [0];
  private knownPrefixes = 1;

  constructor(text: string) {
    this.groups = groupsOf(chunksOf(text));
    this.length = text.length;
  }

  crc(): number {
    const { groups, prefixes } = this;
    let crc = prefixes[this.knownPrefixes - 1]!;
    for (let index = this.knownPrefixes - 1; index < groups.length; index++) {
      const group = groups[index]!;
      crc = (multiplyModP(group.shift, crc) ^ group.crc) >>> 0;
      prefixes[index + 1] = crc;
    }
    this.knownPrefixes = groups.length + 1;
    return crc;
  }

  text(): string {
    const parts: string[] = [];
    for (const group of this.groups) {
      for (const chunk of group.chunks) parts.push(chunk.text);
    }
    return parts.join('');
  }

  /** Applies the spans (in order, not overlapping, within the text); false when they do not fit. */
  apply(spans: readonly TextSpan[]): boolean {
    if (!spansFit(spans, this.length)) {
      return false;
    }
    const starts = this.joinGroupsAcross(spans);
    const byGroup = new Map<number, TextSpan[]>();
    for (const span of spans) {
      const index = indexAt(starts, span.start);
      const start = starts[index] ?? 0;
      const relative = { start: span.start - start, end: span.end - start, text: span.text };
      const known = byGroup.get(index);
      if (known) known.push(relative);
      else byGroup.set(index, [relative]);
      this.length += span.text.length - (span.end - span.start);
    }
    let firstChanged = this.groups.length;
    for (const [index, groupSpans] of byGroup) {
      this.groups[index]!.apply(groupSpans);
      firstChanged = Math.min(firstChanged, index);
    }
    this.knownPrefixes = Math.min(this.knownPrefixes, firstChanged + 1);
    this.splitFullGroups([...byGroup.keys()]);
    return true;
  }

  /**
   * A span that starts in one group and ends in another makes them one group, so that each span is in one.
   * Gives where each group then starts.
   */
  private joinGroupsAcross(spans: readonly TextSpan[]): number[] {
    let starts = groupStarts(this.groups);
    for (const span of spans) {
      const first = indexAt(starts, span.start);
      const last = span.end > span.start ? indexAt(starts, span.end - 1) : first;
      if (last > first) {
        const joined = new ChunkGroup(this.groups.slice(first, last + 1).flatMap((group) => group.chunks));
        this.groups.splice(first, last + 1 - first, joined);
        this.knownPrefixes = Math.min(this.knownPrefixes, first + 1);
        starts = groupStarts(this.groups);
      }
    }
    return starts;
  }

  /** Groups grown past twice their size are split (from the last, so that the indices before stay). */
  private splitFullGroups(changed: number[]): void {
    let chunkCount = 0;
    for (const index of changed.sort((a, b) => b - a)) {
      const group = this.groups[index]!;
      if (group.chunks.length > 2 * GROUP) {
        this.groups.splice(index, 1, ...groupsOf(group.chunks));
      } else if (group.chunks.length === 0 && this.groups.length > 1) {
        this.groups.splice(index, 1);
      }
    }
    for (const group of this.groups) chunkCount += group.chunks.length;
    // Edits leave short chunks behind; when they outnumber the full ones, the text is cut afresh.
    if (chunkCount > 4 * (this.length / CHUNK + 1)) {
      this.groups = groupsOf(chunksOf(this.text()));
      this.knownPrefixes = 1;
    }
  }
}

/** A run of chunks with the CRC of their text alone, and the multiplier that moves a CRC past it. */
class ChunkGroup {
  length = 0;
  crc = 0;
  shift = 0;

  constructor(public chunks: Chunk[]) {
    this.refresh();
  }

  /** Applies spans relative to the group's text (in order, within it). */
  apply(spans: readonly TextSpan[]): void {
    const starts = chunkStarts(this.chunks);
    const regions = regionsOf(spans, starts, this.chunks);
    // From the last region back, so that the chunks before a region keep their places.
    for (let index = regions.length - 1; index >= 0; index--) {
      const { first, end, spans: regionSpans } = regions[index]!;
      const regionStart = starts[first] ?? this.length;
      const region = this.chunks.slice(first, end).map((chunk) => chunk.text).join('');
      const relative = regionSpans.map((span) => ({ start: span.start - regionStart, end: span.end - regionStart, text: span.text }));
      this.chunks = spliceChunks(this.chunks, first, end, chunksOf(applySpans(region, relative)!));
    }
    this.refresh();
  }

  private refresh(): void {
    let crc = 0;
    let length = 0;
    for (const chunk of this.chunks) {
      crc = combineChunk(crc, chunk);
      length += chunk.text.length;
    }
    this.crc = crc;
    this.length = length;
    this.shift = shiftFor(2 * length);
  }
}

function combineChunk(before: number, chunk: Chunk): number {
  if (chunk.shift === undefined) return (shiftByChunk(before) ^ chunk.crc) >>> 0;
  if (chunk.shift === SHORT) return continueCrc(before, chunk.text);
  return (multiplyModP(chunk.shift, before) ^ chunk.crc) >>> 0;
}

function groupsOf(chunks: Chunk[]): ChunkGroup[] {
  const groups: ChunkGroup[] = [];
  for (let start = 0; start < chunks.length; start += GROUP) {
    groups.push(new ChunkGroup(chunks.slice(start, start + GROUP)));
  }
  return groups.length > 0 ? groups : [new ChunkGroup([])];
}

/**
 * The runs of chunks the spans change, in order: the chunk each span starts in (an insertion at a boundary:
 * the chunk after it) to the one it ends in, runs that meet joined, each taking in the short chunks after it.
 */
function regionsOf(spans: readonly TextSpan[], starts: readonly number[], chunks: readonly Chunk[]): Region[] {
  const regions: Region[] = [];
  for (const span of spans) {
    const first = indexAt(starts, span.start);
    const last = span.end > span.start ? indexAt(starts, span.end - 1) : first;
    const previous = regions[regions.length - 1];
    if (previous && first <= previous.end) {
      previous.end = Math.max(previous.end, last + 1);
      previous.spans.push(span);
    } else {
      regions.push({ first, end: last + 1, spans: [span] });
    }
    const region = regions[regions.length - 1]!;
    while (region.end < chunks.length && chunks[region.end]!.text.length < CHUNK / 2) {
      region.end++;
    }
  }
  return regions;
}

interface Region {
  readonly first: number;
  /** Exclusive. */
  end: number;
  readonly spans: TextSpan[];
}

/** Where each group starts in the text. */
function groupStarts(groups: readonly ChunkGroup[]): number[] {
  const starts = new Array<number>(groups.length);
  let total = 0;
  for (let index = 0; index < groups.length; index++) {
    starts[index] = total;
    total += groups[index]!.length;
  }
  return starts;
}

/** Where each chunk starts in its group's text. */
function chunkStarts(chunks: readonly Chunk[]): number[] {
  const starts = new Array<number>(chunks.length);
  let total = 0;
  for (let index = 0; index < chunks.length; index++) {
    starts[index] = total;
    total += chunks[index]!.text.length;
  }
  return starts;
}

/** The chunks with those from `first` to `end` (exclusive) replaced. */
function spliceChunks(chunks: Chunk[], first: number, end: number, replacement: Chunk[]): Chunk[] {
  if (replacement.length > 1_000) {
    // A big paste: no spread of that many arguments.
    return chunks.slice(0, first).concat(replacement, chunks.slice(end));
  }
  chunks.splice(first, end - first, ...replacement);
  return chunks;
}

function spansFit(spans: readonly TextSpan[], length: number): boolean {
  let cursor = 0;
  for (const span of spans) {
    if (!Number.isInteger(span.start) || !Number.isInteger(span.end) || span.start < cursor || span.start > span.end || span.end > length) {
      return false;
    }
    cursor = span.end;
  }
  return true;
}

/** The part holding `position` (the last part's end counts as in it; with no parts, 0). */
function indexAt(starts: readonly number[], position: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= position) low = middle;
    else high = middle - 1;
  }
  return Math.max(0, low);
}

function chunksOf(text: string): Chunk[] {
  const chunks: Chunk[] = [];
  for (let start = 0; start < text.length; start += CHUNK) {
    // A remainder too short for a chunk of its own goes with the chunk before it: every short chunk is read
    // again each time its group is combined, and an update used to leave one behind.
    const end = text.length - (start + CHUNK) < SHORT_CHUNK ? text.length : start + CHUNK;
    const piece = text.slice(start, end);
    const crc = markdownCrc(piece);
    chunks.push(piece.length === CHUNK ? { text: piece, crc } : { text: piece, crc, shift: piece.length < SHORT_CHUNK ? SHORT : shiftFor(2 * piece.length) });
    start = end - CHUNK;
  }
  return chunks;
}
