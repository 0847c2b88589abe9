import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { PostHogClient, PostHogError, RequestLogEntry, UnexpectedStatusError, UnsafeNextUrlError, ValidationError } from '../../../src/api';
import * as fixtures from './fixtures';
import { recordingSleep, sendJson, startStub, Stub } from './stubServer';

const KEY = 'phx_securityTestKeyDoNotLeak42';
const clients: PostHogClient[] = [];
const stubs: Stub[] = [];

after(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  await Promise.all(stubs.map((stub) => stub.close()));
});

async function stub(handler: Parameters<typeof startStub>[0]): Promise<Stub> {
  const started = await startStub(handler);
  stubs.push(started);
  return started;
}

function client(baseUrl: string, log?: RequestLogEntry[]): PostHogClient {
  const created = new PostHogClient({ baseUrl, apiKey: KEY, ...recordingSleep(), onRequest: (entry) => log?.push(entry) });
  clients.push(created);
  return created;
}

/** A server that must never be contacted. */
async function evilServer(): Promise<Stub> {
  return stub((_, response) => sendJson(response, 200, fixtures.page([])));
}

function assertUntouched(evil: Stub): void {
  assert.equal(evil.requests.length, 0, 'the other server received a request');
}

describe('next links never take the key to another origin', () => {
  const hostileNexts = (evil: Stub, good: Stub) => [
    `${evil.url}/api/projects/1/notebooks/?limit=100&offset=100`,
    `http://good@127.0.0.1:${good.port}/api/projects/1/notebooks/?offset=100`,
    `http://127.0.0.1:${good.port}@127.0.0.1:${evil.port}/api/projects/1/notebooks/?offset=100`,
    `http://localhost:${good.port}/api/projects/1/notebooks/?offset=100`,
    `https://127.0.0.1:${good.port}/api/projects/1/notebooks/?offset=100`,
    'https://good@evil.example/api/projects/1/notebooks/?offset=100',
  ];

  test('pages() throws UnsafeNextUrlError and sends nothing anywhere else', async () => {
    const evil = await evilServer();
    let next = '';
    const good = await stub((_, response) => sendJson(response, 200, { ...fixtures.page([fixtures.notebookListItem(1)], 500), next }));
    for (const hostile of hostileNexts(evil, good)) {
      next = hostile;
      const before = good.requests.length;
      const pages = client(good.url).notebooks.pages(1);
      await pages.next();
      await assert.rejects(pages.next(), UnsafeNextUrlError, hostile);
      assert.equal(good.requests.length, before + 1, `only the first page was requested for ${hostile}`);
    }
    assertUntouched(evil);
  });

  test('listAll without a count follows only same-origin links', async () => {
    const evil = await evilServer();
    const good = await stub((_, response) =>
      sendJson(response, 200, { next: `${evil.url}/api/organizations/?offset=1`, previous: null, results: [fixtures.organization] }),
    );
    await assert.rejects(client(good.url).organizations.listAll(), UnsafeNextUrlError);
    assertUntouched(evil);
  });

  test('events.pages never follows a next link (it builds each page on the configured origin)', async () => {
    const evil = await evilServer();
    const good = await stub((request, response) => {
      const first = !new URL(request.url ?? '', 'http://x').searchParams.has('before');
      sendJson(response, 200, { next: `${evil.url}/api/projects/1/events/?before=x`, results: first ? [fixtures.eventAsJson] : [] });
    });
    const batches = [];
    for await (const batch of client(good.url).events.pages(1)) batches.push(batch);
    assert.deepEqual(batches.map((batch) => batch.events.length), [1, 0]);
    assertUntouched(evil);
    assert.ok(good.requests.every((request) => request.headers.authorization === `Bearer ${KEY}`));
  });

  test('listAll with a count pages by offset on the configured origin, ignoring the next link', async () => {
    const evil = await evilServer();
    const good = await stub((request, response) => {
      const offset = Number(new URL(request.url, 'http://x').searchParams.get('offset'));
      sendJson(response, 200, { ...fixtures.page([fixtures.notebookListItem(offset)], 3), next: `${evil.url}/steal` });
    });
    const all = await client(good.url).notebooks.listAll(1, { limit: 1 });
    assert.equal(all.length, 3);
    assertUntouched(evil);
    assert.ok(good.requests.every((request) => request.headers.authorization === `Bearer ${KEY}`));
  });
});

describe('redirects are never followed', () => {
  for (const status of [301, 302, 307, 308]) {
    test(`${status} to another server fails without contacting it`, async () => {
      const evil = await evilServer();
      const good = await stub((_, response) => {
        response.writeHead(status, { location: `${evil.url}/api/users/@me/` });
        response.end();
      });
      await assert.rejects(client(good.url).users.me(), (error: unknown) => {
        assert.ok(error instanceof UnexpectedStatusError);
        assert.match(error.userMessage, /redirect/);
        return true;
      });
      assertUntouched(evil);
      assert.equal(good.requests.length, 1);
    });
  }
});

