import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { PostHogClient } from '../../../../src/api';
import { type NotebookRef, NotebookSessions } from '../../../../src/notebooks/session';
import { type LocalApi, markdownDoc } from '../../../api-server';
import { handleCollabControl } from '../../../api-server/collab-control';
import { withLocalApiClient } from '../../../support/localApiClient';
import { FakeEditors, MemoryBaseStore, MemoryLog } from './sessionFakes';

/** This window's own updates are known by the versions its saves were given, which a teammate cannot copy. */
describe('own updates on the stream (local API)', () => {
  let api: LocalApi;
  let client: PostHogClient;
  let projectId: number;
  let editors: FakeEditors;
  let log: MemoryLog;
  let sessions: NotebookSessions;

  withLocalApiClient({ seed: 'minimal' }, (started) => {
    ({ api, client, projectId } = started);
  });
  beforeEach(() => {
    editors = new FakeEditors();
    log = new MemoryLog();
    sessions = new NotebookSessions({ calls: async () => client.notebooks, editors: () => editors, archive: new MemoryBaseStore(), log });
    sessions.setPollInterval(0);
  });
  afterEach(async () => {
    sessions.dispose();
    await until('every stream to close', () => api.store.collab.listenerCount() === 0);
  });

  async function until(what: string, check: () => boolean): Promise<void> {
    const deadline = Date.now() + 3_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; log: ${log.lines.join(' | ')}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** A teammate's save through PostHog's web app, sent with `clientId`. */
  function teammateSaves(ref: NotebookRef, edit: Record<string, unknown>): void {
    const reply = handleCollabControl(api.store, 'POST', ['notebooks', String(projectId), ref.shortId, 'web-edit'], edit as never);
    assert.equal(reply?.status, 200, JSON.stringify(reply?.body));
  }

  test('a teammate who saves with this window\'s client id still reaches the clean editor; the window\'s own save is not taken twice', async () => {
    const created = await client.notebooks.create(projectId, { title: 'Spoofed', content: markdownDoc('# Plan\n\nFirst.\n'), text_content: '# Plan\n\nFirst.\n' });
    const ref = { connectionId: 'c', projectId, shortId: created.short_id };
    const { session, uri } = await editors.open(sessions, ref, 'markdown');
    editors.savesUnchanged = true;
    editors.onSave = async (saved, text) => ['saved', 'unchanged'].includes((await session.write(saved, 'markdown', text, { overwrite: false })).kind);
    await until('the stream', () => api.store.collab.listenerCount() === 1);

    editors.type(uri, '# Plan\n\nFirst, mine.\n');
    assert.equal((await editors.saveThrough(session, uri, 'markdown')).kind, 'saved');
    assert.equal(session.notebook.version, 1);

    teammateSaves(ref, { replace: { find: 'mine.', with: 'mine, and theirs.' }, clientId: sessions.clientId, by: { first_name: 'Sam' } });
    await until('the teammate\'s version', () => session.notebook.version === 2);
    await until('the clean editor to show it', () => editors.textOf(uri) === '# Plan\n\nFirst, mine, and theirs.\n' && !editors.isDirty(uri));

    teammateSaves(ref, { append: 'A PATCH-free append.', clientId: sessions.clientId });
    await until('the next one', () => editors.textOf(uri) === '# Plan\n\nFirst, mine, and theirs.\n\nA PATCH-free append.\n');
    assert.equal(session.notebook.version, 3);
  });
});
