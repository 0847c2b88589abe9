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
