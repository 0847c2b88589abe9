import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { Notebook } from '../../src/api';
import type { ConnectionSession } from '../../src/connections/connectionManager';
import { NotebookCommands } from '../../src/notebooks/notebookCommands';
import { NotebookFileStore } from '../../src/notebooks/notebookFiles';
import { DeletedNotebookNode, NotebookNode, NotebooksNode } from '../../src/notebooks/notebookNodes';
import { ProjectNode } from '../../src/tree/nodes';
import { ExplorerHarness, labelOf } from './support/explorerHarness';
import { localApi, type RecordedRequest } from './support/localApi';
import { runnerSecrets } from './support/runnerContext';

/**
 * The notebook file system as the extension builds it, registered under its own scheme so that the
 * conflict dialog and other prompts are answered by a ScriptedWindow; documents are real VS Code text
 * documents, saved through VS Code's own save (document.save()).
 */
const SCHEME = 'posthog-nbtest';
const ORGANIZATION = 'Hedgebox Inc.';
const PROJECT = 'Marketing site';

interface Fixture {
  harness: ExplorerHarness;
  session: ConnectionSession;
  projectId: number;
  files: NotebookFileStore;
  commands: NotebookCommands;
}

async function setUp(): Promise<Fixture> {
  const harness = new ExplorerHarness(runnerSecrets(), { scheme: SCHEME });
  const connection = await harness.signInToLocalApi();
  assert.ok(connection, 'signed in');
  const session = await harness.connections.session(connection.id);
  assert.ok(session);
  const organizations = await session.model.organizations();
  const organization = organizations.find((entry) => entry.name === ORGANIZATION);
  assert.ok(organization);
  const project = (await session.model.projects(organization.id)).find((entry) => entry.name === PROJECT);
  assert.ok(project);
  const { files, commands } = harness.notebooks;
  harness.window.messages.length = 0;
  harness.window.prompts.length = 0;
  return { harness, session, projectId: project.id, files, commands };
}

async function tearDown(fixture: Fixture): Promise<void> {
  for (const document of vscode.workspace.textDocuments.filter((doc) => doc.uri.scheme === SCHEME && doc.isDirty)) {
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await fixture.harness.dispose();
}

const PARAGRAPH = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });

async function newNotebook(fixture: Fixture, title: string): Promise<Notebook> {
  return fixture.session.client.notebooks.create(fixture.projectId, {
    title,
    content: { type: 'doc', content: [{ type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: title }] }, PARAGRAPH('First line')] },
    text_content: `${title}\n\nFirst line`,
  });
}

