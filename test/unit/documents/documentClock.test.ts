import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ModificationClock } from '../../../src/documents/documentClock';

describe('ModificationClock', () => {
  test('gives strictly increasing times, each at least the floor asked for', () => {
    const clock = new ModificationClock();
    assert.equal(clock.next(1_000), 1_000);
    assert.equal(clock.next(1_000), 1_001, 'the same floor again still moves on');
    assert.equal(clock.next(500), 1_002, 'an older floor does not go back');
    assert.equal(clock.next(5_000), 5_000);
  });

  test('by default, at least now', () => {
    const before = Date.now();
    assert.ok(new ModificationClock().next() >= before);
  });
});
