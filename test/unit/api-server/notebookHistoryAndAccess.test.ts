import { createHash } from 'node:crypto';
import { describe, test, afterEach, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { markdownOf, startLocalApi, type LocalApi } from '../../api-server';
import { call, control, errorBody, get, mainProject } from './helpers';
import { paragraph } from '../../api-server/content';

const heading = (text: string) => ({ type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text }] });
const queryNode = (query: unknown) => ({ type: 'ph-query', attrs: { nodeId: 'q1', query } });
const doc = (...nodes: unknown[]) => ({ type: 'doc', content: nodes });
const HOGQL = { kind: 'HogQLQuery', query: 'select 1' };

/** A local API with its test controls whose new notebooks are legacy ones, as PostHog still holds many. */
async function legacyNotebooksApi(): Promise<{ api: LocalApi; base: string; projectId: number }> {
  const api = await startLocalApi({ seed: 'minimal', control: true });
  api.store.settings.newNotebooksAsMarkdown = false;
  const { projectId } = mainProject(api);
  return { api, base: `/api/projects/${projectId}/notebooks`, projectId };
}

describe('local API: notebook content as PostHog checks and rewrites it', () => {
  let api: LocalApi;
  let base: string;

  beforeEach(async () => {
    api = await startLocalApi({ seed: 'minimal' });
    // Rich-text content as stored: an older server, or an update (a newer one converts creates to Markdown).
    api.store.settings.newNotebooksAsMarkdown = false;
    base = `/api/projects/${mainProject(api).projectId}/notebooks`;
  });
  afterEach(() => api.close());

  const create = (content: unknown) => call(api, 'POST', `${base}/`, { body: { title: 'Checked', content } });

  test('refuses ph-query shapes PostHog refuses, with its texts, on create and on update, storing nothing', async () => {
    const refusals: [unknown, string][] = [
      [
        { kind: 'InsightVizNode' },
        'ph-query node has an InsightVizNode without a `source`. InsightVizNode.source must be a TrendsQuery, FunnelsQuery, RetentionQuery, PathsQuery, StickinessQuery, LifecycleQuery, WebStatsTableQuery, or WebOverviewQuery.',
      ],
      [
        { kind: 'InsightVizNode', source: { kind: 'EventsQuery' } },
        'ph-query node has an InsightVizNode wrapping `EventsQuery`, which is not a valid insight source. InsightVizNode.source must be one of: FunnelsQuery, LifecycleQuery, PathsQuery, RetentionQuery, StickinessQuery, TrendsQuery, WebOverviewQuery, WebStatsTableQuery.',
      ],
      [{ kind: 'DataVisualizationNode' }, 'ph-query node has a DataVisualizationNode without a `source`. DataVisualizationNode.source must be a HogQLQuery.'],
      [
        { kind: 'DataVisualizationNode', source: { kind: 'TrendsQuery' } },
        'ph-query node has a DataVisualizationNode wrapping `TrendsQuery`, which is not a valid SQL chart source. DataVisualizationNode.source must be a HogQLQuery.',
      ],
      [{ kind: 'InsightVizNode', source: {} }, 'ph-query node has an InsightVizNode wrapping `None`, which is not a valid insight source. InsightVizNode.source must be one of: FunnelsQuery, LifecycleQuery, PathsQuery, RetentionQuery, StickinessQuery, TrendsQuery, WebOverviewQuery, WebStatsTableQuery.'],
    ];
    const count = api.store.notebooksOf(mainProject(api).projectId).length;
    for (const [query, detail] of refusals) {
      // at any depth: inside a list item too
      const nested = doc(heading('T'), { type: 'bulletList', content: [{ type: 'listItem', content: [queryNode(query)] }] });
      const answer = await create(nested);
      assert.equal(answer.status, 400, JSON.stringify(query));
      assert.deepEqual(answer.json, errorBody('validation_error', 'invalid', detail, 'content'));
    }
    assert.equal(api.store.notebooksOf(mainProject(api).projectId).length, count, 'nothing created');
    const made = (await create(doc(heading('T')))).json;
    const refused = await call(api, 'PATCH', `${base}/${made.short_id}/`, { body: { content: doc(queryNode({ kind: 'DataVisualizationNode' })), version: made.version + 7 } });
    assert.equal(refused.status, 400, 'the content is checked before the version');
    assert.equal(refused.json.attr, 'content');
    assert.equal(api.store.getNotebook(mainProject(api).projectId, made.short_id)!.version, made.version);
  });

  test('unwraps an InsightVizNode around a DataVisualizationNode, rewraps one around HogQL, and keeps valid and kind-less queries', async () => {
    const trends = { kind: 'InsightVizNode', source: { kind: 'TrendsQuery', series: [] } };
    const legacy = { source: { whatever: true } };
    const answer = await create(
      doc(
        queryNode({ kind: 'InsightVizNode', source: { kind: 'DataVisualizationNode', source: HOGQL, display: 'ActionsLineGraph' } }),
        queryNode({ kind: 'InsightVizNode', source: HOGQL }),
        queryNode(trends),
        queryNode(legacy),
        queryNode({ kind: 'EventsQuery', select: ['*'] }),
      ),
    );
    assert.equal(answer.status, 201);
    const queries = answer.json.content.content.map((node: { attrs: { query: unknown } }) => node.attrs.query);
    assert.deepEqual(queries, [
      { kind: 'DataVisualizationNode', source: HOGQL, display: 'ActionsLineGraph' },
      { kind: 'DataVisualizationNode', source: HOGQL },
      trends,
      legacy,
      { kind: 'EventsQuery', select: ['*'] },
    ]);
  });

  test('annotates ph-python nodes with the globals analysis and the SHA-256 of their code, once per code', async () => {
    const code = 'import pandas as pd\nrows = 3\ndef total(x):\n    return x\nresult = total(events)\n';
    const made = (await create(doc({ type: 'ph-python', attrs: { nodeId: 'p1', code } }))).json;
    const attrs = made.content.content[0].attrs;
    assert.equal(attrs.globalsAnalysisHash, createHash('sha256').update(code).digest('hex'));
    assert.deepEqual(
      attrs.globalsExportedWithTypes.map((entry: { name: string }) => entry.name),
      ['pd', 'result', 'rows', 'total'],
    );
    assert.ok(attrs.globalsUsed.includes('events'));
    assert.ok(!attrs.globalsUsed.includes('rows'));
    const kept = { ...attrs, globalsUsed: ['kept as sent'] };
    const saved = await call(api, 'PATCH', `${base}/${made.short_id}/`, { body: { content: doc({ type: 'ph-python', attrs: kept }), version: made.version } });
    assert.deepEqual(saved.json.content.content[0].attrs.globalsUsed, ['kept as sent'], 'a matching hash keeps the analysis sent');
  });

  test('leaves the Markdown of a Markdown notebook unchecked', async () => {
    const markdown = '<Query query={{"kind":"InsightVizNode"}} />\n';
    const answer = await create(doc({ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown } }));
    assert.equal(answer.status, 201);
    assert.equal(markdownOf(answer.json.content), markdown);
  });
});

