import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ListLimitError, UnsafeNextUrlError } from '../../../src/api';
import { collectAll, HTTP_NEXT_LINK_NOTE, iteratePages, mapConcurrently, nextPageRequest, PageSource, resolveNextUrl } from '../../../src/api/paging';
import type { Paginated } from '../../../src/api';

/** An in-memory limit/offset list that records calls and how many ran at once. */
function fakeList(total: number, options: { withCount?: boolean; maxPageSize?: number; failAtOffset?: number } = {}) {
  const items = Array.from({ length: total }, (_, index) => index);
  const calls: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const pageAt = async (offset: number, limit: number): Promise<Paginated<number>> => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((resolve) => setImmediate(resolve));
    inFlight--;
    if (offset === options.failAtOffset) {
      throw new Error(`boom at ${offset}`);
    }
    const size = Math.min(limit, options.maxPageSize ?? limit);
    const results = items.slice(offset, offset + size);
    const more = offset + size < total;
    return {
      count: options.withCount === false ? undefined : total,
      next: more ? `next:${offset + size}:${size}` : null,
      previous: null,
      results,
    };
  };
  const source: PageSource<number> = {
    byOffset: (offset, limit) => {
      calls.push(`offset ${offset} limit ${limit}`);
      return pageAt(offset, limit);
    },
    byNextUrl: (next) => {
      calls.push(next);
      const [, offset, limit] = next.split(':');
      return pageAt(Number(offset), Number(limit));
    },
  };
  return { source, calls, maxInFlight: () => maxInFlight };
}

describe('collectAll', () => {
  test('with a count, fetches the remaining pages concurrently by offset and keeps order', async () => {
    const list = fakeList(1000);
    const progress: Array<[number, number | undefined]> = [];
    const items = await collectAll(list.source, { limit: 100, concurrency: 4 }, { onProgress: (loaded, total) => progress.push([loaded, total]) });
    assert.deepEqual(items, Array.from({ length: 1000 }, (_, index) => index));
    assert.equal(list.calls.length, 10);
    assert.ok(list.calls.every((call) => call.startsWith('offset')), 'no next link followed');
    assert.equal(list.maxInFlight(), 4);
    assert.equal(progress.length, 10);
    assert.deepEqual(progress.at(-1), [1000, 1000]);
  });

  test('concurrency 1 runs one page at a time', async () => {
    const list = fakeList(500);
    await collectAll(list.source, { limit: 100, concurrency: 1 });
    assert.equal(list.maxInFlight(), 1);
  });

  test('without a count, follows next one page after another', async () => {
    const list = fakeList(250, { withCount: false });
    const progress: Array<number | undefined> = [];
    const items = await collectAll(list.source, { limit: 100, concurrency: 4 }, { onProgress: (_, total) => progress.push(total) });
    assert.equal(items.length, 250);
    assert.deepEqual(list.calls, ['offset 0 limit 100', 'next:100:100', 'next:200:100']);
    assert.deepEqual(progress, [undefined, undefined, undefined]);
  });

  test('a server that caps the page size is paged by what it really sends', async () => {
    const list = fakeList(95, { maxPageSize: 10 });
    const items = await collectAll(list.source, { limit: 100, concurrency: 3 });
    assert.deepEqual(items, Array.from({ length: 95 }, (_, index) => index));
    assert.ok(list.calls.slice(1).every((call) => call.endsWith('limit 10')));
  });

  test('starts at the given offset', async () => {
    const list = fakeList(300);
    const items = await collectAll(list.source, { limit: 100, offset: 150, concurrency: 4 });
    assert.deepEqual(items, Array.from({ length: 150 }, (_, index) => index + 150));
  });

  test('one page and an empty list take one request', async () => {
    for (const total of [0, 7]) {
      const list = fakeList(total);
      assert.equal((await collectAll(list.source, {})).length, total);
      assert.equal(list.calls.length, 1);
    }
  });

  test('a failing page fails the whole listing', async () => {
    const list = fakeList(1000, { failAtOffset: 500 });
    await assert.rejects(collectAll(list.source, { limit: 100, concurrency: 4 }), /boom at 500/);
  });

  test('an aborted signal stops the listing', async () => {
    const list = fakeList(1000);
    const controller = new AbortController();
    const run = collectAll(list.source, { limit: 100, concurrency: 2 }, {
      signal: controller.signal,
      onProgress: (loaded) => loaded >= 300 && controller.abort(),
    });
    await assert.rejects(run, { name: 'AbortError' });
    assert.ok(list.calls.length < 10, `${list.calls.length} calls`);
  });
});

