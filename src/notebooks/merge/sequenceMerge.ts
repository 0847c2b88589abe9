import { diffIndices } from 'node-diff3';

/**
 * A three-way merge of two sequences derived from a common base, item by item, compared by key (blocks of
 * Markdown, lines, or JSON nodes as canonical text). The longest common subsequence is node-diff3's; this
 * module only trims what is common, splits long sequences at unchanged anchors (node-diff3's LCS is
 * quadratic on long, nearly equal sequences) and groups the two sides' changes into regions.
 */

/** Half-open index range [start, end). */
export interface Span {
  readonly start: number;
  readonly end: number;
}

export type RegionKind =
  /** Equal on all three sides. */
  | 'unchanged'
  /** Changed by ours only. */
  | 'ours'
  /** Changed by theirs only. */
  | 'theirs'
  /** Changed by both, the same way. */
  | 'both'
  /** Changed by both, differently. */
  | 'conflict';

/** A stretch of the merge, with where it is in each of the three sequences. */
export interface Region {
  readonly kind: RegionKind;
  readonly base: Span;
  readonly ours: Span;
  readonly theirs: Span;
}

/** A change of one side: base[baseStart, baseEnd) became side[sideStart, sideEnd). */
interface Hunk {
  readonly baseStart: number;
  readonly baseEnd: number;
  readonly sideStart: number;
  readonly sideEnd: number;
}

/**
 * node-diff3's LCS takes time in proportion to the pairs of equal items times the common length, so above
 * this many items, or this many pairs of equal items (text repeating the same blocks or lines), a segment
 * is split at an anchor first; a segment that still cannot be split is taken as one change.
 */
const LARGEST_DIRECT_DIFF = 250;
const MOST_EQUAL_PAIRS = 50_000;
/** How far from a segment's middle an anchor is looked for. */
const ANCHOR_SEARCH = 200;
/** Items on each side of an anchor that must be equal when it is not unique. */
const ANCHOR_WINDOW = 4;

/**
 * The regions of a three-way merge, in order, covering the three sequences completely. Changes of the two
 * sides that touch without overlapping (one edits item 3, the other item 4; one inserts before an item the
 * other edits) are separate regions; only changes of the same items, or two insertions at the same place,
 * make a region changed by both.
 */
export function mergeRegions(base: readonly string[], ours: readonly string[], theirs: readonly string[]): Region[] {
  const numbers = new ItemNumbers();
  const [baseIds, oursIds, theirsIds] = [numbers.idsOf(base), numbers.idsOf(ours), numbers.idsOf(theirs)];
  const oursHunks = collectAllHunks(numbers.numbered(baseIds, oursIds));
  const theirsHunks = collectAllHunks(numbers.numbered(baseIds, theirsIds));
  const regions: Region[] = [];
  const cursor = { base: 0, oursDelta: 0, theirsDelta: 0 };
  const pushUnchanged = (end: number): void => {
    if (end > cursor.base) {
      regions.push({
        kind: 'unchanged',
        base: { start: cursor.base, end },
        ours: { start: cursor.base + cursor.oursDelta, end: end + cursor.oursDelta },
        theirs: { start: cursor.base + cursor.theirsDelta, end: end + cursor.theirsDelta },
      });
    }
  };
  for (const group of groupOverlapping(oursHunks, theirsHunks)) {
    // reduce, not Math.min(...): a group of many hunks would overflow the call stack as arguments.
    const start = group.reduce((least, { hunk }) => Math.min(least, hunk.baseStart), Infinity);
    const end = group.reduce((most, { hunk }) => Math.max(most, hunk.baseEnd), -Infinity);
    pushUnchanged(start);
    const oursStart = start + cursor.oursDelta;
    const theirsStart = start + cursor.theirsDelta;
    for (const { side, hunk } of group) {
      const delta = hunk.sideEnd - hunk.sideStart - (hunk.baseEnd - hunk.baseStart);
      if (side === 'ours') {
        cursor.oursDelta += delta;
      } else {
        cursor.theirsDelta += delta;
      }
    }
    const spans = {
      base: { start, end },
      ours: { start: oursStart, end: end + cursor.oursDelta },
      theirs: { start: theirsStart, end: end + cursor.theirsDelta },
    };
    regions.push({ kind: kindOf(group, spans, base, ours, theirs), ...spans });
    cursor.base = end;
  }
  pushUnchanged(base.length);
  return regions;
}

function kindOf(
  group: readonly SidedHunk[],
  spans: { base: Span; ours: Span; theirs: Span },
  base: readonly string[],
  ours: readonly string[],
  theirs: readonly string[],
): RegionKind {
  const oursChanged = group.some(({ side }) => side === 'ours') && !sameItems(ours, spans.ours, base, spans.base);
  const theirsChanged = group.some(({ side }) => side === 'theirs') && !sameItems(theirs, spans.theirs, base, spans.base);
  if (oursChanged && theirsChanged) {
    return sameItems(ours, spans.ours, theirs, spans.theirs) ? 'both' : 'conflict';
  }
  return oursChanged ? 'ours' : theirsChanged ? 'theirs' : 'unchanged';
}

