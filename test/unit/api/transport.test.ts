import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ClientDisposedError,
  LIST_ALL_PAGE_SIZE,
  MethodNotAllowedError,
  CertificateError,
  NetworkError,
  PostHogClient,
  PostHogClientOptions,
  RateLimitedError,
  RequestLogEntry,
  ResponseShapeError,
  ServerError,
  TimeoutError,
  DEFAULT_MAX_BODY_BYTES,
  ListLimitError,
  ResponseTooLargeError,
} from '../../../src/api';
import * as fixtures from './fixtures';
import { closedPort, recordingSleep, sendJson, startStub, Stub, StubHandler } from './stubServer';
import { HTTP_NEXT_LINK_NOTE } from '../../../src/api/paging';
import { startLocalApi, throwawayCertificate } from '../../api-server';

const KEY = 'phx_transportTestKey123';
const clients: PostHogClient[] = [];
const stubs: Stub[] = [];

after(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  await Promise.all(stubs.map((stub) => stub.close()));
});

async function setup(handler: StubHandler, options: Partial<PostHogClientOptions> = {}) {
  const stub = await startStub(handler);
  stubs.push(stub);
  const log: RequestLogEntry[] = [];
  const { waits, sleep } = recordingSleep();
  const client = new PostHogClient({ baseUrl: stub.url, apiKey: KEY, sleep, random: () => 0.5, onRequest: (entry) => log.push(entry), ...options });
  clients.push(client);
  return { stub, client, log, waits };
}

const throttled = { type: 'throttled_error', code: 'throttled', detail: 'Request was throttled. Expected available in 2 seconds.', attr: null };

describe('requests', () => {
  test('send the key as a Bearer header, JSON headers and trailing-slash paths', async () => {
    const { stub, client } = await setup((_, response) => sendJson(response, 201, fixtures.project));
    await client.projects.create('org-1', { name: 'Web', timezone: 'Europe/Berlin' });
    const [request] = stub.requests;
    assert.equal(request.method, 'POST');
    assert.equal(request.url, '/api/organizations/org-1/projects/');
    assert.equal(request.headers.authorization, `Bearer ${KEY}`);
    assert.equal(request.headers['content-type'], 'application/json');
    assert.match(String(request.headers.accept), /application\/json/);
    assert.deepEqual(JSON.parse(request.body), { name: 'Web', timezone: 'Europe/Berlin' });
  });

  test('a base URL path prefix is kept in every request', async () => {
    const stub = await startStub((_, response) => sendJson(response, 200, fixtures.me));
    stubs.push(stub);
    const client = new PostHogClient({ baseUrl: `${stub.url}/posthog/`, apiKey: KEY });
    clients.push(client);
    assert.equal(client.baseUrl, `${stub.url}/posthog`);
    await client.users.me();
    assert.equal(stub.requests[0].url, '/posthog/api/users/@me/');
  });

  test('ids are encoded as path segments', async () => {
    const { stub, client } = await setup((_, response) => sendJson(response, 200, fixtures.notebook));
    await client.notebooks.get(1, '../../x?y');
    assert.equal(stub.requests[0].url, '/api/projects/1/notebooks/..%2F..%2Fx%3Fy/');
  });

  test('one log entry per attempt, without query string', async () => {
    const { client, log } = await setup((_, response) => sendJson(response, 200, fixtures.page([])));
    await client.notebooks.list(1, { contains: 'recording:true', limit: 5 });
    assert.equal(log.length, 1);
    assert.deepEqual({ ...log[0], durationMs: 0 }, { method: 'GET', path: '/api/projects/1/notebooks/', status: 200, durationMs: 0, attempt: 1 });
  });
});

