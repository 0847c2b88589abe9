import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { LocalApi, startLocalApi } from '../../api-server';
import {
  AuthenticationError,
  ConflictError,
  errorFromResponse,
  isActivityPage,
  LIST_ALL_PAGE_SIZE,
  MethodNotAllowedError,
  MissingScopeError,
  NetworkError,
  NOT_MODIFIED,
  NotFoundError,
  PermissionDeniedError,
  PersonalApiKeyNotSupportedError,
  PostHogClient,
  PostHogClientOptions,
  RateLimitedError,
  RequestBudgets,
  type BudgetWait,
  RequestLogEntry,
  ResponseShapeError,
  ServerError,
  TimeoutError,
  ValidationError,
} from '../../../src/api';
import { proxyTo, recordingSleep, startStub } from './stubServer';

/** The client and local API under test; every client gets an injected sleep so retries do not wait. */
let api: LocalApi;
const clients: PostHogClient[] = [];

function connect(key: string, options: Partial<PostHogClientOptions> = {}, url = api.url): PostHogClient {
  const client = new PostHogClient({ baseUrl: url, apiKey: key, ...recordingSleep(), ...options });
  clients.push(client);
  return client;
}

/** The first organization, its first project and that project's notebooks, as the seed describes them. */
async function firstProject(client: PostHogClient): Promise<{ orgId: string; projectId: number }> {
  const orgs = await client.organizations.listAll();
  const projects = await client.projects.list(orgs[0].id);
  return { orgId: orgs[0].id, projectId: projects.results[0].id };
}

before(async () => {
  api = await startLocalApi({ seed: 'minimal' });
});

after(async () => {
  await Promise.all(clients.map((client) => client.dispose()));
  await api.close();
});

describe('local API: discovery', () => {
  test('organizations, users/@me and the accessible projects', async () => {
    const client = connect(api.keys.all);
    const orgs = await client.organizations.list();
    assert.equal(orgs.count, 2);
    assert.equal((await client.organizations.listAll()).length, 2);
    const me = await client.users.me();
    assert.equal(me.organizations?.length, 2);
    assert.ok(me.team, 'the user has a current project');
    const projects = await client.projects.listAccessible();
    assert.equal(projects.count, 4);
    assert.equal((await client.projects.listAllAccessible()).length, 4);
    assert.ok(api.requests.every((request) => request.path.endsWith('/')), 'every path ends with a slash');
  });
});

