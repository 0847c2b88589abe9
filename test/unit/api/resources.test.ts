import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { isActivityPage, isoFromMicros, NOT_MODIFIED, PostHogClient, PostHogError, TimeoutError, timestampMicros } from '../../../src/api';
import * as fixtures from './fixtures';
import { sendJson, startStub, Stub, StubRequest } from './stubServer';

/** Answers every request from a route table keyed by "METHOD path" and records what was asked. */
const routes: Record<string, (request: StubRequest) => { status: number; body?: unknown; headers?: Record<string, string> }> = {};
let stub: Stub;
let client: PostHogClient;

before(async () => {
  stub = await startStub((request, response) => {
    const path = new URL(request.url, 'http://x').pathname;
    const route = routes[`${request.method} ${path}`];
    if (!route) {
      return sendJson(response, 404, { type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null });
    }
    const answer = route(request);
    if (answer.body === undefined) {
      response.writeHead(answer.status, answer.headers);
      response.end();
      return;
    }
    sendJson(response, answer.status, answer.body, answer.headers);
  });
  client = new PostHogClient({ baseUrl: stub.url, apiKey: 'phx_resources' });
});

after(async () => {
  await client.dispose();
  await stub.close();
});

function route(key: string, status: number, body?: unknown) {
  routes[key] = () => ({ status, body });
}

function lastRequest(): StubRequest & { query: URLSearchParams; path: string } {
  const request = stub.requests.at(-1)!;
  const url = new URL(request.url, 'http://x');
  return { ...request, query: url.searchParams, path: url.pathname };
}

const org = 'org-uuid';
const orgProjects = `/api/organizations/${org}/projects/`;

describe('discovery', () => {
  test('GET /api/organizations/', async () => {
    route('GET /api/organizations/', 200, fixtures.page([fixtures.organization]));
    assert.equal((await client.organizations.list()).results[0].slug, 'acme');
    assert.equal((await client.organizations.listAll())[0].name, 'Acme');
  });

  test('GET /api/users/@me/', async () => {
    route('GET /api/users/@me/', 200, fixtures.me);
    assert.equal((await client.users.me()).team?.id, 1);
  });

  test('GET /api/projects/', async () => {
    route('GET /api/projects/', 200, fixtures.page([fixtures.projectListItem]));
    const page = await client.projects.listAccessible({ limit: 10, offset: 20 });
    assert.equal(page.count, 1);
    assert.equal(lastRequest().query.get('limit'), '10');
    assert.equal(lastRequest().query.get('offset'), '20');
    assert.equal((await client.projects.listAllAccessible()).length, 1);
  });
});

describe('projects (8 operations)', () => {
  test('list with limit/offset, listAll and pages', async () => {
    route(`GET ${orgProjects}`, 200, fixtures.page([fixtures.projectListItem]));
    await client.projects.list(org, { limit: 5, offset: 10 });
    assert.equal(lastRequest().path, orgProjects);
    assert.equal(lastRequest().query.toString(), 'limit=5&offset=10');
    assert.equal((await client.projects.listAll(org)).length, 1);
    const pages = [];
    for await (const page of client.projects.pages(org)) {
      pages.push(page);
    }
    assert.equal(pages.length, 1);
  });

  test('create, get, update, delete', async () => {
    route(`POST ${orgProjects}`, 201, fixtures.project);
    route(`GET ${orgProjects}1/`, 200, fixtures.project);
    route(`PATCH ${orgProjects}1/`, 200, { ...fixtures.project, name: 'Renamed' });
    route(`DELETE ${orgProjects}1/`, 204);
    assert.equal((await client.projects.create(org, { name: 'Web' })).id, 1);
    assert.equal((await client.projects.get(org, 1)).name, 'Web');
    assert.equal((await client.projects.update(org, 1, { name: 'Renamed' })).name, 'Renamed');
    assert.deepEqual(JSON.parse(lastRequest().body), { name: 'Renamed' });
    assert.equal(await client.projects.delete(org, 1), undefined);
    assert.equal(lastRequest().method, 'DELETE');
  });

  test('activity accepts the activity page (real server) and the full project (spec)', async () => {
    route(`GET ${orgProjects}1/activity/`, 200, fixtures.activityPage);
    const activity = await client.projects.activity(org, 1, { page: 2, limit: 10 });
    assert.ok(isActivityPage(activity));
    assert.equal(activity.results.length, 2);
    assert.equal(lastRequest().query.toString(), 'page=2&limit=10');
    route(`GET ${orgProjects}1/activity/`, 200, fixtures.project);
    const asProject = await client.projects.activity(org, 1);
    assert.ok(!isActivityPage(asProject));
    assert.equal(asProject.name, 'Web');
  });

  test('is_generating_demo_data accepts both shapes', async () => {
    route(`GET ${orgProjects}1/is_generating_demo_data/`, 200, { is_generating_demo_data: true });
    assert.deepEqual(await client.projects.isGeneratingDemoData(org, 1), { is_generating_demo_data: true });
    route(`GET ${orgProjects}1/is_generating_demo_data/`, 200, fixtures.project);
    assert.equal(((await client.projects.isGeneratingDemoData(org, 1)) as { api_token: string }).api_token, 'phc_abc');
  });

  test('reset_token is a PATCH with an (optional) body', async () => {
    route(`PATCH ${orgProjects}1/reset_token/`, 200, { ...fixtures.project, api_token: 'phc_new' });
    assert.equal((await client.projects.resetToken(org, 1)).api_token, 'phc_new');
    assert.equal(lastRequest().method, 'PATCH');
    assert.deepEqual(JSON.parse(lastRequest().body), {});
  });
});