function uriOf(fixture: Fixture, notebook: Pick<Notebook, 'short_id' | 'title'>): vscode.Uri {
  return fixture.files.uriOf(fixture.session.connection.id, fixture.projectId, notebook);
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

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
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
    const [patch] = (await notebookRequests(notebook)).filter((request) => request.method === 'PATCH');
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
    async function conflict(title: string) {
      const notebook = await newNotebook(fixture, title);
      const document = await open(uriOf(fixture, notebook));
      await editJson(document, (json) => (json.title = `${title}, mine`));
      await localApi.remoteEdit(fixture.projectId, notebook.short_id);
      const remote = await server(fixture, notebook);
      assert.equal(remote.version, notebook.version + 1);
      return { notebook, document, remote };
    }

    it('Overwrite saves the text over the newer version', async () => {
      const { notebook, document, remote } = await conflict('Overwrite');
      fixture.harness.window.choose('Overwrite');
      assert.equal(await document.save(), true);
      assert.equal(document.isDirty, false);
      const saved = await server(fixture, notebook);
      assert.equal(saved.title, 'Overwrite, mine');
      assert.equal(saved.version, remote.version + 1);
      assert.ok(!JSON.stringify(saved.content).includes('Edited remotely'), 'the text replaced the remote content');
      assert.match(fixture.harness.window.messages[0]?.text ?? '', /was changed on PostHog/);
    });

    it('Discard takes the server\'s notebook into the editor and sends nothing', async () => {
      const { notebook, document, remote } = await conflict('Discard');
      fixture.harness.window.choose('Discard My Changes');
      await localApi.clearRequests();
      assert.equal(await document.save(), true);
      assert.deepEqual((await notebookRequests(notebook)).filter((request) => request.method === 'PATCH').map((r) => r.status), [409]);
      await waitFor('the editor to show the server\'s notebook', () => document.getText().includes('Edited remotely'));
      assert.equal(document.isDirty, false);
      assert.equal(displayedVersion(document), remote.version);
      const kept = await server(fixture, notebook);
      assert.equal(kept.title, 'Discard');
      assert.equal(kept.version, remote.version);
    });

    it('Compare opens a diff and keeps the text unsaved; saving again can then overwrite', async () => {
      const { notebook, document, remote } = await conflict('Compare');
      fixture.harness.window.choose('Compare');
      assert.equal(await document.save(), false);
      assert.ok(document.isDirty);
      assert.ok(document.getText().includes('Compare, mine'));
      await waitFor('the diff editor', () =>
        vscode.window.tabGroups.all.some((group) =>
          group.tabs.some((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.original.scheme === `${SCHEME}-remote`),
        ),
      );
      const diff = vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((tab) => tab.input instanceof vscode.TabInputTextDiff);
      const input = diff?.input as vscode.TabInputTextDiff;
      assert.equal(input.modified.toString(), document.uri.toString());
      const left = await vscode.workspace.openTextDocument(input.original);
      assert.ok(left.getText().includes('Edited remotely'));
      assert.equal((await server(fixture, notebook)).version, remote.version, 'nothing was saved');
      fixture.harness.window.choose('Overwrite');
      assert.equal(await document.save(), true);
      assert.equal((await server(fixture, notebook)).title, 'Compare, mine');
    });

    it('dismissing the dialog saves nothing and keeps the text', async () => {
      const { notebook, document, remote } = await conflict('Dismiss');
      fixture.harness.window.choose(undefined);
      assert.equal(await document.save(), false);
      assert.ok(document.isDirty);
      assert.equal((await server(fixture, notebook)).version, remote.version);
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
    await waitFor('the clean editor to reload', () => cleanDocument.getText().includes('Edited remotely'));
    assert.equal(cleanDocument.isDirty, false);
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

  it('creates a notebook with one POST and opens it', async () => {
    const notebooksNode = await fixture.harness.child(ORGANIZATION, PROJECT, 'Notebooks');
    assert.ok(notebooksNode instanceof NotebooksNode);
    fixture.harness.window.type('Created in VS Code');
    await localApi.clearRequests();
    const editor = await fixture.commands.createNotebook(notebooksNode);
    assert.ok(editor);
    const writes = (await localApi.requests()).filter((request) => request.method !== 'GET');
    assert.deepEqual(writes.map((request) => `${request.method} ${request.status}`), ['POST 201']);
    const json = JSON.parse(editor.document.getText());
    assert.equal(json.title, 'Created in VS Code');
    assert.match(editor.document.uri.path, /\/Created in VS Code \([A-Za-z0-9]+\)\.json$/);
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
    const items = await fixture.harness.items(await fixture.harness.child(ORGANIZATION, PROJECT, 'Notebooks'));
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

  it('opens from the tree: a notebook item runs Open Notebook on itself', async () => {
    const notebook = await newNotebook(fixture, 'From the tree');
    await fixture.harness.tree.refresh(await fixture.harness.child(ORGANIZATION, PROJECT, 'Notebooks'));
    const items = await fixture.harness.items(await fixture.harness.child(ORGANIZATION, PROJECT, 'Notebooks'));
    const found = items.find(({ node }) => node instanceof NotebookNode && node.notebook.short_id === notebook.short_id);
    assert.ok(found);
    assert.equal(found.item.command?.command, 'posthogExplorer.openNotebook');
    assert.deepEqual(found.item.command?.arguments, [found.node]);
    await localApi.clearRequests();
    const editor = await fixture.commands.openNotebook(found.node);
    assert.ok(editor?.document.getText().includes('"title": "From the tree"'));
    assert.deepEqual((await notebookRequests(notebook)).map((request) => request.method), ['GET']);
  });

  it('shows the activity of a notebook as "who · what · when" with changes', async () => {
    const notebook = await newNotebook(fixture, 'Active');
    await fixture.session.client.notebooks.update(fixture.projectId, notebook.short_id, { title: 'Active, renamed' });
    fixture.harness.window.pick(undefined);
    await fixture.commands.showNotebookActivity(uriOf(fixture, notebook));
    const prompt = fixture.harness.window.prompts.find((entry) => entry.kind === 'quickPick');
    assert.ok(prompt, JSON.stringify(fixture.harness.window.messages));
    assert.ok(prompt.labels.some((label) => / · (updated|created) · /.test(label)), prompt.labels.join('\n'));
  });
});

describe('Notebook files in the installed extension', function () {
  this.timeout(60_000);
  let harness: ExplorerHarness;
  let session: ConnectionSession;
  let projectId: number;

  before(async () => {
    harness = new ExplorerHarness(runnerSecrets());
    const connection = await harness.signInToLocalApi();
    assert.ok(connection);
    session = (await harness.connections.session(connection.id))!;
    const organization = (await session.model.organizations()).find((entry) => entry.name === ORGANIZATION)!;
    projectId = (await session.model.projects(organization.id)).find((entry) => entry.name === PROJECT)!.id;
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await harness.dispose();
  });

  it('serves posthog:// for the environment connection and the JSON schema checks the document', async () => {
    const notebook = await session.client.notebooks.create(projectId, { title: 'Schema check', content: { type: 'doc', content: [] } });
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
    const notebooksNode = await harness.child(ORGANIZATION, 'Hedgebox', 'Notebooks');
    await harness.items(notebooksNode);
    const request = (await localApi.requests()).find((entry) => entry.path.endsWith('/notebooks/'));
    assert.ok(request, 'the list was fetched');
    return request;
  }

  it('offers you and the creators seen in the list, and sends the chosen one\'s UUID', async () => {
    const me = await session.client.users.me();
    const project = await harness.child(ORGANIZATION, 'Hedgebox');
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
    const item = harness.tree.getTreeItem(await harness.child(ORGANIZATION, 'Hedgebox', 'Notebooks'));
    assert.match(String(item.description), /created by Lee Chen/);
    const shown = await harness.items(await harness.child(ORGANIZATION, 'Hedgebox', 'Notebooks'));
    assert.ok(shown.length > 0);
    assert.ok(shown.every(({ node }) => (node as NotebookNode).notebook.created_by?.uuid === lee.uuid), 'only Lee\'s notebooks');
  });

  it('takes another user\'s UUID, refusing an integer id with a clear message', async () => {
    const me = await session.client.users.me();
    const project = await harness.child(ORGANIZATION, 'Hedgebox');
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
    const item = harness.tree.getTreeItem(await harness.child(ORGANIZATION, 'Hedgebox', 'Notebooks'));
    assert.match(String(item.description), new RegExp(`created by ${me.first_name} ${me.last_name}`), 'a known UUID shows the name');
  });
});