describe('local API: projects', () => {
  test('list, listAll and pages of an organization', async () => {
    const client = connect(api.keys.all);
    const { orgId } = await firstProject(client);
    const page = await client.projects.list(orgId, { limit: 2 });
    assert.equal(page.count, 3);
    assert.equal(page.results.length, 2);
    assert.ok(page.next);
    assert.equal((await client.projects.listAll(orgId)).length, 3);
    const sizes: number[] = [];
    for await (const each of client.projects.pages(orgId, { limit: 2 })) {
      sizes.push(each.results.length);
    }
    assert.deepEqual(sizes, [2, 1]);
  });

  test('create, get, update and delete', async () => {
    const client = connect(api.keys.all);
    const { orgId } = await firstProject(client);
    const created = await client.projects.create(orgId, { name: 'Client test project', timezone: 'Europe/Berlin', week_start_day: 1 });
    assert.equal(created.name, 'Client test project');
    assert.equal(created.timezone, 'Europe/Berlin');
    const fetched = await client.projects.get(orgId, created.id);
    assert.equal(fetched.api_token, created.api_token);
    const updated = await client.projects.update(orgId, created.id, { name: 'Renamed by test', anonymize_ips: true });
    assert.equal(updated.name, 'Renamed by test');
    assert.equal(updated.anonymize_ips, true);
    await client.projects.delete(orgId, created.id);
    const pending = await client.projects.get(orgId, created.id);
    assert.equal(pending.is_pending_deletion, true, 'without events: scheduled an hour later');
    assert.ok(pending.deletion_scheduled_at);
    assert.equal(pending.can_cancel_deletion, true);
  });

  test('cancel-deletion: the short body read; its refusals in PostHog\'s words; an older server deletes at once', async () => {
    const lenient = await startLocalApi({ seed: 'minimal', refusePersonalKeyActions: false });
    try {
      const client = connect(lenient.keys.all, {}, lenient.url);
      const { orgId } = await firstProject(client);
      const created = await client.projects.create(orgId, { name: 'Cancel me' });
      await assert.rejects(client.projects.cancelDeletion(created.id), (error: unknown) => {
        assert.ok(error instanceof ValidationError);
        assert.equal(error.userMessage, 'PostHog did not accept the request. This project is not pending deletion.');
        return true;
      });
      await client.projects.delete(orgId, created.id);
      const cancelled = await client.projects.cancelDeletion(created.id);
      assert.deepEqual([cancelled.id, cancelled.is_pending_deletion, cancelled.deletion_scheduled_at], [created.id, false, null]);
      assert.equal((await client.projects.get(orgId, created.id)).is_pending_deletion, false);
      lenient.store.settings.projectDeletion = 'legacy';
      await client.projects.delete(orgId, created.id);
      await assert.rejects(client.projects.get(orgId, created.id), NotFoundError);
    } finally {
      await lenient.close();
    }
  });

  test('a project without a name gets a default name', async () => {
    const client = connect(api.keys.all);
    const { orgId } = await firstProject(client);
    const created = await client.projects.create(orgId, {});
    assert.match(created.name, /^Default project/);
    await client.projects.delete(orgId, created.id);
  });

  test('activity, is_generating_demo_data and reset_token refuse personal API keys (as PostHog does)', async () => {
    const client = connect(api.keys.all);
    const { orgId, projectId } = await firstProject(client);
    await assert.rejects(client.projects.activity(orgId, projectId), PersonalApiKeyNotSupportedError);
    await assert.rejects(client.projects.isGeneratingDemoData(orgId, projectId), PersonalApiKeyNotSupportedError);
    await assert.rejects(client.projects.resetToken(orgId, projectId), (error: unknown) => {
      assert.ok(error instanceof PersonalApiKeyNotSupportedError);
      assert.equal(error.status, 403);
      assert.match(error.userMessage, /web app/);
      return true;
    });
  });

  test('with refusePersonalKeyActions off: activity page, demo-data flag and a new token', async () => {
    const lenient = await startLocalApi({ seed: 'minimal', refusePersonalKeyActions: false });
    try {
      const client = connect(lenient.keys.all, {}, lenient.url);
      const { orgId, projectId } = await firstProject(client);
      const activity = await client.projects.activity(orgId, projectId, { page: 1, limit: 5 });
      assert.ok(isActivityPage(activity));
      const demo = await client.projects.isGeneratingDemoData(orgId, projectId);
      assert.deepEqual(demo, { is_generating_demo_data: false });
      const before = await client.projects.get(orgId, projectId);
      const after = await client.projects.resetToken(orgId, projectId);
      assert.notEqual(after.api_token, before.api_token);
      assert.match(after.api_token, /^phc_/);
    } finally {
      await lenient.close();
    }
  });
});

