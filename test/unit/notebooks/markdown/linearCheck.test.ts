import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertLinear } from './linearCheck';

/** Work in proportion to `size` times `perItem` (a sum over an array, which the compiler cannot drop). */
function work(size: number, perItem: number): number {
  const values = Array.from({ length: size }, (_, index) => index % 7);
  let sum = 0;
  for (let pass = 0; pass < perItem; pass++) {
    for (const value of values) {
      sum += value;
    }
  }
  return sum;
}

describe('the linear-time check of the Markdown tests', () => {
  test('passes linear work', () => {
    assertLinear('linear', (size) => work(size, 50), 20_000);
  });

  test('fails quadratic work, which is what it is there to catch', () => {
    assert.throws(() => assertLinear('quadratic', (size) => work(size, size), 2_500, 1), /quadratic: .* for 8 times as much/);
  });
});
