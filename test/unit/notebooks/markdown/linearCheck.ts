import assert from 'node:assert/strict';

/** Eight times the input: linear work takes about 8 times as long, quadratic work 64 times. */
export const GROWTH = 8;
/** The bound on the ratio: far above linear, well below quadratic, so that a busy machine does not fail it. */
const MAX_RATIO = 32;
/** Below this many milliseconds a run is mostly timer noise and start-up, so the ratio is taken against it. */
const FLOOR_MS = 4;
/** Rounds of one small and one large run each, interleaved so both see the same load. */
const ROUNDS = 6;

/** The CPU time of one run, in milliseconds (CPU time, not wall time: other processes on the machine do not count). */
function cpuMs(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/**
 * Asserts that `run(size * GROWTH)` takes well under the 64 times a quadratic path would, against `run(size)`.
 * Each figure is the best of interleaved rounds (a pause for garbage collection or a busy core only ever makes
 * a run slower), and the check passes as soon as the best figures pass: a loaded two-core machine needs a few
 * rounds at worst, a quadratic regression fails every one of them.
 */
export function assertLinear(what: string, run: (size: number) => void, size: number, rounds = ROUNDS): void {
  run(size); // warm up: the first run also compiles
  let small = Infinity;
  let large = Infinity;
  for (let round = 0; round < rounds; round++) {
    small = Math.min(small, cpuMs(() => run(size)));
    large = Math.min(large, cpuMs(() => run(size * GROWTH)));
    if (large < Math.max(small, FLOOR_MS) * MAX_RATIO) {
      return;
    }
  }
  assert.fail(`${what}: ${small.toFixed(1)} ms, then ${large.toFixed(1)} ms for ${GROWTH} times as much (at best of ${rounds} rounds)`);
}