describe('retries', () => {
  test('GET retries 503 with backoff, then succeeds', async () => {
    const { stub, client, log, waits } = await setup((_, response, index) =>
      index < 2 ? sendJson(response, 503, { detail: 'unavailable' }) : sendJson(response, 200, fixtures.me),
    );
    const me = await client.users.me();
    assert.equal(me.email, 'ada@example.com');
    assert.equal(stub.requests.length, 3);
    assert.deepEqual(waits, [250, 500]);
    assert.deepEqual(log.map((entry) => [entry.attempt, entry.status]), [[1, 503], [2, 503], [3, 200]]);
    assert.match(log[0].error ?? '', /ServiceUnavailableError/);
  });

  test('GET retries PostHog\'s 503 database_unavailable after the Retry-After it names', async () => {
    const { stub, client, waits } = await setup((_, response, index) =>
      index < 1
        ? sendJson(response, 503, { type: 'server_error', code: 'database_unavailable', detail: 'The database is temporarily unavailable.', attr: null }, { 'retry-after': '1' })
        : sendJson(response, 200, fixtures.me),
    );
    await client.users.me();
    assert.equal(stub.requests.length, 2);
    assert.ok(waits[0]! >= 1_000 && waits[0]! < 1_500, `waited ${waits[0]} ms`);
  });

  test('GET gives up after the configured retries with the last error', async () => {
    const { stub, client } = await setup((_, response) => sendJson(response, 502, ''), { retry: { retries: 2 } });
    await assert.rejects(client.users.me(), (error: unknown) => error instanceof ServerError && error.status === 502);
    assert.equal(stub.requests.length, 3);
  });

  test('a 512 from the events list is not retried and carries PostHog\'s text', async () => {
    const detail = 'Estimated query execution time is too long. Try reducing its scope by changing the time range.';
    const { stub, client } = await setup((_, response) => sendJson(response, 512, { type: 'server_error', code: 'error', detail, attr: null }));
    await assert.rejects(client.events.list(1), (error: unknown) => error instanceof ServerError && error.status === 512 && error.userMessage === detail);
    assert.equal(stub.requests.length, 1);
  });

  test('a 504 query timeout is not retried', async () => {
    const { stub, client } = await setup((_, response) => sendJson(response, 504, { detail: 'Query has hit the max execution time before completing.' }));
    await assert.rejects(client.events.list(1), (error: unknown) => error instanceof ServerError && /max execution time/.test((error as ServerError).userMessage));
    assert.equal(stub.requests.length, 1);
  });

  test('500 is not retried', async () => {
    const { stub, client } = await setup((_, response) => sendJson(response, 500, { detail: 'boom' }));
    await assert.rejects(client.users.me(), ServerError);
    assert.equal(stub.requests.length, 1);
  });

  test('429 waits the seconds named in the detail, then succeeds', async () => {
    const { stub, client, waits } = await setup((_, response, index) =>
      index === 0 ? sendJson(response, 429, throttled) : sendJson(response, 200, fixtures.me),
    );
    await client.users.me();
    assert.equal(stub.requests.length, 2);
    assert.equal(waits.length, 1);
    assert.ok(waits[0] >= 2000 && waits[0] <= 2500, String(waits[0]));
  });

  test('429 honours a Retry-After header', async () => {
    const { client, waits } = await setup((_, response, index) =>
      index === 0 ? sendJson(response, 429, { detail: 'slow down' }, { 'retry-after': '4' }) : sendJson(response, 200, fixtures.me),
    );
    await client.users.me();
    assert.ok(waits[0] >= 4000 && waits[0] <= 4500, String(waits[0]));
  });

  test('429 asking for a long wait is surfaced with retryAfterSeconds', async () => {
    const { stub, client } = await setup((_, response) =>
      sendJson(response, 429, { ...throttled, detail: 'Request was throttled. Expected available in 3000 seconds.' }),
    );
    await assert.rejects(client.users.me(), (error: unknown) => error instanceof RateLimitedError && error.retryAfterSeconds === 3000);
    assert.equal(stub.requests.length, 1);
  });

  test('PATCH is retried on 429 (the server did not act) but not on 502', async () => {
    const first = await setup((_, response, index) =>
      index === 0 ? sendJson(response, 429, throttled) : sendJson(response, 200, fixtures.notebook),
    );
    await first.client.notebooks.update(1, 'nb000001', { title: 'x' });
    assert.equal(first.stub.requests.length, 2);

    const second = await setup((_, response) => sendJson(response, 502, ''));
    await assert.rejects(second.client.notebooks.update(1, 'nb000001', { title: 'x' }), ServerError);
    assert.equal(second.stub.requests.length, 1);
  });

  test('POST is never retried, not even on 429', async () => {
    for (const status of [429, 503]) {
      const { stub, client } = await setup((_, response) => sendJson(response, status, throttled));
      await assert.rejects(client.notebooks.create(1, { title: 'x' }));
      assert.equal(stub.requests.length, 1, `status ${status}`);
    }
  });

  test('a dropped connection on GET is retried and then succeeds', async () => {
    const { stub, client, log } = await setup((_, response, index) => {
      if (index === 0) {
        response.socket?.destroy();
        return;
      }
      sendJson(response, 200, fixtures.me);
    });
    await client.users.me();
    assert.equal(stub.requests.length, 2);
    assert.match(log[0].error ?? '', /NetworkError/);
  });

  test('a dropped connection on PATCH is not retried (the change may have happened)', async () => {
    const { stub, client } = await setup((_, response) => void response.socket?.destroy());
    await assert.rejects(client.projects.update('org', 1, { name: 'x' }), NetworkError);
    assert.equal(stub.requests.length, 1);
  });

  test('a refused connection is a NetworkError after the retries', async () => {
    const port = await closedPort();
    const { waits, sleep } = recordingSleep();
    const client = new PostHogClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY, sleep, random: () => 0 });
    clients.push(client);
    await assert.rejects(client.users.me(), (error: unknown) => {
      assert.ok(error instanceof NetworkError);
      assert.equal(error.reason, 'ECONNREFUSED');
      assert.match(error.userMessage, /connection refused/);
      return true;
    });
    assert.equal(waits.length, 3);
  });
});