describe('local API: notebooks', () => {
  test('list leaves deleted notebooks out; listAll and pages agree', async () => {
    const client = connect(api.keys.all);
    const { projectId } = await firstProject(client);
    const page = await client.notebooks.list(projectId);
    assert.equal(page.count, 6);
    assert.ok(page.results.every((item) => item.deleted === false));
    assert.equal((await client.notebooks.listAll(projectId)).length, page.count);
    let fromPages = 0;
    for await (const each of client.notebooks.pages(projectId, { limit: 3 })) {
      fromPages += each.results.length;
    }
    assert.equal(fromPages, page.count);
  });

  test('list filters reach the server', async () => {
    const client = connect(api.keys.all);
    const { projectId } = await firstProject(client);
    const all = await client.notebooks.listAll(projectId);
    const mine = await client.notebooks.list(projectId, { user: true });
    assert.ok(mine.results.every((item) => item.created_by?.email === all.find((each) => each.id === item.id)?.created_by?.email));
    const creator = all.find((item) => item.created_by)!.created_by!;
    const byCreator = await client.notebooks.list(projectId, { created_by: creator.uuid });
    assert.ok(byCreator.results.length > 0 && byCreator.results.every((item) => item.created_by?.uuid === creator.uuid));
    const future = await client.notebooks.list(projectId, { date_from: '2999-01-01T00:00:00Z' });
    assert.equal(future.count, 0);
    const past = await client.notebooks.list(projectId, { date_to: '2000-01-01T00:00:00Z' });
    assert.equal(past.count, 0);
    const withoutRecordings = await client.notebooks.list(projectId, { contains: 'recording:false' });
    assert.ok(withoutRecordings.count !== undefined && withoutRecordings.count <= all.length);
    const query = api.requests.filter((request) => request.method === 'GET' && /notebooks\/$/.test(request.path)).map((request) => request.query);
    assert.ok(query.some((each) => each.contains === 'recording:false'));
    assert.ok(query.some((each) => each.user === 'true'));
  });

  test('create, get, conditional get, update with version, stale update conflicts', async () => {
    const client = connect(api.keys.all);
    const { projectId } = await firstProject(client);
    const content = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Hello from the client test' }] }] };
    const created = await client.notebooks.create(projectId, { title: 'Client test', content, text_content: 'Hello from the client test' });
    assert.equal(created.version, 0);
    assert.match(created.short_id, /^[A-Za-z0-9]{8}$/);
    const fetched = await client.notebooks.get(projectId, created.short_id);
    assert.deepEqual(fetched.content, created.content, 'PostHog stores a new notebook as a Markdown notebook');
    assert.equal(fetched.text_content, 'Hello from the client test');
    assert.equal(await client.notebooks.get(projectId, created.short_id, { ifNoneMatchVersion: 0 }), NOT_MODIFIED);
    const edited = await client.notebooks.update(projectId, created.short_id, { content: { ...content, content: [] }, version: 0 });
    assert.equal(edited.version, 1);
    const changed = await client.notebooks.get(projectId, created.short_id, { ifNoneMatchVersion: 0 });
    assert.notEqual(changed, NOT_MODIFIED);
    await assert.rejects(client.notebooks.update(projectId, created.short_id, { content, version: 0 }), (error: unknown) => {
      assert.ok(error instanceof ConflictError);
      assert.equal(error.status, 409);
      assert.equal(error.detail, 'Someone else edited the Notebook');
      return true;
    });
    const renamed = await client.notebooks.update(projectId, created.short_id, { title: 'Renamed without version' });
    assert.equal(renamed.title, 'Renamed without version');
  });

  test('a remote content edit makes the conditional get return the new version', async () => {
    const client = connect(api.keys.all);
    const { projectId } = await firstProject(client);
    const [first] = (await client.notebooks.list(projectId)).results;
    const current = await client.notebooks.get(projectId, first.short_id);
    assert.equal(await client.notebooks.get(projectId, first.short_id, { ifNoneMatchVersion: current.version }), NOT_MODIFIED);
    const content = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Edited elsewhere' }] }] };
    api.store.editNotebookRemotely(projectId, first.short_id, { content });
    const after = await client.notebooks.get(projectId, first.short_id, { ifNoneMatchVersion: current.version });
    assert.ok(after !== NOT_MODIFIED, 'the changed notebook is sent');
    assert.equal(after.version, current.version + 1);
    assert.deepEqual(after.content, content);
  });

  test('DELETE answers 405 with an empty body; soft delete and restore work', async () => {
    const client = connect(api.keys.all);
    const { projectId } = await firstProject(client);
    const created = await client.notebooks.create(projectId, { title: 'To be deleted' });
    await assert.rejects(client.notebooks.delete(projectId, created.short_id), (error: unknown) => {
      assert.ok(error instanceof MethodNotAllowedError);
      assert.equal(error.status, 405);
      assert.equal(error.detail, undefined);
      return true;
    });
    assert.equal((await client.notebooks.get(projectId, created.short_id)).deleted, false);
    assert.equal((await client.notebooks.softDelete(projectId, created.short_id)).deleted, true);
    await assert.rejects(client.notebooks.get(projectId, created.short_id), NotFoundError);
    assert.equal((await client.notebooks.restore(projectId, created.short_id)).deleted, false);
    assert.equal((await client.notebooks.get(projectId, created.short_id)).title, 'To be deleted');
  });

  test('notebook activity; project-wide notebook activity refuses personal keys', async () => {
    const client = connect(api.keys.all);
    const { projectId } = await firstProject(client);
    const created = await client.notebooks.create(projectId, { title: 'Activity' });
    await client.notebooks.update(projectId, created.short_id, { title: 'Activity 2' });
    const activity = await client.notebooks.activity(projectId, created.short_id);
    assert.ok(isActivityPage(activity));
    assert.ok(activity.results.length >= 1);
    await assert.rejects(client.notebooks.projectActivity(projectId), PersonalApiKeyNotSupportedError);
  });
});

