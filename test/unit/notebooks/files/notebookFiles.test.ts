import { workspace } from '../../support/vscode';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import * as vscode from 'vscode';
import type { Notebook, PostHogClient } from '../../../../src/api';
import type { ConnectionSession } from '../../../../src/connections';
import type { CollectionItemTarget } from '../../../../src/documents';
import { NotebookFileStore } from '../../../../src/notebooks/files/notebookFiles';
import type { NotebookEditors } from '../../../../src/notebooks/files/notebookEditors';
import { DeletedNotebooks } from '../../../../src/notebooks/lists/deletedNotebooks';
import { NotebookLists } from '../../../../src/notebooks/lists/notebookLists';
import type { NotebookForm } from '../../../../src/notebooks/model/notebookPaths';
import { NotebookSessions } from '../../../../src/notebooks/session';
import { type LocalApi, markdownDoc } from '../../../api-server';
import { MemoryState } from '../../../support/memoryStores';
import { withLocalApiClient } from '../../../support/localApiClient';
import { FakeEditors, MemoryBaseStore, MemoryLog } from '../session/sessionFakes';

/**
 * NotebookFileStore, the file system's side of notebooks, as src/notebooks/index.ts builds it: real sessions
 * (polling, no stream) and lists against the local API; the window's side (NotebookEditors) a fake.
 */