describe('notebooks (7 operations + soft delete / restore)', () => {
  const list = '/api/projects/1/notebooks/';

  test('list sends every filter of the spec', async () => {
    route(`GET ${list}`, 200, fixtures.page([fixtures.notebookListItem(1)]));
    await client.notebooks.list(1, {
      contains: 'recording:true,insight:abc',
      created_by: '0191c2a7-5e2b-7c1d-9f3e-2a6b8c4d1e0f',
      date_from: '2025-01-01T00:00:00Z',
      date_to: '2025-02-01T00:00:00Z',
      limit: 20,
      offset: 40,
      user: true,
    });
    assert.deepEqual(Object.fromEntries(lastRequest().query), {
      contains: 'recording:true,insight:abc',
      created_by: '0191c2a7-5e2b-7c1d-9f3e-2a6b8c4d1e0f',
      date_from: '2025-01-01T00:00:00Z',
      date_to: '2025-02-01T00:00:00Z',
      user: 'true',
      limit: '20',
      offset: '40',
    });
  });

  test('created_by must be a UUID: an integer id (a 500 on PostHog) is refused before anything is sent', async () => {
    const before = stub.requests.length;
    for (const call of [
      () => client.notebooks.list(1, { created_by: '7' }),
      () => client.notebooks.listAll(1, { created_by: 'sam@hedgebox.net' }),
      async () => {
        for await (const page of client.notebooks.pages(1, { created_by: '' })) {
          void page;
        }
      },
    ]) {
      await assert.rejects(call(), (error: unknown) => {
        assert.ok(error instanceof PostHogError);
        assert.equal(error.attr, 'created_by');
        assert.match(error.userMessage, /created_by must be a user's UUID/);
        return true;
      });
    }
    assert.equal(stub.requests.length, before, 'nothing was sent');
  });

  test('listAll and pages keep the filters on every page', async () => {
    routes[`GET ${list}`] = (request) => {
      const offset = Number(new URL(request.url, 'http://x').searchParams.get('offset'));
      const next = offset + 1 < 3 ? `${stub.url}${list}?contains=x&limit=1&offset=${offset + 1}` : null;
      return { status: 200, body: { ...fixtures.page([fixtures.notebookListItem(offset)], 3), next } };
    };
    const before = stub.requests.length;
    assert.deepEqual((await client.notebooks.listAll(1, { contains: 'x', limit: 1 })).map((item) => item.title), ['Notebook 0', 'Notebook 1', 'Notebook 2']);
    assert.ok(stub.requests.slice(before).every((request) => request.url.includes('contains=x')));
    const titles: Array<string | null> = [];
    for await (const page of client.notebooks.pages(1, { contains: 'x', limit: 1 })) {
      titles.push(...page.results.map((item) => item.title));
    }
    assert.deepEqual(titles, ['Notebook 0', 'Notebook 1', 'Notebook 2']);
  });

  test('create, get, update', async () => {
    route(`POST ${list}`, 201, fixtures.notebook);
    route(`GET ${list}nb000001/`, 200, fixtures.notebook);
    route(`PATCH ${list}nb000001/`, 200, { ...fixtures.notebook, version: 4 });
    const created = await client.notebooks.create(1, { title: 'T', content: fixtures.notebook.content, text_content: 'Hello', version: 0, deleted: false });
    assert.equal(created.short_id, 'nb000001');
    assert.deepEqual(JSON.parse(lastRequest().body).content, fixtures.notebook.content);
    assert.equal((await client.notebooks.get(1, 'nb000001')).version, 3);
    assert.equal(lastRequest().headers['if-none-match'], undefined);
    assert.equal((await client.notebooks.update(1, 'nb000001', { content: {}, version: 3 })).version, 4);
  });

  test('get with ifNoneMatchVersion sends If-None-Match and maps 304 to NOT_MODIFIED', async () => {
    routes[`GET ${list}nb000001/`] = (request) =>
      request.headers['if-none-match'] === '3' ? { status: 304 } : { status: 200, body: fixtures.notebook };
    assert.equal(await client.notebooks.get(1, 'nb000001', { ifNoneMatchVersion: 3 }), NOT_MODIFIED);
    assert.equal(lastRequest().headers['if-none-match'], '3');
    const changed = await client.notebooks.get(1, 'nb000001', { ifNoneMatchVersion: 2 });
    assert.notEqual(changed, NOT_MODIFIED);
  });

  test('softDelete and restore are PATCHes of deleted', async () => {
    route(`PATCH ${list}nb000001/`, 200, fixtures.notebook);
    await client.notebooks.softDelete(1, 'nb000001');
    assert.deepEqual(JSON.parse(lastRequest().body), { deleted: true });
    await client.notebooks.restore(1, 'nb000001');
    assert.deepEqual(JSON.parse(lastRequest().body), { deleted: false });
  });

  test('delete sends the DELETE (a 204 from a lenient server resolves)', async () => {
    route(`DELETE ${list}nb000001/`, 204);
    await client.notebooks.delete(1, 'nb000001');
    assert.equal(lastRequest().method, 'DELETE');
  });

  test('notebook activity and project-wide notebook activity', async () => {
    route(`GET ${list}nb000001/activity/`, 200, fixtures.activityPage);
    route(`GET ${list}activity/`, 200, fixtures.notebook);
    assert.ok(isActivityPage(await client.notebooks.activity(1, 'nb000001', { limit: 5 })));
    assert.equal(lastRequest().query.get('limit'), '5');
    assert.ok(!isActivityPage(await client.notebooks.projectActivity(1)));
  });
});

describe('events (3 operations + pages and export)', () => {
  const events = '/api/projects/1/events/';

  test('list sends every filter, JSON-serialising properties (and select/where, which current servers ignore)', async () => {
    route(`GET ${events}`, 200, { next: null, results: [fixtures.eventAsJson, fixtures.eventAsStrings] });
    const properties = [{ key: '$browser', value: 'Firefox', operator: 'exact', type: 'event' }];
    const page = await client.events.list(1, {
      after: '2025-01-01T00:00:00Z',
      before: '2025-01-02T00:00:00Z',
      distinct_id: 'd1',
      event: '$pageview',
      format: 'json',
      limit: 50,
      offset: 100,
      person_id: 5,
      include_person: true,
      properties,
      select: ['event', 'count()'],
      where: ["properties.$browser = 'Firefox'"],
    });
    assert.equal(page.results.length, 2);
    const query = lastRequest().query;
    assert.deepEqual(JSON.parse(query.get('properties')!), properties);
    assert.equal(query.get('include_person'), 'true');
    assert.deepEqual(JSON.parse(query.get('select')!), ['event', 'count()']);
    assert.deepEqual(JSON.parse(query.get('where')!), ["properties.$browser = 'Firefox'"]);
    assert.deepEqual(
      ['after', 'before', 'distinct_id', 'event', 'format', 'limit', 'offset', 'person_id'].map((name) => query.get(name)),
      ['2025-01-01T00:00:00Z', '2025-01-02T00:00:00Z', 'd1', '$pageview', 'json', '50', '100', '5'],
    );
  });

  test('pages never follows next: it asks below the oldest row, one microsecond later after a full page, drops what it gave, and raises the limit for a page on one timestamp', async () => {
    const at = timestampMicros(fixtures.eventAsJson.timestamp)!;
    routes[`GET ${events}`] = (request) => {
      const before = new URL(request.url, 'http://x').searchParams.get('before');
      const older = before === null || timestampMicros(before)! > at;
      return { status: 200, body: { next: before ? null : 'https://elsewhere.example/next', results: older ? [fixtures.eventAsJson] : [] } };
    };
    const first = stub.requests.length;
    const batches = [];
    for await (const batch of client.events.pages(1, { event: 'x', limit: 1 })) {
      batches.push(batch);
    }
    assert.deepEqual(batches.map((batch) => [batch.events.length, batch.last]), [[1, false], [0, true]], 'the event once, though asked twice');
    const sent = stub.requests.slice(first).map((request) => new URL(request.url, 'http://x').searchParams);
    assert.equal(sent.length, 2);
    assert.equal(sent[1]!.get('before'), isoFromMicros(at + 1), 'a full page: from a microsecond after its oldest row');
    assert.equal(sent[1]!.get('limit'), '1000', 'the whole page was one timestamp: PostHog\'s largest page');
    assert.ok(sent.every((query) => query.get('event') === 'x'));
  });

  test('get one event, with format', async () => {
    route(`GET ${events}abc/`, 200, fixtures.eventAsJson);
    assert.equal((await client.events.get(1, 'abc', { format: 'json' })).event, '$pageview');
    assert.equal(lastRequest().query.get('format'), 'json');
  });

  test('values accepts {results, refreshing} (PostHog), a bare list of {name} (older servers) and one event (spec)', async () => {
    route(`GET ${events}values/`, 200, { results: [{ name: 'Firefox' }, { name: 'Chrome' }], refreshing: true });
    assert.deepEqual(await client.events.values(1, { key: '$browser', value: 'fi', event_name: '$pageview' }), {
      results: [{ name: 'Firefox' }, { name: 'Chrome' }],
      refreshing: true,
    });
    assert.deepEqual(Object.fromEntries(lastRequest().query), { key: '$browser', value: 'fi', event_name: '$pageview' });
    route(`GET ${events}values/`, 200, [{ name: 'Firefox' }]);
    assert.deepEqual(await client.events.values(1, { key: '$browser', event_name: 'x' }), { results: [{ name: 'Firefox' }], refreshing: false });
    route(`GET ${events}values/`, 200, fixtures.eventAsStrings);
    assert.deepEqual(await client.events.values(1, { key: '$browser', event_name: 'x' }), { results: [], refreshing: false });
  });

  describe('export', () => {
    let directory: string;
    before(() => {
      directory = mkdtempSync(join(tmpdir(), 'posthog-export-'));
    });
    after(() => rmSync(directory, { recursive: true, force: true }));

    test('streams the CSV body to a file chunk by chunk', async () => {
      const rows = Array.from({ length: 2000 }, (_, index) => `e${index},$pageview,2025-01-01T00:00:00Z\n`);
      const streaming = await startStub((request, response) => {
        assert.equal(new URL(request.url, 'http://x').searchParams.get('format'), 'csv');
        response.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
        let index = 0;
        const writeMore = () => {
          while (index < rows.length) {
            if (!response.write(rows[index++])) {
              response.once('drain', writeMore);
              return;
            }
          }
          response.end();
        };
        writeMore();
      });
      const exporter = new PostHogClient({ baseUrl: streaming.url, apiKey: 'phx_export' });
      try {
        const download = await exporter.events.export(1, { event: '$pageview', limit: 2000 }, 'csv');
        assert.match(download.contentType, /text\/csv/);
        const file = join(directory, 'events.csv');
        await pipeline(download, createWriteStream(file));
        assert.equal(readFileSync(file, 'utf8'), rows.join(''));
        assert.equal(streaming.requests[0].headers.accept, 'text/csv');
      } finally {
        await exporter.dispose();
        await streaming.close();
      }
    });

    test('a stalled body surfaces as a TimeoutError while streaming', async () => {
      const stalling = await startStub((_, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"results": [');
      });
      const exporter = new PostHogClient({ baseUrl: stalling.url, apiKey: 'phx_export', timeouts: { bodyMs: 150 } });
      try {
        const download = await exporter.events.export(1, {}, 'json');
        await assert.rejects(
          (async () => {
            for await (const chunk of download) {
              assert.ok(chunk.length > 0);
            }
          })(),
          (error: unknown) => error instanceof TimeoutError && error.phase === 'body',
        );
      } finally {
        await exporter.dispose();
        await stalling.close();
      }
    });
  });
});
