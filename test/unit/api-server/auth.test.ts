import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLocalApi, type LocalApi } from '../../api-server';
import { call, errorBody, get, mainProject } from './helpers';

describe('local API: authentication and scopes', () => {
  let api: LocalApi;
  let orgId: string;
  let projectId: number;

  before(async () => {
    api = await startLocalApi({ seed: 'minimal' });
    ({ orgId, projectId } = mainProject(api));
  });
  after(() => api.close());

  test('a request without a key is 401 not_authenticated', async () => {
    const answer = await get(api, '/api/organizations/', { key: null });
    assert.equal(answer.status, 401);
    assert.deepEqual(answer.json, errorBody('authentication_error', 'not_authenticated', 'Authentication credentials were not provided.'));
  });

  test('an unknown key is 401 authentication_failed', async () => {
    const answer = await get(api, '/api/organizations/', { key: 'phx_thisKeyDoesNotExist' });
    assert.equal(answer.status, 401);
    assert.deepEqual(
      answer.json,
      errorBody('authentication_error', 'authentication_failed', 'Personal API key found in request Authorization header is invalid.'),
    );
  });

  test('a missing scope is 403 naming the scope', async () => {
    const answer = await get(api, `/api/projects/${projectId}/events/`, { key: api.keys.notebooksOnly });
    assert.equal(answer.status, 403);
    assert.deepEqual(answer.json, errorBody('authentication_error', 'permission_denied', "API key missing required scope 'query:read'"));
  });

  test('a write scope grants read; a read scope does not grant write', async () => {
    assert.equal((await get(api, `/api/projects/${projectId}/notebooks/`, { key: api.keys.notebooksOnly })).status, 200);
    const write = await call(api, 'POST', `/api/projects/${projectId}/notebooks/`, { key: api.keys.readOnly, body: { title: 'x' } });
    assert.equal(write.status, 403);
    assert.equal(write.json.detail, "API key missing required scope 'notebook:write'");
  });

  test('endpoint scopes: organization:read, user:read, project:read, activity_log:read', async () => {
    const key = api.createKey({ scopes: ['notebook:read'] });
    const expectations: [string, string][] = [
      ['/api/organizations/', 'organization:read'],
      ['/api/users/@me/', 'user:read'],
      ['/api/projects/', 'project:read'],
      [`/api/organizations/${orgId}/projects/`, 'project:read'],
    ];
    for (const [path, scope] of expectations) {
      const answer = await get(api, path, { key });
      assert.equal(answer.status, 403, path);
      assert.equal(answer.json.detail, `API key missing required scope '${scope}'`, path);
    }
    const notebook = api.store.notebooksOf(projectId).find((n) => !n.deleted)!;
    const activity = await get(api, `/api/projects/${projectId}/notebooks/${notebook.short_id}/activity/`, { key });
    assert.equal(activity.json.detail, "API key missing required scope 'activity_log:read'");
  });

  test('"*" grants everything', async () => {
    assert.equal((await get(api, '/api/users/@me/', { key: api.keys.all })).status, 200);
    assert.equal((await get(api, `/api/projects/${projectId}/events/?limit=1`, { key: api.keys.all })).status, 200);
  });

  test('a key without scopes (NULL or [] in PostHog) may do nothing: each endpoint names the scope it lacks', async () => {
    const key = api.createKey({ scopes: [] });
    for (const [path, scope] of [
      ['/api/users/@me/', 'user:read'],
      ['/api/organizations/', 'organization:read'],
      [`/api/projects/${projectId}/`, 'project:read'],
      [`/api/projects/${projectId}/notebooks/`, 'notebook:read'],
      [`/api/projects/${projectId}/events/?limit=1`, 'query:read'],
    ]) {
      const answer = await get(api, path!, { key });
      assert.equal(answer.status, 403, path);
      assert.deepEqual(answer.json, errorBody('authentication_error', 'permission_denied', `API key missing required scope '${scope}'`), path);
    }
    const action = await get(api, `/api/projects/${projectId}/is_generating_demo_data/`, { key });
    assert.equal(action.status, 403);
    assert.equal(action.json.detail, 'This action does not support personal API key access');
  });

  test('a key limited to projects is refused on other projects and on non-project endpoints', async () => {
    const other = api.store.visibleProjects().find((p) => p.id !== projectId)!;
    const key = api.createKey({ scopes: ['*'], projects: [projectId] });
    assert.equal((await get(api, `/api/projects/${projectId}/notebooks/`, { key })).status, 200);
    const refused = await get(api, `/api/projects/${other.id}/notebooks/`, { key });
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.json, errorBody('authentication_error', 'permission_denied', `API key does not have access to the requested project: ID ${other.id}.`));
    const orgs = await get(api, '/api/organizations/', { key });
    assert.equal(orgs.json.detail, 'API keys with scoped projects are only supported on project-based endpoints.');
    assert.equal((await get(api, '/api/users/@me/', { key })).status, 200);
  });

  test('the seeded one-project key: project endpoints of its project only; organization and project lists refused', async () => {
    const key = api.keys.oneProject;
    const scopedOnly = errorBody('authentication_error', 'permission_denied', 'API keys with scoped projects are only supported on project-based endpoints.');
    const me = await get(api, '/api/users/@me/', { key });
    assert.equal(me.status, 200);
    assert.equal(me.json.team.id, projectId, 'the user\'s current project is the one the key is limited to');
    for (const [method, path] of [
      ['GET', '/api/organizations/'],
      ['GET', `/api/organizations/${orgId}/`],
      ['GET', `/api/organizations/${orgId}/projects/`],
      ['POST', `/api/organizations/${orgId}/projects/`],
      ['GET', '/api/projects/'],
      ['POST', '/api/projects/'],
    ] as const) {
      const answer = await call(api, method, path, { key, body: method === 'POST' ? { name: 'Not made' } : undefined });
      assert.equal(answer.status, 403, `${method} ${path}`);
      assert.deepEqual(answer.json, scopedOnly, `${method} ${path}`);
    }
    for (const path of [
      `/api/projects/${projectId}/`,
      `/api/projects/@current/`,
      `/api/organizations/${orgId}/projects/${projectId}/`,
      `/api/projects/${projectId}/notebooks/`,
      `/api/projects/${projectId}/events/?limit=1`,
    ]) {
      assert.equal((await get(api, path, { key })).status, 200, path);
    }
    assert.equal((await call(api, 'PATCH', `/api/projects/${projectId}/`, { key, body: { timezone: 'UTC' } })).status, 200);
    const other = api.store.visibleProjects().find((p) => p.id !== projectId)!;
    for (const path of [`/api/projects/${other.id}/`, `/api/organizations/${other.organizationId}/projects/${other.id}/`, `/api/projects/${other.id}/notebooks/`]) {
      const refused = await get(api, path, { key });
      assert.deepEqual(refused.json, errorBody('authentication_error', 'permission_denied', `API key does not have access to the requested project: ID ${other.id}.`), path);
    }
  });

  test('every seed has the one-project key, fixed per seed', async () => {
    for (const seed of ['minimal', 'demo', 'empty'] as const) {
      const [first, second] = [await startLocalApi({ seed, demoEvents: 0 }), await startLocalApi({ seed, demoEvents: 0 })];
      try {
        assert.match(first.keys.oneProject, /^phx_[A-Za-z0-9]{43}$/);
        assert.equal(first.keys.oneProject, second.keys.oneProject, seed);
        assert.equal(new Set(Object.values(first.keys)).size, 4, seed);
        assert.equal((await get(first, '/api/organizations/', { key: first.keys.oneProject })).status, 403, seed);
      } finally {
        await Promise.all([first.close(), second.close()]);
      }
    }
  });

  test('a key limited to an organization sees only that organization', async () => {
    const [first, second] = api.store.organizations;
    const key = api.createKey({ scopes: ['*'], organizations: [first!.id] });
    const list = await get(api, '/api/organizations/', { key });
    assert.deepEqual(list.json.results.map((o: { id: string }) => o.id), [first!.id]);
    const refused = await get(api, `/api/organizations/${second!.id}/projects/`, { key });
    assert.equal(refused.status, 403);
    assert.equal(refused.json.detail, `API key does not have access to the requested organization: ID ${second!.id}.`);
    const projects = await get(api, '/api/projects/', { key });
    assert.ok(projects.json.results.every((p: { organization: string }) => p.organization === first!.id));
  });

  test('scope-less custom actions refuse personal API keys by default', async () => {
    const paths = [
      ['GET', `/api/organizations/${orgId}/projects/${projectId}/activity/`],
      ['GET', `/api/organizations/${orgId}/projects/${projectId}/is_generating_demo_data/`],
      ['PATCH', `/api/organizations/${orgId}/projects/${projectId}/reset_token/`],
      ['GET', `/api/projects/${projectId}/notebooks/activity/`],
    ] as const;
    for (const [method, path] of paths) {
      const answer = await call(api, method, path);
      assert.equal(answer.status, 403, path);
      assert.deepEqual(answer.json, errorBody('authentication_error', 'permission_denied', 'This action does not support personal API key access'));
    }
  });

  test('refusePersonalKeyActions: false lets those actions through with the matching scope', async () => {
    const open = await startLocalApi({ seed: 'minimal', refusePersonalKeyActions: false });
    try {
      const { projectId: id } = mainProject(open);
      assert.equal((await get(open, `/api/projects/${id}/notebooks/activity/`)).status, 200);
      const readOnly = await call(open, 'PATCH', `/api/projects/${id}/reset_token/`, { key: open.keys.readOnly });
      assert.equal(readOnly.json.detail, "API key missing required scope 'project:write'");
    } finally {
      await open.close();
    }
  });
});

