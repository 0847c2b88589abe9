import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LatestSearch } from '../../../../src/notebooks/lists/latestSearch';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('LatestSearch', () => {
  test('waits for typing to pause, then searches the latest query once', async () => {
    const queries: string[] = [];
    const done = deferred<string>();
    const search = new LatestSearch(
      async (query) => {
        queries.push(query);
        return query;
      },
      { onBusy: () => undefined, onResults: (_q, results) => done.resolve(results), onError: () => undefined },
      20,
    );
    search.update('w');
    search.update('we');
    search.update('wee');
    assert.equal(await done.promise, 'wee');
    assert.deepEqual(queries, ['wee']);
  });

  test('aborts the request of a query typed over and reports only the latest answer', async () => {
    const signals: AbortSignal[] = [];
    const pending = new Map<string, ReturnType<typeof deferred<string>>>();
    const results: string[] = [];
    const latest = deferred<void>();
    const search = new LatestSearch(
      (query, signal) => {
        signals.push(signal);
        const answer = deferred<string>();
        pending.set(query, answer);
        return answer.promise;
      },
      {
        onBusy: () => undefined,
        onResults: (_q, value) => {
          results.push(value);
          latest.resolve();
        },
        onError: () => undefined,
      },
      0,
    );
    search.update('a', true);
    search.update('ab', true);
    assert.equal(signals[0]!.aborted, true);
    assert.equal(signals[1]!.aborted, false);
    pending.get('ab')!.resolve('ab results');
    pending.get('a')!.resolve('a results');
    await latest.promise;
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(results, ['ab results']);
  });

  test('reports errors of the latest query, not of aborted ones', async () => {
    const errors: unknown[] = [];
    const reported = deferred<void>();
    const search = new LatestSearch(
      async (query, signal) => {
        if (query === 'old') {
          await new Promise((resolve) => setTimeout(resolve, 5));
          throw signal.aborted ? new Error('aborted') : new Error('old failed');
        }
        throw new Error('new failed');
      },
      {
        onBusy: () => undefined,
        onResults: () => undefined,
        onError: (_q, error) => {
          errors.push(error);
          reported.resolve();
        },
      },
      0,
    );
    search.update('old', true);
    search.update('new', true);
    await reported.promise;
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(errors.map((error) => (error as Error).message), ['new failed']);
  });
});