describe('iteratePages', () => {
  test('follows next lazily; breaking out sends nothing more', async () => {
    const list = fakeList(1000, { withCount: false });
    const seen: number[] = [];
    for await (const page of iteratePages(list.source, { limit: 100 })) {
      seen.push(page.results.length);
      if (seen.length === 2) {
        break;
      }
    }
    assert.deepEqual(seen, [100, 100]);
    assert.equal(list.calls.length, 2);
  });

  test('an aborted signal ends the iteration', async () => {
    const list = fakeList(1000);
    const controller = new AbortController();
    const pages = iteratePages(list.source, { limit: 100 }, controller.signal);
    await pages.next();
    controller.abort();
    await assert.rejects(pages.next(), { name: 'AbortError' });
    assert.equal(list.calls.length, 1);
  });
});

/** A list whose pages say what the test wants: a count, a next link, so many results. */
function scriptedList(pageOf: (call: number, at: string) => Paginated<number>) {
  const calls: string[] = [];
  const answer = (at: string) => {
    calls.push(at);
    return Promise.resolve(pageOf(calls.length, at));
  };
  const source: PageSource<number> = {
    endpoint: 'GET /api/projects/1/notebooks/',
    byOffset: (offset, limit) => answer(`offset ${offset} limit ${limit}`),
    byNextUrl: (next) => answer(next),
  };
  return { source, calls };
}

const isLimit = (reason: string) => (error: unknown) => error instanceof ListLimitError && error.reason === reason && /notebooks/.test(error.message);

describe('lists a server cannot make endless', () => {
  test('a count of two billion is refused after the first page, before any offset is planned', { timeout: 5_000 }, async () => {
    const list = scriptedList(() => ({ count: 2e9, next: 'next:100', previous: null, results: Array.from({ length: 100 }, (_, i) => i) }));
    await assert.rejects(collectAll(list.source, { limit: 100 }), isLimit('items'));
    assert.equal(list.calls.length, 1);
  });

  test('a count that needs more pages than allowed (tiny pages) is refused before they are requested', async () => {
    const list = scriptedList(() => ({ count: 5_000, next: 'next', previous: null, results: [1] }));
    await assert.rejects(collectAll(list.source, { limit: 100, limits: { maxItems: 10_000, maxPages: 1_000 } }), isLimit('pages'));
    assert.equal(list.calls.length, 1);
  });

  test('a next link pointing to its own page is followed once, then refused (without and with a count)', { timeout: 5_000 }, async () => {
    const self = scriptedList(() => ({ next: 'https://x/api/projects/1/notebooks/?offset=100', previous: null, results: [1] }));
    await assert.rejects(collectAll(self.source, {}), isLimit('repeatedNext'));
    assert.equal(self.calls.length, 2);
    const pages = scriptedList(() => ({ count: 3, next: 'same', previous: null, results: [1] }));
    const iterator = iteratePages(pages.source, {});
    await iterator.next();
    await iterator.next();
    await assert.rejects(iterator.next(), isLimit('repeatedNext'));
    assert.equal(pages.calls.length, 2);
  });

  test('next links going round in a circle are refused when one comes back', { timeout: 5_000 }, async () => {
    const circle = scriptedList((call) => ({ next: ['a', 'b', 'c'][call % 3] ?? null, previous: null, results: [call] }));
    await assert.rejects(collectAll(circle.source, {}), isLimit('repeatedNext'));
    assert.deepEqual(circle.calls, ['offset 0 limit 500', 'b', 'c', 'a']);
  });

  test('ever-new next links stop at the page limit, and endless items at the item limit', { timeout: 5_000 }, async () => {
    const endless = scriptedList((call) => ({ next: `page ${call}`, previous: null, results: [call] }));
    await assert.rejects(collectAll(endless.source, { limits: { maxItems: 1_000, maxPages: 50 } }), isLimit('pages'));
    assert.equal(endless.calls.length, 50);
    const big = scriptedList((call) => ({ next: `page ${call}`, previous: null, results: Array.from({ length: 100 }, () => call) }));
    await assert.rejects(collectAll(big.source, { limits: { maxItems: 250, maxPages: 50 } }), isLimit('items'));
    assert.equal(big.calls.length, 3);
  });

  test('a server sending more than its count said is stopped at the item limit too', async () => {
    const liar = scriptedList(() => ({ count: 200, next: 'n', previous: null, results: Array.from({ length: 100 }, (_, i) => i) }));
    const pages = scriptedList((call) => ({ count: 200, next: 'n', previous: null, results: Array.from({ length: call === 1 ? 100 : 5_000 }, (_, i) => i) }));
    assert.equal((await collectAll(liar.source, { limits: { maxItems: 250, maxPages: 10 } })).length, 200);
    await assert.rejects(collectAll(pages.source, { limits: { maxItems: 250, maxPages: 10 } }), isLimit('items'));
  });
});