function sameItems(a: readonly string[], aSpan: Span, b: readonly string[], bSpan: Span): boolean {
  if (aSpan.end - aSpan.start !== bSpan.end - bSpan.start) {
    return false;
  }
  for (let offset = 0; offset < aSpan.end - aSpan.start; offset++) {
    if (a[aSpan.start + offset] !== b[bSpan.start + offset]) {
      return false;
    }
  }
  return true;
}

interface SidedHunk {
  readonly side: 'ours' | 'theirs';
  readonly hunk: Hunk;
}

/** The two sides' hunks in base order (insertions before changes starting at the same item), grouped where they overlap. */
function groupOverlapping(oursHunks: readonly Hunk[], theirsHunks: readonly Hunk[]): SidedHunk[][] {
  const all: SidedHunk[] = [
    ...oursHunks.map((hunk) => ({ side: 'ours' as const, hunk })),
    ...theirsHunks.map((hunk) => ({ side: 'theirs' as const, hunk })),
  ].sort((a, b) => a.hunk.baseStart - b.hunk.baseStart || length(a.hunk) - length(b.hunk));
  const groups: SidedHunk[][] = [];
  let current: SidedHunk[] = [];
  let currentStart = 0;
  let currentEnd = 0;
  for (const sided of all) {
    const { baseStart, baseEnd } = sided.hunk;
    const overlaps =
      current.length > 0 &&
      (baseStart < currentEnd || (baseStart === currentEnd && currentStart === currentEnd && baseStart === baseEnd));
    if (overlaps) {
      current.push(sided);
      currentEnd = Math.max(currentEnd, baseEnd);
    } else {
      if (current.length > 0) {
        groups.push(current);
      }
      current = [sided];
      currentStart = baseStart;
      currentEnd = baseEnd;
    }
  }
  if (current.length > 0) {
    groups.push(current);
  }
  return groups;
}

function length(hunk: Hunk): number {
  return hunk.baseEnd - hunk.baseStart;
}

/** The changes turning base into side, in order. */
export function hunksBetween(base: readonly string[], side: readonly string[]): Hunk[] {
  const numbers = new ItemNumbers();
  const baseIds = numbers.idsOf(base);
  return collectAllHunks(numbers.numbered(baseIds, numbers.idsOf(side)));
}

function collectAllHunks(items: Numbered): Hunk[] {
  const hunks: Hunk[] = [];
  collectHunks(items, { start: 0, end: items.baseIds.length }, { start: 0, end: items.sideIds.length }, hunks);
  return hunks;
}

/**
 * Two sequences with each distinct item numbered once, so that splitting a long diff compares and counts
 * numbers (each level of the split counts its whole segment: hashing every item there again made a merge of
 * 40,000 paragraphs take a second).
 */
interface Numbered {
  readonly baseIds: Int32Array;
  readonly sideIds: Int32Array;
  /** Counts by item number, all zero between uses. */
  readonly baseCounts: Int32Array;
  readonly sideCounts: Int32Array;
  /** Where an item counted in sideCounts last was in side. */
  readonly sidePositions: Int32Array;
}

/** Numbers for items, equal items equal numbers; a merge numbers its three sequences once, base shared by both diffs. */
class ItemNumbers {
  private readonly numbers = new Map<string, number>();

  /** A loop, not Int32Array.from with a mapping function, which goes through an iterator result per item. */
  idsOf(items: readonly string[]): Int32Array {
    const ids = new Int32Array(items.length);
    for (let index = 0; index < items.length; index++) {
      const item = items[index]!;
      let id = this.numbers.get(item);
      if (id === undefined) {
        id = this.numbers.size;
        this.numbers.set(item, id);
      }
      ids[index] = id;
    }
    return ids;
  }

  numbered(baseIds: Int32Array, sideIds: Int32Array): Numbered {
    const size = this.numbers.size;
    return { baseIds, sideIds, baseCounts: new Int32Array(size), sideCounts: new Int32Array(size), sidePositions: new Int32Array(size) };
  }
}

