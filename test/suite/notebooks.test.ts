import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { Notebook } from '../../src/api';
import type { ConnectionSession } from '../../src/connections/connectionManager';
import type { NotebookCommands } from '../../src/notebooks/notebookCommands';
import type { NotebookEditorCommands } from '../../src/notebooks/notebookEditorCommands';
import type { NotebookPicker } from '../../src/notebooks/notebookPicker';
import { OPEN_AS_SETTING } from '../../src/notebooks/notebookTargets';
import { TAGS } from '../../src/notebooks/markdown/dialect';
import { markdownOf } from '../../src/notebooks/model/notebookDocument';
import { NotebookFileStore } from '../../src/notebooks/files/notebookFiles';
import { DeletedNotebookNode, NotebookNode, NotebooksNode } from '../../src/notebooks/lists/notebookNodes';
import type { NotebookForm } from '../../src/notebooks/model/notebookPaths';
import { ProjectNode } from '../../src/tree/nodes';
import { DEMO_ORGANIZATION, DEMO_PROJECT, ExplorerHarness, labelOf, type SignedInProject } from './support/explorerHarness';
import { localApi, type RecordedRequest } from './support/localApi';
import { runnerSecrets } from './support/runnerContext';
import { closeAllEditors, waitFor } from './support/editorWaits';

/**
 * The notebook file system as the extension builds it, registered under its own scheme so that the
 * conflict dialog and other prompts are answered by a ScriptedWindow; documents are real VS Code text
 * documents, saved through VS Code's own save (document.save()).
 */
const SCHEME = 'posthog-nbtest';

interface Fixture extends SignedInProject {
  files: NotebookFileStore;
  commands: NotebookCommands;
  editorCommands: NotebookEditorCommands;
  picker: NotebookPicker;
}

async function setUp(): Promise<Fixture> {
  const harness = new ExplorerHarness(runnerSecrets(), { scheme: SCHEME });
  const signedIn = await harness.signInToProject();
  const { files, commands, editorCommands, picker } = harness.notebooks;
  harness.window.messages.length = 0;
  harness.window.prompts.length = 0;
  return { ...signedIn, files, commands, editorCommands, picker };
}

async function tearDown(fixture: Fixture): Promise<void> {
  await closeAllEditors(SCHEME);
  await fixture.harness.dispose();
}

const PARAGRAPH = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });

/** A legacy notebook, stored as PostHog keeps existing ones (a create through the API makes a Markdown notebook now). */
async function newNotebook(fixture: Fixture, title: string): Promise<Notebook> {
  return storedNotebook(fixture, {
    title,
    content: { type: 'doc', content: [{ type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: title }] }, PARAGRAPH('First line')] },
    text_content: `${title}\n\nFirst line`,
  });
}

async function storedNotebook(fixture: Fixture, notebook: { title: string; content: unknown; text_content?: string }): Promise<Notebook> {
  const shortId = await localApi.storeNotebook(fixture.projectId, notebook);
  return fixture.session.client.notebooks.get(fixture.projectId, shortId);
}

function uriOf(fixture: Fixture, notebook: Pick<Notebook, 'short_id' | 'title'>, form: NotebookForm = 'json'): vscode.Uri {
  return fixture.files.uriOf(fixture.session.connection.id, fixture.projectId, notebook, form);
}

async function open(uri: vscode.Uri): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document, { preview: false });
  return document;
}

/** Replaces the whole text with the JSON after `change`, as a user's edit would. */
async function editJson(document: vscode.TextDocument, change: (json: Record<string, any>) => void): Promise<void> {
  const json = JSON.parse(document.getText());
  change(json);
  await replaceText(document, `${JSON.stringify(json, null, 2)}\n`);
}

async function replaceText(document: vscode.TextDocument, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), text);
  assert.ok(await vscode.workspace.applyEdit(edit));
  assert.ok(document.isDirty);
}

function displayedVersion(document: vscode.TextDocument): number {
  return JSON.parse(document.getText())._readonly.version;
}


/** The text with every conflict resolved as "Accept Current" does: the editor's side kept, the markers gone. */
function acceptCurrent(text: string): string {
  return text.replace(/^<<<<<<< .*\r?\n([\s\S]*?)^=======\r?\n[\s\S]*?^>>>>>>> .*(\r?\n|$)/gm, '$1');
}

async function notebookRequests(notebook: Pick<Notebook, 'short_id'>): Promise<RecordedRequest[]> {
  return (await localApi.requests()).filter((request) => request.path.includes(`/notebooks/${notebook.short_id}/`));
}

function server(fixture: Fixture, notebook: Pick<Notebook, 'short_id'>): Promise<Notebook> {
  return fixture.session.client.notebooks.get(fixture.projectId, notebook.short_id);
}

