import { diffIndices } from 'node-diff3';

/**
 * Which items of two sequences of block texts are the same block, in order: pairs [index in a, index in
 * b], both increasing. A longest common subsequence (node-diff3's) once the common ends are set aside and
 * what remains is small; on long stretches (whose LCS would take minutes) texts found exactly once on each
 * side become anchors (in the order both sides keep, as patience diff does) and each stretch between them
 * is aligned the same way. A huge stretch without anchors is left unmatched: each of its blocks then reads
 * as edited, which is safe (nothing is kept that was not matched).
 */
export function alignBlocks(a: readonly string[], b: readonly string[]): [number, number][] {
  const pairs: [number, number][] = [];
  alignRange(a, b, { aStart: 0, aEnd: a.length, bStart: 0, bEnd: b.length }, pairs);
  return pairs;
}

interface Range {
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

const LCS_LIMIT = 250_000;

function alignRange(a: readonly string[], b: readonly string[], range: Range, pairs: [number, number][]): void {
  let { aStart, aEnd, bStart, bEnd } = range;
  while (aStart < aEnd && bStart < bEnd && a[aStart] === b[bStart]) {
    pairs.push([aStart++, bStart++]);
  }
  const suffix: [number, number][] = [];
  while (aEnd > aStart && bEnd > bStart && a[aEnd - 1] === b[bEnd - 1]) {
    suffix.push([--aEnd, --bEnd]);
  }
  const small = (aEnd - aStart) * (bEnd - bStart) <= LCS_LIMIT;
  if (aStart < aEnd && bStart < bEnd && small) {
    pairs.push(...commonSubsequence(a.slice(aStart, aEnd), b.slice(bStart, bEnd)).map(([i, j]): [number, number] => [aStart + i, bStart + j]));
  } else if (aStart < aEnd && bStart < bEnd) {
    const anchors = uniqueAnchors(a, b, { aStart, aEnd, bStart, bEnd });
    if (anchors.length > 0) {
      let aAt = aStart;
      let bAt = bStart;
      for (const [aIndex, bIndex] of anchors) {
        alignRange(a, b, { aStart: aAt, aEnd: aIndex, bStart: bAt, bEnd: bIndex }, pairs);
        pairs.push([aIndex, bIndex]);
        aAt = aIndex + 1;
        bAt = bIndex + 1;
      }
      alignRange(a, b, { aStart: aAt, aEnd, bStart: bAt, bEnd }, pairs);
    }
  }
  pairs.push(...suffix.reverse());
}

/** Texts found once in each side's range, as pairs, keeping the longest run both sides have in the same order. */
function uniqueAnchors(a: readonly string[], b: readonly string[], range: Range): [number, number][] {
  const counts = new Map<string, { a: number; b: number; aIndex: number; bIndex: number }>();
  for (let index = range.aStart; index < range.aEnd; index++) {
    const entry = counts.get(a[index]!) ?? { a: 0, b: 0, aIndex: index, bIndex: -1 };
    entry.a++;
    counts.set(a[index]!, entry);
  }
  for (let index = range.bStart; index < range.bEnd; index++) {
    const entry = counts.get(b[index]!);
    if (entry) {
      entry.b++;
      entry.bIndex = index;
    }
  }
  const candidates = [...counts.values()]
    .filter((entry) => entry.a === 1 && entry.b === 1)
    .map((entry): [number, number] => [entry.aIndex, entry.bIndex])
    .sort((x, y) => x[1] - y[1]);
  return longestIncreasing(candidates);
}

/** The longest run of pairs (ordered by their second index) whose first indexes increase too. */
function longestIncreasing(pairs: [number, number][]): [number, number][] {
  const tails: number[] = [];
  const previous: number[] = new Array<number>(pairs.length).fill(-1);
  pairs.forEach(([aIndex], index) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (pairs[tails[middle]!]![0] < aIndex) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    previous[index] = low > 0 ? tails[low - 1]! : -1;
    tails[low] = index;
  });
  const result: [number, number][] = [];
  for (let index = tails.length > 0 ? tails[tails.length - 1]! : -1; index !== -1; index = previous[index]!) {
    result.push(pairs[index]!);
  }
  return result.reverse();
}

/** The items both sides keep, by node-diff3's LCS: everything outside its changes. */
function commonSubsequence(a: string[], b: string[]): [number, number][] {
  const pairs: [number, number][] = [];
  let aAt = 0;
  let bAt = 0;
  const keepUntil = (aEnd: number) => {
    for (; aAt < aEnd; aAt++, bAt++) {
      pairs.push([aAt, bAt]);
    }
  };
  for (const change of diffIndices(a, b)) {
    keepUntil(change.buffer1[0]);
    aAt = change.buffer1[0] + change.buffer1[1];
    bAt = change.buffer2[0] + change.buffer2[1];
  }
  keepUntil(a.length);
  return pairs;
}
