import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { PostHogClient, RequestBudgets } from '../../../src/api';
import { checkApiKey, SCOPE_FEATURES } from '../../../src/connections/keyCheck';
import { ExplorerModel } from '../../../src/catalog/explorerModel';
import { DELETION_READS_PER_ORGANIZATION } from '../../../src/catalog/projectDeletions';
import { NotebookLists } from '../../../src/notebooks/lists/notebookLists';
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
    const client = clientFor(api.keys.all);
    const model = new ExplorerModel(client, () => []);
    const organizations = await model.organizations();
    assert.ok(organizations.length >= 2);
    assert.ok(organizations.every((organization) => organization.source === 'organizations'));
    const projects = await model.projects(organizations[0].id);
    assert.ok(projects.length >= 1);
    const notebooks = await new NotebookLists().list(client, projects[0].id, {});
    assert.ok(notebooks.length > 0);
    assert.ok(notebooks.every((notebook) => !notebook.deleted));
  });

  test("knows each listed project's organization without asking again", async () => {
    const model = new ExplorerModel(clientFor(api.keys.all), () => []);
    const organizations = await model.organizations();
    const projects = await model.projects(organizations[1]!.id);
    assert.equal(model.organizationOf(projects[0]!.id), organizations[1]!.id);
    const other = (await clientFor(api.keys.all).projects.listAll(organizations[0]!.id))[0]!;
    assert.equal(model.organizationOf(other.id), undefined, 'a project no list of the model has shown');
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

  test("an organization's projects cost one request, without discovering the organizations first", async () => {
    const organization = api.store.organizations[0]!;
    const model = new ExplorerModel(clientFor(api.keys.all), () => []);
    await model.projects(organization.id);
    assert.deepEqual(api.requests.map((request) => request.path), [`/api/organizations/${organization.id}/projects/`]);
  });

  test('which projects are pending deletion: a read of each listed project, at most 20, once until refreshed; beyond, what the window noted', async () => {
    const organization = api.store.addOrganization('Deleting Inc.', [{ userId: api.store.mainUser.id, level: 15 }]);
    const projects = api.store.addProjects(organization.id, DELETION_READS_PER_ORGANIZATION + 2);
    api.store.addEvents(projects[0]!.id, 1);
    api.store.deleteProject(projects[0]!);
    api.store.deleteProject(projects.at(-1)!);
    const model = new ExplorerModel(clientFor(api.keys.all), () => []);
    api.clearRequests();
    const deletions = await model.deletions(organization.id);
    const reads = () => api.requests.filter((request) => /\/projects\/\d+\/$/.test(request.path)).length;
    assert.equal(reads(), DELETION_READS_PER_ORGANIZATION);
    assert.deepEqual([...deletions.keys()], [projects[0]!.id], 'the last project is beyond the reads');
    assert.equal(deletions.get(projects[0]!.id)?.canCancel, true);
    assert.ok(deletions.get(projects[0]!.id)?.scheduledAt);
    await model.deletions(organization.id);
    assert.equal(reads(), DELETION_READS_PER_ORGANIZATION, 'cached');
    model.noteDeletion(projects.at(-1)!.id, { scheduledAt: '2030-01-01T00:00:00Z' });
    model.refreshOrganization(organization.id);
    assert.deepEqual([...(await model.deletions(organization.id)).keys()].sort(), [projects[0]!.id, projects.at(-1)!.id].sort());
    assert.equal(reads(), 2 * DELETION_READS_PER_ORGANIZATION);
  });

  test('near the key\'s limits the reads for pending deletions are skipped, not delayed: what the window noted is shown', async () => {
    const organization = api.store.addOrganization('Busy Inc.', [{ userId: api.store.mainUser.id, level: 15 }]);
    const [project] = api.store.addProjects(organization.id, 1);
    const budgets = new RequestBudgets();
    const client = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.all, budgets });
    clients.push(client);
    const budget = budgets.of(client.baseUrl, api.keys.all);
    while (!budget.waitFor('default', 'bulk')) await budget.acquire('default', 'bulk');
    const model = new ExplorerModel(client, () => []);
    model.noteDeletion(project!.id, { scheduledAt: '2030-01-01T00:00:00Z' });
    api.clearRequests();
    assert.deepEqual([...(await model.deletions(organization.id)).keys()], [project!.id]);
    assert.deepEqual(api.requests.map((request) => request.path), [`/api/organizations/${organization.id}/projects/`], 'the list only');
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

  test('a key limited to one project browses it: its organization, the project and its notebooks', async () => {
    const client = clientFor(api.keys.oneProject);
    const model = new ExplorerModel(client, () => []);
    const discovery = await model.discovery();
    assert.equal(discovery.limitedToProjects, true);
    const current = api.store.currentProjectOf(api.store.mainUser.id)!;
    assert.deepEqual(discovery.organizations, [
      { id: current.organizationId, name: api.store.getOrganization(current.organizationId)!.name, source: 'projects' },
    ]);
    const projects = await model.projects(current.organizationId);
    assert.deepEqual(projects.map((project) => project.id), [current.id]);
    assert.ok((await new NotebookLists().list(client, current.id, {})).length > 0);
    const refused = api.requests.filter((request) => request.status === 403).map((request) => request.path);
    assert.deepEqual(refused.sort(), ['/api/organizations/', '/api/projects/'], 'only the two lists were refused');
  });

  test('a key limited to projects also shows the ids the user added, and leaves out those it may not read', async () => {
    const current = api.store.currentProjectOf(api.store.mainUser.id)!;
    const other = api.store.visibleProjects().find((project) => project.organizationId !== current.organizationId)!;
    const unreachable = api.store.visibleProjects().find((project) => project.id !== current.id && project.id !== other.id)!;
    const key = api.createKey({ scopes: ['*'], projects: [current.id, other.id] });
    const model = new ExplorerModel(clientFor(key), () => [], () => [other.id, unreachable.id, 999_999]);
    const { organizations } = await model.discovery();
    assert.deepEqual(organizations.map((organization) => organization.id).sort(), [current.organizationId, other.organizationId].sort());
    assert.deepEqual((await model.projects(other.organizationId)).map((project) => project.id), [other.id]);
  });

  test('a key limited to a project other than the current one finds none until one is added', async () => {
    const current = api.store.currentProjectOf(api.store.mainUser.id)!;
    const other = api.store.visibleProjects().find((project) => project.id !== current.id)!;
    const key = api.createKey({ scopes: ['*'], projects: [other.id] });
    const added: number[] = [];
    const model = new ExplorerModel(clientFor(key), () => [], () => added);
    assert.deepEqual(await model.discovery(), { organizations: [], limitedToProjects: true, reachable: new Map() });
    added.push(other.id);
    model.refreshAll();
    assert.deepEqual((await model.projects(other.organizationId)).map((project) => project.id), [other.id]);
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
    assert.equal(result.learnedFrom, 'key');
  });

  test('PostHog describes the key itself (GET @current): two requests, none of them an events request', async () => {
    api.clearRequests();
    await check(api.keys.readOnly);
    assert.deepEqual(api.requests.map((request) => request.path), ['/api/personal_api_keys/@current/', '/api/users/@me/']);
  });

  test('older servers without GET @current: one read-only call per scope, as before', async () => {
    const older = await startLocalApi({ currentKeyEndpoint: false });
    try {
      const client = new PostHogClient({ baseUrl: older.url, apiKey: older.keys.notebooksOnly });
      const result = await checkApiKey(client).finally(() => client.dispose());
      assert.equal(result.learnedFrom, 'probes');
      assert.ok(result.missingScopes.includes('project:read'));
      assert.equal(older.requests[0]!.status, 404);
    } finally {
      await older.close();
    }
  });

  test('a notebooks-only key reports the scopes it lacks', async () => {
    const result = await check(api.keys.notebooksOnly);
    assert.ok(result.missingScopes.includes('project:read'));
    assert.ok(result.missingScopes.includes('organization:read'));
  });

  test('a key without query:read is told events will not work; a write scope grants read', async () => {
    const result = await check(api.createKey({ scopes: ['user:read', 'organization:read', 'project:write', 'notebook:read', 'property_definition:read'] }));
    assert.deepEqual(result.missingScopes, ['query:read']);
    assert.match(SCOPE_FEATURES['query:read']!, /events cannot be browsed/);
  });

  test('a key without property_definition:read is told HogQL completion takes property names from recent events', async () => {
    const result = await check(api.createKey({ scopes: ['user:read', 'organization:read', 'project:read', 'notebook:read', 'query:read'] }));
    assert.deepEqual(result.missingScopes, ['property_definition:read']);
    assert.match(SCOPE_FEATURES['property_definition:read']!, /HogQL completion .*recent events/);
    const writer = await check(api.createKey({ scopes: ['user:read', 'organization:read', 'project:read', 'notebook:read', 'query:read', 'property_definition:write'] }));
    assert.deepEqual(writer.missingScopes, []);
  });

  describe('older servers without GET @current probe property_definition:read with one read of one definition', () => {
    let older: LocalApi;
    before(async () => {
      older = await startLocalApi({ currentKeyEndpoint: false });
    });
    after(() => older.close());
    const probe = async (scopes: string[]) => {
      const client = new PostHogClient({ baseUrl: older.url, apiKey: older.createKey({ scopes }) });
      return checkApiKey(client).finally(() => client.dispose());
    };
    const everyScopeBut = (scope: string) => Object.keys(SCOPE_FEATURES).filter((each) => each !== scope);

    test('a key without it is told, after one request to the definitions', async () => {
      older.clearRequests();
      const result = await probe(everyScopeBut('property_definition:read'));
      assert.equal(result.learnedFrom, 'probes');
      assert.deepEqual(result.missingScopes, ['property_definition:read']);
      const definitionReads = older.requests.filter((request) => request.path.includes('/property_definitions/'));
      assert.equal(definitionReads.length, 1);
      assert.equal(definitionReads[0]!.status, 403);
    });

    test('a key with every scope lacks nothing', async () => {
      assert.deepEqual((await probe(Object.keys(SCOPE_FEATURES))).missingScopes, []);
    });

    test('a server without property definitions (404) is no missing scope: completion falls back all the same', async () => {
      older.store.settings.propertyDefinitionsApi = false;
      try {
        assert.deepEqual((await probe(Object.keys(SCOPE_FEATURES))).missingScopes, []);
      } finally {
        older.store.settings.propertyDefinitionsApi = true;
      }
    });
  });

  test('a key limited to one project is kept: nothing missing, said to be limited, and its project named', async () => {
    const result = await check(api.keys.oneProject);
    assert.deepEqual(result.missingScopes, []);
    assert.equal(result.limitedToProjects, true);
    assert.deepEqual(result.scopedProjects, [api.store.currentProjectOf(api.store.mainUser.id)!.id]);
    assert.equal((await check(api.keys.all)).limitedToProjects, false);
  });

  test('a key limited to a project other than the user\'s current one is kept too', async () => {
    const current = api.store.currentProjectOf(api.store.mainUser.id)!;
    const other = api.store.visibleProjects().find((project) => project.id !== current.id)!;
    const result = await check(api.createKey({ scopes: ['*'], projects: [other.id] }));
    assert.equal(result.limitedToProjects, true);
    assert.deepEqual(result.scopedProjects, [other.id]);
    assert.deepEqual(result.missingScopes, []);
  });

  test('a bad key is refused after one request', async () => {
    api.clearRequests();
    await assert.rejects(check('phx_not_a_real_key'), { name: 'AuthenticationError' });
    assert.equal(api.requests.length, 1);
  });
});