describe('timeouts, cancellation and disposal', () => {
  test('no answer within headersMs is a TimeoutError', async () => {
    const { client } = await setup(() => undefined, { timeouts: { headersMs: 150 }, retry: { retries: 0 } });
    await assert.rejects(client.users.me(), (error: unknown) => error instanceof TimeoutError && error.phase === 'headers');
  });

  test('a GET that times out is retried', async () => {
    const { stub, client } = await setup((_, response, index) => (index === 0 ? undefined : sendJson(response, 200, fixtures.me)), {
      timeouts: { headersMs: 150 },
    });
    await client.users.me();
    assert.equal(stub.requests.length, 2);
  });

  test('aborting a request in flight rejects with the abort reason', async () => {
    const { client } = await setup(() => undefined);
    const controller = new AbortController();
    const call = client.users.me({ signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await assert.rejects(call, { name: 'AbortError' });
  });

  test('an aborted signal stops a retry wait at once', async () => {
    const controller = new AbortController();
    const { stub, client } = await setup((_, response) => sendJson(response, 503, ''), {
      sleep: () => {
        setImmediate(() => controller.abort());
        return new Promise<void>(() => undefined);
      },
    });
    await assert.rejects(client.users.me({ signal: controller.signal }), { name: 'AbortError' });
    assert.equal(stub.requests.length, 1);
  });

  test('an already aborted signal sends nothing', async () => {
    const { stub, client } = await setup((_, response) => sendJson(response, 200, fixtures.me));
    await assert.rejects(client.users.me({ signal: AbortSignal.abort() }), { name: 'AbortError' });
    assert.equal(stub.requests.length, 0);
  });

  /** Answers 200 with headers at once, then one byte every `everyMs`, never ending. */
  let dripsClosed = 0;
  const drip = (everyMs: number): StubHandler => (_, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write('{');
    const timer = setInterval(() => response.write(' '), everyMs);
    response.on('close', () => (clearInterval(timer), dripsClosed++));
  };

  test('a server dripping a byte at a time cannot hold a save: the whole request has a deadline', { timeout: 10_000 }, async () => {
    const { stub, client } = await setup(drip(20), { timeouts: { bodyMs: 5_000, totalMs: 400 } });
    const closedBefore = dripsClosed;
    await assert.rejects(
      client.notebooks.update(1, 'abc', { title: 'x' }),
      (error: unknown) => error instanceof TimeoutError && error.phase === 'total' && /more than 0 seconds|took more than/.test(error.userMessage),
    );
    // The deadline is the client's own (the phase says which); the never-ending answer is then cut off.
    await waitUntil(() => dripsClosed > closedBefore);
    assert.equal(stub.requests.length, 1, 'not retried');
  });

  test('the deadline covers a GET\'s retries and their waits too', { timeout: 10_000 }, async () => {
    const { stub, client } = await setup((request, response, index) => (index === 0 ? sendJson(response, 503, '') : drip(20)(request, response, index)), {
      timeouts: { bodyMs: 5_000, totalMs: 400 },
    });
    await assert.rejects(client.users.me(), (error: unknown) => error instanceof TimeoutError && error.phase === 'total');
    assert.equal(stub.requests.length, 2);
  });

  test('a streamed export is not cut by the deadline once its headers arrived', { timeout: 10_000 }, async () => {
    const { client } = await setup((_, response) => {
      response.writeHead(200, { 'content-type': 'text/csv' });
      let rows = 0;
      const timer = setInterval(() => {
        response.write(`row ${++rows}\n`);
        if (rows === 8) {
          clearInterval(timer);
          response.end();
        }
      }, 50);
    }, { timeouts: { totalMs: 150 } });
    const download = await client.events.export(1, {}, 'csv');
    let text = '';
    for await (const chunk of download) {
      text += Buffer.from(chunk).toString('utf8');
    }
    assert.equal(text.split('\n').filter(Boolean).length, 8);
  });

  test('after dispose() calls fail with ClientDisposedError', async () => {
    const { stub, client } = await setup((_, response) => sendJson(response, 200, fixtures.me));
    await client.users.me();
    await client.dispose();
    await assert.rejects(client.users.me(), ClientDisposedError);
    assert.equal(stub.requests.length, 1);
  });
});

describe('paging over HTTP', () => {
  const total = 5000;
  const pagedNotebooks = (delayMs: number): StubHandler => (request, response) => {
    const query = new URL(request.url, 'http://x').searchParams;
    const offset = Number(query.get('offset') ?? 0);
    const limit = Number(query.get('limit') ?? 100);
    const results = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, index) => fixtures.notebookListItem(offset + index));
    const next = offset + limit < total ? `http://${request.headers.host}/api/projects/1/notebooks/?limit=${limit}&offset=${offset + limit}` : null;
    setTimeout(() => sendJson(response, 200, { count: total, next, previous: null, results }), delayMs);
  };

  test('listAll over 5,000 notebooks fetches pages concurrently (pageConcurrency) and keeps order', async () => {
    const { stub, client } = await setup(pagedNotebooks(15), { pageConcurrency: 4 });
    const progress: number[] = [];
    const all = await client.notebooks.listAll(1, { limit: 100 }, { onProgress: (loaded, count) => progress.push(count === total ? loaded : -1) });
    assert.equal(all.length, total);
    assert.deepEqual(all.map((item) => item.short_id), Array.from({ length: total }, (_, index) => fixtures.notebookListItem(index).short_id));
    assert.equal(stub.requests.length, 50);
    assert.equal(stub.maxInFlight(), 4, 'four pages were in flight at once');
    assert.deepEqual(progress.at(-1), total);
    assert.ok(progress.every((loaded, index) => index === 0 || loaded > progress[index - 1]), 'progress only grows');
  });

  test('listAll asks for big pages by default', async () => {
    const { stub, client } = await setup(pagedNotebooks(0));
    assert.equal((await client.notebooks.listAll(1)).length, total);
    assert.equal(stub.requests.length, total / LIST_ALL_PAGE_SIZE);
  });

  test('pageConcurrency 1 fetches one page at a time', async () => {
    const { stub, client } = await setup(pagedNotebooks(1), { pageConcurrency: 1 });
    assert.equal((await client.notebooks.listAll(1, { limit: 1000 })).length, total);
    assert.equal(stub.maxInFlight(), 1);
  });

  test('breaking out of pages() stops the requests', async () => {
    const { stub, client } = await setup(pagedNotebooks(0));
    let seen = 0;
    for await (const page of client.notebooks.pages(1, { limit: 100 })) {
      seen += page.results.length;
      if (seen >= 300) {
        break;
      }
    }
    assert.equal(stub.requests.length, 3);
  });

  test('aborting listAll stops the remaining pages', async () => {
    const { stub, client } = await setup(pagedNotebooks(5));
    const controller = new AbortController();
    const run = client.notebooks.listAll(1, {}, { signal: controller.signal, onProgress: (loaded) => loaded >= 500 && controller.abort() });
    await assert.rejects(run, { name: 'AbortError' });
    assert.ok(stub.requests.length < total / LIST_ALL_PAGE_SIZE, `${stub.requests.length} requests`);
  });
});