describe('Notebook files', function () {
  this.timeout(60_000);
  let fixture: Fixture;
  beforeEach(async () => {
    fixture = await setUp();
  });
  afterEach(() => tearDown(fixture));

  it('opens a notebook with exactly one GET, as pretty JSON with a read-only block', async () => {
    const notebook = await newNotebook(fixture, 'Open me');
    await localApi.clearRequests();
    const document = await open(uriOf(fixture, notebook));
    const requests = await notebookRequests(notebook);
    assert.deepEqual(requests.map((request) => request.method), ['GET'], JSON.stringify(requests));
    const json = JSON.parse(document.getText());
    assert.deepEqual(Object.keys(json), ['_readonly', 'title', 'content', 'text_content']);
    assert.equal(json.title, 'Open me');
    assert.equal(json._readonly.short_id, notebook.short_id);
    assert.equal(json._readonly.version, notebook.version);
    assert.equal(document.languageId, 'json');
    assert.ok(document.uri.path.endsWith(`/notebooks/Open me (${notebook.short_id}).json`));
  });

  it('saves an edit with one PATCH carrying the version; the version advances and the editor shows it', async () => {
    const notebook = await newNotebook(fixture, 'Save me');
    const document = await open(uriOf(fixture, notebook));
    await editJson(document, (json) => json.content.content.push(PARAGRAPH('Saved from VS Code')));
    await localApi.clearRequests();
    assert.equal(await document.save(), true);
    const requests = await notebookRequests(notebook);
    assert.deepEqual(requests.map((request) => `${request.method} ${request.status}`), ['PATCH 200'], JSON.stringify(requests));
    assert.equal(document.isDirty, false);
    const saved = await server(fixture, notebook);
    assert.equal(saved.version, notebook.version + 1);
    assert.equal(saved.text_content, 'Save me\n\nFirst line\n\nSaved from VS Code', 'text_content follows the content');
    await waitFor('the editor to show the new version', () => displayedVersion(document) === notebook.version + 1);
    assert.equal(document.isDirty, false);
    assert.ok(document.getText().includes('Saved from VS Code'), 'the text is kept');
  });

  it('opens a Markdown notebook with its Markdown as lines, and a save keeps text_content equal to the Markdown', async () => {
    const markdown = '# Signup drop-off\n\nSignups fell **18%**.\n\n<Query query={{"kind":"SavedInsightNode","shortId":"Xk3pQ9aZ"}} />\n';
    const notebook = await fixture.session.client.notebooks.create(fixture.projectId, {
      title: 'Markdown in VS Code',
      content: { type: 'doc', content: [{ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown } }] },
      text_content: markdown,
    });
    const document = await open(uriOf(fixture, notebook));
    const shown = JSON.parse(document.getText());
    assert.deepEqual(Object.keys(shown), ['_readonly', 'title', 'content']);
    assert.deepEqual(shown.content.content[0].attrs.markdown, markdown.split('\n'));
    assert.ok(document.getText().includes('"<Query query={{\\"kind\\":\\"SavedInsightNode\\",\\"shortId\\":\\"Xk3pQ9aZ\\"}} />",'), 'one line per line');

    await editJson(document, (json) => json.content.content[0].attrs.markdown.splice(4, 0, '- [ ] Watch the failed signups', ''));
    await localApi.clearRequests();
    assert.equal(await document.save(), true);
    const expected = '# Signup drop-off\n\nSignups fell **18%**.\n\n- [ ] Watch the failed signups\n\n<Query query={{"kind":"SavedInsightNode","shortId":"Xk3pQ9aZ"}} />\n';
    // A Markdown notebook saves through PostHog's versioned Markdown save, as its web app does.
    const [patch] = (await notebookRequests(notebook)).filter((request) => request.path.endsWith('/collab/markdown_save/'));
    const body = patch?.body as { content: { content: { attrs: { markdown: string } }[] }; text_content: string };
    assert.equal(body.content.content[0].attrs.markdown, expected, 'the Markdown is sent as one string');
    assert.equal(body.text_content, expected, 'text_content is the Markdown');
    const saved = await server(fixture, notebook);
    assert.equal((saved.content as typeof body.content).content[0].attrs.markdown, expected);
    assert.equal(saved.text_content, expected.trim(), 'PostHog stores it trimmed, as every text field');
    assert.equal(saved.version, notebook.version + 1);
    await waitFor('the editor to show the new version', () => displayedVersion(document) === notebook.version + 1);
    assert.deepEqual(JSON.parse(document.getText()).content.content[0].attrs.markdown, expected.split('\n'));
  });

  it('saves twice in a row from the same editor without a conflict', async () => {
    const notebook = await newNotebook(fixture, 'Twice');
    const document = await open(uriOf(fixture, notebook));
    await editJson(document, (json) => (json.title = 'Twice, first'));
    assert.equal(await document.save(), true);
    // Straight on, before or after the editor reloads: the second save is based on the first's version.
    await editJson(document, (json) => (json.title = 'Twice, second'));
    assert.equal(await document.save(), true);
    const saved = await server(fixture, notebook);
    assert.equal(saved.title, 'Twice, second');
    assert.equal(saved.version, notebook.version + 2);
    assert.equal(fixture.harness.window.messages.length, 0, JSON.stringify(fixture.harness.window.messages));
  });

  it('sends nothing when the saved text has no change', async () => {
    const notebook = await newNotebook(fixture, 'Unchanged');
    const document = await open(uriOf(fixture, notebook));
    await replaceText(document, JSON.stringify(JSON.parse(document.getText())));
    await localApi.clearRequests();
    assert.equal(await document.save(), true);
    assert.deepEqual((await notebookRequests(notebook)).filter((request) => request.method !== 'GET'), []);
    assert.equal((await server(fixture, notebook)).version, notebook.version);
  });

  it('refuses invalid JSON, saying where, sends nothing and keeps the editor dirty', async () => {
    const notebook = await newNotebook(fixture, 'Broken');
    const document = await open(uriOf(fixture, notebook));
    const broken = document.getText().replace('"title": "Broken",', '"title": "Broken"');
    await replaceText(document, broken);
    await localApi.clearRequests();
    assert.equal(await document.save(), false);
    assert.ok(document.isDirty);
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.writeFile(document.uri, new TextEncoder().encode(broken))),
      /Not saved: Line \d+, column \d+: invalid JSON: expected "," or "}" after the value of "title"/,
    );
    assert.deepEqual((await notebookRequests(notebook)).filter((request) => request.method === 'PATCH'), []);
  });

  it('refuses wrong types and edited read-only fields, naming the field, and sends nothing', async () => {
    const notebook = await newNotebook(fixture, 'Strict');
    const document = await open(uriOf(fixture, notebook));
    await editJson(document, (json) => (json._readonly.version = 999));
    await localApi.clearRequests();
    assert.equal(await document.save(), false);
    assert.ok(document.isDirty);
    const text = (change: (json: Record<string, any>) => void) => {
      const json = JSON.parse(document.getText());
      change(json);
      return new TextEncoder().encode(JSON.stringify(json, null, 2));
    };
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.writeFile(document.uri, text(() => undefined))),
      /Line \d+, column \d+: _readonly\.version is read-only and was changed/,
    );
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.writeFile(document.uri, text((json) => ((json._readonly.version = notebook.version), (json.title = 7))))),
      /title must be a string or null, not a number/,
    );
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.writeFile(document.uri, text((json) => ((json._readonly.version = notebook.version), (json.owner = 'me'))))),
      /unknown field "owner"/,
    );
    assert.deepEqual((await notebookRequests(notebook)).filter((request) => request.method === 'PATCH'), []);
  });

  describe('a save that meets a newer version on the server', () => {
    /** The notebook opened as JSON, the user's edit in the editor, then another user's save. */
    async function meet(title: string, mine: (json: Record<string, any>) => void, theirs: (content: any) => unknown) {
      const notebook = await newNotebook(fixture, title);
      const document = await open(uriOf(fixture, notebook));
      await editJson(document, mine);
      await localApi.remoteEdit(fixture.projectId, notebook.short_id, { content: theirs(structuredClone(notebook.content)) });
      const remote = await server(fixture, notebook);
      assert.equal(remote.version, notebook.version + 1);
      await localApi.clearRequests();
      return { notebook, document, remote };
    }

    it('merges changes to different nodes silently and saves them with the new version (one 409, one GET, one PATCH)', async () => {
      const { notebook, document, remote } = await meet(
        'Merge JSON',
        (json) => json.content.content.push(PARAGRAPH('Mine, at the end')),
        (content) => ((content.content[1] = PARAGRAPH('First line, edited by them')), content),
      );
      assert.equal(await document.save(), true);
      const calls = (await notebookRequests(notebook)).map((request) => `${request.method} ${request.status}`);
      assert.deepEqual(calls, ['PATCH 409', 'GET 200', 'PATCH 200']);
      const saved = await server(fixture, notebook);
      assert.equal(saved.version, remote.version + 1);
      const texts = JSON.stringify(saved.content);
      assert.ok(texts.includes('Mine, at the end') && texts.includes('First line, edited by them'), texts);
      assert.equal(saved.text_content, 'Merge JSON\n\nFirst line, edited by them\n\nMine, at the end');
      await waitFor('the editor to show the merged notebook', () => document.getText().includes('edited by them') && !document.isDirty);
      assert.equal(displayedVersion(document), saved.version);
    });

    it('marks the node both changed with conflict markers, refuses to save while they remain, then saves the choice', async () => {
      const { notebook, document, remote } = await meet(
        'Conflict JSON',
        (json) => (json.content.content[1] = PARAGRAPH('First line, mine')),
        (content) => ((content.content[1] = PARAGRAPH('First line, theirs')), content),
      );
      assert.equal(await document.save(), false);
      await waitFor('the conflict markers', () => document.getText().includes('<<<<<<< Yours'));
      const text = document.getText();
      assert.match(text, /^<<<<<<< Yours$/m);
      assert.match(text, /^=======$/m);
      assert.match(text, new RegExp(`^>>>>>>> PostHog \\(version ${remote.version}`, 'm'));
      assert.ok(text.includes('First line, mine') && text.includes('First line, theirs'));
      assert.ok(document.isDirty);
      assert.equal(Number(/"version": (\d+)/.exec(text)?.[1]), remote.version, 'the merged text is based on PostHog\'s version');
      assert.equal((await server(fixture, notebook)).version, remote.version, 'nothing was overwritten');
      await localApi.clearRequests();
      await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(document.uri, new TextEncoder().encode(document.getText()))), /conflict marker/);
      assert.deepEqual(await notebookRequests(notebook), [], 'nothing is sent while markers remain');
      await replaceText(document, acceptCurrent(document.getText()));
      assert.equal(await document.save(), true);
      const saved = await server(fixture, notebook);
      assert.ok(JSON.stringify(saved.content).includes('First line, mine'));
      assert.equal(saved.version, remote.version + 1);
    });

    it('a retried save that already reached PostHog is a success, not a conflict with itself', async () => {
      const notebook = await newNotebook(fixture, 'Retried');
      const document = await open(uriOf(fixture, notebook));
      await editJson(document, (json) => json.content.content.push(PARAGRAPH('Sent twice')));
      const parsed = JSON.parse(document.getText());
      await fixture.session.client.notebooks.update(fixture.projectId, notebook.short_id, {
        content: parsed.content,
        text_content: 'Retried\n\nFirst line\n\nSent twice',
        version: notebook.version,
      });
      await localApi.clearRequests();
      assert.equal(await document.save(), true);
      const calls = (await notebookRequests(notebook)).map((request) => `${request.method} ${request.status}`);
      assert.deepEqual(calls, ['PATCH 409', 'GET 200']);
      assert.equal((await server(fixture, notebook)).version, notebook.version + 1);
    });

    it('"Save over PostHog\'s Version" overwrites after a confirmation; "Discard Changes" takes PostHog\'s version', async () => {
      const { notebook, document, remote } = await meet(
        'Overwrite JSON',
        (json) => (json.content.content[1] = PARAGRAPH('Mine wins')),
        (content) => ((content.content[1] = PARAGRAPH('Theirs loses')), content),
      );
      fixture.harness.window.choose('Overwrite');
      assert.equal(await fixture.editorCommands.overwriteNotebook(document.uri), true);
      const saved = await server(fixture, notebook);
      assert.ok(JSON.stringify(saved.content).includes('Mine wins') && !JSON.stringify(saved.content).includes('Theirs loses'));
      assert.equal(saved.version, remote.version + 1);
      assert.match(fixture.harness.window.messages.at(-1)?.text ?? '', /over PostHog's version/);

      await editJson(document, (json) => (json.title = 'Overwrite JSON, unsaved'));
      await localApi.remoteEdit(fixture.projectId, notebook.short_id);
      fixture.harness.window.choose('Discard My Changes');
      assert.equal(await fixture.editorCommands.discardNotebookChanges(document.uri), true);
      assert.equal(document.isDirty, false);
      assert.ok(document.getText().includes('Edited remotely'));
      assert.equal((await server(fixture, notebook)).title, 'Overwrite JSON');
    });
  });

  it('reloads a clean editor when the notebook changes on PostHog, and warns a dirty one', async () => {
    const clean = await newNotebook(fixture, 'Remote clean');
    const dirty = await newNotebook(fixture, 'Remote dirty');
    const cleanDocument = await open(uriOf(fixture, clean));
    const dirtyDocument = await open(uriOf(fixture, dirty));
    await editJson(dirtyDocument, (json) => (json.title = 'Unsaved'));
    await localApi.remoteEdit(fixture.projectId, clean.short_id);
    await localApi.remoteEdit(fixture.projectId, dirty.short_id);
    fixture.harness.window.choose(undefined);
    await localApi.clearRequests();
    await fixture.files.pollOpenNotebooks();
    const polls = (await localApi.requests()).filter((request) => request.path.includes('/notebooks/'));
    assert.ok(polls.every((request) => request.headers['if-none-match'] !== undefined), JSON.stringify(polls));
    // It takes the change in place, then is saved as it is (which sends nothing): clean again.
    await waitFor('the clean editor to show the change, clean', () => cleanDocument.getText().includes('Edited remotely') && !cleanDocument.isDirty);
    assert.equal(displayedVersion(cleanDocument), clean.version + 1);
    assert.ok(dirtyDocument.isDirty);
    assert.ok(dirtyDocument.getText().includes('Unsaved'), 'the unsaved text stays');
    const warning = fixture.harness.window.messages.find((message) => message.severity === 'warning');
    assert.match(warning?.text ?? '', /changed on PostHog \(version \d+, by .+\) while you have unsaved changes/);
    await localApi.clearRequests();
    await fixture.files.pollOpenNotebooks();
    const again = (await localApi.requests()).filter((request) => request.path.includes('/notebooks/'));
    assert.ok(again.every((request) => request.status === 304), `nothing new: ${JSON.stringify(again.map((r) => r.status))}`);
  });

  it('the warning\'s Compare opens a diff (through the window seam): PostHog\'s version against the unsaved text', async () => {
    const notebook = await newNotebook(fixture, 'Remote compare');
    const document = await open(uriOf(fixture, notebook));
    await editJson(document, (json) => (json.title = 'Unsaved'));
    await localApi.remoteEdit(fixture.projectId, notebook.short_id);
    fixture.harness.window.choose('Compare');
    await fixture.files.pollOpenNotebooks();
    await waitFor('the diff to open', () => fixture.harness.window.diffs.length > 0);
    const [diff] = fixture.harness.window.diffs;
    assert.equal(diff.right.toString(), document.uri.toString());
    assert.equal(diff.left.scheme, fixture.files.remoteScheme);
    assert.match(diff.title, /\(PostHog, version \d+\) ↔ Yours$/);
    const theirs = (await vscode.workspace.openTextDocument(diff.left)).getText();
    assert.ok(theirs.includes('Edited remotely') && !theirs.includes('Unsaved'), theirs);
  });

  it('creates a notebook with one POST and opens it: PostHog stores it as a Markdown notebook, the file is its Markdown', async () => {
    const notebooksNode = await fixture.harness.child(DEMO_ORGANIZATION, DEMO_PROJECT, 'Notebooks');
    assert.ok(notebooksNode instanceof NotebooksNode);
    fixture.harness.window.type('Created in VS Code');
    await localApi.clearRequests();
    const editor = await fixture.commands.createNotebook(notebooksNode);
    assert.ok(editor);
    const writes = (await localApi.requests()).filter((request) => request.method !== 'GET');
    assert.deepEqual(writes.map((request) => `${request.method} ${request.status}`), ['POST 201']);
    assert.deepEqual((writes[0]!.body as { content: unknown }).content, {
      type: 'doc',
      content: [{ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown: '# Created in VS Code' } }],
    }, 'it sends a Markdown notebook, as PostHog creates them');
    assert.equal(editor.document.getText(), '# Created in VS Code');
    assert.match(editor.document.uri.path, /\/Created in VS Code \([A-Za-z0-9]+\)\.md$/);
  });

  it('deletes softly after a confirmation, shows it among deleted notebooks and restores it', async () => {
    const notebook = await newNotebook(fixture, 'Delete me');
    fixture.harness.window.choose('Delete');
    await localApi.clearRequests();
    assert.equal(await fixture.commands.deleteNotebook(uriOf(fixture, notebook)), true);
    const requests = (await notebookRequests(notebook)).filter((request) => request.method !== 'GET');
    assert.deepEqual(requests.map((request) => request.method), ['PATCH'], 'a soft delete, never an HTTP DELETE');
    await assert.rejects(server(fixture, notebook), /not found/i);
    assert.deepEqual(
      fixture.harness.deleted.list(fixture.session.connection.id, fixture.projectId).map((entry) => entry.shortId),
      [notebook.short_id],
    );
    fixture.harness.notebooks.section.setShowDeleted(true);
    const items = await fixture.harness.items(await fixture.harness.child(DEMO_ORGANIZATION, DEMO_PROJECT, 'Notebooks'));
    const deletedItem = items.find(({ node }) => node instanceof DeletedNotebookNode && node.notebook.shortId === notebook.short_id);
    assert.ok(deletedItem, items.map(({ item }) => labelOf(item)).join(', '));
    await fixture.harness.notebooks.listCommands.restoreNotebook(deletedItem.node);
    fixture.harness.notebooks.section.setShowDeleted(false);
    assert.equal((await server(fixture, notebook)).deleted, false);
  });

  it('asks before deleting and does nothing when the user cancels', async () => {
    const notebook = await newNotebook(fixture, 'Keep me');
    fixture.harness.window.choose(undefined);
    assert.equal(await fixture.commands.deleteNotebook(uriOf(fixture, notebook)), false);
    assert.equal((await server(fixture, notebook)).deleted, false);
  });

  it('renames the notebook when its file is renamed, and the editor follows', async () => {
    const notebook = await newNotebook(fixture, 'Old name');
    const document = await open(uriOf(fixture, notebook));
    fixture.harness.window.type('New name');
    assert.equal(await fixture.commands.renameNotebook(document.uri), true);
    assert.equal((await server(fixture, notebook)).title, 'New name');
    await waitFor('the editor to follow the rename', () =>
      vscode.window.tabGroups.all.some((group) =>
        group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.path.endsWith(`/New name (${notebook.short_id}).json`)),
      ),
    );
    await vscode.workspace.fs.rename(uriOf(fixture, { ...notebook, title: 'New name' }), uriOf(fixture, { ...notebook, title: 'Third name' }), { overwrite: true });
    assert.equal((await server(fixture, notebook)).title, 'Third name');
  });

  it('renames a notebook never opened without deleting it, and refuses deletes through a name it does not have', async () => {
    const notebook = await newNotebook(fixture, 'Never opened');
    await localApi.clearRequests();
    await vscode.workspace.fs.rename(uriOf(fixture, notebook), uriOf(fixture, { ...notebook, title: 'Renamed unopened' }), { overwrite: true });
    const renamed = await server(fixture, notebook);
    assert.equal(renamed.title, 'Renamed unopened');
    assert.equal(renamed.deleted, false);
    const patches = (await notebookRequests(notebook)).filter((request) => request.method === 'PATCH');
    assert.equal(patches.length, 1, 'one PATCH (the title), no soft delete');
    await assert.rejects(Promise.resolve(vscode.workspace.fs.delete(uriOf(fixture, { ...notebook, title: 'Never opened' }))));
    assert.equal((await server(fixture, notebook)).deleted, false);
  });

  it('lists a project\'s notebooks as a directory, with stat giving size and an advancing mtime', async () => {
    const notebook = await newNotebook(fixture, 'Listed');
    const root = vscode.Uri.from({ scheme: SCHEME, authority: fixture.session.connection.id, path: `/${fixture.projectId}/` });
    const rootEntries = await vscode.workspace.fs.readDirectory(root);
    assert.ok(rootEntries.some(([name, type]) => name === 'notebooks' && type === vscode.FileType.Directory));
    const entries = await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(root, 'notebooks'));
    assert.ok(entries.some(([name, type]) => name === `Listed (${notebook.short_id}).json` && type === vscode.FileType.File), JSON.stringify(entries));
    assert.ok(entries.some(([name, type]) => name === `Listed (${notebook.short_id}).md` && type === vscode.FileType.File), JSON.stringify(entries));
    const uri = uriOf(fixture, notebook);
    const before = await vscode.workspace.fs.stat(uri);
    const bytes = await vscode.workspace.fs.readFile(uri);
    assert.equal(before.size, bytes.byteLength);
    const text = JSON.parse(new TextDecoder().decode(bytes));
    text.content.content.push(PARAGRAPH('Written through workspace.fs'));
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(JSON.stringify(text)));
    await vscode.workspace.fs.stat(uri); // the stat VS Code takes right after a write
    const after = await vscode.workspace.fs.stat(uri);
    assert.ok(after.mtime > before.mtime, `${after.mtime} > ${before.mtime}`);
    // Another title for the same notebook does not exist: a rename onto it must not delete the notebook first.
    await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(uriOf(fixture, { ...notebook, title: 'Other title' }))), (error: unknown) =>
      error instanceof vscode.FileSystemError && error.code === 'FileNotFound',
    );
    await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(uriOf(fixture, { short_id: 'nOtThErE', title: 'x' }))), (error: unknown) =>
      error instanceof vscode.FileSystemError && error.code === 'FileNotFound',
    );
  });

  it('shows a collaborator\'s name and the dates in a notebook\'s tooltip as text: one line, no link, no image', async () => {
    const notebook = await newNotebook(fixture, 'Tooltip [x](https://evil.example)');
    await localApi.remoteEdit(fixture.projectId, notebook.short_id, {
      title: 'Tooltip [x](https://evil.example)',
      by: { first_name: 'Ann\n\n![pixel](https://tracker.example/p.png)', last_name: '[Click](https://evil.example/phish) \u202eeeL' },
    });
    await fixture.harness.tree.refresh(await fixture.harness.child(DEMO_ORGANIZATION, DEMO_PROJECT, 'Notebooks'));
    const items = await fixture.harness.items(await fixture.harness.child(DEMO_ORGANIZATION, DEMO_PROJECT, 'Notebooks'));
    const found = items.find(({ node }) => node instanceof NotebookNode && node.notebook.short_id === notebook.short_id);
    assert.ok(found);
    const tooltip = found.item.tooltip;
    assert.ok(tooltip instanceof vscode.MarkdownString);
    assert.ok(!tooltip.isTrusted && !tooltip.supportHtml);
    // Every character that could make a link, an image, an autolink or markup is escaped, whatever renders it.
    assert.doesNotMatch(tooltip.value, /(^|[^\\])[[\]()!:<>&~]/, tooltip.value);
    assert.match(tooltip.value, /Ann \\!\\\[pixel\\\]\\\(https\\:\/\/tracker\\\.example\/p\\\.png\\\) \\\[Click\\\]/);
    assert.match(tooltip.value, /eeL on /);
    assert.doesNotMatch(tooltip.value, /[\n]{3}|\u202e/, 'the name is one line');
    assert.doesNotMatch(String(found.item.description), /[\n\u202e]/, 'the description is one line without bidi controls');
  });

  it('opens from the tree: a notebook item runs Open Notebook on itself', async () => {
    const notebook = await newNotebook(fixture, 'From the tree');
    await fixture.harness.tree.refresh(await fixture.harness.child(DEMO_ORGANIZATION, DEMO_PROJECT, 'Notebooks'));
    const items = await fixture.harness.items(await fixture.harness.child(DEMO_ORGANIZATION, DEMO_PROJECT, 'Notebooks'));
    const found = items.find(({ node }) => node instanceof NotebookNode && node.notebook.short_id === notebook.short_id);
    assert.ok(found);
    assert.equal(found.item.command?.command, 'posthogExplorer.openNotebook');
    assert.deepEqual(found.item.command?.arguments, [found.node]);
    await localApi.clearRequests();
    const editor = await fixture.picker.openNotebook(found.node);
    assert.equal(editor?.document.uri.path.endsWith(`From the tree (${notebook.short_id}).md`), true, 'Markdown by default');
    assert.ok(editor?.document.getText().startsWith('# From the tree\n\nFirst line'));
    assert.deepEqual((await notebookRequests(notebook)).map((request) => request.method), ['GET']);
    await vscode.workspace.getConfiguration().update(OPEN_AS_SETTING, 'json', vscode.ConfigurationTarget.Global);
    try {
      const json = await fixture.picker.openNotebook(found.node);
      assert.ok(json?.document.getText().includes('"title": "From the tree"'));
    } finally {
      await vscode.workspace.getConfiguration().update(OPEN_AS_SETTING, undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('shows the activity of a notebook as "who · what · when" with changes; a version picked can be compared', async () => {
    const notebook = await newNotebook(fixture, 'Active');
    await fixture.session.client.notebooks.update(fixture.projectId, notebook.short_id, { title: 'Active, renamed' });
    const saved = await fixture.session.client.notebooks.update(fixture.projectId, notebook.short_id, {
      content: { type: 'doc', content: [PARAGRAPH('A later version')] },
      version: notebook.version,
    });
    fixture.harness.window.pick(' · Saved · ').pick('Compare with Current');
    await fixture.commands.showNotebookActivity(uriOf(fixture, notebook, 'markdown'));
    const [prompt, actions] = fixture.harness.window.prompts.filter((entry) => entry.kind === 'quickPick');
    assert.ok(prompt && actions, JSON.stringify(fixture.harness.window.messages));
    assert.ok(prompt.labels.some((label) => / · Created · /.test(label)), prompt.labels.join('\n'));
    assert.ok(prompt.items?.some((item) => /updated/.test(item.label) && item.detail === 'title: "Active" → "Active, renamed"'), JSON.stringify(prompt.items));
    assert.deepEqual(actions.labels, ['$(diff) Compare with Current', '$(discard) Restore This Version…']);
    const diff = fixture.harness.window.diffs.at(-1);
    assert.ok(diff, 'the version opens beside the current text');
    assert.equal((await vscode.workspace.openTextDocument(diff.left)).getText(), 'A later version\n');
    assert.equal(saved.version, notebook.version + 1);
  });
});

describe('Notebook Markdown files', function () {
  this.timeout(60_000);
  let fixture: Fixture;
  beforeEach(async () => {
    fixture = await setUp();
  });
  afterEach(() => tearDown(fixture));

  async function markdownNotebook(title: string, markdown: string): Promise<Notebook> {
    return fixture.session.client.notebooks.create(fixture.projectId, {
      title,
      content: { type: 'doc', content: [{ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown } }] },
      text_content: markdown,
    });
  }

  /** The saves: a PATCH (legacy notebooks), or PostHog's versioned Markdown save (Markdown notebooks). */
  async function patches(notebook: Notebook): Promise<RecordedRequest[]> {
    return (await notebookRequests(notebook)).filter((request) => request.method === 'PATCH' || request.path.endsWith('/collab/markdown_save/'));
  }

  it('opens a legacy notebook as Markdown with one GET, and a save converts back: one PATCH, still legacy, the text kept', async () => {
    const notebook = await newNotebook(fixture, 'Legacy as Markdown');
    await localApi.clearRequests();
    const document = await open(uriOf(fixture, notebook, 'markdown'));
    assert.equal(document.languageId, 'markdown');
    assert.equal(document.getText(), '# Legacy as Markdown\n\nFirst line\n');
    assert.deepEqual((await notebookRequests(notebook)).map((request) => request.method), ['GET']);
    await replaceText(document, '# Legacy as Markdown\n\nFirst line, with **bold** and a [link](https://posthog.com)\n\n- [x] a task\n- [ ] another\n');
    await localApi.clearRequests();
    assert.equal(await document.save(), true);
    assert.equal((await patches(notebook)).length, 1);
    const saved = await server(fixture, notebook);
    assert.equal(saved.version, notebook.version + 1);
    const content = saved.content as { content: { type: string }[] };
    assert.deepEqual(content.content.map((node) => node.type), ['heading', 'paragraph', 'taskList']);
    assert.ok(JSON.stringify(content).includes('"type":"bold"'));
    assert.match(saved.text_content ?? '', /First line, with bold and a link/);
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.match(document.getText(), /\*\*bold\*\*/, 'the editor keeps the text as written');
    assert.equal(document.isDirty, false);
  });

  it('opens a Markdown notebook verbatim and saves it back exactly, with text_content the Markdown and the version', async () => {
    const markdown = '# Plan\r\n\r\nKeep *this*   spacing\n<Query query={{"kind":"SavedInsightNode","shortId":"Xk3pQ9aZ"}} />\n';
    const notebook = await markdownNotebook('Verbatim', markdown);
    const document = await open(uriOf(fixture, notebook, 'markdown'));
    const edited = `${document.getText()}\nAdded line`;
    await replaceText(document, edited);
    await localApi.clearRequests();
    assert.equal(await document.save(), true);
    const [patch] = await patches(notebook);
    assert.equal((patch?.body as { version?: number } | undefined)?.version, notebook.version);
    const saved = await server(fixture, notebook);
    const node = (saved.content as { content: { type: string; attrs: { markdown: string; nodeId: string } }[] }).content;
    assert.equal(node.length, 1);
    assert.equal(node[0]?.type, 'ph-markdown-notebook');
    assert.equal(node[0]?.attrs.nodeId, 'markdown-notebook-v2');
    assert.equal(node[0]?.attrs.markdown, document.getText());
    assert.equal(saved.text_content, document.getText());
  });

  it('merges another user\'s change to a different paragraph and saves both (409 with the update missed, then the merge)', async () => {
    const notebook = await markdownNotebook('Merge Markdown', '# Merge\n\nFirst paragraph.\n\nSecond paragraph.\n');
    const document = await open(uriOf(fixture, notebook, 'markdown'));
    await replaceText(document, '# Merge\n\nFirst paragraph, edited by me.\n\nSecond paragraph.\n');
    await localApi.remoteEdit(fixture.projectId, notebook.short_id, {
      content: { type: 'doc', content: [{ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown: '# Merge\n\nFirst paragraph.\n\nSecond paragraph, edited by them.\n' } }] },
    });
    await localApi.clearRequests();
    assert.equal(await document.save(), true);
    assert.deepEqual((await notebookRequests(notebook)).map((request) => `${request.method} ${request.status}`), ['POST 409', 'POST 200'], 'the 409 carried the update: no GET');
    const saved = await server(fixture, notebook);
    assert.equal(markdownOf(saved.content), '# Merge\n\nFirst paragraph, edited by me.\n\nSecond paragraph, edited by them.\n');
    assert.equal(saved.text_content, '# Merge\n\nFirst paragraph, edited by me.\n\nSecond paragraph, edited by them.', 'PostHog trims text_content');
    await waitFor('the editor to show both edits', () => document.getText().includes('edited by them') && !document.isDirty);
  });

  it('when PostHog already holds my change and another of its own, sends nothing, shows both, and the next save keeps theirs', async () => {
    const notebook = await markdownNotebook('Merged on PostHog', '# Both\n\nFirst paragraph.\n\nSecond paragraph.\n');
    const document = await open(uriOf(fixture, notebook, 'markdown'));
    await replaceText(document, '# Both\n\nFirst, mine.\n\nSecond paragraph.\n');
    await localApi.remoteEdit(fixture.projectId, notebook.short_id, {
      content: { type: 'doc', content: [{ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown: '# Both\n\nFirst, mine.\n\nSecond, theirs.\n' } }] },
    });
    await localApi.clearRequests();
    assert.equal(await document.save(), true);
    assert.deepEqual((await notebookRequests(notebook)).map((request) => `${request.method} ${request.status}`), ['POST 409']);
    await waitFor('the editor to show their paragraph', () => document.getText().includes('Second, theirs.') && !document.isDirty);
    await replaceText(document, document.getText().replace('# Both', '# Both, retitled'));
    assert.equal(await document.save(), true);
    assert.equal(markdownOf((await server(fixture, notebook)).content), '# Both, retitled\n\nFirst, mine.\n\nSecond, theirs.\n');
  });

  it('keeps an unsaved editor\'s base when its language mode changes (VS Code closes and reopens the document)', async () => {
    const notebook = await markdownNotebook('Language mode', '# Mode\n\nFirst paragraph.\n\nSecond paragraph.\n');
    const opened = await open(uriOf(fixture, notebook, 'markdown'));
    await replaceText(opened, '# Mode\n\nFirst, mine.\n\nSecond paragraph.\n');
    const plain = await vscode.languages.setTextDocumentLanguage(opened, 'plaintext');
    const document = await vscode.languages.setTextDocumentLanguage(plain, 'markdown');
    assert.equal(document.isDirty, true);
    await localApi.remoteEdit(fixture.projectId, notebook.short_id, {
      content: { type: 'doc', content: [{ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown: '# Mode\n\nFirst paragraph.\n\nSecond, theirs.\n' } }] },
    });
    assert.equal(await document.save(), true);
    assert.equal(markdownOf((await server(fixture, notebook)).content), '# Mode\n\nFirst, mine.\n\nSecond, theirs.\n');
  });

  it('marks a paragraph both changed, refuses to save until VS Code\'s "Accept Current" resolves it, then saves', async () => {
    const notebook = await newNotebook(fixture, 'Conflict Markdown');
    const document = await open(uriOf(fixture, notebook, 'markdown'));
    await replaceText(document, '# Conflict Markdown\n\nFirst line, mine');
    await localApi.remoteEdit(fixture.projectId, notebook.short_id, {
      content: { type: 'doc', content: [{ type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Conflict Markdown' }] }, PARAGRAPH('First line, theirs')] },
    });
    assert.equal(await document.save(), false);
    await waitFor('the conflict markers', () => document.getText().includes('<<<<<<< Yours'));
    assert.match(document.getText(), /^# Conflict Markdown\n\n?<<<<<<< Yours\n\n?First line, mine\n\n?=======\n\n?First line, theirs\n\n?>>>>>>> PostHog \(version \d+ by /);
    await waitFor('a diagnostic on the marker', () => vscode.languages.getDiagnostics(document.uri).some((diagnostic) => /conflict marker/.test(diagnostic.message)));
    await localApi.clearRequests();
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(document.uri, new TextEncoder().encode(document.getText()))), /conflict marker/);
    assert.deepEqual(await notebookRequests(notebook), []);
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(3, 0, 3, 0);
    await vscode.commands.executeCommand('merge-conflict.accept.all-current');
    await waitFor('the markers to go', () => !document.getText().includes('<<<<<<<'));
    assert.equal(await document.save(), true);
    const saved = await server(fixture, notebook);
    assert.ok(JSON.stringify(saved.content).includes('First line, mine'));
    assert.ok(!JSON.stringify(saved.content).includes('theirs'));
  });

  it('names a collaborator with line breaks on the marker line alone: nothing of the name is kept by "Accept Current" or saved', async () => {
    const notebook = await newNotebook(fixture, 'Hostile name');
    const document = await open(uriOf(fixture, notebook, 'markdown'));
    await replaceText(document, '# Hostile name\n\nFirst line, mine');
    await localApi.remoteEdit(fixture.projectId, notebook.short_id, {
      content: { type: 'doc', content: [{ type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Hostile name' }] }, PARAGRAPH('First line, theirs')] },
      by: { first_name: 'Mallory\n\nInjected after the marker\n<<<<<<< fake', last_name: 'Doe\u202e' },
    });
    assert.equal(await document.save(), false);
    await waitFor('the conflict markers', () => document.getText().includes('<<<<<<< Yours'));
    const closing = document.getText().split('\n').find((line) => line.startsWith('>>>>>>>'));
    assert.match(closing ?? '', /^>>>>>>> PostHog \(version \d+ by Mallory Injected after the marker <<<<<<< fake Doe\uFFFD/);
    assert.equal(document.getText().split('\n').filter((line) => line.startsWith('<<<<<<<')).length, 1, 'no line of the name starts a marker');
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(3, 0, 3, 0);
    await vscode.commands.executeCommand('merge-conflict.accept.all-current');
    await waitFor('the markers to go', () => !document.getText().includes('<<<<<<<'));
    assert.doesNotMatch(document.getText(), /Injected|Mallory/);
    assert.equal(await document.save(), true);
    const saved = JSON.stringify((await server(fixture, notebook)).content);
    assert.ok(saved.includes('First line, mine'));
    assert.doesNotMatch(saved, /Injected|Mallory|theirs/);
  });

  it('keeps the user\'s own ======= line and 7-deep quote through "Accept Current" as PostHog reads them, and saves a notebook whose code shows a git conflict', async () => {
    const notebook = await newNotebook(fixture, 'Look-alikes');
    const document = await open(uriOf(fixture, notebook, 'markdown'));
    const mine = '# Look-alikes\n\nMine\n=======\n\n>>>>>>> deep quote\n\n```diff\n<<<<<<< HEAD\na\n=======\nb\n>>>>>>> main\n```\n\nFirst line, mine';
    await replaceText(document, mine);
    await localApi.remoteEdit(fixture.projectId, notebook.short_id, {
      content: { type: 'doc', content: [{ type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Look-alikes' }] }, PARAGRAPH('First line, theirs')] },
    });
    assert.equal(await document.save(), false);
    await waitFor('the conflict markers', () => document.getText().includes('<<<<<<< Yours'));
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(3, 0, 3, 0);
    await vscode.commands.executeCommand('merge-conflict.accept.all-current');
    await waitFor('the markers to go', () => !document.getText().includes('<<<<<<< Yours'));
    assert.equal(await document.save(), true);
    const saved = (await server(fixture, notebook)).content as { content: { type: string; content?: { text?: string }[] }[] };
    const texts = saved.content.map((node) => `${node.type}:${(node.content ?? []).map((piece) => piece.text ?? '').join('')}`);
    // PostHog's dialect has no setext heading: "Mine" and "=======" are a paragraph's two lines, kept exactly.
    assert.ok(texts.includes('paragraph:Mine======='), JSON.stringify(texts));
    assert.ok(texts.includes('paragraph:First line, mine'), JSON.stringify(texts));
    // Code has no escape in PostHog's dialect: a line of it VS Code would take for a marker gained one space.
    assert.ok(JSON.stringify(saved).includes(' <<<<<<< HEAD\\na\\n =======\\nb\\n >>>>>>> main'), 'the code block is kept, its look-alike lines spaced');
    assert.ok(!JSON.stringify(saved).includes('theirs'));
  });

  it('names what Markdown cannot hold, keeps it through other edits, and refuses a save that would drop it', async () => {
    const notebook = await storedNotebook(fixture, {
      title: 'Lossy',
      content: {
        type: 'doc',
        content: [
          PARAGRAPH('Plain paragraph'),
          { type: 'paragraph', content: [{ type: 'text', text: 'Highlighted', marks: [{ type: 'highlight', attrs: { color: 'yellow' } }] }] },
        ],
      },
    });
    const document = await open(uriOf(fixture, notebook, 'markdown'));
    await waitFor('a diagnostic naming the mark', () =>
      vscode.languages.getDiagnostics(document.uri).some((diagnostic) => diagnostic.range.start.line === 2 && /highlight/.test(diagnostic.message)),
    );
    await replaceText(document, document.getText().replace('Plain paragraph', 'Plain paragraph, edited'));
    assert.equal(await document.save(), true);
    const kept = await server(fixture, notebook);
    assert.ok(JSON.stringify(kept.content).includes('"highlight"'), 'the unknown mark survived');
    await new Promise((resolve) => setTimeout(resolve, 400));
    await replaceText(document, document.getText().replace('Highlighted', 'Highlighted, edited'));
    await localApi.clearRequests();
    assert.equal(await document.save(), false);
    assert.deepEqual(await patches(notebook), []);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(document.uri, new TextEncoder().encode(document.getText()))), /line 3: .*highlight/);
  });

  it('opens a notebook holding every tag PostHog writes today without an error or a warning', async () => {
    const tags = TAGS.filter((definition) => !definition.writtenAs && definition.tag !== 'Comment').map((definition) => `<${definition.tag}${definition.tag === 'UnknownNode' ? ' nodeType="ph-poll"' : ''} />`);
    const markdown = [
      '# Every tag',
      ...tags,
      '<Comment ref="c1" replies={[{"id":"r1","text":"Why?","author":"Lee","at":"2025-01-02T03:04:05Z"}]} />',
      '<ref id="c1">Highlighted</ref> text by <mention id="42">@Lee</mention>.',
      '<!-- a note -->',
      '---',
      '![A chart](https://posthog.com/chart.png)',
      '<FeatureFlag id={42} view="conditions" showFilters hideResults title="Rollout" />',
      '```python ref=c2:0-5',
      'print(1)',
      '```',
    ].join('\n\n');
    const notebook = await markdownNotebook('Every tag', markdown);
    const document = await open(uriOf(fixture, notebook, 'markdown'));
    fixture.harness.notebooks.language.refresh(document);
    const diagnostics = vscode.languages.getDiagnostics(document.uri);
    assert.deepEqual(diagnostics.map((d) => `${d.range.start.line}: ${d.message}`), []);
    await replaceText(document, `${document.getText()}\n\n<Insight id="abc" view="nonsense" />\n\n<Qurey />\n`);
    await waitFor('the unknown tag\'s warning', () => vscode.languages.getDiagnostics(document.uri).length > 0);
    const after = vscode.languages.getDiagnostics(document.uri);
    assert.deepEqual(after.map((d) => d.severity), [vscode.DiagnosticSeverity.Warning], after.map((d) => d.message).join('\n'));
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('squiggles invalid tags, warns of unknown ones, completes tag names and props, explains a Query on hover, and previews tags as cards', async () => {
    const markdown = '# Tags\n\n<Query query={{"kind":"SavedInsightNode","shortId":"Xk3pQ9aZ"}} />\n\n<Query query={{"kind":}} />\n\n<Qurey />\n\n<SQLV2 code="select 1" />\n';
    const notebook = await markdownNotebook('Tags', markdown);
    const document = await open(uriOf(fixture, notebook, 'markdown'));
    await waitFor('a tag error and a warning', () => vscode.languages.getDiagnostics(document.uri).length >= 2);
    const diagnostics = vscode.languages.getDiagnostics(document.uri);
    const described = diagnostics.map((d) => `${d.range.start.line} ${d.severity} ${d.message}`).join('\n');
    assert.ok(diagnostics.some((d) => d.range.start.line === 4 && d.severity === vscode.DiagnosticSeverity.Error && /JSON/.test(d.message)), described);
    assert.ok(
      diagnostics.some((d) => d.range.start.line === 6 && d.severity === vscode.DiagnosticSeverity.Warning && /will show it as unknown/.test(d.message)),
      described,
    );
    assert.ok(!diagnostics.some((d) => d.range.start.line === 8), `SQLV2 is a tag PostHog knows: ${described}`);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, new vscode.Position(2, 3));
    const hoverText = hovers.flatMap((hover) => hover.contents.map((part) => (typeof part === 'string' ? part : 'value' in part ? part.value : ''))).join('\n');
    assert.match(hoverText, /Xk3pQ9aZ/);
    await replaceText(document, `${document.getText()}\n<`);
    const completions = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, new vscode.Position(document.lineCount - 1, 1), '<');
    const labels = (list: vscode.CompletionList) => list.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
    assert.ok(labels(completions).includes('Query') && labels(completions).includes('Insight'), labels(completions).join(', '));
    await replaceText(document, `${document.getText()}FeatureFlag id={1} `);
    const line = document.lineCount - 1;
    const props = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, new vscode.Position(line, document.lineAt(line).text.length));
    assert.ok(labels(props).includes('view') && labels(props).includes('showFilters') && !labels(props).includes('id'), labels(props).join(', '));
    const rendered = await vscode.commands.executeCommand<string>('markdown.api.render', document);
    assert.match(rendered, /class="posthog-tag/, 'VS Code\'s Markdown engine draws the tags as cards');
    assert.ok(!rendered.includes('<Query') && !rendered.includes('<Qurey'), 'no raw tag in the preview');
  });

  it('in a legacy notebook, a broken tag is named once, at its line, and its save is refused saying where', async () => {
    const notebook = await newNotebook(fixture, 'Broken tag');
    const document = await open(uriOf(fixture, notebook, 'markdown'));
    await replaceText(document, `${document.getText()}\n<Query query={{"kind":}} />\n`);
    await waitFor('the tag diagnostic', () => vscode.languages.getDiagnostics(document.uri).some((d) => d.range.start.line === 4));
    await new Promise((resolve) => setTimeout(resolve, 400));
    const onTag = vscode.languages.getDiagnostics(document.uri).filter((d) => d.range.start.line === 4);
    assert.equal(onTag.length, 1, onTag.map((d) => d.message).join('\n'));
    assert.match(onTag[0]!.message, /not valid JSON/);
    await localApi.clearRequests();
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.writeFile(document.uri, new TextEncoder().encode(document.getText()))),
      /Not saved: line 5: the props of <Query> are not valid JSON/i,
    );
    assert.deepEqual(await notebookRequests(notebook), []);
  });

  it('converts a legacy notebook to a Markdown notebook after a confirmation', async () => {
    const notebook = await newNotebook(fixture, 'To convert');
    fixture.harness.window.choose('Convert');
    assert.equal(await fixture.editorCommands.convertToMarkdownNotebook(uriOf(fixture, notebook, 'markdown')), true);
    const saved = await server(fixture, notebook);
    assert.deepEqual(saved.content, {
      type: 'doc',
      content: [{ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown: '# To convert\n\nFirst line\n' } }],
    });
    assert.equal(saved.text_content, '# To convert\n\nFirst line');
    assert.match(fixture.harness.window.messages.find((message) => message.severity === 'warning')?.text ?? '', /Convert "To convert" to a Markdown notebook\?/);
  });

  it('opens the other file of the notebook beside the active one', async () => {
    const notebook = await newNotebook(fixture, 'Both files');
    const markdown = await open(uriOf(fixture, notebook, 'markdown'));
    const json = await fixture.editorCommands.openNotebookAs('json', markdown.uri);
    assert.equal(json?.document.uri.path.endsWith(`Both files (${notebook.short_id}).json`), true);
    const back = await fixture.editorCommands.openNotebookAs('markdown', json?.document.uri);
    assert.equal(back?.document.uri.toString(), markdown.uri.toString());
  });

  it('keeps unsaved Markdown and its base over a reload: the next save merges against that base', async () => {
    const notebook = await markdownNotebook('Reloaded', '# Reloaded\n\nOne.\n\nTwo.\n');
    const document = await open(uriOf(fixture, notebook, 'markdown'));
    await replaceText(document, '# Reloaded\n\nOne, edited before the reload.\n\nTwo.\n');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { state, services } = fixture.harness;
    fixture.harness.close();
    await localApi.remoteEdit(fixture.projectId, notebook.short_id, {
      content: { type: 'doc', content: [{ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown: '# Reloaded\n\nOne.\n\nTwo, edited after.\n' } }] },
    });
    fixture.harness = new ExplorerHarness(runnerSecrets(), { scheme: SCHEME, storageUri: services.storageUri, state });
    const session = await fixture.harness.connections.session(fixture.session.connection.id);
    assert.ok(session, 'the connection survives the reload');
    const { files, commands, editorCommands, picker } = fixture.harness.notebooks;
    fixture = { ...fixture, session, files, commands, editorCommands, picker };
    assert.ok(document.isDirty, 'the editor still holds the unsaved text');
    await localApi.clearRequests();
    assert.equal(await document.save(), true);
    // The new window knows nothing of the notebook yet (one GET, which brings PostHog's newer version): the text's
    // base is the archived one, older than that, so the save merges with PostHog's version before sending, once.
    assert.deepEqual((await notebookRequests(notebook)).map((request) => `${request.method} ${request.status}`), ['GET 200', 'POST 200']);
    const saved = await server(fixture, notebook);
    assert.equal(markdownOf(saved.content), '# Reloaded\n\nOne, edited before the reload.\n\nTwo, edited after.\n');
  });
});

describe('Notebook saves of a text that was already merged', function () {
  this.timeout(60_000);
  let fixture: Fixture;
  beforeEach(async () => {
    fixture = await setUp();
  });
  afterEach(() => tearDown(fixture));

  const HEADING = (title: string) => ({ type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: title }] });
  const THEIRS = 'Their paragraph, added at the top.';

  /**
   * A legacy notebook open in `form`, the user's edit of its first line in the editor (unsaved), and another
   * user's save that adds a paragraph at the top: the user's next save merges (409, GET, PATCH).
   */
  async function meetTheirParagraph(title: string, form: NotebookForm) {
    const notebook = await newNotebook(fixture, title);
    const document = await open(uriOf(fixture, notebook, form));
    if (form === 'markdown') {
      await replaceText(document, document.getText().replace('First line', 'First line, edited by me'));
    } else {
      await editJson(document, (json) => (json.content.content[1] = PARAGRAPH('First line, edited by me')));
    }
    await localApi.remoteEdit(fixture.projectId, notebook.short_id, {
      content: { type: 'doc', content: [PARAGRAPH(THEIRS), HEADING(title), PARAGRAPH('First line')] },
    });
    await localApi.clearRequests();
    return { notebook, document, mine: document.getText() };
  }

  function nextSaveOf(document: vscode.TextDocument): Promise<void> {
    return new Promise((resolve) => {
      const listener = vscode.workspace.onDidSaveTextDocument((saved) => {
        if (saved.uri.toString() === document.uri.toString()) {
          listener.dispose();
          resolve();
        }
      });
    });
  }

  async function assertBothKept(notebook: Notebook, document: vscode.TextDocument): Promise<void> {
    const saved = JSON.stringify((await server(fixture, notebook)).content);
    assert.ok(saved.includes(THEIRS), `their paragraph is kept: ${saved}`);
    assert.ok(saved.includes('First line, edited by me'), `my edit is kept: ${saved}`);
    const patches = (await notebookRequests(notebook)).filter((request) => request.method === 'PATCH' && request.status === 200);
    for (const patch of patches) {
      assert.ok(JSON.stringify(patch.body).includes(THEIRS), `no saved PATCH lacks their paragraph: ${JSON.stringify(patch.body)}`);
    }
    await waitFor('the editor to show both', () => document.getText().includes(THEIRS) && document.getText().includes('edited by me') && !document.isDirty);
  }

  for (const form of ['markdown', 'json'] as const) {
    it(`a second save of the pre-merge ${form} text, after the merge was saved and before the editor reloads, deletes nothing`, async () => {
      const { notebook, document, mine } = await meetTheirParagraph(`Saved twice ${form}`, form);
      const saveEvent = nextSaveOf(document);
      assert.equal(await document.save(), true);
      await saveEvent;
      assert.equal(document.getText(), mine, 'the editor has not reloaded yet');
      // What autosave or a retried save does while the editor still shows its pre-merge text.
      await vscode.workspace.fs.writeFile(document.uri, new TextEncoder().encode(mine));
      const calls = (await notebookRequests(notebook)).map((request) => `${request.method} ${request.status}`);
      assert.deepEqual(calls, ['PATCH 409', 'GET 200', 'PATCH 200'], 'the second save sends nothing');
      await assertBothKept(notebook, document);
    });
  }

  it('two saves of the pre-merge text in flight at once: one merge, the other sends nothing', async () => {
    const { notebook, document, mine } = await meetTheirParagraph('Saved twice at once', 'markdown');
    const [saved] = await Promise.all([document.save(), vscode.workspace.fs.writeFile(document.uri, new TextEncoder().encode(mine))]);
    assert.equal(saved, true);
    const calls = (await notebookRequests(notebook)).map((request) => `${request.method} ${request.status}`);
    assert.deepEqual(calls, ['PATCH 409', 'GET 200', 'PATCH 200'], 'never two saves of one notebook in flight');
    await assertBothKept(notebook, document);
  });

  it('with autosave on, typing on right after a merged save keeps the other user\'s paragraph', async () => {
    const files = vscode.workspace.getConfiguration('files');
    // The test host's user settings turn autosave off (VS Code in the browser defaults it on): restore them.
    const before = { autoSave: files.inspect('autoSave')?.globalValue, autoSaveDelay: files.inspect('autoSaveDelay')?.globalValue };
    await files.update('autoSaveDelay', 100, vscode.ConfigurationTarget.Global);
    await files.update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    try {
      const { notebook, document } = await meetTheirParagraph('Autosaved', 'markdown');
      await nextSaveOf(document); // the autosave of my edit: 409, GET, merged PATCH
      // Typed before the editor reloads the merge: the text still lacks their paragraph.
      const edit = new vscode.WorkspaceEdit();
      edit.insert(document.uri, new vscode.Position(document.lineCount, 0), '\nTyped on after the save.\n');
      assert.ok(await vscode.workspace.applyEdit(edit));
      await waitFor('the typed line to be saved', async () => JSON.stringify((await server(fixture, notebook)).content).includes('Typed on after the save.'));
      await assertBothKept(notebook, document);
      assert.ok(document.getText().includes('Typed on after the save.'));
    } finally {
      await files.update('autoSave', before.autoSave, vscode.ConfigurationTarget.Global);
      await files.update('autoSaveDelay', before.autoSaveDelay, vscode.ConfigurationTarget.Global);
    }
  });
});

