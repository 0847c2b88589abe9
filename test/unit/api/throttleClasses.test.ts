import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BudgetWaitError, PostHogClient, RequestBudgets, throttleClassOf, UnsafePathError } from '../../../src/api';
import { type LocalApi, markdownDoc } from '../../api-server';
import { withLocalApiClient } from '../../support/localApiClient';

describe('PostHog\'s throttle classes', () => {
  test('each request the extension makes is sorted into the class PostHog counts it against', () => {
    const cases: [string, string, unknown, string][] = [
      ['GET', '/api/projects/1/events/', undefined, 'clickhouse'],
      ['GET', '/api/projects/1/events/0190-abc/', undefined, 'clickhouse'],
      ['GET', '/api/environments/1/events/', undefined, 'clickhouse'],
      ['GET', '/api/projects/1/events/values/', undefined, 'eventValues'],
      ['POST', '/api/projects/1/query/', { query: { kind: 'EventsQuery', select: ['*'] } }, 'clickhouse'],
      ['POST', '/api/projects/1/query/', { query: { kind: 'DataVisualizationNode', source: { kind: 'HogQLQuery' } } }, 'clickhouse'],
      ['POST', '/api/projects/1/query/', { query: { kind: 'HogQLQuery', query: 'select 1' } }, 'hogql'],
      ['POST', '/api/projects/1/query/HogQLQuery/', { query: { kind: 'HogQLQuery', query: 'select 1' } }, 'hogql'],
      ['GET', '/api/projects/1/query/abc123/', undefined, 'clickhouse'],
      ['DELETE', '/api/projects/1/query/abc123/', undefined, 'clickhouse'],
      ['GET', '/api/projects/1/query/abc123/log/', undefined, 'apiQueries'],
      ['GET', '/api/projects/1/notebooks/abc/', undefined, 'default'],
      ['GET', '/api/projects/1/notebooks/abc/collab/stream/', undefined, 'default'],
      ['POST', '/api/projects/1/notebooks/abc/collab/presence/', {}, 'default'],
      ['POST', '/api/projects/1/notebooks/abc/collab/markdown_save/', {}, 'default'],
      ['GET', '/api/projects/1/notebooks/abc/activity/', undefined, 'default'],
      ['GET', '/api/projects/1/comments/', undefined, 'default'],
      ['GET', '/api/projects/1/property_definitions/', undefined, 'default'],
      ['GET', '/api/organizations/o/projects/', undefined, 'default'],
      ['GET', '/api/users/@me/', undefined, 'default'],
      // A notebook named like an endpoint is still a notebook.
      ['GET', '/api/projects/1/notebooks/events/', undefined, 'default'],
    ];
    for (const [method, path, body, expected] of cases) {
      assert.equal(throttleClassOf({ method, path, body }), expected, `${method} ${path}`);
    }
  });
});

