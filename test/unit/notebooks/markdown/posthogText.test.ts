import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { lowerBound, lowerBoundNear } from '../../../../src/notebooks/markdown/posthogText';

test('lowerBoundNear finds what lowerBound finds, from any hint, in sorted lists with repeats', () => {
  const sorted = fc.array(fc.integer({ min: -50, max: 50 }), { maxLength: 60 }).map((values) => values.sort((a, b) => a - b));
  fc.assert(
    fc.property(sorted, fc.integer({ min: -60, max: 60 }), fc.integer({ min: -5, max: 70 }), (list, value, hint) => {
      assert.equal(lowerBoundNear(list, value, hint), lowerBound(list, value));
      assert.equal(lowerBoundNear(Int32Array.from(list), value, hint), lowerBound(list, value));
    }),
    { numRuns: 2_000 },
  );
});

test('lowerBoundNear reads a few entries when the answer is near the hint', () => {
  const values = Array.from({ length: 1_000_000 }, (_, index) => index * 2);
  let reads = 0;
  const counted = new Proxy(values, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver);
    },
  });
  assert.equal(lowerBoundNear(counted, 1_001, 500), 501);
  assert.ok(reads <= 6, `${reads} reads`);
  reads = 0;
  assert.equal(lowerBoundNear(counted, 997, 500), 499);
  assert.ok(reads <= 6, `${reads} reads`);
});
