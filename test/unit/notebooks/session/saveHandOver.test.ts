import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { PostHogClient } from '../../../../src/api';
import { markdownOf } from '../../../../src/notebooks/model/notebookDocument';
import { type NotebookCalls, type NotebookRef, NotebookSessions, UnconfirmedSaveError } from '../../../../src/notebooks/session';
import { type LocalApi, markdownDoc } from '../../../api-server';
import { withLocalApiClient } from '../../../support/localApiClient';
import { FakeEditors, MemoryBaseStore, MemoryLog } from './sessionFakes';

const TEXT = '# Plan\n\nFirst.\n\nSecond.\n';
const MINE = '# Plan\n\nFirst.\n\nSecond, mine.\n';
const THEIRS = '# Plan\n\nTheirs, at the top.\n\nFirst.\n\nSecond.\n';
const BOTH = '# Plan\n\nTheirs, at the top.\n\nFirst.\n\nSecond, mine.\n';

/** A save's text and base are taken together when VS Code hands the text over, whatever moves the editor on before it runs. */
describe('a save handed over while a remote change merges into the editor', () => {
  let api: LocalApi;
  let client: PostHogClient;
  let projectId: number;
  let editors: FakeEditors;
  let sessions: NotebookSessions;
  let calls: NotebookCalls;

  withLocalApiClient({ seed: 'minimal', control: true }, (started) => {
    ({ api, client, projectId } = started);
  });
  beforeEach(() => {
    editors = new FakeEditors();
    calls = client.notebooks;
    sessions = new NotebookSessions({ calls: async () => calls, editors: () => editors, archive: new MemoryBaseStore(), log: new MemoryLog() });
    sessions.setLiveMode('poll');
    sessions.setPollInterval(0);
  });
  afterEach(() => sessions.dispose());

  async function openTyped(): Promise<{ ref: NotebookRef; uri: string; session: Awaited<ReturnType<FakeEditors['open']>>['session'] }> {
    const notebook = await client.notebooks.create(projectId, { title: 'Race', content: markdownDoc(TEXT), text_content: TEXT });
    const ref = { connectionId: 'c', projectId, shortId: notebook.short_id };
    const { session, uri } = await editors.open(sessions, ref, 'markdown');
    editors.type(uri, MINE);
    session.editorChanged(uri);
    return { ref, uri, session };
  }

  const stored = (ref: NotebookRef) => markdownOf(api.store.getNotebook(projectId, ref.shortId)!.content);
  const saves = () => api.requests.filter((request) => request.method !== 'GET').map((request) => `${request.method} ${request.status}`);

  test('handed over before the merge ran, the text is merged with the version the merge brought before it is sent', async () => {
    const { ref, uri, session } = await openTyped();
    api.store.editNotebookRemotely(projectId, ref.shortId, { content: markdownDoc(THEIRS) });
    const theirs = await client.notebooks.get(projectId, ref.shortId);
    api.clearRequests();
    const merging = session.acceptRemote(theirs); // queued first: merges into the editor and moves its base on
    const saving = session.write(uri, 'markdown', MINE, { overwrite: false }); // VS Code took the text before the merge
    await merging;
    assert.equal(editors.textOf(uri), BOTH, 'the merge reached the editor');
    assert.equal((await saving).kind, 'saved');
    assert.equal(stored(ref), BOTH, 'their paragraph kept: the old text was not sent against their version');
    assert.deepEqual(saves(), ['POST 200'], 'merged before sending: no 409');
  });

  test('handed over after the merge\'s edit landed, a text VS Code took before it keeps the base from before the edit', async () => {
    const { ref, uri, session } = await openTyped();
    api.store.editNotebookRemotely(projectId, ref.shortId, { content: markdownDoc(THEIRS) });
    await session.acceptRemote(await client.notebooks.get(projectId, ref.shortId));
    assert.equal(editors.textOf(uri), BOTH);
    api.clearRequests();
    assert.equal((await session.write(uri, 'markdown', MINE, { overwrite: false })).kind, 'saved');
    assert.equal(stored(ref), BOTH);
    // Typed on after the merge: the editor's text holds the merge, so it is based on their version.
    const more = `${BOTH}\nMore.\n`;
    editors.type(uri, more);
    assert.equal((await session.write(uri, 'markdown', more, { overwrite: false })).kind, 'saved');
    assert.equal(stored(ref), more);
  });

  /** The local API's next save of the notebook answers "saved" with this lie and stores nothing. */
  async function lieOnNextSave(ref: NotebookRef, kind: 'older-version' | 'other-content'): Promise<void> {
    const answer = await fetch(`${api.url}/_control/notebooks/${projectId}/${ref.shortId}/lying-save`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind }),
    });
    assert.equal(answer.status, 201);
  }

  /** A save answered with the lie fails, moves nothing, and the same text saves against the same base after it. */
  async function refusesTheLie(kind: 'older-version' | 'other-content', unconfirmed: (error: UnconfirmedSaveError) => boolean): Promise<void> {
    const { ref, uri, session } = await openTyped();
    assert.equal((await session.write(uri, 'markdown', MINE, { overwrite: false })).kind, 'saved');
    const base = session.notebook.version;
    assert.ok(base > 0, 'saved once: a lower version than the next save sends exists');
    const more = `${MINE}\nMore.\n`;
    editors.type(uri, more);
    session.editorChanged(uri);
    await lieOnNextSave(ref, kind);
    api.clearRequests();
    await assert.rejects(session.write(uri, 'markdown', more, { overwrite: false }), (error) => error instanceof UnconfirmedSaveError && unconfirmed(error));
    assert.deepEqual(saves(), ['POST 200'], 'PostHog said "saved"');
    assert.equal(session.notebook.version, base, 'the session did not believe it');
    assert.equal(stored(ref), MINE, 'nothing was stored');
    assert.equal(editors.textOf(uri), more, 'the editor keeps the text');
    assert.equal((await session.write(uri, 'markdown', more, { overwrite: false })).kind, 'saved', 'saved again against the same base');
    assert.equal(stored(ref), more);
    assert.deepEqual(saves(), ['POST 200', 'POST 200'], 'no 409: the base did not move');
  }

  test('a "saved" answer (local API) with a version below the one sent fails the save and moves nothing', async () => {
    await refusesTheLie('older-version', (error) => !error.otherText && error.answeredVersion < error.sentVersion!);
  });

  test('a "saved" answer (local API) with a newer version holding other text fails the save and moves nothing', async () => {
    await refusesTheLie('other-content', (error) => error.otherText && error.answeredVersion > error.sentVersion!);
  });
});
