import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { PostHogClient } from '../../../../src/api';
import { toNotebookQuery } from '../../../../src/notebooks/lists/notebookFilter';
import { NotebookLists } from '../../../../src/notebooks/lists/notebookLists';
import { type LocalApi } from '../../../api-server';
import { withLocalApiClient } from '../../../support/localApiClient';

describe('NotebookLists against the local API', () => {
  let api: LocalApi;
  let client: PostHogClient;
  let projectId: number;

  withLocalApiClient({}, (started) => {
    ({ api, client, projectId } = started);
  });
  beforeEach(() => api.clearRequests());

  const listRequests = () => api.requests.filter((request) => request.path === `/api/projects/${projectId}/notebooks/`).length;

  test('asks the server once for a list shown twice, again after the project is forgotten, and per client', async () => {
    const lists = new NotebookLists();
    const [first] = await Promise.all([lists.list(client, projectId), lists.list(client, projectId)]);
    assert.ok(first.length > 0);
    assert.ok(first.every((notebook) => !notebook.deleted));
    assert.equal(listRequests(), 1);
    lists.forget(client, projectId + 1000);
    await lists.list(client, projectId);
    assert.equal(listRequests(), 1, 'another project forgotten: still cached');
    lists.forget(client, projectId);
    await lists.list(client, projectId, { search: 'x' });
    await lists.list(client, projectId);
    assert.equal(listRequests(), 3, 'each query is a list of its own, and the forgotten one loads again');
    lists.forget(client);
    await lists.list(client, projectId);
    assert.equal(listRequests(), 4);
    const other = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.all });
    try {
      await lists.list(other, projectId);
      assert.equal(listRequests(), 5, "a new client (e.g. after the network settings changed) does not see the old one's lists");
    } finally {
      await other.dispose();
    }
  });

  test('each notebook filter reaches the server under the name the spec gives it', async () => {
    await new NotebookLists().list(
      client,
      projectId,
      toNotebookQuery({
        contains: 'recording:true',
        createdBy: { uuid: api.store.users[0]!.uuid, name: 'Sam Rivera' },
        onlyMine: true,
        dateFrom: '2020-01-01',
        dateTo: '2100-01-01',
      }),
    );
    const request = api.requests.find((entry) => entry.path.endsWith('/notebooks/'));
    assert.ok(request);
    assert.equal(request.query.contains, 'recording:true');
    assert.equal(request.query.created_by, api.store.users[0]!.uuid);
    assert.equal(request.status, 200);
    assert.equal(request.query.user, 'true');
    assert.equal(request.query.date_from, '2020-01-01');
    assert.equal(request.query.date_to, '2100-01-01');
  });
  test('a tree load that is stopped stops its list\'s remaining pages; the next load starts afresh', async () => {
    const project = api.store.visibleProjects()[0]!;
    api.store.addNotebooks(project.id, 3_000);
    const paged = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.all, pageConcurrency: 1 });
    const lists = new NotebookLists();
    api.setLatency(60);
    try {
      const controller = new AbortController();
      const load = lists.list(paged, project.id, {}, controller.signal);
      setTimeout(() => controller.abort(), 90);
      await assert.rejects(load, { name: 'AbortError' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const notebookPages = () => api.requests.filter((request) => request.path === `/api/projects/${project.id}/notebooks/`).length;
      assert.ok(notebookPages() <= 2, `${notebookPages()} pages requested of 7`);
      api.setLatency(0);
      const all = await lists.list(paged, project.id, {});
      assert.ok(all.length >= 3_000);
    } finally {
      api.setLatency(0);
      await paged.dispose();
    }
  });

});