describe('local API: discovery', () => {
  let api: LocalApi;
  before(async () => {
    api = await startLocalApi({ seed: 'minimal' });
  });
  after(() => api.close());

  test('GET /api/organizations/ lists organizations with teams and projects', async () => {
    const answer = await get(api, '/api/organizations/');
    assert.equal(answer.status, 200);
    assert.equal(answer.json.count, 2);
    const [hedgebox] = answer.json.results;
    assert.equal(hedgebox.name, 'Hedgebox Inc.');
    assert.equal(hedgebox.slug, 'hedgebox-inc');
    assert.equal(hedgebox.membership_level, 15);
    assert.equal(hedgebox.projects.length, 3);
    assert.deepEqual(Object.keys(hedgebox.projects[0]).sort(), ['id', 'name', 'organization_id']);
    assert.equal(hedgebox.teams.length, 3);
    assert.match(hedgebox.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  test('GET /api/users/@me/ has the user, current organization, organizations and team', async () => {
    const me = (await get(api, '/api/users/@me/')).json;
    assert.equal(me.email, 'sam@hedgebox.net');
    assert.equal(me.organization.name, 'Hedgebox Inc.');
    assert.deepEqual(me.organizations.map((o: { name: string }) => o.name), ['Hedgebox Inc.', 'Acme Analytics']);
    assert.ok(['id', 'name', 'slug'].every((k) => k in me.organizations[0]));
    assert.equal(me.team.name, 'Hedgebox');
  });

  test('GET /api/projects/ pages across the organizations', async () => {
    const page = (await get(api, '/api/projects/?limit=3')).json;
    assert.equal(page.count, 4);
    assert.equal(page.results.length, 3);
    assert.ok(page.next.endsWith('/api/projects/?limit=3&offset=3'));
    const rest = await fetch(page.next, { headers: { Authorization: `Bearer ${api.keys.all}` } }).then((r) => r.json() as Promise<{ results: { name: string }[]; previous: string }>);
    assert.deepEqual(rest.results.map((p) => p.name), ['Acme Web']);
    assert.ok(rest.previous.endsWith('/api/projects/?limit=3'));
  });
});
