import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hunksBetween, mergeRegions } from '../../../../src/notebooks/merge/sequenceMerge';

const kinds = (base: string[], ours: string[], theirs: string[]) => mergeRegions(base, ours, theirs).map((region) => region.kind);

describe('sequence merge', () => {
  test('keeps changes to neighbouring items apart, and an insertion before an item the other side changed', () => {
    assert.deepEqual(kinds(['a', 'b', 'c'], ['a', 'B', 'c'], ['a', 'b', 'C']), ['unchanged', 'ours', 'theirs']);
    assert.deepEqual(kinds(['a', 'b'], ['a', 'new', 'b'], ['a', 'B']), ['unchanged', 'ours', 'theirs']);
  });

  test('two insertions at the same place are changed by both, the same way or not', () => {
    assert.deepEqual(kinds(['a', 'b'], ['a', 'x', 'b'], ['a', 'y', 'b']), ['unchanged', 'conflict', 'unchanged']);
    assert.deepEqual(kinds(['a', 'b'], ['a', 'x', 'b'], ['a', 'x', 'b']), ['unchanged', 'both', 'unchanged']);
  });

  test('gives each region its place in all three sequences', () => {
    const [first, changed, last] = mergeRegions(['a', 'b', 'c', 'd'], ['a', 'b1', 'b2', 'c', 'd'], ['a', 'c', 'd']);
    assert.deepEqual(first, { kind: 'unchanged', base: { start: 0, end: 1 }, ours: { start: 0, end: 1 }, theirs: { start: 0, end: 1 } });
    assert.deepEqual(changed, { kind: 'conflict', base: { start: 1, end: 2 }, ours: { start: 1, end: 3 }, theirs: { start: 1, end: 1 } });
    assert.deepEqual(last, { kind: 'unchanged', base: { start: 2, end: 4 }, ours: { start: 3, end: 5 }, theirs: { start: 1, end: 3 } });
  });

  test('finds the exact changes in long sequences it splits at anchors', () => {
    const base = Array.from({ length: 6_000 }, (_, index) => `item ${index}`);
    const side = [...base];
    side[100] = 'changed';
    side.splice(3_000, 2);
    side.splice(5_500, 0, 'inserted');
    assert.deepEqual(hunksBetween(base, side), [
      { baseStart: 100, baseEnd: 101, sideStart: 100, sideEnd: 101 },
      { baseStart: 3_000, baseEnd: 3_002, sideStart: 3_000, sideEnd: 3_000 },
      { baseStart: 5_502, baseEnd: 5_502, sideStart: 5_500, sideEnd: 5_501 },
    ]);
  });

  test('finds the changes in long repeating sequences where no item is unique', () => {
    const base = Array.from({ length: 6_000 }, (_, index) => (index % 2 === 0 ? '---' : `item ${index % 10}`));
    const side = [...base];
    side[11] = 'changed';
    side[4_001] = 'changed too';
    assert.deepEqual(hunksBetween(base, side), [
      { baseStart: 11, baseEnd: 12, sideStart: 11, sideEnd: 12 },
      { baseStart: 4_001, baseEnd: 4_002, sideStart: 4_001, sideEnd: 4_002 },
    ]);
  });
});