describe('the key never appears in errors or logs', () => {
  test('serialised errors and log entries of many failures do not contain the key', async () => {
    // A hostile or buggy server echoing the Authorization header back in its error detail.
    const good = await stub((request, response) => {
      const echo = String(request.headers.authorization);
      if (request.url.includes('/echo/')) {
        return sendJson(response, 400, { type: 'validation_error', code: 'invalid', detail: `bad header ${echo}`, attr: echo });
      }
      if (request.url.includes('/text/')) {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(`crash with ${echo}`);
        return;
      }
      if (request.url.includes('/drift/')) {
        return sendJson(response, 200, { ...fixtures.notebook, title: echo.length });
      }
      if (request.url.includes('/drop/')) {
        return void response.socket?.destroy();
      }
      sendJson(response, 403, { type: 'authentication_error', code: 'permission_denied', detail: `API key missing required scope 'notebook:write' (${echo})`, attr: null });
    });
    const log: RequestLogEntry[] = [];
    const api = client(good.url, log);
    const evil = await evilServer();
    const calls: Array<() => Promise<unknown>> = [
      () => api.notebooks.get(1, 'echo'),
      () => api.notebooks.get(1, 'text'),
      () => api.notebooks.get(1, 'drift'),
      () => api.notebooks.get(1, 'drop'),
      () => api.notebooks.update(1, 'x', { title: 'y' }),
      () => api.notebooks.delete(1, 'x'),
      async () => {
        const pages = api.events.pages(1, { event: 'x' });
        await pages.next();
      },
    ];
    const errors: unknown[] = [];
    for (const call of calls) {
      errors.push(await call().then(() => assert.fail('expected a failure'), (error: unknown) => error));
    }
    errors.push(await Promise.resolve().then(() => {
      try {
        new PostHogClient({ baseUrl: `https://user:${KEY}@example.com`, apiKey: KEY });
      } catch (error) {
        return error;
      }
    }));
    try {
      const { resolveNextUrl } = await import('../../../src/api/paging');
      resolveNextUrl(`http://x:${KEY}@127.0.0.1:${evil.port}/`, good.url, 'GET /x/');
    } catch (error) {
      errors.push(error);
    }
    assert.ok(errors.every((error) => error instanceof PostHogError), inspect(errors));
    assert.ok(log.length >= calls.length);
    const serialised = [JSON.stringify(errors), JSON.stringify(log), inspect(errors, { depth: 10 }), errors.map((error) => String(error)).join('\n'), errors.map((error) => (error as PostHogError).userMessage).join('\n')];
    for (const text of serialised) {
      assert.ok(!text.includes(KEY), `key leaked in: ${text.slice(text.indexOf(KEY) - 200, text.indexOf(KEY) + 50)}`);
      assert.ok(!text.includes(KEY.slice(4)), 'key body leaked');
    }
    assert.match(JSON.stringify(errors), /\[redacted\]/, 'the echoed key was redacted, not dropped silently');
  });

  test('a key spelled with JSON escapes in an error body is redacted as the message shows it decoded', async () => {
    const escaped = KEY.replace(/[a-z_]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const bodies = [
      `{"detail": "Invalid key ${escaped}.", "attr": "${escaped}"}`,
      `{"${escaped}": ["This field is wrong."]}`,
      `{"detail": ["see ${KEY.replace('_', '\\u005f')}"]}`,
    ];
    let body = '';
    const good = await stub((_, response) => {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(body);
    });
    for (body of bodies) {
      const error = await client(good.url).users.me().then(() => assert.fail('expected a failure'), (caught: unknown) => caught as PostHogError);
      const shown = [error.message, error.userMessage, String(error.detail), String(error.attr), JSON.stringify(error)].join('\n');
      assert.ok(!shown.includes(KEY.slice(4)), `key shown decoded for ${body}: ${shown}`);
    }
  });

  test('an error body nested too deep to walk is dropped, never shown unredacted', async () => {
    const escaped = KEY.replace('_', '\\u005f');
    const good = await stub((_, response) => {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(`{"detail": ${'['.repeat(30_000)}"${escaped}"${']'.repeat(30_000)}}`);
    });
    const error = await client(good.url).users.me().then(() => assert.fail('expected a failure'), (caught: unknown) => caught);
    assert.ok(error instanceof ValidationError, String(error));
    assert.ok(!JSON.stringify(error).includes(KEY.slice(4)));
  });

  test('an API key with control characters is refused before anything is sent', () => {
    assert.throws(() => new PostHogClient({ baseUrl: 'https://us.posthog.com', apiKey: 'phx_a\r\nX-Evil: 1' }), (error: unknown) => {
      assert.ok(error instanceof PostHogError);
      assert.doesNotMatch(error.message, /phx_a/);
      return true;
    });
    assert.throws(() => new PostHogClient({ baseUrl: 'https://us.posthog.com', apiKey: '   ' }), PostHogError);
  });
});