describe('every request goes through its class of the key\'s budget (local API)', () => {
  let url = '';
  let key = '';
  let projectId = 0;
  withLocalApiClient({ seed: 'minimal' }, (started) => {
    url = started.api.url;
    key = started.api.keys.all;
    projectId = started.projectId;
  });

  function connect() {
    let now = Date.UTC(2026, 0, 5, 9);
    const budgets = new RequestBudgets({ now: () => now, sleep: async (ms) => void (now += ms) });
    const client = new PostHogClient({ baseUrl: url, apiKey: key, budgets });
    return { client, budget: budgets.of(url, key) };
  }

  test('notebooks, their collaboration endpoints, projects, users and property definitions count against the default class; events against ClickHouse', async () => {
    const { client, budget } = connect();
    try {
      const notebook = await client.notebooks.create(projectId, { title: 'Counted', content: markdownDoc('# Counted\n'), text_content: '# Counted\n' });
      await client.notebooks.get(projectId, notebook.short_id);
      await client.notebooks.collab.presence(projectId, notebook.short_id, { client_id: 'tab', version: notebook.version, cursor: { head: 1 } });
      await client.users.me();
      await client.projects.listAccessible();
      await client.propertyDefinitions.list(projectId, { type: 'event', limit: 1 }, { priority: 'bulk' });
      assert.equal(budget.sentWithin('default', 60_000), 6);
      assert.equal(budget.sentWithin('clickhouse', 60_000), 0);
      await client.events.list(projectId, { limit: 1, after: new Date(Date.now() - 3_600_000).toISOString() });
      assert.equal(budget.sentWithin('clickhouse', 60_000), 1);
      assert.equal(budget.sentWithin('default', 60_000), 6);
    } finally {
      await client.dispose();
    }
  });

  test('carets yield first: with half the hour spent they are not sent, while an open or a save still goes at once', async () => {
    const { client, budget } = connect();
    try {
      const notebook = await client.notebooks.create(projectId, { title: 'Busy key', content: markdownDoc('# Busy\n'), text_content: '# Busy\n' });
      for (let sent = 1; sent < 2_400; sent++) await budget.acquire('default', 'interactive');
      const presence = { client_id: 'tab', version: notebook.version, cursor: { head: 1 } };
      await assert.rejects(client.notebooks.collab.presence(projectId, notebook.short_id, presence), BudgetWaitError, 'the caret is dropped, not queued');
      assert.equal(budget.sentWithin('default', 3_600_000), 2_400, 'nothing sent for it');
      const opened = await client.notebooks.get(projectId, notebook.short_id);
      assert.equal(opened.short_id, notebook.short_id, 'an open does not wait');
    } finally {
      await client.dispose();
    }
  });

  test('a request that would wait longer than a 429 is waited out fails at once with the wait, unless the caller waits patiently', async () => {
    const { client, budget } = connect();
    try {
      budget.throttled('default', 600, 'Request was throttled. Expected available in 600 seconds.');
      await assert.rejects(client.users.me(), (error: unknown) => error instanceof BudgetWaitError && /Try again in 10 minutes/.test(error.userMessage));
      const me = await client.users.me({ patient: true });
      assert.ok(me.uuid);
    } finally {
      await client.dispose();
    }
  });
});

describe('ids in request paths (local API)', () => {
  let api: LocalApi;
  let client: PostHogClient;
  let projectId = 0;
  withLocalApiClient({ seed: 'minimal' }, (started) => {
    ({ api, client, projectId } = started);
  });

  test('a notebook short id or project id of ".", "..", "%2e%2e" or "" is refused before anything is sent; "/" and "?" stay inside the segment', async () => {
    api.clearRequests();
    for (const shortId of ['..', '.', '%2e%2E', '.%2e', '']) {
      await assert.rejects(async () => client.notebooks.get(projectId, shortId), UnsafePathError, `short id ${JSON.stringify(shortId)}`);
      await assert.rejects(async () => client.notebooks.update(projectId, shortId, { title: 'x' }), UnsafePathError);
      await assert.rejects(async () => client.notebooks.collab.markdownSave(projectId, shortId, { client_id: 'c', version: 0, content: {}, text_content: '' }), UnsafePathError);
      await assert.rejects(async () => client.notebooks.collab.stream(projectId, shortId), UnsafePathError);
      await assert.rejects(async () => client.notebooks.activity(projectId, shortId), UnsafePathError);
    }
    await assert.rejects(async () => client.notebooks.get('..', 'abc'), UnsafePathError);
    await assert.rejects(async () => client.events.get(projectId, '..'), UnsafePathError);
    assert.equal(api.requests.length, 0, 'no request left');
    await assert.rejects(client.notebooks.get(projectId, '../../users/@me'), /Not found|404/);
    assert.deepEqual(
      api.requests.map((request) => request.path),
      [`/api/projects/${projectId}/notebooks/..%2F..%2Fusers%2F%40me/`],
      'the slash stays inside the notebook\'s segment',
    );
  });
});