describe('Notebook names: titles travel as titles, and a name never moves or overwrites another notebook', function () {
  this.timeout(60_000);
  let fixture: Fixture;
  beforeEach(async () => {
    fixture = await setUp();
  });
  afterEach(() => tearDown(fixture));

  function tabPaths(): string[] {
    return vscode.window.tabGroups.all.flatMap((group) => group.tabs.flatMap((tab) => (tab.input instanceof vscode.TabInputText ? [tab.input.uri.path] : [])));
  }

  async function titlePatches(notebook: Notebook): Promise<unknown[]> {
    return (await notebookRequests(notebook)).filter((request) => request.method === 'PATCH').map((request) => (request.body as { title?: unknown }).title);
  }

  it('Rename Notebook… sends the title as typed ("Q3: Revenue / Growth?", long titles whole) and the editor follows to its file name', async () => {
    const notebook = await newNotebook(fixture, 'Quarterly');
    const document = await open(uriOf(fixture, notebook, 'markdown'));
    await localApi.clearRequests();
    fixture.harness.window.type('Q3: Revenue / Growth?');
    assert.equal(await fixture.commands.renameNotebook(document.uri), true);
    assert.equal((await server(fixture, notebook)).title, 'Q3: Revenue / Growth?');
    assert.deepEqual(await titlePatches(notebook), ['Q3: Revenue / Growth?'], 'one PATCH, with the title as typed');
    await waitFor('the editor to follow the rename', () => tabPaths().some((path) => path.endsWith(`/Q3- Revenue - Growth- (${notebook.short_id}).md`)));

    const long = `Revenue growth by acquisition channel, region and plan, week over week, ${'with notes '.repeat(6)}end`;
    assert.ok(long.length > 100);
    const renamed = vscode.workspace.textDocuments.find((candidate) => candidate.uri.path.endsWith(`(${notebook.short_id}).md`));
    assert.ok(renamed);
    fixture.harness.window.type(long);
    assert.equal(await fixture.commands.renameNotebook(renamed.uri), true);
    assert.equal((await server(fixture, notebook)).title, long, 'not cut to the file name\'s 80 characters');
    await waitFor('the editor to follow the second rename', () => tabPaths().some((path) => path.endsWith(`… (${notebook.short_id}).md`)));
  });

  it('a write through a name the notebook no longer has (an old title dragged back, Save As) is refused and sends nothing', async () => {
    const notebook = await newNotebook(fixture, 'Before the rename');
    const oldUri = uriOf(fixture, notebook, 'markdown');
    const document = await open(oldUri);
    const oldText = document.getText();
    fixture.harness.window.type('After the rename');
    assert.equal(await fixture.commands.renameNotebook(document.uri), true);
    await waitFor('the editor to follow the rename', () => tabPaths().some((path) => path.endsWith(`/After the rename (${notebook.short_id}).md`)));
    await localApi.clearRequests();
    const copy = new TextEncoder().encode(`${oldText}\nA copy saved under the old name.\n`);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(oldUri, copy)), /is not a name of the notebook "After the rename"/);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(uriOf(fixture, { ...notebook, title: 'Saved as' }, 'markdown'), copy)), /is not a name of the notebook/);
    assert.deepEqual((await notebookRequests(notebook)).filter((request) => request.method !== 'GET'), []);
    const kept = await server(fixture, notebook);
    assert.equal(kept.title, 'After the rename');
    assert.ok(!JSON.stringify(kept.content).includes('A copy saved'));
  });

  it('a Markdown write whose base this window does not know is refused, not saved over PostHog\'s current version', async () => {
    const notebook = await newNotebook(fixture, 'Never read here');
    await localApi.remoteEdit(fixture.projectId, notebook.short_id);
    await localApi.clearRequests();
    const bare = fixture.files.bareUriOf(fixture.session.connection.id, fixture.projectId, notebook.short_id, 'markdown');
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.writeFile(bare, new TextEncoder().encode('# Never read here\n\nAn old copy.\n'))),
      /does not know which version of "Never read here"/,
    );
    assert.deepEqual((await notebookRequests(notebook)).filter((request) => request.method !== 'GET'), []);
    assert.ok(JSON.stringify((await server(fixture, notebook)).content).includes('Edited remotely'), 'the other user\'s change stays');
  });

  it('renaming a file to another notebook\'s short id (replacing it) or to a one-word name changes no notebook', async () => {
    const mine = await newNotebook(fixture, 'Mine to rename');
    const other = await newNotebook(fixture, 'Another notebook');
    const document = await open(uriOf(fixture, mine, 'markdown'));
    await localApi.clearRequests();
    for (const name of [`${other.short_id}.md`, `Another notebook (${other.short_id}).md`, 'Oneword.md']) {
      const edit = new vscode.WorkspaceEdit();
      edit.renameFile(document.uri, vscode.Uri.joinPath(document.uri, '..', name), { overwrite: true });
      const applied = await Promise.resolve(vscode.workspace.applyEdit(edit)).catch(() => false);
      assert.equal(applied, false, name);
    }
    assert.deepEqual((await localApi.requests()).filter((request) => request.method !== 'GET').map((request) => `${request.method} ${request.path}`), []);
    assert.equal((await server(fixture, other)).deleted, false, 'the other notebook is not deleted');
    assert.equal((await server(fixture, mine)).title, 'Mine to rename');
    assert.ok(tabPaths().some((path) => path.endsWith(`/Mine to rename (${mine.short_id}).md`)), 'the editor stays on its notebook');
  });
});