describe('paging over https when the server builds http:// next links (self-hosted, not configured as behind a proxy)', () => {
  const tls = throwawayCertificate();

  test('pages() follows every next link over https, the key never going over http, and the log says so', async () => {
    const api = await startLocalApi({ seed: 'minimal', tls, httpNextLinks: true });
    const log: RequestLogEntry[] = [];
    const client = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.all, network: { ca: [tls.cert] }, onRequest: (entry) => log.push(entry) });
    try {
      assert.match(api.url, /^https:\/\/127\.0\.0\.1:\d+$/);
      const organization = api.store.organizations[0]!;
      const pages = [];
      for await (const page of client.projects.pages(organization.id, { limit: 1 })) {
        pages.push(page);
      }
      const expected = api.store.projectsOf(organization.id).map((project) => project.name);
      assert.ok(expected.length >= 3);
      assert.deepEqual(pages.map((page) => page.results[0]?.name), expected);
      assert.ok(pages[0]!.next?.startsWith(`http://127.0.0.1:`), `the server's link was http: ${pages[0]!.next}`);
      // The server listens with TLS only: a request sent to the http:// link would not have been answered.
      assert.deepEqual(api.requests.map((request) => [request.path, request.query.offset ?? '0', request.headers.authorization]),
        expected.map((_, index) => [`/api/organizations/${organization.id}/projects/`, String(index), `Bearer ${api.keys.all}`]));
      assert.deepEqual(log.map((entry) => entry.note), [undefined, ...expected.slice(1).map(() => HTTP_NEXT_LINK_NOTE)]);
      const logged = JSON.stringify(log);
      assert.ok(!logged.includes(api.keys.all) && !logged.includes('offset'), 'no key and no query in the log');
    } finally {
      await client.dispose();
      await api.close();
    }
  });

  test('the events walk builds every page itself over https: the server\'s http:// links are never followed', async () => {
    const api = await startLocalApi({ seed: 'minimal', tls, httpNextLinks: true });
    const log: RequestLogEntry[] = [];
    const client = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.all, network: { ca: [tls.cert] }, onRequest: (entry) => log.push(entry) });
    try {
      const project = api.store.projects[0]!;
      api.store.addSteadyEvents(project.id, 400, { perSecond: 10 });
      const first = await client.events.list(project.id, { limit: 100 });
      assert.ok(first.next?.startsWith('http://127.0.0.1:'), `the server's link is http: ${first.next}`);
      let batches = 0;
      for await (const _batch of client.events.pages(project.id, { limit: 100 })) {
        if (++batches === 3) break;
      }
      assert.equal(api.requests.length, 4, 'every page was answered by the https server');
      assert.deepEqual(log.map((entry) => entry.note), [undefined, undefined, undefined, undefined]);
    } finally {
      await client.dispose();
      await api.close();
    }
  });

  test('without the certificate as ca, the connection is refused as untrusted', async () => {
    const api = await startLocalApi({ seed: 'minimal', tls });
    const client = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.all, retry: { retries: 0 } });
    try {
      await assert.rejects(client.users.me(), (error: unknown) => error instanceof CertificateError && /127\.0\.0\.1:\d+ presents a self-signed TLS certificate/.test(error.userMessage));
      assert.equal(api.requests.length, 0);
    } finally {
      await client.dispose();
      await api.close();
    }
  });
});