describe('notebook files against the local API', () => {
  const connectionId = 'c1';
  let api: LocalApi;
  let client: PostHogClient;
  let projectId: number;
  let editors: FakeEditors;
  let sessions: NotebookSessions;
  let store: NotebookFileStore;
  let connection: ConnectionSession;

  withLocalApiClient({ seed: 'minimal' }, (started) => {
    ({ api, client, projectId } = started);
    connection = { connection: { id: connectionId }, client, model: {} } as unknown as ConnectionSession;
  });
  beforeEach(() => {
    workspace.reset();
    editors = new FakeEditors();
    sessions = new NotebookSessions({ calls: async () => client.notebooks, editors: () => editors, archive: new MemoryBaseStore(), log: new MemoryLog() });
    sessions.setLiveMode('poll');
    sessions.setPollInterval(0);
    // The window seam: no VS Code editors here (the sessions see FakeEditors instead).
    const windowEditors = { remoteScheme: 'posthog-remote', documentsOf: () => [] } as unknown as NotebookEditors;
    store = new NotebookFileStore('posthog', async () => connection, sessions, windowEditors, new DeletedNotebooks(new MemoryState()), new NotebookLists());
  });
  afterEach(() => {
    store.dispose();
    sessions.dispose();
  });

  async function markdownNotebook(title: string, markdown: string): Promise<Notebook> {
    return client.notebooks.create(projectId, { title, content: markdownDoc(markdown), text_content: markdown });
  }

  /** The target the `posthog` file system hands the store for `fileName` in the project's notebooks folder. */
  function targetOf(fileName: string, shortId: string): CollectionItemTarget {
    const uri = vscode.Uri.from({ scheme: 'posthog', authority: connectionId, path: `/${projectId}/notebooks/${fileName}` });
    return { uri, connectionId, projectId, itemId: shortId, session: connection };
  }

  function fileOf(notebook: Notebook, form: NotebookForm = 'markdown'): CollectionItemTarget {
    return targetOf(`${notebook.title} (${notebook.short_id})${form === 'markdown' ? '.md' : '.json'}`, notebook.short_id);
  }

  const sent = () => api.requests.map((request) => `${request.method} ${request.path}`);
  const decoded = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

  async function refusal(action: Promise<unknown>): Promise<unknown> {
    return action.then(
      () => assert.fail('not refused'),
      (error: unknown) => error,
    );
  }

  test("stat then read of a notebook's Markdown file costs one GET, and read gives its Markdown", async () => {
    const notebook = await markdownNotebook('Weekly review', '# Weekly review\n\nSignups are up.\n');
    api.clearRequests();
    const file = fileOf(notebook);
    const stat = await store.stat(file);
    const text = decoded(await store.read(file));
    assert.deepEqual(sent(), [`GET /api/projects/${projectId}/notebooks/${notebook.short_id}/`]);
    assert.equal(stat.type, vscode.FileType.File);
    assert.match(text, /^# Weekly review\n\nSignups are up\.\n?$/);
    assert.equal(stat.size, new TextEncoder().encode(text).byteLength);
  });

  test("the notebooks folder lists each notebook as 'Title (short_id).md' and '.json'", async () => {
    const first = await markdownNotebook('Listed one', '# One\n');
    const second = await markdownNotebook('Listed two', '# Two\n');
    const names = (await store.list({ uri: vscode.Uri.parse(`posthog://${connectionId}/${projectId}/notebooks`), connectionId, projectId, session: connection })).map(
      ([name, type]) => {
        assert.equal(type, vscode.FileType.File);
        return name;
      },
    );
    for (const notebook of [first, second]) {
      assert.ok(names.includes(`${notebook.title} (${notebook.short_id}).md`), names.join(', '));
      assert.ok(names.includes(`${notebook.title} (${notebook.short_id}).json`), names.join(', '));
    }
  });

  test("a write through another notebook's short id, or a name the notebook does not have, is refused and sends nothing", async () => {
    const mine = await markdownNotebook('Mine', '# Mine\n');
    const theirs = await markdownNotebook('Theirs', '# Theirs\n');
    await store.read(fileOf(mine));
    await store.read(fileOf(theirs));
    api.clearRequests();
    const content = new TextEncoder().encode('# Overwritten\n');

    // "Mine"'s title with the short id of "Theirs": the name "Theirs" does not have.
    const crossed = await refusal(store.write(targetOf(`Mine (${theirs.short_id}).md`, theirs.short_id), content));
    assert.ok(crossed instanceof vscode.FileSystemError, String(crossed));
    assert.equal(crossed.code, 'NoPermissions');

    const renamed = await refusal(store.write(targetOf(`An old title (${mine.short_id}).md`, mine.short_id), content));
    assert.ok(renamed instanceof vscode.FileSystemError, String(renamed));
    assert.equal(renamed.code, 'NoPermissions');
    assert.match(renamed.message, /is not a name of the notebook "Mine"/);

    assert.deepEqual(sent(), []);
  });

  test("a delete through the file system without Delete Notebook's request is refused and sends nothing", async () => {
    const notebook = await markdownNotebook('Kept', '# Kept\n');
    await store.read(fileOf(notebook));
    api.clearRequests();
    const error = await refusal(store.delete(fileOf(notebook)));
    assert.ok(error instanceof vscode.FileSystemError, String(error));
    assert.equal(error.code, 'NoPermissions');
    assert.deepEqual(sent(), []);
    assert.equal((await client.notebooks.get(projectId, notebook.short_id)).deleted, false);
  });

  test("a write of changed Markdown sends one save request, and the next stat's mtime advances", async () => {
    const notebook = await markdownNotebook('Edited', '# Edited\n\nBefore.\n');
    const file = fileOf(notebook);
    const uri = file.uri.toString();
    const before = await store.stat(file);
    const text = decoded(await store.read(file));
    // The editor VS Code opens on it (the window seam): the session follows its base from here.
    editors.documents.set(uri, { text, dirty: false });
    sessions.get({ connectionId, projectId, shortId: notebook.short_id })!.editorOpened(uri);

    const changed = text.replace('Before.', 'After.');
    editors.type(uri, changed);
    api.clearRequests();
    await store.write(file, new TextEncoder().encode(changed));
    // A Markdown notebook saves through PostHog's Markdown save (one POST), nothing else.
    assert.deepEqual(sent(), [`POST /api/projects/${projectId}/notebooks/${notebook.short_id}/collab/markdown_save/`]);
    assert.ok((await client.notebooks.get(projectId, notebook.short_id)).version > notebook.version);

    editors.documents.set(uri, { text: changed, dirty: false });
    const after = await store.stat(file);
    assert.ok(after.mtime > before.mtime, `${after.mtime} > ${before.mtime}`);
    assert.match(decoded(await store.read(file)), /After\./);
  });
});
