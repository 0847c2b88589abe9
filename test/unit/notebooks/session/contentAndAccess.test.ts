import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { type Notebook, PermissionDeniedError, PostHogClient } from '../../../../src/api';
import type { NotebookForm } from '../../../../src/notebooks/model/notebookPaths';
import { ContentRefusedError, type NotebookRef, type NotebookSession, NotebookSessions, type SessionChange } from '../../../../src/notebooks/session';
import { type LocalApi } from '../../../api-server';
import { setNotebookAccess } from '../../../api-server/notebook-access';
import { migrateToMarkdown } from '../../../api-server/notebook-history';
import { edited } from '../fixtures';
import { FakeEditors, MemoryBaseStore, MemoryLog } from './sessionFakes';
import { withLocalApiClient } from '../../../support/localApiClient';
import { paragraph } from '../../../api-server/content';

const heading = (text: string) => ({ type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text }] });
const queryNode = (nodeId: string, query: unknown) => ({ type: 'ph-query', attrs: { nodeId, query } });
const HOGQL = { kind: 'HogQLQuery', query: 'select count() from events' };

describe('NotebookSession: content PostHog refuses or rewrites, view-only notebooks, PostHog\'s own revisions', () => {
  let api: LocalApi;
  let client: PostHogClient;
  let projectId: number;
  let editors: FakeEditors;
  let log: MemoryLog;
  let sessions: NotebookSessions;

  withLocalApiClient({ seed: 'minimal' }, (started) => {
    ({ api, client, projectId } = started);
    api.store.settings.newNotebooksAsMarkdown = false; // legacy notebooks, as PostHog still holds many
  });
  beforeEach(() => {
    editors = new FakeEditors();
    log = new MemoryLog();
    sessions?.dispose();
    sessions = new NotebookSessions({ calls: async () => client.notebooks, editors: () => editors, archive: new MemoryBaseStore(), log });
    sessions.setLiveMode('poll'); // changes are looked for by hand here; the stream's tests are in liveSession.test.ts
    sessions.setPollInterval(0);
  });

  async function notebookWith(title: string, ...nodes: unknown[]): Promise<{ notebook: Notebook; ref: NotebookRef }> {
    const notebook = await client.notebooks.create(projectId, { title, content: { type: 'doc', content: [heading(title), ...nodes] } });
    return { notebook, ref: { connectionId: 'c', projectId, shortId: notebook.short_id } };
  }

  const open = (ref: NotebookRef, form: NotebookForm) => editors.open(sessions, ref, form);
  const save = (session: NotebookSession, uri: string, form: NotebookForm, text?: string) => editors.saveThrough(session, uri, form, text);
  const reload = (session: NotebookSession, uri: string, form: NotebookForm) => editors.reload(session, uri, form);

  const calls = () => api.requests.filter((request) => request.path.includes('/notebooks/')).map((request) => `${request.method} ${request.status}`);

  test('JSON: a query node PostHog refuses fails the save with PostHog\'s reason at that node\'s line; nothing is stored', async () => {
    const { ref, notebook } = await notebookWith('Refused JSON', paragraph('Before'));
    const { session, uri } = await open(ref, 'json');
    const text = edited(editors.textOf(uri)!, (document) => document.content.content.push(queryNode('ok', { kind: 'DataTableNode', source: { kind: 'EventsQuery', select: ['*'] } }), queryNode('bad', { kind: 'InsightVizNode' })));
    editors.type(uri, text);
    api.clearRequests();
    const refusal = await session.write(uri, 'json', text, { overwrite: false }).then(
      () => assert.fail('saved'),
      (error: unknown) => error,
    );
    assert.ok(refusal instanceof ContentRefusedError, String(refusal));
    assert.match(refusal.detail, /^ph-query node has an InsightVizNode without a `source`\./);
    const lines = text.split('\n');
    const queryLine = lines.findIndex((line, index) => line.includes('"query"') && lines.slice(0, index).some((earlier) => earlier.includes('"bad"')));
    assert.equal(refusal.place?.line, queryLine, `at the refused node's query, line ${queryLine + 1}`);
    assert.equal(lines[refusal.place!.line]!.slice(refusal.place!.column).startsWith('{'), true);
    assert.deepEqual(calls(), ['PATCH 400']);
    assert.equal(api.store.getNotebook(projectId, ref.shortId)!.version, notebook.version);
    assert.equal(editors.textOf(uri), text, 'the editor keeps the text');
  });

  test('Markdown of a legacy notebook: the refusal is placed at the <Query> tag of the refused query', async () => {
    const { ref } = await notebookWith('Refused Markdown', paragraph('Intro'));
    const { session, uri } = await open(ref, 'markdown');
    const text = `${editors.textOf(uri)!}\n<Query query={{"kind":"DataVisualizationNode","source":{"kind":"TrendsQuery"}}} />\n`;
    editors.type(uri, text);
    const refusal = await session.write(uri, 'markdown', text, { overwrite: false }).catch((error: unknown) => error);
    assert.ok(refusal instanceof ContentRefusedError);
    assert.match(refusal.message, /DataVisualizationNode wrapping `TrendsQuery`/);
    assert.equal(refusal.place?.line, text.split('\n').findIndex((line) => line.startsWith('<Query')));
    assert.equal(refusal.place?.column, 0);
  });

  test('a save PostHog rewrites (query normalised) is saved, not a conflict: the log says what changed, the editor takes PostHog\'s version and its next save merges with it', async () => {
    const { ref, notebook } = await notebookWith('Rewritten', paragraph('Body'));
    const { session, uri } = await open(ref, 'json');
    const sent = edited(editors.textOf(uri)!, (document) => document.content.content.push(queryNode('chart', { kind: 'InsightVizNode', source: HOGQL })));
    editors.type(uri, sent);
    api.clearRequests();
    const outcome = await save(session, uri, 'json');
    assert.deepEqual(outcome.kind === 'saved' && outcome.own, false, 'saved; the editor is to take PostHog\'s version');
    assert.deepEqual(calls(), ['PATCH 200']);
    assert.ok(
      log.lines.some((line) => /PostHog changed what it stored: block 3 \(ph-query\): query InsightVizNode\(HogQLQuery\) → DataVisualizationNode\(HogQLQuery\)/.test(line)),
      log.lines.join('\n'),
    );
    assert.ok(!log.lines.some((line) => /conflict|someone/i.test(line)), log.lines.join('\n'));
    assert.deepEqual((api.store.getNotebook(projectId, ref.shortId)!.content as any).content[2].attrs.query, { kind: 'DataVisualizationNode', source: HOGQL });

    // Typed on before the reload: the save merges with PostHog's version, keeping its rewrite.
    editors.type(uri, edited(sent, (document) => document.content.content.push(paragraph('Typed on'))));
    api.clearRequests();
    assert.equal((await save(session, uri, 'json')).kind, 'saved');
    assert.deepEqual(calls(), ['PATCH 200']);
    const stored = api.store.getNotebook(projectId, ref.shortId)!;
    assert.equal(stored.version, notebook.version + 2);
    assert.deepEqual((stored.content as any).content[2].attrs.query.kind, 'DataVisualizationNode', 'the rewrite kept');
    reload(session, uri, 'json');
    assert.match(editors.textOf(uri)!, /"kind": "DataVisualizationNode"/);
    assert.doesNotMatch(editors.textOf(uri)!, /InsightVizNode/);
  });

  test('a Python cell annotated by PostHog: the Markdown editor is served PostHog\'s version after the save', async () => {
    const { ref } = await notebookWith('Python', paragraph('Body'));
    const { session, uri } = await open(ref, 'markdown');
    const text = `${editors.textOf(uri)!}\n<Python code="rows = 3" />\n`;
    editors.type(uri, text);
    const outcome = await save(session, uri, 'markdown');
    assert.deepEqual(outcome.kind === 'saved' && outcome.own, false);
    assert.ok(log.lines.some((line) => /ph-python\): gained globalsUsed, globalsExportedWithTypes, globalsAnalysisHash/.test(line)), log.lines.join('\n'));
    reload(session, uri, 'markdown');
    assert.match(editors.textOf(uri)!, /globalsAnalysisHash/);
    api.clearRequests();
    assert.equal((await save(session, uri, 'markdown')).kind, 'unchanged', 'PostHog\'s version saved again sends nothing');
    assert.deepEqual(calls(), []);
  });

  test('a view-only notebook: a write sends nothing and says so; a notebook whose access drops learns it from the 403', async () => {
    const { ref, notebook } = await notebookWith('Viewer', paragraph('Body'));
    setNotebookAccess(api.store.getNotebook(projectId, ref.shortId)!, api.store.mainUser.id, 'viewer');
    const { session, uri } = await open(ref, 'markdown');
    assert.equal(session.notebook.user_access_level, 'viewer');
    api.clearRequests();
    const outcome = await session.write(uri, 'markdown', `${editors.textOf(uri)!}\nMine\n`, { overwrite: false });
    assert.deepEqual(outcome, { kind: 'viewOnly', level: 'viewer' });
    assert.deepEqual(calls(), []);

    const other = await notebookWith('Dropped', paragraph('Body'));
    const opened = await open(other.ref, 'json');
    setNotebookAccess(api.store.getNotebook(projectId, other.ref.shortId)!, api.store.mainUser.id, 'viewer');
    const text = edited(editors.textOf(opened.uri)!, (document) => (document.title = 'Mine'));
    api.clearRequests();
    await assert.rejects(opened.session.write(opened.uri, 'json', text, { overwrite: false }), (error: unknown) => error instanceof PermissionDeniedError && /editor access/.test(error.userMessage));
    assert.deepEqual(calls(), ['PATCH 403', 'GET 200']);
    assert.equal(opened.session.notebook.user_access_level, 'viewer', 'the next stat says read-only');
    assert.equal(notebook.user_access_level, 'editor');
  });

  test('PostHog\'s Markdown migration is named as PostHog\'s: the change merged into an unsaved editor and the merge labels do not blame the last editor', async () => {
    const { ref } = await notebookWith('Migrated', paragraph('First.'), paragraph('Second.'));
    const { session, uri } = await open(ref, 'markdown');
    const changes: SessionChange[] = [];
    session.onDidChange((change) => changes.push(change));
    editors.type(uri, editors.textOf(uri)!.replace('First.', 'First, mine.'));
    migrateToMarkdown(api.store, api.store.getNotebook(projectId, ref.shortId)!);
    await session.checkRemote();
    // The migration changes no line the user edited: it is merged into the unsaved text at once, named as PostHog's.
    assert.deepEqual(changes.filter((change) => change.kind === 'merged' || change.kind === 'held').map((change) => change.kind === 'merged' && change.author?.name), ['PostHog']);

    const other = await notebookWith('Migrated JSON', paragraph('First.'));
    const json = await open(other.ref, 'json');
    const text = edited(editors.textOf(json.uri)!, (document) => (document.content.content[1] = paragraph('Mine.')));
    editors.type(json.uri, text);
    migrateToMarkdown(api.store, api.store.getNotebook(projectId, other.ref.shortId)!);
    const outcome = await save(json.session, json.uri, 'json');
    assert.equal(outcome.kind, 'conflicted');
    assert.deepEqual(outcome.kind === 'conflicted' && outcome.byPostHog, true);
    assert.match(editors.textOf(json.uri)!, /^>>>>>>> PostHog \(version \d+ by PostHog\)/m);
  });
});