describe('answer sizes', () => {
  const notebookOfSize = (bytes: number) => ({ ...fixtures.notebook, text_content: 'x'.repeat(bytes) });

  test('an answer larger than maxBodyBytes is refused, whether its length is declared or not', async () => {
    for (const declared of [true, false]) {
      const { client } = await setup((_, response) => {
        const text = JSON.stringify(notebookOfSize(2 * 1024 * 1024));
        response.writeHead(200, { 'content-type': 'application/json', ...(declared ? { 'content-length': String(Buffer.byteLength(text)) } : {}) });
        response.end(text);
      }, { maxBodyBytes: 1024 * 1024, retry: { retries: 0 } });
      await assert.rejects(
        client.notebooks.get(1, 'abc'),
        (error: unknown) => error instanceof ResponseTooLargeError && /larger than 1 MB/.test(error.userMessage),
        declared ? 'declared' : 'chunked',
      );
    }
  });

  test('a notebook of several megabytes loads under the default limit', async () => {
    const { client } = await setup((_, response) => sendJson(response, 200, notebookOfSize(6 * 1024 * 1024)));
    assert.equal((await client.notebooks.get(1, 'abc')).text_content?.length, 6 * 1024 * 1024);
    assert.ok(DEFAULT_MAX_BODY_BYTES >= 2 * 20 * 1024 * 1024, 'room for content and text_content at PostHog\'s 20 MB request limit each');
  });
});