describe('local API: events', () => {
  test('list, pages below the oldest row, get one, values', async () => {
    const client = connect(api.keys.all);
    const { projectId } = await firstProject(client);
    const page = await client.events.list(projectId, { limit: 10 });
    assert.ok(page.results.length >= 5 && page.results.length <= 10, 'the first window holding half a page');
    const seen = new Set<string>();
    let rows = 0;
    for await (const each of client.events.pages(projectId, { limit: 50, after: new Date(Date.now() - 86_400_000).toISOString() })) {
      each.events.forEach((event) => seen.add(event.id));
      rows += each.events.length;
    }
    assert.equal(seen.size, rows, 'no event twice');
    assert.equal(seen.size, api.store.eventsOf(projectId).size, 'every event of the day, though PostHog\'s windows answer pages without next');
    const one = await client.events.get(projectId, page.results[0].id);
    assert.equal(one.id, page.results[0].id);
    assert.equal(one.person, null, 'no person without include_person');
    assert.ok((await client.events.get(projectId, page.results[0].id, { include_person: true })).person);
    const values = await client.events.values(projectId, { key: '$browser', event_name: '$pageview' });
    assert.ok(values.results.length > 0 && values.results.length <= 10);
    await assert.rejects(client.events.values(projectId, { key: '$browser' }), (error: unknown) => error instanceof ValidationError && /event_name parameter is required/.test(error.userMessage));
  });

  test('filters: event name and JSON-serialised properties', async () => {
    const client = connect(api.keys.all);
    const { projectId } = await firstProject(client);
    const pageviews = await client.events.list(projectId, { event: '$pageview', limit: 20 });
    assert.ok(pageviews.results.every((event) => event.event === '$pageview'));
    const browser = await client.events.values(projectId, { key: '$browser', event_name: '$pageview' });
    const name = String(browser.results[0]!.name);
    const filtered = await client.events.list(projectId, { properties: [{ key: '$browser', value: name, operator: 'exact', type: 'event' }], limit: 20 });
    assert.ok(filtered.results.length > 0);
    assert.ok(filtered.results.every((event) => typeof event.properties === 'object' && (event.properties as Record<string, unknown>).$browser === name));
  });

  test('a malformed event id is a ValidationError', async () => {
    const client = connect(api.keys.all);
    const { projectId } = await firstProject(client);
    await assert.rejects(client.events.get(projectId, 'not-a-uuid'), (error: unknown) => error instanceof ValidationError && /Invalid UUID/.test(error.detail ?? ''));
  });

  test('export streams CSV to a file', async () => {
    const client = connect(api.keys.all);
    const { projectId } = await firstProject(client);
    const directory = mkdtempSync(join(tmpdir(), 'posthog-local-export-'));
    try {
      const download = await client.events.export(projectId, { limit: 200 }, 'csv');
      assert.match(download.contentType, /text\/csv/);
      const file = join(directory, 'events.csv');
      await pipeline(download, createWriteStream(file));
      const lines = readFileSync(file, 'utf8').trim().split(/\r?\n/);
      assert.match(lines[0], /properties\./);
      assert.ok(lines.length > 1);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('local API: error mapping', () => {
  test('401 without a key (raw request mapped) and with a bad key', async () => {
    const response = await fetch(`${api.url}/api/users/@me/`);
    const mapped = errorFromResponse({ endpoint: 'GET /api/users/@me/', status: response.status, bodyText: await response.text() });
    assert.ok(mapped instanceof AuthenticationError);
    assert.equal(mapped.code, 'not_authenticated');
    await assert.rejects(connect('phx_thisKeyDoesNotExist').users.me(), (error: unknown) => {
      assert.ok(error instanceof AuthenticationError);
      assert.equal(error.code, 'authentication_failed');
      return true;
    });
  });

  test('403 missing scope with the read-only key', async () => {
    const client = connect(api.keys.readOnly);
    const { projectId } = await firstProject(client);
    await assert.rejects(client.notebooks.create(projectId, { title: 'x' }), (error: unknown) => {
      assert.ok(error instanceof MissingScopeError);
      assert.equal(error.scope, 'notebook:write');
      return true;
    });
  });

  test('403 for a key limited to other projects', async () => {
    const all = connect(api.keys.all);
    const projects = await all.projects.listAllAccessible();
    const limited = connect(api.createKey({ scopes: ['*'], projects: [projects[1].id] }));
    await assert.rejects(limited.notebooks.list(projects[0].id), PermissionDeniedError);
  });

  test('404 for an unknown notebook', async () => {
    const client = connect(api.keys.all);
    const { projectId } = await firstProject(client);
    await assert.rejects(client.notebooks.get(projectId, 'zzzzzzzz'), (error: unknown) => error instanceof NotFoundError && error.status === 404);
  });

  test('400 validation names the field', async () => {
    const client = connect(api.keys.all);
    const { orgId } = await firstProject(client);
    await assert.rejects(client.projects.create(orgId, { name: 'x'.repeat(201) }), (error: unknown) => {
      assert.ok(error instanceof ValidationError);
      assert.equal(error.attr, 'name');
      return true;
    });
  });

  test('409 duplicate project name', async () => {
    const client = connect(api.keys.all);
    const { orgId, projectId } = await firstProject(client);
    const existing = await client.projects.get(orgId, projectId);
    await assert.rejects(client.projects.create(orgId, { name: existing.name.toUpperCase() }), (error: unknown) => {
      assert.ok(error instanceof ConflictError);
      assert.match(error.userMessage, /already a project called/);
      return true;
    });
  });

  test('429 with the wait in the detail: retried after that wait, or surfaced when retries are off', async () => {
    const { waits, sleep } = recordingSleep();
    const client = connect(api.keys.all, { sleep, random: () => 0 });
    api.injectFault({ method: 'GET', path: /users\/@me/, status: 429, throttleSeconds: 3 });
    await client.users.me();
    assert.deepEqual(waits, [3000]);
    api.injectFault({ method: 'GET', path: /users\/@me/, status: 429, throttleSeconds: 3 });
    await assert.rejects(connect(api.keys.all, { retry: { retries: 0 } }).users.me(), (error: unknown) => {
      assert.ok(error instanceof RateLimitedError);
      assert.equal(error.retryAfterSeconds, 3);
      assert.match(error.detail ?? '', /Expected available in 3 seconds/);
      return true;
    });
  });

  test('PostHog\'s hourly limit used up by another tool: the wait is read from the 429\'s text, waited out (saying so), never retried early', async () => {
    let now = Date.UTC(2026, 0, 5, 9);
    const limited = await startLocalApi({ seed: 'minimal', rateLimits: true, now: () => new Date(now) });
    try {
      const path = `${limited.url}/api/projects/${limited.store.projects[0]!.id}/events/?limit=1`;
      for (let minute = 0; minute < 6; minute++) {
        const answers = await Promise.all(Array.from({ length: 200 }, () => fetch(path, { headers: { authorization: `Bearer ${limited.keys.all}` } })));
        assert.ok(answers.every((answer) => answer.status === 200));
        now += 60_000;
      }
      const slept: number[] = [];
      const waits: BudgetWait[] = [];
      const budgets = new RequestBudgets({ now: () => now, sleep: async (ms) => void (slept.push(ms), (now += ms)) });
      const client = connect(limited.keys.all, { budgets }, limited.url);
      limited.clearRequests();
      const page = await client.events.list(limited.store.projects[0]!.id, { limit: 1 }, { onWait: (wait) => waits.push(wait) });
      assert.equal(page.results.length, 1);
      assert.deepEqual(limited.requests.map((request) => request.status), [429, 200], 'one 429, then one request after the wait');
      assert.equal(waits.length, 1);
      assert.equal(waits[0]!.reason, 'throttled');
      assert.match(waits[0]!.detail ?? '', /Expected available in 3240 seconds/);
      assert.deepEqual(slept, [3_240_000], 'the 54 minutes PostHog named');
    } finally {
      await limited.close();
    }
  });


  test('5xx: 500 surfaces, 502 and 503 are retried', async () => {
    const client = connect(api.keys.all);
    api.injectFault({ method: 'GET', path: /users\/@me/, status: 500 });
    await assert.rejects(client.users.me(), ServerError);
    api.injectFault({ method: 'GET', path: /users\/@me/, status: 502 });
    api.injectFault({ method: 'GET', path: /users\/@me/, status: 503 });
    api.clearRequests();
    await client.users.me();
    assert.equal(api.requests.length, 3);
  });

  test('a dropped connection: GET retried then succeeds, PATCH surfaces NetworkError', async () => {
    const client = connect(api.keys.all);
    const { projectId } = await firstProject(client);
    api.injectFault({ method: 'GET', path: /notebooks\/$/, drop: true });
    assert.ok((await client.notebooks.list(projectId)).count);
    const [first] = (await client.notebooks.list(projectId)).results;
    api.injectFault({ method: 'PATCH', drop: true });
    await assert.rejects(client.notebooks.update(projectId, first.short_id, { title: 'x' }), NetworkError);
  });

  // undici checks header/body timeouts on a coarse (~0.5 s) timer, so the injected delay is far longer.
  test('a slow answer is a TimeoutError; a GET is retried', async () => {
    const client = connect(api.keys.all, { timeouts: { headersMs: 100 }, retry: { retries: 0 } });
    api.injectFault({ method: 'GET', path: /users\/@me/, delayMs: 3000 });
    await assert.rejects(client.users.me(), (error: unknown) => error instanceof TimeoutError && error.phase === 'headers');
    const retrying = connect(api.keys.all, { timeouts: { headersMs: 100 } });
    api.injectFault({ method: 'GET', path: /users\/@me/, delayMs: 3000 });
    assert.equal((await retrying.users.me()).email.length > 0, true);
  });

  test('schema drift in the server data is a ResponseShapeError naming the field', async () => {
    const drifting = await startLocalApi({ seed: 'minimal' });
    try {
      const client = connect(drifting.keys.all, {}, drifting.url);
      const { projectId } = await firstProject(client);
      const notebooks = drifting.store.notebooksOf(projectId).filter((notebook) => !notebook.deleted);
      (notebooks[1] as unknown as { title: unknown }).title = 42;
      await assert.rejects(client.notebooks.list(projectId), (error: unknown) => {
        assert.ok(error instanceof ResponseShapeError);
        assert.match(error.message, /^GET \/api\/projects\/\d+\/notebooks\/: results\.\d+\.title: expected string, received number$/);
        return true;
      });
    } finally {
      await drifting.close();
    }
  });

  test('the key never appears in log entries or errors', async () => {
    const log: RequestLogEntry[] = [];
    const client = connect(api.keys.all, { onRequest: (entry) => log.push(entry) });
    const { projectId } = await firstProject(client);
    const errors: unknown[] = [];
    api.injectFault({ method: 'GET', path: /users\/@me/, status: 500 });
    for (const call of [() => client.users.me(), () => client.notebooks.get(projectId, 'zzzzzzzz'), () => client.notebooks.delete(projectId, 'zzzzzzzz')]) {
      errors.push(await call().catch((error: unknown) => error));
    }
    const text = JSON.stringify({ log, errors });
    assert.ok(log.length >= 5);
    assert.ok(!text.includes(api.keys.all));
    assert.ok(api.requests.some((request) => request.headers.authorization === `Bearer ${api.keys.all}`), 'the key did reach the server');
  });
});

describe('local API: paging at scale and cancellation', () => {
  test('listAll over 5,000 notebooks runs pages concurrently', async () => {
    const big = await startLocalApi({ seed: 'minimal', latencyMs: 10 });
    const proxy = await startStub(proxyTo(big.url));
    try {
      const client = connect(big.keys.all, { pageConcurrency: 4 }, proxy.url);
      const { projectId } = await firstProject(client);
      const before = (await client.notebooks.list(projectId)).count ?? 0;
      big.store.addNotebooks(projectId, 5000);
      proxy.requests.length = 0;
      const progress: Array<[number, number | undefined]> = [];
      const all = await client.notebooks.listAll(projectId, {}, { onProgress: (loaded, total) => progress.push([loaded, total]) });
      assert.equal(all.length, before + 5000);
      assert.equal(new Set(all.map((item) => item.short_id)).size, all.length, 'no duplicates');
      assert.equal(proxy.requests.length, Math.ceil(all.length / LIST_ALL_PAGE_SIZE));
      assert.ok(proxy.maxInFlight() > 1, `max in flight ${proxy.maxInFlight()}`);
      assert.ok(proxy.maxInFlight() <= 4);
      assert.deepEqual(progress.at(-1), [all.length, all.length]);
    } finally {
      await proxy.close();
      await big.close();
    }
  });

  test('an iterator stops when its signal aborts', async () => {
    const client = connect(api.keys.all);
    const { projectId } = await firstProject(client);
    const controller = new AbortController();
    api.clearRequests();
    const pages = client.events.pages(projectId, { limit: 10 }, { signal: controller.signal });
    const first = await pages.next();
    assert.ok((first.value?.events.length ?? 0) > 0);
    controller.abort();
    await assert.rejects(pages.next(), { name: 'AbortError' });
    assert.equal(api.requests.length, 1);
  });
});