function collectHunks(items: Numbered, baseSpan: Span, sideSpan: Span, hunks: Hunk[]): void {
  const { baseIds, sideIds } = items;
  let { start: baseStart, end: baseEnd } = baseSpan;
  let { start: sideStart, end: sideEnd } = sideSpan;
  while (baseStart < baseEnd && sideStart < sideEnd && baseIds[baseStart] === sideIds[sideStart]) {
    baseStart++;
    sideStart++;
  }
  while (baseEnd > baseStart && sideEnd > sideStart && baseIds[baseEnd - 1] === sideIds[sideEnd - 1]) {
    baseEnd--;
    sideEnd--;
  }
  if (baseStart === baseEnd && sideStart === sideEnd) {
    return;
  }
  if (baseStart === baseEnd || sideStart === sideEnd) {
    hunks.push({ baseStart, baseEnd, sideStart, sideEnd });
    return;
  }
  const trimmedBase = { start: baseStart, end: baseEnd };
  const trimmedSide = { start: sideStart, end: sideEnd };
  const tooLong = Math.max(baseEnd - baseStart, sideEnd - sideStart) > LARGEST_DIRECT_DIFF;
  const tooRepetitive = !tooLong && equalPairs(items, trimmedBase, trimmedSide) > MOST_EQUAL_PAIRS;
  if (tooLong || tooRepetitive) {
    const anchor =
      findUniqueAnchor(items, trimmedBase, trimmedSide, true) ?? findAlignedAnchor(items, trimmedBase, trimmedSide) ?? findUniqueAnchor(items, trimmedBase, trimmedSide, false);
    if (anchor) {
      collectHunks(items, { start: baseStart, end: anchor.base }, { start: sideStart, end: anchor.side }, hunks);
      collectHunks(items, { start: anchor.base + 1, end: baseEnd }, { start: anchor.side + 1, end: sideEnd }, hunks);
      return;
    }
    if (tooRepetitive || equalPairs(items, trimmedBase, trimmedSide) > MOST_EQUAL_PAIRS) {
      hunks.push({ baseStart, baseEnd, sideStart, sideEnd });
      return;
    }
  }
  // Numbers stand for the items (equal numbers, equal items): node-diff3 keys an object by them, cheaper than by long text.
  for (const found of diffIndices(plainArray(items.baseIds, baseStart, baseEnd), plainArray(items.sideIds, sideStart, sideEnd))) {
    hunks.push({
      baseStart: baseStart + found.buffer1[0],
      baseEnd: baseStart + found.buffer1[0] + found.buffer1[1],
      sideStart: sideStart + found.buffer2[0],
      sideEnd: sideStart + found.buffer2[0] + found.buffer2[1],
    });
  }
}

/**
 * An item near the middle of the base segment that appears exactly once in each segment, to split the diff
 * at. `withNeighbours`: only one whose neighbours are equal on both sides too (so it is most likely not a moved
 * item); without, any unique item (as patience diff splits), for text where every other item changed.
 * Splitting at a moved item may give a longer diff than the best one, never a wrong one.
 */
function findUniqueAnchor(items: Numbered, baseSpan: Span, sideSpan: Span, withNeighbours: boolean): Anchor | undefined {
  const { baseIds, sideIds, baseCounts, sideCounts, sidePositions } = items;
  count(baseIds, baseSpan, baseCounts);
  count(sideIds, sideSpan, sideCounts, sidePositions);
  try {
    const middle = Math.floor((baseSpan.start + baseSpan.end) / 2);
    for (let distance = 0; distance < ANCHOR_SEARCH; distance++) {
      for (const index of [middle - distance, middle + distance]) {
        if (index <= baseSpan.start || index >= baseSpan.end - 1) {
          continue;
        }
        const item = baseIds[index]!;
        if (baseCounts[item] !== 1 || sideCounts[item] !== 1) {
          continue;
        }
        const sideIndex = sidePositions[item]!;
        if (
          sideIndex > sideSpan.start &&
          sideIndex < sideSpan.end - 1 &&
          (!withNeighbours || (baseIds[index - 1] === sideIds[sideIndex - 1] && baseIds[index + 1] === sideIds[sideIndex + 1]))
        ) {
          return { base: index, side: sideIndex };
        }
      }
    }
    return undefined;
  } finally {
    uncount(baseIds, baseSpan, baseCounts);
    uncount(sideIds, sideSpan, sideCounts);
  }
}

/**
 * For repeating text, where nothing is unique: an item with the same items around it at the same distance
 * from the segment's start, or from its end, on both sides (true where the changes before it, or after it,
 * kept the length).
 */
function findAlignedAnchor(items: Numbered, baseSpan: Span, sideSpan: Span): Anchor | undefined {
  const length = baseSpan.end - baseSpan.start;
  const offsets = [sideSpan.start - baseSpan.start, sideSpan.end - baseSpan.end];
  for (const fraction of [1 / 2, 1 / 4, 3 / 4, 1 / 8, 3 / 8, 5 / 8, 7 / 8]) {
    const index = baseSpan.start + Math.floor(length * fraction);
    for (const offset of offsets) {
      if (windowsMatch(items, baseSpan, index, sideSpan, index + offset)) {
        return { base: index, side: index + offset };
      }
    }
  }
  return undefined;
}

