import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { type Notebook, PostHogClient } from '../../../../src/api';
import { markdownOf } from '../../../../src/notebooks/model/notebookDocument';
import type { NotebookForm } from '../../../../src/notebooks/model/notebookPaths';
import { type NotebookRef, type NotebookSession, NotebookSessions, type SessionChange } from '../../../../src/notebooks/session';
import { type LocalApi } from '../../../api-server';
import { edited } from '../fixtures';
import { FakeEditors, MemoryBaseStore, MemoryLog, notebookUri } from './sessionFakes';
import { withLocalApiClient } from '../../../support/localApiClient';
import { paragraph } from '../../../api-server/content';

const heading = (text: string) => ({ type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text }] });
const markdownDoc = (markdown: string) => ({ type: 'doc', content: [{ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown } }] });

describe('NotebookSession against the local API', () => {
  let api: LocalApi;
  let client: PostHogClient;
  let projectId: number;
  let editors: FakeEditors;
  let archive: MemoryBaseStore;
  let log: MemoryLog;
  let sessions: NotebookSessions;

  withLocalApiClient({ seed: 'minimal' }, (started) => {
    ({ api, client, projectId } = started);
    api.store.settings.newNotebooksAsMarkdown = false; // legacyNotebook() makes legacy ones, as PostHog still holds many
  });
  beforeEach(() => {
    editors = new FakeEditors();
    archive = new MemoryBaseStore();
    log = new MemoryLog();
    sessions?.dispose();
    sessions = newSessions();
  });

  function newSessions(): NotebookSessions {
    const made = new NotebookSessions({ calls: async () => client.notebooks, editors: () => editors, archive, log });
    made.setLiveMode('poll'); // these tests look for changes by hand (checkOpenNotebooks); the stream's tests are in liveSession.test.ts
    made.setPollInterval(0);
    return made;
  }

  async function legacyNotebook(title: string): Promise<{ notebook: Notebook; ref: NotebookRef }> {
    const notebook = await client.notebooks.create(projectId, { title, content: { type: 'doc', content: [heading(title), paragraph('First line')] } });
    return { notebook, ref: { connectionId: 'c', projectId, shortId: notebook.short_id } };
  }

  const uriOf = (ref: NotebookRef, form: NotebookForm) => notebookUri(ref, form);
  const open = (ref: NotebookRef, form: NotebookForm) => editors.open(sessions, ref, form);
  const save = (session: NotebookSession, uri: string, form: NotebookForm, text?: string) => editors.saveThrough(session, uri, form, text);
  const reload = (session: NotebookSession, uri: string, form: NotebookForm) => editors.reload(session, uri, form);

  const calls = () => api.requests.filter((request) => request.path.includes('/notebooks/')).map((request) => `${request.method} ${request.status}`);
  const serverText = (ref: NotebookRef) => JSON.stringify(api.store.getNotebook(projectId, ref.shortId)!.content);

  test('after a merged save, a save of the pre-merge text sends nothing, and an edit of it merges with no 409 (the others\' change kept)', async () => {
    const { ref } = await legacyNotebook('Merged once');
    const { session, uri } = await open(ref, 'markdown');
    const mine = editors.textOf(uri)!.replace('First line', 'First line, mine');
    editors.type(uri, mine);
    api.store.editNotebookRemotely(projectId, ref.shortId, { content: { type: 'doc', content: [paragraph('Theirs, at the top.'), heading('Merged once'), paragraph('First line')] } });
    api.clearRequests();
    const first = await save(session, uri, 'markdown');
    assert.deepEqual(first.kind === 'saved' && first.own, false, 'saved, merged with theirs');
    assert.deepEqual(calls(), ['PATCH 409', 'GET 200', 'PATCH 200']);

    api.clearRequests();
    assert.equal((await session.write(uri, 'markdown', mine, { overwrite: false })).kind, 'unchanged', 'the pre-merge text again: nothing to send');
    assert.deepEqual(calls(), []);

    editors.type(uri, `${mine}\nTyped on before the reload.\n`);
    const second = await save(session, uri, 'markdown');
    assert.equal(second.kind, 'saved');
    assert.deepEqual(calls(), ['PATCH 200'], 'merged with the version the first save made, which the session knows');
    const text = serverText(ref);
    assert.ok(text.includes('Theirs, at the top.') && text.includes('First line, mine') && text.includes('Typed on before the reload.'), text);

    reload(session, uri, 'markdown');
    api.clearRequests();
    assert.equal((await session.write(uri, 'markdown', mine, { overwrite: false })).kind, 'unchanged', 'a text the editor held before the reload still sends nothing');
    assert.deepEqual(calls(), []);
  });

  test('JSON: a save of the pre-merge document after a merged save sends nothing; two saves in a row are based on the first\'s version', async () => {
    const { ref, notebook } = await legacyNotebook('Merged JSON');
    const { session, uri } = await open(ref, 'json');
    const mine = edited(editors.textOf(uri)!, (document) => (document.content.content[1] = paragraph('First line, mine')));
    editors.type(uri, mine);
    api.store.editNotebookRemotely(projectId, ref.shortId, { content: { type: 'doc', content: [paragraph('Theirs.'), heading('Merged JSON'), paragraph('First line')] } });
    api.clearRequests();
    assert.equal((await save(session, uri, 'json')).kind, 'saved');
    assert.deepEqual(calls(), ['PATCH 409', 'GET 200', 'PATCH 200']);
    api.clearRequests();
    assert.equal((await session.write(uri, 'json', mine, { overwrite: false })).kind, 'unchanged');
    assert.deepEqual(calls(), []);
    reload(session, uri, 'json');

    const retitled = edited(editors.textOf(uri)!, (document) => (document.title = 'Once'));
    editors.type(uri, retitled);
    await save(session, uri, 'json');
    // Still showing the version it was read at: based on the version the save made.
    editors.type(uri, edited(retitled, (document) => (document.title = 'Twice')));
    api.clearRequests();
    await save(session, uri, 'json');
    assert.deepEqual(calls(), ['PATCH 200']);
    const saved = api.store.getNotebook(projectId, ref.shortId)!;
    assert.equal(saved.title, 'Twice');
    assert.equal(saved.version, notebook.version + 4);
  });

  test('saves of one notebook run one at a time: the second is planned once the first is done', async () => {
    const { ref } = await legacyNotebook('Both files');
    const markdown = await open(ref, 'markdown');
    const json = await open(ref, 'json');
    editors.type(markdown.uri, editors.textOf(markdown.uri)!.replace('First line', 'First line, from the Markdown'));
    editors.type(json.uri, edited(editors.textOf(json.uri)!, (document) => document.content.content.push(paragraph('From the JSON'))));
    api.clearRequests();
    const [a, b] = await Promise.all([save(markdown.session, markdown.uri, 'markdown'), save(json.session, json.uri, 'json')]);
    assert.deepEqual([a.kind, b.kind], ['saved', 'saved']);
    assert.deepEqual(calls(), ['PATCH 200', 'PATCH 200'], 'never two PATCHes of one notebook in flight; the second merged with the version the first made before it was sent');
    const text = serverText(ref);
    assert.ok(text.includes('First line, from the Markdown') && text.includes('From the JSON'), text);
  });

  test('a conflict puts the merge with markers in the editor only while it holds the saved text, based from then on PostHog\'s version', async () => {
    const notebook = await client.notebooks.create(projectId, { title: 'Conflict', content: markdownDoc('# Conflict\n\nOne.\n\nTwo.\n') });
    const ref = { connectionId: 'c', projectId, shortId: notebook.short_id };
    const { session, uri } = await open(ref, 'markdown');
    const mine = '# Conflict\n\nOne, mine.\n\nTwo.\n';
    editors.type(uri, mine);
    api.store.editNotebookRemotely(projectId, ref.shortId, { content: markdownDoc('# Conflict\n\nOne, theirs.\n\nTwo.\n') });

    editors.acceptsEdits = false;
    const refused = await save(session, uri, 'markdown');
    assert.deepEqual(refused.kind === 'conflicted' && refused.marked, false);
    assert.equal(editors.textOf(uri), mine, 'the user typed meanwhile: the editor keeps its text');

    editors.acceptsEdits = true;
    api.clearRequests();
    const outcome = await save(session, uri, 'markdown');
    assert.deepEqual(outcome.kind === 'conflicted' && [outcome.marked, outcome.conflicts], [true, 1]);
    assert.deepEqual(calls(), [], 'its base was kept: the save merged again, with the version the first one met, before sending');
    const marked = editors.textOf(uri)!;
    assert.match(marked, /^<<<<<<< Yours\n/m);
    api.clearRequests();
    await assert.rejects(session.write(uri, 'markdown', marked, { overwrite: false }), /conflict marker/);
    // "Accept Current": here, exactly the text saved before the conflict.
    editors.type(uri, marked.replace(/^<<<<<<< Yours\n([\s\S]*?)^=======\n[\s\S]*?^>>>>>>> .*\n/m, '$1'));
    assert.equal(editors.textOf(uri), mine);
    assert.equal((await save(session, uri, 'markdown')).kind, 'saved');
    assert.deepEqual(calls(), ['POST 200'], 'based on PostHog\'s version since the markers');
    assert.equal(markdownOf(api.store.getNotebook(projectId, ref.shortId)!.content), '# Conflict\n\nOne, mine.\n\nTwo.\n');
  });

  test('live updates: a clean editor\'s notebook moves on; one with unsaved changes takes a change elsewhere at once, holds one to its lines (told once); nothing new costs a 304', async () => {
    const { ref } = await legacyNotebook('Followed');
    const { session, uri } = await open(ref, 'markdown');
    const changes: SessionChange[] = [];
    session.onDidChange((change) => changes.push(change));
    api.store.editNotebookRemotely(projectId, ref.shortId, { content: { type: 'doc', content: [heading('Followed'), paragraph('Theirs.')] } });
    api.clearRequests();
    await sessions.checkOpenNotebooks();
    assert.deepEqual(changes.map((change) => change.kind), ['changed']);
    assert.match(session.textOf('markdown').text, /Theirs\./);
    reload(session, uri, 'markdown');

    editors.type(uri, `${editors.textOf(uri)!}\nMine.\n`);
    api.store.editNotebookRemotely(projectId, ref.shortId, { content: { type: 'doc', content: [heading('Followed'), paragraph('Theirs, again.')] } });
    await sessions.checkOpenNotebooks();
    assert.deepEqual(changes.map((change) => change.kind), ['changed', 'merged', 'changed'], 'merged into the unsaved text');
    assert.equal(editors.textOf(uri), '# Followed\n\nTheirs, again.\n\nMine.\n');
    assert.equal(session.heldVersion, undefined);

    editors.type(uri, editors.textOf(uri)!.replace('Theirs, again.', 'Theirs, again, and mine.'));
    api.store.editNotebookRemotely(projectId, ref.shortId, { content: { type: 'doc', content: [heading('Followed'), paragraph('Theirs, a third time.')] } });
    await sessions.checkOpenNotebooks();
    await sessions.checkOpenNotebooks();
    const held = changes.slice(3);
    assert.deepEqual(held.map((change) => change.kind), ['held'], 'told once');
    assert.deepEqual(held[0]?.kind === 'held' && held[0].held, [{ start: 2, end: 5 }], 'the lines both changed (with the user\'s paragraph added next to them)');
    assert.equal(editors.textOf(uri), '# Followed\n\nTheirs, again, and mine.\n\nMine.\n', 'the user\'s text is untouched');
    assert.equal((session.heldVersion as Notebook | undefined)?.version, session.notebook.version + 1);
    assert.deepEqual(calls(), ['GET 200', 'GET 200', 'GET 200', 'GET 304']);
    assert.ok(api.requests.every((request) => request.headers['if-none-match'] !== undefined));
  });

  test('an editor with unsaved changes is told no newer mtime than it was first served, also after the other file saved', async () => {
    const { ref } = await legacyNotebook('Mtimes');
    const markdown = await open(ref, 'markdown');
    const first = await markdown.session.statMtime(markdown.uri);
    editors.type(markdown.uri, `${editors.textOf(markdown.uri)!}\nUnsaved.\n`);
    const json = await open(ref, 'json');
    editors.type(json.uri, edited(editors.textOf(json.uri)!, (document) => (document.title = 'Saved elsewhere')));
    await save(json.session, json.uri, 'json');
    assert.ok(markdown.session.mtime > first);
    assert.ok((await markdown.session.statMtime(markdown.uri)) <= first);
    assert.equal(await json.session.statMtime(json.uri), json.session.mtime, 'a clean editor sees the new version');
  });

  test('a Markdown write whose base this window does not know is refused, not planned against PostHog\'s current version', async () => {
    const { ref } = await legacyNotebook('No base');
    const session = await sessions.fetch(ref);
    api.store.editNotebookRemotely(projectId, ref.shortId, { content: { type: 'doc', content: [heading('No base'), paragraph('Theirs.')] } });
    api.clearRequests();
    const uri = uriOf(ref, 'markdown');
    assert.equal((await session.write(uri, 'markdown', '# No base\n\nAn old copy.\n', { overwrite: false })).kind, 'noBase');
    assert.deepEqual(calls(), []);
    assert.ok(serverText(ref).includes('Theirs.'));
    assert.equal((await session.write(uri, 'markdown', '# No base\n\nMine over theirs.\n', { overwrite: true })).kind, 'saved', 'unless asked to overwrite');
    assert.ok(serverText(ref).includes('Mine over theirs.'));
  });

  test('a notebook\'s names in use: its current ones and those open editors use; an old title stops being one after a retitle', async () => {
    const { ref, notebook } = await legacyNotebook('Named');
    const session = await sessions.fetch(ref);
    const titled = `Named (${notebook.short_id}).md`;
    assert.ok(session.isNameInUse(`posthog://c/${projectId}/notebooks/${titled}`, titled));
    assert.ok(session.isNameInUse('x', `${notebook.short_id}.json`));
    assert.ok(!session.isNameInUse('x', `Older (${notebook.short_id}).md`));
    await session.retitle('Q3: Revenue / Growth?');
    assert.equal(api.store.getNotebook(projectId, ref.shortId)!.title, 'Q3: Revenue / Growth?');
    assert.ok(!session.isNameInUse('x', titled));
    assert.ok(session.isNameInUse('x', `Q3- Revenue - Growth- (${notebook.short_id}).md`));
    const open = `posthog://c/${projectId}/notebooks/${titled}`;
    editors.documents.set(open, { text: '', dirty: false });
    assert.ok(session.isNameInUse(open, titled), 'an open editor keeps its name');
  });

  test('a base kept on disk survives a window reload: the next save merges against it', async () => {
    const notebook = await client.notebooks.create(projectId, { title: 'Reloaded', content: markdownDoc('# Reloaded\n\nOne.\n\nTwo.\n') });
    const ref = { connectionId: 'c', projectId, shortId: notebook.short_id };
    const { uri } = await open(ref, 'markdown');
    editors.type(uri, '# Reloaded\n\nOne, before the reload.\n\nTwo.\n');
    sessions.get(ref)!.editorChanged(uri);
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(archive.bases.has(uri), 'the base of the unsaved editor is kept');
    sessions.dispose();
    api.store.editNotebookRemotely(projectId, ref.shortId, { content: markdownDoc('# Reloaded\n\nOne.\n\nTwo, after.\n') });
    sessions = newSessions();
    const session = await sessions.fetch(ref);
    api.clearRequests();
    assert.equal((await save(session, uri, 'markdown')).kind, 'saved');
    assert.deepEqual(calls(), ['POST 200'], 'the version fetched on reopening is newer than the kept base: merged before sending, no 409');
    assert.equal(markdownOf(api.store.getNotebook(projectId, ref.shortId)!.content), '# Reloaded\n\nOne, before the reload.\n\nTwo, after.\n');
  });

  test('a clean editor the user types into while it takes a remote change in place gets the change merged into what was typed, and its save keeps both', async () => {
    const notebook = await client.notebooks.create(projectId, { title: 'Typed meanwhile', content: markdownDoc('# Typed\n\nOne.\n\nTwo.\n') });
    const ref = { connectionId: 'c', projectId, shortId: notebook.short_id };
    const { session, uri } = await open(ref, 'markdown');
    editors.savesUnchanged = true; // clean editors take changes in place
    const changes: SessionChange[] = [];
    session.onDidChange((change) => changes.push(change));
    // The in-place edit loses the race with keystrokes that reached the editor first, as VS Code refuses it then.
    const replaceText = editors.replaceText.bind(editors);
    let typed = false;
    editors.replaceText = async (target, expected, text) => {
      if (!typed) {
        typed = true;
        editors.type(target, expected.replace('One.', 'One, typed.'));
        return false;
      }
      return replaceText(target, expected, text);
    };
    api.store.editNotebookRemotely(projectId, ref.shortId, { content: markdownDoc('# Typed\n\nOne.\n\nTwo, theirs.\n') });
    await session.checkRemote();
    assert.equal(editors.textOf(uri), '# Typed\n\nOne, typed.\n\nTwo, theirs.\n', 'their change merged into what was typed');
    assert.deepEqual(changes.map((change) => change.kind), ['changed', 'merged']);

    const outcome = await save(session, uri, 'markdown');
    assert.equal(outcome.kind, 'saved');
    assert.equal(markdownOf(api.store.getNotebook(projectId, ref.shortId)!.content), '# Typed\n\nOne, typed.\n\nTwo, theirs.\n');
  });
});
