import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { type Notebook, PostHogClient } from '../../../../src/api';
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

  withLocalApiClient({ seed: 'minimal' }, (started) => {
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

  test('a "saved" answer with a version not above the one sent, or other text, fails the save and moves nothing', async () => {
    const { ref, uri, session } = await openTyped();
    const lie = (answer: (sent: { version: number }, real: Notebook) => Notebook) => {
      calls = {
        get: (...args) => client.notebooks.get(...args),
        update: (...args) => client.notebooks.update(...args),
        collab: {
          markdownSave: async (_projectId: number, _shortId: string, body: { version: number }) => ({
            kind: 'saved' as const,
            notebook: answer(body, await client.notebooks.get(projectId, ref.shortId)),
          }),
        } as unknown as NotebookCalls['collab'],
      };
    };
    lie((sent, real) => ({ ...real, version: sent.version }));
    await assert.rejects(session.write(uri, 'markdown', MINE, { overwrite: false }), (error) => error instanceof UnconfirmedSaveError && !error.otherText);
    lie((sent, real) => ({ ...real, version: sent.version + 1, content: markdownDoc('# Something else\n'), text_content: '# Something else\n' }));
    await assert.rejects(session.write(uri, 'markdown', MINE, { overwrite: false }), (error) => error instanceof UnconfirmedSaveError && error.otherText);
    assert.equal(session.notebook.version, 0, 'the session believed neither');
    assert.equal(editors.textOf(uri), MINE, 'the editor keeps the text');
    calls = client.notebooks;
    assert.equal((await session.write(uri, 'markdown', MINE, { overwrite: false })).kind, 'saved', 'saved again against the same base');
    assert.equal(stored(ref), MINE);
  });
});