describe('Notebook files in the installed extension', function () {
  this.timeout(60_000);
  let harness: ExplorerHarness;
  let session: ConnectionSession;
  let projectId: number;

  before(async () => {
    harness = new ExplorerHarness(runnerSecrets());
    ({ session, projectId } = await harness.signInToProject());
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await harness.dispose();
  });

  it('serves posthog:// for the environment connection and the JSON schema checks the document', async () => {
    const shortId = await localApi.storeNotebook(projectId, { title: 'Schema check', content: { type: 'doc', content: [] } });
    const notebook = await session.client.notebooks.get(projectId, shortId);
    const uri = vscode.Uri.parse(`posthog://environment/${projectId}/notebooks/Schema check (${notebook.short_id}).json`);
    const document = await open(uri);
    assert.equal(JSON.parse(document.getText()).title, 'Schema check');
    await editJson(document, (json) => json.content.content.push({ type: 'paragraph', content: [{ type: 'text', text: '' }] }));
    await waitFor(
      'a schema diagnostic on the posthog: document',
      () => vscode.languages.getDiagnostics(document.uri).some((diagnostic) => /String is shorter than the minimum length of 1/i.test(diagnostic.message)),
      20_000,
    );
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});

describe('Notebook filter: created by', function () {
  this.timeout(60_000);
  let harness: ExplorerHarness;
  let session: ConnectionSession;

  beforeEach(async () => {
    harness = new ExplorerHarness(runnerSecrets());
    const connection = await harness.signInToLocalApi();
    assert.ok(connection);
    session = (await harness.connections.session(connection.id))!;
    harness.window.prompts.length = 0;
  });
  afterEach(() => harness.dispose());

  async function listRequest(): Promise<RecordedRequest> {
    await localApi.clearRequests();
    const notebooksNode = await harness.child(DEMO_ORGANIZATION, 'Hedgebox', 'Notebooks');
    await harness.items(notebooksNode);
    const request = (await localApi.requests()).find((entry) => entry.path.endsWith('/notebooks/'));
    assert.ok(request, 'the list was fetched');
    return request;
  }

  it('offers you and the creators seen in the list, and sends the chosen one\'s UUID', async () => {
    const me = await session.client.users.me();
    const project = await harness.child(DEMO_ORGANIZATION, 'Hedgebox');
    const listed = await session.client.notebooks.listAll((project as ProjectNode).project.id);
    const lee = listed.map((notebook) => notebook.created_by).find((user) => user?.first_name === 'Lee');
    assert.ok(lee, 'Lee created a seeded notebook');
    harness.window.pick('Created by').pick('Lee Chen').pick('Apply');
    await harness.notebooks.listCommands.filterNotebooks(project);
    const creatorPick = harness.window.prompts.find((prompt) => prompt.title === 'Created by');
    assert.ok(creatorPick, JSON.stringify(harness.window.prompts));
    assert.deepEqual(creatorPick.labels.slice(0, 2), ['Anyone', `$(account) ${me.first_name} ${me.last_name}`], 'you come first');
    assert.ok(creatorPick.labels.includes('Lee Chen') && creatorPick.labels.includes('Priya Patel'), creatorPick.labels.join(', '));
    assert.ok(!creatorPick.labels.some((label) => /#\d+|user id/i.test(label)), 'no integer ids on offer');

    const request = await listRequest();
    assert.equal(request.query.created_by, lee.uuid);
    assert.equal(request.status, 200);
    const item = harness.tree.getTreeItem(await harness.child(DEMO_ORGANIZATION, 'Hedgebox', 'Notebooks'));
    assert.match(String(item.description), /created by Lee Chen/);
    const shown = await harness.items(await harness.child(DEMO_ORGANIZATION, 'Hedgebox', 'Notebooks'));
    assert.ok(shown.length > 0);
    assert.ok(shown.every(({ node }) => (node as NotebookNode).notebook.created_by?.uuid === lee.uuid), 'only Lee\'s notebooks');
  });

  it('takes another user\'s UUID, refusing an integer id with a clear message', async () => {
    const me = await session.client.users.me();
    const project = await harness.child(DEMO_ORGANIZATION, 'Hedgebox');
    harness.window.pick('Created by').pick("Another user's UUID").type('1').pick(undefined);
    await harness.notebooks.listCommands.filterNotebooks(project);
    const refused = harness.window.prompts.find((prompt) => prompt.kind === 'inputBox');
    assert.match(refused?.validation ?? '', /"1" is not a UUID/);

    harness.window.prompts.length = 0;
    harness.window.pick('Created by').pick("Another user's UUID").type(` ${me.uuid} `).pick('Apply');
    await harness.notebooks.listCommands.filterNotebooks(project);
    const request = await listRequest();
    assert.equal(request.query.created_by, me.uuid);
    assert.equal(request.status, 200);
    const item = harness.tree.getTreeItem(await harness.child(DEMO_ORGANIZATION, 'Hedgebox', 'Notebooks'));
    assert.match(String(item.description), new RegExp(`created by ${me.first_name} ${me.last_name}`), 'a known UUID shows the name');
  });
});