describe('lists over HTTP that would never end', () => {
  test('a list claiming two billion items is refused after its first page', { timeout: 10_000 }, async () => {
    const { stub, client } = await setup((request, response) =>
      sendJson(response, 200, { count: 2e9, next: `http://${request.headers.host}/api/projects/1/notebooks/?offset=500`, previous: null, results: [fixtures.notebookListItem(1)] }),
    );
    await assert.rejects(client.notebooks.listAll(1), (error: unknown) => error instanceof ListLimitError && error.reason === 'items' && /2,000,000,000/.test(error.userMessage));
    assert.equal(stub.requests.length, 1);
  });

  test('a next link pointing to its own page is followed once, then refused', { timeout: 10_000 }, async () => {
    const { stub, client } = await setup((request, response) =>
      sendJson(response, 200, { next: `http://${request.headers.host}/api/projects/1/notebooks/?limit=500&offset=500`, previous: null, results: [fixtures.notebookListItem(1)] }),
    );
    await assert.rejects(client.notebooks.listAll(1), (error: unknown) => error instanceof ListLimitError && error.reason === 'repeatedNext');
    assert.equal(stub.requests.length, 2);
  });
});

describe('response handling', () => {
  test('a body of the wrong shape names the endpoint and field', async () => {
    const results = [1, 2, 3, 4, 5].map(fixtures.notebookListItem);
    (results[3] as { title: unknown }).title = 12;
    const { client } = await setup((_, response) => sendJson(response, 200, fixtures.page(results)));
    await assert.rejects(client.notebooks.list(1), (error: unknown) => {
      assert.ok(error instanceof ResponseShapeError);
      assert.match(error.message, /^GET \/api\/projects\/1\/notebooks\/: results\.3\.title: expected string/);
      return true;
    });
  });

  test('a 200 that is not JSON (e.g. a proxy login page) is a ResponseShapeError', async () => {
    const { client } = await setup((_, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>login</html>');
    });
    await assert.rejects(client.users.me(), (error: unknown) => error instanceof ResponseShapeError && /expected JSON, received text\/html/.test(error.message));
  });

  test('notebook DELETE answers 405 with an empty body: MethodNotAllowedError', async () => {
    const { stub, client } = await setup((_, response) => {
      response.writeHead(405);
      response.end();
    });
    await assert.rejects(client.notebooks.delete(1, 'nb000001'), (error: unknown) => error instanceof MethodNotAllowedError && error.status === 405);
    assert.equal(stub.requests[0].method, 'DELETE');
    assert.equal(stub.requests.length, 1);
  });

  test('a failing onRequest logger does not fail the request', async () => {
    const { client } = await setup((_, response) => sendJson(response, 200, fixtures.me), {
      onRequest: () => {
        throw new Error('logger broke');
      },
    });
    assert.equal((await client.users.me()).first_name, 'Ada');
  });
});

/** Waits (a few milliseconds at a time) until `done()` holds; the test's own timeout bounds it. */
async function waitUntil(done: () => boolean): Promise<void> {
  while (!done()) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