describe('local API: notebook access levels', () => {
  let api: LocalApi;
  let base: string;
  let projectId: number;

  beforeEach(async () => {
    ({ api, base, projectId } = await legacyNotebooksApi());
  });
  afterEach(() => api.close());

  const someNotebook = () => api.store.notebooksOf(projectId).find((n) => !n.deleted)!;

  test('a viewer reads the notebook, sees user_access_level "viewer", and every write is refused with PostHog\'s 403', async () => {
    const notebook = someNotebook();
    assert.equal((await control(api, 'POST', `notebooks/${projectId}/${notebook.short_id}/access`, { level: 'viewer' })).status, 200);
    const read = await get(api, `${base}/${notebook.short_id}/`);
    assert.equal(read.status, 200);
    assert.equal(read.json.user_access_level, 'viewer');
    const listed = (await get(api, `${base}/`)).json.results.find((n: { short_id: string }) => n.short_id === notebook.short_id);
    assert.equal(listed.user_access_level, 'viewer');
    const version = notebook.version;
    for (const body of [{ content: notebook.content, version }, { title: 'Renamed' }, { deleted: true }]) {
      const answer = await call(api, 'PATCH', `${base}/${notebook.short_id}/`, { body });
      assert.equal(answer.status, 403);
      assert.deepEqual(answer.json, errorBody('authentication_error', 'permission_denied', 'You do not have editor access to this resource.'));
    }
    assert.equal(api.store.getNotebook(projectId, notebook.short_id)!.version, version);
    assert.equal((await get(api, `${base}/${notebook.short_id}/markdown/`)).status, 200, 'reads stay allowed');
  });

  test('a notebook the user may not see is left out of the list and refused on read', async () => {
    const notebook = someNotebook();
    await control(api, 'POST', `notebooks/${projectId}/${notebook.short_id}/access`, { level: 'none' });
    const list = (await get(api, `${base}/`)).json;
    assert.ok(!list.results.some((n: { short_id: string }) => n.short_id === notebook.short_id));
    const read = await get(api, `${base}/${notebook.short_id}/`);
    assert.deepEqual([read.status, read.json.detail], [403, 'You do not have viewer access to this resource.']);
  });

  test('others are editors by default; a manager may write', async () => {
    const notebook = someNotebook();
    assert.equal((await get(api, `${base}/${notebook.short_id}/`)).json.user_access_level, 'editor');
    await control(api, 'POST', `notebooks/${projectId}/${notebook.short_id}/access`, { level: 'manager' });
    const answer = await call(api, 'PATCH', `${base}/${notebook.short_id}/`, { body: { title: 'Managed' } });
    assert.deepEqual([answer.status, answer.json.user_access_level], [200, 'manager']);
  });
});

