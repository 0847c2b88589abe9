import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { Notebook } from '../../src/api';
import { markdownOf } from '../../src/notebooks/model/notebookDocument';
import { ExplorerHarness, type SignedInProject } from './support/explorerHarness';
import { localApi, type RecordedRequest } from './support/localApi';
import { runnerSecrets } from './support/runnerContext';
import { closeAllEditors, waitFor } from './support/editorWaits';

/**
 * Live notebooks as the extension runs them: open notebooks follow PostHog's stream, and another client's
 * edits ("from the web app", through the local API's control surface) reach the editors as they happen.
 */
const SCHEME = 'posthog-livetest';
const TEXT = '# Live\n\nFirst paragraph.\n\nSecond paragraph.\n\nThird paragraph.\n';
const LEE = { first_name: 'Lee', last_name: 'Chen' };

type Fixture = SignedInProject;

async function setUp(): Promise<Fixture> {
  const harness = new ExplorerHarness(runnerSecrets(), { scheme: SCHEME, liveNotebooks: true });
  const fixture = await harness.signInToProject();
  harness.window.messages.length = 0;
  return fixture;
}

async function tearDown(fixture: Fixture): Promise<void> {
  fixture.harness.notebooks.autoSave.setDelay(0);
  // Every notebook editor is reverted as it closes, clean or not: one a save's late reload marks unsaved after a
  // check of its state would otherwise ask whether to save it, and wait for an answer.
  for (const document of vscode.workspace.textDocuments.filter((open) => open.uri.scheme === SCHEME)) {
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  await closeAllEditors(SCHEME);
  await fixture.harness.dispose();
}


describe('Live notebooks: edits from the web app as they happen', function () {
  this.timeout(60_000);
  let fixture: Fixture;
  beforeEach(async () => {
    fixture = await setUp();
  });
  afterEach(() => tearDown(fixture));

  const markdownContent = (markdown: string) => ({ type: 'doc', content: [{ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown } }] });

  async function markdownNotebook(title: string, markdown = TEXT): Promise<Notebook> {
    return fixture.session.client.notebooks.create(fixture.projectId, { title, content: markdownContent(markdown), text_content: markdown });
  }

  /** Opens the notebook's Markdown file in an editor and waits until its stream is open. */
  async function openLive(notebook: Notebook): Promise<vscode.TextEditor> {
    const uri = fixture.harness.notebooks.files.uriOf(fixture.session.connection.id, fixture.projectId, notebook, 'markdown');
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
    await waitFor('the stream to open', async () => (await requestsOf(notebook)).some((request) => request.path.endsWith('/collab/stream/')));
    return editor;
  }

  async function requestsOf(notebook: Pick<Notebook, 'short_id'>): Promise<RecordedRequest[]> {
    return (await localApi.requests()).filter((request) => request.path.includes(`/notebooks/${notebook.short_id}/`));
  }

  /** Requests other than the stream and carets. */
  async function callsOf(notebook: Pick<Notebook, 'short_id'>): Promise<string[]> {
    return (await requestsOf(notebook))
      .filter((request) => !/\/collab\/(stream|presence)\/$/.test(request.path))
      .map((request) => `${request.method} ${request.path.replace(/.*\/notebooks\/[^/]+\//, '')} ${request.status}`);
  }

  const type = (editor: vscode.TextEditor, at: vscode.Position, text: string) => editor.edit((builder) => builder.insert(at, text));
  const at = (line: number, character: number) => new vscode.Position(line, character);

  it('a clean editor takes another client\'s change from the stream as one small edit, nothing fetched, the cursor where it was, and says who', async () => {
    // How soon it shows is a figure of the benchmark (npm run bench, "Live notebooks"); this checks the way it comes.
    const notebook = await markdownNotebook('Live clean');
    const editor = await openLive(notebook);
    const document = editor.document;
    editor.selection = new vscode.Selection(at(2, 5), at(2, 5));
    const changes: vscode.TextDocumentContentChangeEvent[] = [];
    const listening = vscode.workspace.onDidChangeTextDocument((event) => event.document === document && changes.push(...event.contentChanges));
    await localApi.clearRequests();
    await localApi.webEdit(fixture.projectId, notebook.short_id, { replace: { find: 'Third paragraph.', with: 'Third paragraph, from the web app.' }, by: LEE });
    await waitFor('the change in the editor', () => document.getText().includes('from the web app'));
    listening.dispose();
    assert.equal(document.getText(), TEXT.replace('Third paragraph.', 'Third paragraph, from the web app.'));
    await waitFor('the editor to be clean again (its text saved as it is, which sends nothing)', () => !document.isDirty);
    assert.deepEqual([editor.selection.active.line, editor.selection.active.character], [2, 5], 'the cursor stays');
    assert.deepEqual(
      changes.map((change) => [change.range.start.line, change.range.start.character, change.range.end.character, change.text]),
      [[6, 15, 15, ', from the web app']],
      'one small edit, not a reload of the text',
    );
    assert.deepEqual(await callsOf(notebook), [], 'the stream\'s diff applied: nothing fetched, nothing saved');
    await waitFor('the status bar to name the author', () => fixture.harness.window.statusMessages.some((message) => /changed by Lee Chen \(version 1\)/.test(message)));
  });

  it('a save racing a remote merge (PostHog\'s GET slow, autosave on) never sends the old text against the new version', async () => {
    const notebook = await markdownNotebook('Live race');
    const editor = await openLive(notebook);
    const document = editor.document;
    fixture.harness.notebooks.autoSave.setDelay(200);
    // A PATCH's update names no one, so the session GETs the version it made: slowly, so the autosave lands meanwhile.
    await localApi.injectFault({ method: 'GET', path: `/notebooks/${notebook.short_id}/$`, delayMs: 2000 });
    await localApi.clearRequests();
    await type(editor, at(4, 17), ' Mine.');
    const theirs = TEXT.replace('# Live\n\n', '# Live\n\nTheirs, added at the top.\n\n');
    await localApi.remoteEdit(fixture.projectId, notebook.short_id, { content: markdownContent(theirs), by: LEE });
    const merged = theirs.replace('Second paragraph.', 'Second paragraph. Mine.');
    // Only the editor is watched meanwhile: a GET of the test's own would take the slow answer instead.
    await waitFor('both changes in the editor, saved', () => document.getText() === merged && !document.isDirty);
    assert.equal(markdownOf((await fixture.session.client.notebooks.get(fixture.projectId, notebook.short_id)).content), merged);
    const saves = (await requestsOf(notebook)).filter((request) => request.method !== 'GET' && ['/', '/collab/markdown_save/'].includes(request.path.replace(/.*\/notebooks\/[^/]+/, '')));
    assert.ok(saves.length > 0, 'the autosave went out');
    for (const save of saves) {
      const body = save.body as { version: number; text_content?: string; content?: unknown };
      const sent = markdownOf(body.content) ?? body.text_content ?? '';
      if (body.version >= 1) {
        assert.ok(sent.includes('Theirs, added at the top.'), `a save at version ${body.version} left out the other user's paragraph:\n${sent}`);
      }
    }
  });

  it('an unsaved editor takes a change to another paragraph at once, keeping the user\'s text, cursor, selection and undo; the save sends one request', async () => {
    const notebook = await markdownNotebook('Live unsaved');
    const editor = await openLive(notebook);
    const document = editor.document;
    await type(editor, at(2, 16), ' Mine.');
    editor.selection = new vscode.Selection(at(2, 6), at(2, 15));
    assert.ok(document.isDirty);
    await localApi.webEdit(fixture.projectId, notebook.short_id, { replace: { find: 'Third paragraph.', with: 'Third paragraph, theirs.' }, agent: 'ai', by: LEE });
    const merged = TEXT.replace('First paragraph.', 'First paragraph. Mine.').replace('Third paragraph.', 'Third paragraph, theirs.');
    await waitFor('the merge', () => document.getText() === merged, 3000);
    assert.ok(document.isDirty, 'still unsaved');
    assert.deepEqual([editor.selection.anchor.character, editor.selection.active.character, editor.selection.active.line], [6, 15, 2], 'the selection stays');
    assert.deepEqual(fixture.harness.window.messages.filter((message) => message.severity === 'warning'), [], 'nothing to ask');
    await waitFor('the status bar to name the agent', () => fixture.harness.window.statusMessages.some((message) => /PostHog AI \(for Lee Chen\)'s change merged into your unsaved text/.test(message)));
    // Undo steps back through the merge, then the user's typing: the history is the user's own, kept.
    await vscode.commands.executeCommand('undo');
    assert.equal(document.getText(), TEXT.replace('First paragraph.', 'First paragraph. Mine.'));
    await vscode.commands.executeCommand('redo');
    assert.equal(document.getText(), merged);

    await localApi.clearRequests();
    assert.equal(await document.save(), true);
    assert.deepEqual(await callsOf(notebook), ['POST collab/markdown_save/ 200'], 'based on their version: no conflict to resolve');
    assert.equal(markdownOf((await fixture.session.client.notebooks.get(fixture.projectId, notebook.short_id)).content), merged);
  });

  it('a change to the paragraph the user is editing is held and said plainly (which lines, by whom), then merged at save with markers only there, naming them', async () => {
    const notebook = await markdownNotebook('Live overlap');
    const editor = await openLive(notebook);
    const document = editor.document;
    await type(editor, at(4, 17), ' Mine.');
    await localApi.webEdit(fixture.projectId, notebook.short_id, { replace: { find: 'Second paragraph.', with: 'Second paragraph, theirs.' }, by: LEE });
    await waitFor('the warning', () => fixture.harness.window.messages.some((message) => message.severity === 'warning'));
    const warning = fixture.harness.window.messages.find((message) => message.severity === 'warning')!.text;
    assert.match(warning, /"Live overlap" changed on PostHog \(version 1, by Lee Chen\) while you have unsaved changes, on line 5, which you changed too/);
    assert.equal(document.getText(), TEXT.replace('Second paragraph.', 'Second paragraph. Mine.'), 'nothing the user typed is touched');
    assert.equal(await document.save(), false, 'both changed the paragraph: the save shows the conflict');
    await waitFor('the markers', () => document.getText().includes('<<<<<<< Yours'));
    assert.match(document.getText(), /^# Live\n\nFirst paragraph\.\n\n<<<<<<< Yours\nSecond paragraph\. Mine\.\n\n=======\nSecond paragraph, theirs\.\n\n>>>>>>> PostHog \(version 1 by Lee Chen\)\nThird paragraph\.\n$/, 'merged with the version held, whose author is known');
  });

  it('an update without a diff (too large to stream) is fetched and merged into the unsaved text', async () => {
    const notebook = await markdownNotebook('Live large');
    const editor = await openLive(notebook);
    const document = editor.document;
    await type(editor, at(2, 16), ' Mine.');
    const large = `${'Appended by the web app, at length. '.repeat(2000)}\n`;
    await localApi.clearRequests();
    await localApi.webEdit(fixture.projectId, notebook.short_id, { markdown: `${TEXT}\n${large}`, by: LEE });
    await waitFor('the large change', () => document.getText().includes('Appended by the web app'), 5000);
    assert.equal(document.getText(), `${TEXT.replace('First paragraph.', 'First paragraph. Mine.')}\n${large}`);
    assert.ok(document.isDirty);
    assert.deepEqual(await callsOf(notebook), ['GET  200'], 'one GET for the version the stream could not carry');
  });

  it('shows others\' carets with their names, sends the user\'s own (throttled), and not when shareCaret is off', async () => {
    const notebook = await markdownNotebook('Live carets');
    const editor = await openLive(notebook);
    const uri = editor.document.uri.toString();
    await localApi.webPresence(fixture.projectId, notebook.short_id, { cursor: { node_index: 2, offset: 6 }, by: { first_name: 'Robin' }, clientId: 'tab-robin' });
    await waitFor('the caret', () => (fixture.harness.window.carets.get(uri) ?? []).length > 0);
    const [caret] = fixture.harness.window.carets.get(uri)!;
    assert.equal(caret?.label, 'Robin');
    assert.equal(caret?.offset, TEXT.indexOf('Second paragraph.') + 6, 'in the second paragraph, six characters in');
    assert.match(caret?.hover ?? '', /Robin is here/);

    await localApi.clearRequests();
    editor.selection = new vscode.Selection(at(6, 0), at(6, 0));
    await vscode.commands.executeCommand('cursorRight');
    await vscode.commands.executeCommand('cursorRight');
    await waitFor('the own caret sent', async () => (await requestsOf(notebook)).some((request) => request.path.endsWith('/collab/presence/')));
    const presencePosts = async () => (await requestsOf(notebook)).filter((request) => request.path.endsWith('/collab/presence/'));
    await waitFor('the last move sent', async () => (await presencePosts()).length >= 2, 6000);
    const sent = await presencePosts();
    assert.equal(sent.length, 2, 'two moves at once: the first sent at once, the last 3 s later (PRESENCE_INTERVAL_MS)');
    assert.deepEqual((sent[1]!.body as { cursor: unknown }).cursor, { node_index: 3, offset: 2 });
    assert.equal((fixture.harness.window.carets.get(uri) ?? []).length, 1, 'the own caret is not shown');

    fixture.harness.notebooks.presence.setShareCaret(false);
    await localApi.clearRequests();
    await vscode.commands.executeCommand('cursorRight');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.deepEqual((await requestsOf(notebook)).filter((request) => request.path.endsWith('/collab/presence/')), []);
  });

  it('with autoSaveAfterTypingMs, a notebook is saved after a pause in typing', async () => {
    const notebook = await markdownNotebook('Live autosave');
    const editor = await openLive(notebook);
    fixture.harness.notebooks.autoSave.setDelay(300);
    await localApi.clearRequests();
    await type(editor, at(2, 16), ' Typed,');
    await type(editor, at(2, 23), ' then a pause.');
    await waitFor('the save', async () => (await callsOf(notebook)).length > 0 && !editor.document.isDirty, 5000);
    assert.deepEqual(await callsOf(notebook), ['POST collab/markdown_save/ 200'], 'one save for the burst of typing');
    assert.equal(markdownOf((await fixture.session.client.notebooks.get(fixture.projectId, notebook.short_id)).content), TEXT.replace('First paragraph.', 'First paragraph. Typed, then a pause.'));
  });
});