function windowsMatch(items: Numbered, baseSpan: Span, index: number, sideSpan: Span, sideIndex: number): boolean {
  for (let distance = -ANCHOR_WINDOW; distance <= ANCHOR_WINDOW; distance++) {
    const [a, b] = [index + distance, sideIndex + distance];
    if (a < baseSpan.start || a >= baseSpan.end || b < sideSpan.start || b >= sideSpan.end || items.baseIds[a] !== items.sideIds[b]) {
      return false;
    }
  }
  return true;
}

/** How many pairs of equal items the two segments have (what node-diff3's LCS works through). */
function equalPairs(items: Numbered, baseSpan: Span, sideSpan: Span): number {
  const { baseIds, sideIds, sideCounts } = items;
  count(sideIds, sideSpan, sideCounts);
  let pairs = 0;
  for (let index = baseSpan.start; index < baseSpan.end; index++) {
    pairs += sideCounts[baseIds[index]!]!;
  }
  uncount(sideIds, sideSpan, sideCounts);
  return pairs;
}

interface Anchor {
  readonly base: number;
  readonly side: number;
}

/** ids[start, end) as a plain array (node-diff3 takes arrays); a loop, as Array.from reads a typed array through an iterator. */
function plainArray(ids: Int32Array, start: number, end: number): number[] {
  const items = new Array<number>(end - start);
  for (let index = start; index < end; index++) {
    items[index - start] = ids[index]!;
  }
  return items;
}

function count(ids: Int32Array, span: Span, counts: Int32Array, positions?: Int32Array): void {
  for (let index = span.start; index < span.end; index++) {
    const id = ids[index]!;
    counts[id]!++;
    if (positions) {
      positions[id] = index;
    }
  }
}

function uncount(ids: Int32Array, span: Span, counts: Int32Array): void {
  for (let index = span.start; index < span.end; index++) {
    counts[ids[index]!] = 0;
  }
}

/**
 * A conflict region narrowed as git's "zealous" merge does, for when merging it finer failed: items both
 * sides begin or end it with are taken once. If then one side has nothing left, the other side's rest is
 * taken when it is all new and the items both share are at least as many as the base had there (both made
 * the same change, one side also inserted: a retried save the user kept editing after); the empty side wins
 * when that rest is all base items left as they were (it deleted them). Anything else stays a conflict,
 * around just what differs.
 */
export function narrowConflict(region: Region, base: readonly string[], ours: readonly string[], theirs: readonly string[]): Region[] {
  let prefix = 0;
  const shorter = Math.min(region.ours.end - region.ours.start, region.theirs.end - region.theirs.start);
  while (prefix < shorter && ours[region.ours.start + prefix] === theirs[region.theirs.start + prefix]) {
    prefix++;
  }
  let suffix = 0;
  while (suffix < shorter - prefix && ours[region.ours.end - 1 - suffix] === theirs[region.theirs.end - 1 - suffix]) {
    suffix++;
  }
  const middle = {
    base: region.base,
    ours: { start: region.ours.start + prefix, end: region.ours.end - suffix },
    theirs: { start: region.theirs.start + prefix, end: region.theirs.end - suffix },
  };
  const regions: Region[] = [];
  if (prefix > 0) {
    const at = { start: region.base.start, end: region.base.start };
    regions.push({ kind: 'both', base: at, ours: { start: region.ours.start, end: middle.ours.start }, theirs: { start: region.theirs.start, end: middle.theirs.start } });
  }
  regions.push({ kind: middleKind(middle, prefix + suffix, base, ours, theirs), ...middle });
  if (suffix > 0) {
    const at = { start: region.base.end, end: region.base.end };
    regions.push({ kind: 'both', base: at, ours: { start: middle.ours.end, end: region.ours.end }, theirs: { start: middle.theirs.end, end: region.theirs.end } });
  }
  return regions;
}

function middleKind(
  middle: { base: Span; ours: Span; theirs: Span },
  shared: number,
  base: readonly string[],
  ours: readonly string[],
  theirs: readonly string[],
): RegionKind {
  const oursEmpty = middle.ours.end === middle.ours.start;
  const theirsEmpty = middle.theirs.end === middle.theirs.start;
  if (oursEmpty === theirsEmpty) {
    return oursEmpty ? 'both' : 'conflict';
  }
  const [rest, restSpan] = oursEmpty ? [theirs, middle.theirs] : [ours, middle.ours];
  const baseItems = new Set(base.slice(middle.base.start, middle.base.end));
  const restItems = rest.slice(restSpan.start, restSpan.end);
  if (shared >= middle.base.end - middle.base.start && restItems.every((item) => !baseItems.has(item))) {
    return oursEmpty ? 'theirs' : 'ours';
  }
  if (restItems.every((item) => baseItems.has(item))) {
    return oursEmpty ? 'ours' : 'theirs';
  }
  return 'conflict';
}
