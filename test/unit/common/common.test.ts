import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BusyTracker } from '../../../src/common/busy';
import { AsyncCache } from '../../../src/common/cache';
import { formatRelativeTime } from '../../../src/common/time';
import { projectItemKey, projectKey } from '../../../src/common/keys';

describe('AsyncCache', () => {
  test('shares one load between callers until invalidated', async () => {
    const cache = new AsyncCache<number>();
    let loads = 0;
    const load = async () => ++loads;
    assert.deepEqual(await Promise.all([cache.get('a', load), cache.get('a', load)]), [1, 1]);
    cache.invalidate('a');
    assert.equal(await cache.get('a', load), 2);
  });

  test('does not keep a failure', async () => {
    const cache = new AsyncCache<number>();
    await assert.rejects(cache.get('a', () => Promise.reject(new Error('down'))));
    assert.equal(await cache.get('a', async () => 5), 5);
  });

  test('a caller that aborts stops waiting at once; the load stops when no caller waits any more', async () => {
    const cache = new AsyncCache<number>();
    let loadSignal: AbortSignal | undefined;
    const load = (signal: AbortSignal) => {
      loadSignal = signal;
      return new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => resolve(1), 200);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(signal.reason);
        });
      });
    };
    const first = new AbortController();
    const second = new AbortController();
    const a = cache.get('k', load, first.signal);
    const b = cache.get('k', load, second.signal);
    first.abort();
    await assert.rejects(a, { name: 'AbortError' });
    assert.equal(loadSignal?.aborted, false, 'another caller still waits');
    second.abort();
    await assert.rejects(b, { name: 'AbortError' });
    assert.equal(loadSignal?.aborted, true, 'nobody waits: the load is stopped');
    assert.equal(await cache.get('k', async () => 7), 7, 'and not kept');
  });

  test('a caller without a signal keeps the load going whoever else gives up', async () => {
    const cache = new AsyncCache<number>();
    let loadSignal: AbortSignal | undefined;
    const load = (signal: AbortSignal) => {
      loadSignal = signal;
      return new Promise<number>((resolve) => setTimeout(() => resolve(3), 20));
    };
    const giving = new AbortController();
    const quitter = cache.get('k', load, giving.signal);
    const keeper = cache.get('k', load);
    giving.abort();
    await assert.rejects(quitter, { name: 'AbortError' });
    assert.equal(await keeper, 3);
    assert.equal(loadSignal?.aborted, false);
  });

  test('an already aborted caller gets its reason and starts nothing', async () => {
    const cache = new AsyncCache<number>();
    let loads = 0;
    await assert.rejects(cache.get('k', async () => ++loads, AbortSignal.abort()), { name: 'AbortError' });
    assert.equal(loads, 0);
  });

  test('invalidates by prefix only', async () => {
    const cache = new AsyncCache<string>();
    await cache.get('1?x', async () => 'one');
    await cache.get('12?x', async () => 'twelve');
    cache.invalidate('1?');
    assert.equal(await cache.get('1?x', async () => 'reloaded'), 'reloaded');
    assert.equal(await cache.get('12?x', async () => 'reloaded'), 'twelve');
  });
});

describe('BusyTracker', () => {
  test('is busy while any work runs and reports each change once', async () => {
    const busy = new BusyTracker();
    const changes: boolean[] = [];
    busy.onDidChange((value) => changes.push(value));
    let finish!: () => void;
    const slow = busy.track(new Promise<void>((resolve) => (finish = resolve)));
    await busy.track(Promise.resolve());
    assert.equal(busy.busy, true);
    finish();
    await slow;
    assert.equal(busy.busy, false);
    assert.deepEqual(changes, [true, false]);
  });

  test('is no longer busy after a failure', async () => {
    const busy = new BusyTracker();
    await assert.rejects(busy.track(Promise.reject(new Error('x'))));
    assert.equal(busy.busy, false);
  });
});

describe('formatRelativeTime', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  test('uses the largest unit that fits', () => {
    assert.equal(formatRelativeTime('2026-11-19T12:00:00Z', now), '3 days ago');
    assert.equal(formatRelativeTime('2026-11-22T10:00:00Z', now), '2 hours ago');
    assert.equal(formatRelativeTime('2026-11-22T12:00:00Z', now), 'now');
  });

  test('returns the input when it is not a date', () => {
    assert.equal(formatRelativeTime('soon', now), 'soon');
  });
});

describe('project keys', () => {
  test('a project key and a project item key', () => {
    assert.equal(projectKey('c1', 7), 'c1/7');
    assert.equal(projectItemKey('c1', 7, 'aB3dE5fG'), 'c1/7/aB3dE5fG');
  });
});