describe('local API: notebook history and Markdown', () => {
  let api: LocalApi;
  let base: string;
  let projectId: number;

  beforeEach(async () => {
    ({ api, base, projectId } = await legacyNotebooksApi());
  });
  afterEach(() => api.close());

  const legacy = async (title: string) => (await call(api, 'POST', `${base}/`, { body: { title, content: doc(heading(title), paragraph('Body')) } })).json;
  const activity = async (shortId: string) => (await get(api, `${base}/${shortId}/activity/`)).json.results;

  test('rejected collaboration saves appear in the activity with the content that never landed', async () => {
    const made = await legacy('Rejected');
    const refused = doc(heading('Rejected'), paragraph('Never stored'));
    const answer = await control(api, 'POST', `notebooks/${projectId}/${made.short_id}/rejected-save`, { kind: 'stale', content: refused, by: { first_name: 'Bo' } });
    assert.equal(answer.status, 201);
    const [entry] = await activity(made.short_id);
    assert.equal(entry.activity, 'save_rejected_stale');
    assert.equal(entry.user.first_name, 'Bo');
    assert.deepEqual(entry.detail.changes, [{ type: 'Notebook', action: 'changed', field: 'content', before: made.content, after: refused }]);
    assert.deepEqual((await get(api, `${base}/${made.short_id}/`)).json.content, made.content, 'the notebook is unchanged');
  });

  test('the migration to Markdown bumps the version, keeps last_modified_*, and logs an update under the previous editor a second after it', async () => {
    const made = await legacy('Migrated');
    const answer = await control(api, 'POST', `notebooks/${projectId}/${made.short_id}/migrate`);
    assert.equal(answer.json.migrated, true);
    const after = (await get(api, `${base}/${made.short_id}/`)).json;
    assert.equal(after.version, made.version + 1);
    assert.equal(after.last_modified_at, made.last_modified_at);
    assert.deepEqual(after.last_modified_by, made.last_modified_by);
    assert.equal(markdownOf(after.content), '# Migrated\n\nBody');
    assert.equal(after.text_content, '# Migrated\n\nBody');
    const [entry] = await activity(made.short_id);
    assert.equal(entry.activity, 'updated');
    assert.equal(entry.user.email, made.last_modified_by.email);
    assert.equal(Date.parse(entry.created_at) - Date.parse(made.last_modified_at), 1000);
    assert.equal((await control(api, 'POST', `notebooks/${projectId}/${made.short_id}/migrate`)).json.migrated, false);
  });

  test('GET .../markdown/ answers a Markdown notebook\'s Markdown, a legacy notebook converted, and needs notebook:read', async () => {
    const markdown = '# Plan\n\n<Query query={{"kind":"SavedInsightNode","shortId":"abc"}} />\n';
    const md = (await call(api, 'POST', `${base}/`, { body: { title: 'Md', content: doc({ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown } }) } })).json;
    assert.deepEqual((await get(api, `${base}/${md.short_id}/markdown/`)).json, { markdown });
    const old = await legacy('Old');
    assert.deepEqual((await get(api, `${base}/${old.short_id}/markdown/`)).json, { markdown: '# Old\n\nBody' });
    const eventsOnly = api.store.createKey({ scopes: ['query:read'] });
    assert.equal((await get(api, `${base}/${md.short_id}/markdown/`, { key: eventsOnly })).status, 403);
  });

  test('with Markdown out of the default responses, a Markdown notebook comes without it, and .../markdown/ has it', async () => {
    const markdown = '# Out\n\nOf the response\n';
    const md = (await call(api, 'POST', `${base}/`, { body: { title: 'Out', content: doc({ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown } }), text_content: markdown } })).json;
    await control(api, 'POST', 'settings', { markdownOutOfResponses: true });
    const read = (await get(api, `${base}/${md.short_id}/`)).json;
    assert.deepEqual(read.content, doc({ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2' } }));
    assert.equal(read.text_content, null);
    assert.deepEqual((await get(api, `${base}/${md.short_id}/markdown/`)).json, { markdown });
  });
});
