import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { PostHogClient } from '../../../src/api';
import { checkApiKey } from '../../../src/connections/keyCheck';
import { ExplorerModel } from '../../../src/tree/explorerModel';
import { type LocalApi, startLocalApi } from '../../api-server';

describe('ExplorerModel against the local API', () => {
  let api: LocalApi;
  const clients: PostHogClient[] = [];
  const clientFor = (apiKey: string) => {
    const client = new PostHogClient({ baseUrl: api.url, apiKey });
    clients.push(client);
    return client;
  };

  before(async () => {
    api = await startLocalApi();
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    await api.close();
  });
  beforeEach(() => api.clearRequests());

  test('lists organizations, their projects and a project\'s notebooks', async () => {
    const model = new ExplorerModel(clientFor(api.keys.all), () => []);
    const organizations = await model.organizations();
    assert.ok(organizations.length >= 2);
    assert.ok(organizations.every((organization) => organization.source === 'organizations'));
    const projects = await model.projects(organizations[0].id);
    assert.ok(projects.length >= 1);
    const notebooks = await model.notebooks(projects[0].id, {});
    assert.ok(notebooks.length > 0);
    assert.ok(notebooks.every((notebook) => !notebook.deleted));
  });

  test('asks the server once for a list shown twice, and again after a refresh', async () => {
    const model = new ExplorerModel(clientFor(api.keys.all), () => []);
    const [organization] = await model.organizations();
    await Promise.all([model.projects(organization.id), model.projects(organization.id)]);
    const projectRequests = () => api.requests.filter((request) => request.path.endsWith('/projects/')).length;
    assert.equal(projectRequests(), 1);
    model.refreshOrganization(organization.id);
    await model.projects(organization.id);
    assert.equal(projectRequests(), 2);
  });

  test('each notebook filter reaches the server under the name the spec gives it', async () => {
    const model = new ExplorerModel(clientFor(api.keys.all), () => []);
    const [organization] = await model.organizations();
    const [project] = await model.projects(organization.id);
    api.clearRequests();
    await model.notebooks(project.id, {
      contains: 'recording:true',
      createdBy: { uuid: api.store.users[0]!.uuid, name: 'Sam Rivera' },
      onlyMine: true,
      dateFrom: '2020-01-01',
      dateTo: '2100-01-01',
    });
    const request = api.requests.find((entry) => entry.path.endsWith('/notebooks/'));
    assert.ok(request);
    assert.equal(request.query.contains, 'recording:true');
    assert.equal(request.query.created_by, api.store.users[0]!.uuid);
    assert.equal(request.status, 200);
    assert.equal(request.query.user, 'true');
    assert.equal(request.query.date_from, '2020-01-01');
    assert.equal(request.query.date_to, '2100-01-01');
  });

  test('falls back to the user\'s organizations, then to organizations added by id', async () => {
    const [organization] = await new ExplorerModel(clientFor(api.keys.all), () => []).organizations();
    const profileOnly = api.createKey({ scopes: ['user:read', 'project:read'] });
    const fromProfile = await new ExplorerModel(clientFor(profileOnly), () => []).organizations();
    assert.ok(fromProfile.length > 0);
    assert.ok(fromProfile.every((entry) => entry.source === 'user'));

    const projectsOnly = api.createKey({ scopes: ['project:read'] });
    const added = await new ExplorerModel(clientFor(projectsOnly), () => [organization.id]).organizations();
    assert.deepEqual(added, [{ id: organization.id, name: organization.id, source: 'added' }]);
    await assert.rejects(new ExplorerModel(clientFor(projectsOnly), () => []).organizations());
  });
});

describe('checkApiKey against the local API', () => {
  let api: LocalApi;
  before(async () => {
    api = await startLocalApi();
  });
  after(() => api.close());

  const check = async (apiKey: string) => {
    const client = new PostHogClient({ baseUrl: api.url, apiKey });
    try {
      return await checkApiKey(client);
    } finally {
      await client.dispose();
    }
  };

  test('a key with every scope lacks nothing and names its user', async () => {
    const result = await check(api.keys.all);
    assert.deepEqual(result.missingScopes, []);
    assert.match(result.account ?? '', /@/);
  });

  test('a notebooks-only key reports the scopes it lacks', async () => {
    const result = await check(api.keys.notebooksOnly);
    assert.ok(result.missingScopes.includes('project:read'));
    assert.ok(result.missingScopes.includes('organization:read'));
  });

  test('a key without query:read is told events will not work', async () => {
    const result = await check(api.createKey({ scopes: ['user:read', 'organization:read', 'project:read', 'notebook:read'] }));
    assert.deepEqual(result.missingScopes, ['query:read']);
  });

  test('a bad key is refused after one request', async () => {
    api.clearRequests();
    await assert.rejects(check('phx_not_a_real_key'), { name: 'AuthenticationError' });
    assert.equal(api.requests.length, 1);
  });
});
