import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLocalApi, type LocalApi } from '../../api-server';
import { call, control, get, mainProject } from './helpers';

describe('local API: test-control surface', () => {
  let api: LocalApi;
  let projectId: number;

  before(async () => {
    api = await startLocalApi({ seed: 'minimal', control: true });
    ({ projectId } = mainProject(api));
  });
  after(() => api.close());

  test('is off unless asked for', async () => {
    const plain = await startLocalApi({ seed: 'empty' });
    try {
      assert.equal((await get(plain, '/_control/state', { key: null })).status, 404);
    } finally {
      await plain.close();
    }
  });

  test('state lists keys, organizations, projects and notebooks', async () => {
    const { status, json } = await control(api, 'GET', 'state');
    assert.equal(status, 200);
    assert.deepEqual(json.keys, api.keys);
    assert.deepEqual(json.organizations.map((o: { name: string }) => o.name), ['Hedgebox Inc.', 'Acme Analytics']);
    assert.equal(json.projects.length, 4);
    assert.equal(json.notebooks[String(projectId)].length, 7);
    assert.ok(json.notebooks[String(projectId)].some((n: { deleted: boolean }) => n.deleted));
  });

  test('keys, remote edits, faults and recorded requests', async () => {
    const { json: created } = await control(api, 'POST', 'keys', { scopes: ['notebook:read'] });
    assert.equal((await get(api, `/api/projects/${projectId}/notebooks/`, { key: created.key })).status, 200);

    const notebook = api.store.notebooksOf(projectId).find((n) => !n.deleted)!;
    const seen = notebook.version;
    const edited = await control(api, 'POST', `notebooks/${projectId}/${notebook.short_id}/remote-edit`, {});
    assert.equal(edited.json.version, seen + 1);
    const stale = await call(api, 'PATCH', `/api/projects/${projectId}/notebooks/${notebook.short_id}/`, { body: { content: { type: 'doc', content: [] }, version: seen } });
    assert.equal(stale.status, 409);

    await control(api, 'POST', 'faults', { path: '/api/users/@me/?$', status: 504 });
    assert.equal((await get(api, '/api/users/@me/')).status, 504);

    await control(api, 'POST', 'requests/clear');
    await get(api, '/api/organizations/');
    const { json: requests } = await control(api, 'GET', 'requests');
    assert.deepEqual(requests.map((r: { path: string; status: number }) => [r.path, r.status]), [['/api/organizations/', 200]]);
  });

  test('bulk data', async () => {
    const orgId = api.store.organizations[1]!.id;
    assert.equal((await control(api, 'POST', 'notebooks/bulk', { projectId, count: 30 })).json.short_ids.length, 30);
    assert.equal((await control(api, 'POST', 'projects/bulk', { organizationId: orgId, count: 5 })).json.ids.length, 5);
    await control(api, 'POST', 'events/bulk', { projectId, count: 1000 });
    assert.equal(api.store.eventsOf(projectId).size, 1500);
  });
});
