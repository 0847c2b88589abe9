import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { NotFoundError, PostHogClient } from '../../../../src/api';
import { markdownOf } from '../../../../src/notebooks/model/notebookDocument';
import type { NotebookForm } from '../../../../src/notebooks/model/notebookPaths';
import { type NotebookCalls, type NotebookRef, type NotebookSession, NotebookSessions, type SessionChange } from '../../../../src/notebooks/session';
import { type LocalApi, markdownDoc } from '../../../api-server';
import { FakeEditors, MemoryBaseStore, MemoryLog } from './sessionFakes';
import { withLocalApiClient } from '../../../support/localApiClient';

/** Sessions that follow PostHog's stream (the extension's default), against the local API. */
describe('live notebook sessions against the local API', () => {
  let api: LocalApi;
  let client: PostHogClient;
  let projectId: number;
  let editors: FakeEditors;
  let log: MemoryLog;
  let sessions: NotebookSessions;
  let calls: NotebookCalls;

  withLocalApiClient({ seed: 'minimal' }, (started) => {
    ({ api, client, projectId } = started);
  });
  beforeEach(() => {
    editors = new FakeEditors();
    log = new MemoryLog();
    calls = client.notebooks;
    sessions = newSessions();
  });
  afterEach(async () => {
    sessions.dispose();
    await until('every stream to close', () => api.store.collab.listenerCount() === 0);
  });

  function newSessions(pauseAfterUnfocusedMs?: number): NotebookSessions {
    const made = new NotebookSessions({ calls: async () => calls, editors: () => editors, archive: new MemoryBaseStore(), log, pauseAfterUnfocusedMs });
    made.setPollInterval(0);
    return made;
  }

  async function until(what: string, check: () => boolean, timeoutMs = 3000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; log: ${log.lines.join(' | ')}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  async function markdownNotebook(markdown: string): Promise<NotebookRef> {
    const notebook = await client.notebooks.create(projectId, { title: 'Live', content: markdownDoc(markdown), text_content: markdown });
    return { connectionId: 'c', projectId, shortId: notebook.short_id };
  }

  /** Opens the file as VS Code does, and records the session's changes from then on. */
  async function open(ref: NotebookRef, form: NotebookForm = 'markdown', name = ''): Promise<{ session: NotebookSession; uri: string; changes: SessionChange[] }> {
    const { session, uri } = await editors.open(sessions, ref, form, name);
    const changes: SessionChange[] = [];
    session.onDidChange((change) => changes.push(change));
    return { session, uri, changes };
  }

  const save = (session: NotebookSession, uri: string, form: NotebookForm = 'markdown') => editors.saveThrough(session, uri, form);

  /** An edit from PostHog's web app (a versioned save of another client, through the control surface's logic). */
  const webEdit = (ref: NotebookRef, edit: Record<string, unknown>) =>
    fetchControl(`notebooks/${projectId}/${ref.shortId}/web-edit`, edit);
  const fetchControl = async (path: string, body: unknown) => {
    const { handleCollabControl } = await import('../../../api-server/collab-control');
    const reply = handleCollabControl(api.store, 'POST', path.split('/'), body as never);
    assert.equal(reply?.status, 200, JSON.stringify(reply?.body));
    return reply!.body;
  };
  const requests = (ref: NotebookRef) =>
    api.requests.filter((request) => request.path.includes(`/notebooks/${ref.shortId}/`)).map((request) => `${request.method} ${request.path.replace(/.*\/notebooks\/[^/]+\//, '')} ${request.status}`);
  const streamOpen = () => until('the stream to open', () => api.store.collab.listenerCount() > 0);

  test('one stream per notebook however many editors show it, closed with the last editor', async () => {
    const ref = await markdownNotebook('# One stream\n');
    api.clearRequests();
    const first = await open(ref);
    await open(ref, 'markdown', 'Other name ');
    await open(ref, 'json');
    await streamOpen();
    assert.equal(api.store.collab.listenerCount(), 1);
    assert.deepEqual(requests(ref), ['GET  200', 'GET collab/stream/ 200']);
    const streamRequest = api.requests.find((request) => request.path.endsWith('collab/stream/'))!;
    assert.equal(streamRequest.headers['last-event-id'], '0-1', 'replays every change after the version just read');
    for (const uri of editors.openUris()) {
      editors.documents.delete(uri);
      first.session.editorClosed(uri);
      if (editors.openUris().length > 0) assert.equal(api.store.collab.listenerCount(), 1);
    }
    await until('the stream to close', () => api.store.collab.listenerCount() === 0);
  });

  test('a clean editor takes the stream\'s diff in place and stays clean, with no request, naming its author', async () => {
    const ref = await markdownNotebook('# Plan\n\nFirst.\n');
    const { session, uri, changes } = await open(ref);
    editors.savesUnchanged = true;
    editors.onSave = async (saved, text) => ['saved', 'unchanged'].includes((await session.write(saved, 'markdown', text, { overwrite: false })).kind);
    await streamOpen();
    api.clearRequests();
    await webEdit(ref, { replace: { find: 'First.', with: 'First, from the web.' }, by: { first_name: 'Lee', last_name: 'Chen' } });
    await until('the change', () => changes.some((change) => change.kind === 'changed'));
    assert.equal(session.textOf('markdown').text, '# Plan\n\nFirst, from the web.\n');
    await until('the editor saved as it is', () => !editors.isDirty(uri));
    assert.equal(editors.textOf(uri), '# Plan\n\nFirst, from the web.\n');
    assert.equal(session.notebook.version, 1);
    const changed = changes.find((change) => change.kind === 'changed');
    assert.deepEqual(changed?.kind === 'changed' && changed.author, { name: 'Lee Chen', agent: false });
    assert.deepEqual(requests(ref), [], 'the diff applied: nothing fetched, and its save sent nothing');
  });

  test('an unsaved editor takes a change to another paragraph at once (cursor and text kept), then saves both with one request', async () => {
    const ref = await markdownNotebook('# Plan\n\nFirst.\n\nSecond.\n');
    const { session, uri, changes } = await open(ref);
    await streamOpen();
    editors.type(uri, '# Plan\n\nFirst, mine.\n\nSecond.\n');
    session.editorChanged(uri);
    await webEdit(ref, { replace: { find: 'Second.', with: 'Second, theirs.' }, agent: 'ai', by: { first_name: 'Ana' } });
    await until('the merge', () => changes.some((change) => change.kind === 'merged'));
    assert.equal(editors.textOf(uri), '# Plan\n\nFirst, mine.\n\nSecond, theirs.\n');
    assert.ok(editors.isDirty(uri), 'still unsaved');
    const merged = changes.find((change) => change.kind === 'merged');
    assert.deepEqual(merged?.kind === 'merged' && [merged.author, merged.held], [{ name: 'PostHog AI (for Ana)', agent: true }, []]);
    api.clearRequests();
    assert.equal((await save(session, uri)).kind, 'saved');
    assert.deepEqual(requests(ref), ['POST collab/markdown_save/ 200'], 'one request: the editor was based on their version');
    assert.equal(markdownOf(api.store.getNotebook(projectId, ref.shortId)!.content), '# Plan\n\nFirst, mine.\n\nSecond, theirs.\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(changes.filter((change) => change.kind === 'changed').length, 1, 'its own save\'s update is skipped');
  });

  test('a change arriving while the user types is merged when they pause, never over a keystroke', async () => {
    const ref = await markdownNotebook('# Plan\n\nFirst.\n\nSecond.\n');
    const { session, uri, changes } = await open(ref);
    await streamOpen();
    editors.type(uri, '# Plan\n\nFirst, mi\n\nSecond.\n');
    session.editorChanged(uri);
    editors.acceptsEdits = false; // every edit meets a keystroke typed meanwhile
    await webEdit(ref, { replace: { find: 'Second.', with: 'Second, theirs.' } });
    await until('the version waiting', () => session.heldVersion?.version === 1);
    assert.deepEqual(changes.map((change) => change.kind), [], 'nothing merged, nothing held: it waits');
    editors.acceptsEdits = true;
    editors.type(uri, '# Plan\n\nFirst, mine.\n\nSecond.\n');
    session.editorChanged(uri);
    await until('the merge after the pause', () => changes.some((change) => change.kind === 'merged'));
    assert.equal(editors.textOf(uri), '# Plan\n\nFirst, mine.\n\nSecond, theirs.\n');
    assert.equal(session.heldVersion, undefined);
  });

  test('a change overlapping the user\'s is held (which lines, by whom); the save merges it with the version held, before sending, and marks the place', async () => {
    const ref = await markdownNotebook('# Plan\n\nFirst.\n\nSecond.\n');
    const { session, uri, changes } = await open(ref);
    await streamOpen();
    editors.type(uri, '# Plan\n\nFirst.\n\nSecond, mine.\n');
    session.editorChanged(uri);
    await webEdit(ref, { replace: { find: 'Second.', with: 'Second, theirs.' }, by: { first_name: 'Lee', last_name: 'Chen' } });
    await until('the hold', () => changes.some((change) => change.kind === 'held'));
    const held = changes.find((change) => change.kind === 'held');
    assert.deepEqual(held?.kind === 'held' && [held.held, held.author?.name], [[{ start: 4, end: 5 }], 'Lee Chen']);
    assert.equal(editors.textOf(uri), '# Plan\n\nFirst.\n\nSecond, mine.\n', 'nothing the user typed is touched');
    api.clearRequests();
    const outcome = await save(session, uri);
    assert.deepEqual(outcome.kind === 'conflicted' && [outcome.conflicts, outcome.marked], [1, true]);
    assert.deepEqual(requests(ref), [], 'the version held is newer than the text\'s base: merged before sending, nothing sent');
    assert.match(editors.textOf(uri)!, /<<<<<<< Yours\n\n?Second, mine\.\n=======\n\n?Second, theirs\.\n>>>>>>> PostHog \(version 1 by Lee Chen\)/, 'the version held names its author');
  });

  test('a 410 (what was missed cannot be replayed) reads PostHog\'s version and merges, as before', async () => {
    const ref = await markdownNotebook('# Plan\n\nFirst.\n\nSecond.\n');
    const { session, uri } = await open(ref);
    await sessions.get(ref)!.checkRemote();
    editors.type(uri, '# Plan\n\nFirst, mine.\n\nSecond.\n');
    sessions.dispose(); // no live updates: the save meets the change
    sessions = newSessions();
    sessions.setLiveMode('poll');
    const huge = 'x'.repeat(70 * 1024);
    const reopened = await sessions.fetch(ref);
    // After the fetch: a version the session knew would be merged with before sending.
    api.store.editNotebookRemotely(projectId, ref.shortId, { content: markdownDoc(`# Plan\n\nFirst.\n\nSecond.\n\n${huge}\n`) });
    await reopened.planAgainst(uri, (await session.baseOf(uri))!);
    api.clearRequests();
    const outcome = await reopened.write(uri, 'markdown', editors.textOf(uri)!, { overwrite: false });
    assert.equal(outcome.kind, 'saved');
    assert.deepEqual(requests(ref), ['POST collab/markdown_save/ 410', 'GET  200', 'POST collab/markdown_save/ 200']);
    assert.equal(markdownOf(api.store.getNotebook(projectId, ref.shortId)!.content), `# Plan\n\nFirst, mine.\n\nSecond.\n\n${huge}\n`);
  });

  test('the stream resumes after PostHog closes it with Last-Event-ID, so an edit made in between still arrives', async () => {
    const ref = await markdownNotebook('# Plan\n\nOne.\n');
    const { session, changes } = await open(ref);
    await streamOpen();
    await webEdit(ref, { replace: { find: 'One.', with: 'One!' } });
    await until('the first change', () => session.notebook.version === 1);
    api.clearRequests();
    api.store.collab.closeAll(false);
    await webEdit(ref, { replace: { find: 'One!', with: 'One!!' } }); // while no stream is open
    await until('the second change', () => session.notebook.version === 2);
    assert.equal(session.textOf('markdown').text, '# Plan\n\nOne!!\n');
    const reconnect = api.requests.find((request) => request.path.endsWith('collab/stream/'));
    assert.equal(reconnect?.headers['last-event-id'], '1-0');
    assert.deepEqual(requests(ref), ['GET collab/stream/ 200'], 'replayed, not fetched');
    assert.equal(changes.filter((change) => change.kind === 'changed').length, 2);
  });

  test('an error on the stream backs off before trying again; a diff that does not apply falls back to a GET', async () => {
    const ref = await markdownNotebook('# Plan\n\nOne.\n');
    const { session } = await open(ref);
    await streamOpen();
    api.clearRequests();
    api.injectFault({ path: /collab\/stream/, status: 500, times: 1 });
    api.store.collab.closeAll(true);
    await until('the retry after the failure', () => requests(ref).filter((entry) => entry.includes('stream')).length >= 2, 6000);
    assert.deepEqual(requests(ref).slice(0, 2), ['GET collab/stream/ 500', 'GET collab/stream/ 200']);
    assert.match(log.lines.join('\n'), /stream of changes failed .*trying again in \d+ s/);
    // A diff against a text this window does not have (its base CRC differs): the notebook is fetched.
    await streamOpen();
    const stored = api.store.getNotebook(projectId, ref.shortId)!;
    stored.content = markdownDoc('# Plan\n\nChanged behind the stream\'s back.\n');
    api.clearRequests();
    await webEdit(ref, { append: 'Added.' });
    await until('the fetched version', () => session.notebook.version === 1);
    assert.equal(session.textOf('markdown').text, '# Plan\n\nChanged behind the stream\'s back.\n\nAdded.\n');
    assert.deepEqual(requests(ref), ['GET  200']);
  });

  test('a server without the stream (404) is polled instead, which the log says', async () => {
    const ref = await markdownNotebook('# Old server\n');
    const notebooks = client.notebooks;
    calls = {
      get: notebooks.get.bind(notebooks) as NotebookCalls['get'],
      update: notebooks.update.bind(notebooks),
      collab: {
        stream: async () => {
          throw new NotFoundError({ endpoint: 'GET collab/stream/', status: 404, detail: 'Not found.' });
        },
      } as unknown as NotebookCalls['collab'],
    };
    sessions.setPollInterval(0.05);
    await open(ref);
    await until('a poll', () => api.requests.some((request) => request.headers['if-none-match'] !== undefined));
    assert.match(log.lines.join('\n'), /no collaboration stream \(404.*checking for changes by polling instead/);
  });

  test('a PATCH\'s update (no client id) is fetched, to name its author; a legacy notebook\'s step too', async () => {
    const ref = await markdownNotebook('# Plan\n');
    const { changes } = await open(ref);
    await streamOpen();
    api.clearRequests();
    const kim = api.store.addUser('Kim', 'Park', 'kim@hedgebox.net');
    api.store.editNotebookRemotely(projectId, ref.shortId, { content: markdownDoc('# Plan\n\nBy the API.\n') }, kim.id);
    await until('the change', () => changes.some((change) => change.kind === 'changed'));
    const changed = changes.find((change) => change.kind === 'changed');
    assert.deepEqual(changed?.kind === 'changed' && changed.author, { name: 'Kim Park <kim@hedgebox.net>', agent: false });
    assert.deepEqual(requests(ref), ['GET  200']);

    api.store.settings.newNotebooksAsMarkdown = false; // a legacy notebook, as PostHog still holds many
    const legacy = await client.notebooks.create(projectId, { title: 'Legacy', content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Old.' }] }] } }).finally(() => {
      api.store.settings.newNotebooksAsMarkdown = true;
    });
    const legacyRef = { connectionId: 'c', projectId, shortId: legacy.short_id };
    const legacyOpen = await open(legacyRef);
    await until('its stream', () => api.store.collab.listenerCount() === 2);
    api.clearRequests();
    await webEdit(legacyRef, { append: 'From the browser.', by: { first_name: 'Mo' } });
    await until('the step taken', () => legacyOpen.changes.some((change) => change.kind === 'changed'));
    assert.match(legacyOpen.session.textOf('markdown').text, /From the browser\./);
    assert.deepEqual(requests(legacyRef), ['GET  200']);
    const step = legacyOpen.changes.find((change) => change.kind === 'changed');
    assert.deepEqual(step?.kind === 'changed' && step.author, { name: 'Mo', agent: false }, 'named by the step');
  });

  test('carets: others\' are mapped into the editor\'s text, the own one is sent as PostHog\'s web app reads it', async () => {
    const ref = await markdownNotebook('# Plan\n\nFirst paragraph.\n\n- one\n- two\n');
    const { session, uri, changes } = await open(ref);
    await streamOpen();
    await fetchControl(`notebooks/${projectId}/${ref.shortId}/presence`, { cursor: { node_index: 1, offset: 5 }, by: { first_name: 'Robin' }, clientId: 'tab-9' });
    await until('the caret', () => changes.some((change) => change.kind === 'presence'));
    assert.deepEqual(session.caretsIn(uri), [{ clientId: 'tab-9', author: { name: 'Robin', agent: false }, offset: '# Plan\n\nFirst'.length }]);
    api.clearRequests();
    session.publishCaret(uri, '# Plan\n\nFirst paragraph.\n\n- one\n- t'.length);
    await until('the caret sent', () => api.requests.some((request) => request.path.endsWith('collab/presence/')));
    const sent = api.requests.find((request) => request.path.endsWith('collab/presence/'))!;
    assert.deepEqual(sent.body, { client_id: sessions.clientId, version: 0, cursor: { node_index: 2, offset: 1, list_item_index: 1 } }, 'one character into the second item');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(session.caretsIn(uri).length, 1, 'the own caret is not shown');
  });

  test('while the window is in the background long, the stream closes; focused again, it resumes', async () => {
    sessions.dispose();
    sessions = newSessions(30);
    const ref = await markdownNotebook('# Background\n');
    const { session } = await open(ref);
    await streamOpen();
    sessions.setWindowFocused(false);
    await until('the pause', () => api.store.collab.listenerCount() === 0);
    await webEdit(ref, { append: 'While away.' });
    sessions.setWindowFocused(true);
    await until('the change made while away', () => session.notebook.version === 1);
    assert.equal(api.store.collab.listenerCount(), 1);
  });
});