describe('mapConcurrently', () => {
  test('keeps input order whatever the completion order', async () => {
    const delays = [30, 5, 20, 1, 10];
    const out = await mapConcurrently(delays, 3, undefined, (ms) => new Promise<number>((resolve) => setTimeout(() => resolve(ms), ms)));
    assert.deepEqual(out, delays);
  });

  test('aborts the siblings of a failed task', async () => {
    const aborted: number[] = [];
    const run = mapConcurrently([0, 1, 2], 3, undefined, (index, signal) =>
      new Promise<number>((_resolve, reject) => {
        if (index === 0) {
          setImmediate(() => reject(new Error('first failed')));
          return;
        }
        signal.addEventListener('abort', () => {
          aborted.push(index);
          reject(signal.reason);
        });
      }),
    );
    await assert.rejects(run, /first failed/);
    assert.deepEqual(aborted.sort(), [1, 2]);
  });
});

describe('resolveNextUrl', () => {
  const base = 'https://posthog.example.com/posthog';
  const endpoint = 'GET /api/projects/1/notebooks/';

  test('accepts the same origin and strips the path prefix', () => {
    const location = resolveNextUrl('https://posthog.example.com/posthog/api/projects/1/notebooks/?limit=100&offset=100', base, endpoint);
    assert.equal(location.path, '/api/projects/1/notebooks/');
    assert.equal(location.query.get('offset'), '100');
  });

  test('refuses another host, port, scheme, userinfo or garbage', () => {
    for (const next of [
      'https://evil.example/posthog/api/projects/1/notebooks/?offset=100',
      'https://posthog.example.com:8443/posthog/api/x/',
      'http://posthog.example.com:8080/posthog/api/x/',
      'http://posthog.example.com:443/posthog/api/x/',
      'http://evil.example/posthog/api/x/',
      'http://user:pw@posthog.example.com/posthog/api/x/',
      'ftp://posthog.example.com/posthog/api/x/',
      'https://good@posthog.example.com/posthog/api/x/',
      'https://posthog.example.com@evil.example/api/x/',
      '//evil.example/api/x/',
      'not a url',
    ]) {
      assert.throws(() => resolveNextUrl(next, base, endpoint), UnsafeNextUrlError, next);
    }
  });

  test('a same-host http:// link on an https connection is followed over https, with a note for the log', () => {
    const location = resolveNextUrl('http://posthog.example.com/posthog/api/projects/1/notebooks/?limit=100&offset=100', base, endpoint);
    assert.equal(location.path, '/api/projects/1/notebooks/');
    assert.equal(location.query.get('offset'), '100');
    assert.equal(location.note, HTTP_NEXT_LINK_NOTE);
    assert.doesNotMatch(location.note ?? '', /offset|limit|posthog\.example/, 'the note carries no query and no address');
    const request = nextPageRequest('http://posthog.example.com/posthog/api/projects/1/notebooks/?offset=100', base, endpoint);
    assert.deepEqual({ ...request, query: String(request.query) }, { method: 'GET', path: '/api/projects/1/notebooks/', query: 'offset=100', note: HTTP_NEXT_LINK_NOTE });
  });

  test('the same host with an explicit port: http:// on that port is mended; a plain-http connection needs no mending', () => {
    assert.equal(resolveNextUrl('http://ph.example:8443/api/x/', 'https://ph.example:8443', endpoint).note, HTTP_NEXT_LINK_NOTE);
    assert.equal(resolveNextUrl('http://127.0.0.1:8010/api/x/', 'http://127.0.0.1:8010', endpoint).note, undefined);
    assert.throws(() => resolveNextUrl('https://127.0.0.1:8010/api/x/', 'http://127.0.0.1:8010', endpoint), UnsafeNextUrlError);
    assert.equal(nextPageRequest('https://ph.example/api/x/', 'https://ph.example', endpoint).note, undefined);
  });

  test('the error names the target origin, never userinfo', () => {
    try {
      resolveNextUrl('https://user:phx_secret@evil.example/api/', base, endpoint);
      assert.fail('expected a throw');
    } catch (error) {
      assert.ok(error instanceof UnsafeNextUrlError);
      assert.match(error.userMessage, /https:\/\/evil\.example/);
      assert.doesNotMatch(JSON.stringify(error), /phx_secret|user:/);
    }
  });
});
