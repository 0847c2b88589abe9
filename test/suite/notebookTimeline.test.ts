import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { Notebook } from '../../src/api';
import { markdownOf } from '../../src/notebooks/model/notebookDocument';
import type { NotebookFileStore } from '../../src/notebooks/files/notebookFiles';
import { NotebookNode } from '../../src/notebooks/lists/notebookNodes';
import type { NotebookForm } from '../../src/notebooks/model/notebookPaths';
import type { TimelineItem } from '../../src/notebooks/history/timelineApi';
import { COMMANDS } from '../../src/workbench/commandIds';
import { DEMO_ORGANIZATION, DEMO_PROJECT, ExplorerHarness, iconOf, labelOf, type SignedInProject } from './support/explorerHarness';
import { localApi, type RecordedRequest } from './support/localApi';
import { runnerSecrets } from './support/runnerContext';
import { closeAllEditors, waitFor } from './support/editorWaits';
import { paragraph } from '../api-server/content';

/**
 * What PostHog does to notebooks today, in the editor: content it refuses (marked at its node) or rewrites
 * (taken without a conflict), view-only notebooks (read-only, nothing sent), and the history (the
 * Timeline's items, compared and restored through a normal save).
 */
const SCHEME = 'posthog-histtest';

interface Fixture extends SignedInProject {
  files: NotebookFileStore;
}

const heading = (text: string) => ({ type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text }] });
const markdownDoc = (markdown: string) => ({ type: 'doc', content: [{ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown } }] });
const HOGQL = { kind: 'HogQLQuery', query: 'select count() from events' };

describe('Notebooks as PostHog serves them today', function () {
  this.timeout(60_000);
  let fixture: Fixture;

  beforeEach(async () => {
    const harness = new ExplorerHarness(runnerSecrets(), { scheme: SCHEME });
    const signedIn = await harness.signInToProject();
    harness.window.messages.length = 0;
    fixture = { ...signedIn, files: harness.notebooks.files };
  });

  afterEach(async () => {
    await closeAllEditors(SCHEME);
    await fixture.harness.dispose();
  });

  /** A legacy notebook, stored as sent (a REST create would make it a Markdown notebook, whose tags PostHog does not check). */
  const create = async (title: string, content: unknown) => server({ short_id: await localApi.storeNotebook(fixture.projectId, { title, content }) });
  const uriOf = (notebook: Pick<Notebook, 'short_id' | 'title'>, form: NotebookForm) => fixture.files.uriOf(fixture.session.connection.id, fixture.projectId, notebook, form);
  const server = (notebook: Pick<Notebook, 'short_id'>) => fixture.session.client.notebooks.get(fixture.projectId, notebook.short_id);

  async function open(uri: vscode.Uri): Promise<vscode.TextDocument> {
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: false });
    return document;
  }

  async function replaceText(document: vscode.TextDocument, text: string): Promise<void> {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), text);
    assert.ok(await vscode.workspace.applyEdit(edit));
  }

  async function editJson(document: vscode.TextDocument, change: (json: Record<string, any>) => void): Promise<void> {
    const json = JSON.parse(document.getText());
    change(json);
    await replaceText(document, `${JSON.stringify(json, null, 2)}\n`);
  }

  async function requestsOf(notebook: Pick<Notebook, 'short_id'>): Promise<RecordedRequest[]> {
    return (await localApi.requests()).filter((request) => request.path.includes(`/notebooks/${notebook.short_id}/`));
  }


  it('a query node PostHog refuses fails the save with PostHog\'s reason marked at its tag; the text stays', async () => {
    const notebook = await create('Refused query', { type: 'doc', content: [heading('Refused query'), paragraph('Intro')] });
    const uri = uriOf(notebook, 'markdown');
    const document = await open(uri);
    const text = `${document.getText()}\n<Query query={{"kind":"InsightVizNode"}} />\n`;
    await replaceText(document, text);
    await localApi.clearRequests();
    assert.equal(await document.save(), false);
    assert.deepEqual((await requestsOf(notebook)).map((request) => `${request.method} ${request.status}`), ['PATCH 400']);
    assert.equal(document.isDirty, true);
    assert.equal(document.getText(), text, 'nothing is lost');
    const tagLine = text.split('\n').findIndex((line) => line.startsWith('<Query'));
    const [diagnostic] = fixture.files.refusals.of(uri);
    assert.ok(diagnostic, 'a diagnostic at the node');
    assert.equal(diagnostic.range.start.line, tagLine);
    assert.equal(diagnostic.source, 'PostHog');
    assert.match(diagnostic.message, /ph-query node has an InsightVizNode without a `source`/);
    assert.ok(vscode.languages.getDiagnostics(uri).some((entry) => entry.source === 'PostHog'), 'in the Problems panel');
    assert.equal((await server(notebook)).version, notebook.version);

    await replaceText(document, text.replace('{"kind":"InsightVizNode"}', `{"kind":"DataVisualizationNode","source":${JSON.stringify(HOGQL)}}`));
    assert.equal(await document.save(), true);
    assert.deepEqual(fixture.files.refusals.of(uri), [], 'gone once the notebook saves');
  });

  it('a refused query in the JSON document is marked at its "query"', async () => {
    const notebook = await create('Refused JSON', { type: 'doc', content: [heading('Refused JSON')] });
    const uri = uriOf(notebook, 'json');
    const document = await open(uri);
    await editJson(document, (json) => json.content.content.push({ type: 'ph-query', attrs: { nodeId: 'n1', query: { kind: 'DataVisualizationNode', source: { kind: 'TrendsQuery' } } } }));
    assert.equal(await document.save(), false);
    const [diagnostic] = fixture.files.refusals.of(uri);
    assert.ok(diagnostic);
    assert.match(document.lineAt(diagnostic.range.start.line).text, /"query": \{/);
    assert.match(diagnostic.message, /DataVisualizationNode wrapping `TrendsQuery`/);
  });

  it('a save PostHog rewrites is taken as PostHog\'s version: no conflict, no warning, the editor shows the rewrite', async () => {
    const notebook = await create('Rewritten', { type: 'doc', content: [heading('Rewritten')] });
    const document = await open(uriOf(notebook, 'json'));
    await editJson(document, (json) => json.content.content.push({ type: 'ph-query', attrs: { nodeId: 'chart', query: { kind: 'InsightVizNode', source: HOGQL } } }));
    await localApi.clearRequests();
    assert.equal(await document.save(), true);
    assert.deepEqual((await requestsOf(notebook)).filter((request) => request.method === 'PATCH').map((request) => request.status), [200]);
    await waitFor('the editor to show PostHog\'s version', () => document.getText().includes('"kind": "DataVisualizationNode"') && !document.isDirty);
    assert.doesNotMatch(document.getText(), /InsightVizNode|<<<<<<<|>>>>>>>/);
    assert.deepEqual(fixture.harness.window.messages, [], 'nothing called a conflict or someone else\'s change');
    assert.equal(JSON.parse(document.getText())._readonly.version, notebook.version + 1);
  });

  it('a view-only notebook opens read-only with a line saying why, is marked in the tree, and a save sends nothing', async () => {
    const notebook = await create('Shared with me', { type: 'doc', content: [heading('Shared with me'), paragraph('Read me')] });
    await localApi.setNotebookAccess(fixture.projectId, notebook.short_id, 'viewer');
    const uri = uriOf(notebook, 'markdown');
    const document = await open(uri);
    assert.equal((await vscode.workspace.fs.stat(uri)).permissions, vscode.FilePermission.Readonly);
    const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
    const line = lenses.find((lens) => lens.command?.title.includes('View only'));
    assert.ok(line, JSON.stringify(lenses.map((lens) => lens.command?.title)));
    assert.match(line.command!.title, /viewer access to "Shared with me"/);
    assert.equal(line.range.start.line, 0);
    const before = document.getText();
    await vscode.commands.executeCommand('type', { text: 'typed ' });
    assert.equal(document.getText(), before, 'VS Code refuses typing in the read-only editor');
    assert.equal(document.isDirty, false);

    await localApi.clearRequests();
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(uri, new TextEncoder().encode('# Mine\n'))), /viewer access/);
    assert.deepEqual((await requestsOf(notebook)).map((request) => request.method), [], 'no request on save');

    const notebooks = await fixture.harness.child(DEMO_ORGANIZATION, DEMO_PROJECT, 'Notebooks');
    const item = (await fixture.harness.items(notebooks)).find(({ node }) => node instanceof NotebookNode && node.notebook.short_id === notebook.short_id)?.item;
    assert.ok(item);
    assert.equal(iconOf(item), 'lock');
    assert.match(String(item.description), /^view only · /);
    assert.equal(item.contextValue, 'notebook viewOnly');
    assert.equal(labelOf(item), 'Shared with me');
  });

  it('the Timeline lists versions and rejected saves; a version compares in the file\'s form and restores through a merge with a later change', async () => {
    const notebook = await create('History', markdownDoc('# History\n\nFirst paragraph.\n\nSecond paragraph.\n'));
    const uri = uriOf(notebook, 'markdown');
    const document = await open(uri);
    const versionOne = '# History\n\nFirst paragraph, version one.\n\nSecond paragraph.\n';
    const versionTwo = '# History\n\nFirst paragraph, version two.\n\nSecond paragraph.\n';
    for (const text of [versionOne, versionTwo]) {
      await replaceText(document, text);
      assert.equal(await document.save(), true);
    }
    await localApi.rejectedSave(fixture.projectId, notebook.short_id, { kind: 'conflict', content: markdownDoc('# History\n\nNever stored.\n'), by: { first_name: 'Bo' } });

    const timeline = fixture.harness.notebooks.timeline;
    const { items } = await timeline.provideTimeline(uri, {});
    const labels = items.map((item) => `${item.label} · ${item.description}`);
    assert.equal(items.length, 4, labels.join('\n'));
    assert.equal(labels[0], 'Save rejected (conflict, not stored) · Bo');
    assert.match(labels[1]!, /^Saved · /);
    assert.match(labels[2]!, /^Saved · /);
    assert.match(labels[3]!, /^Created · /);
    const [rejected, two, one] = items as TimelineItem[];
    assert.equal(rejected!.contextValue, 'posthogNotebookRejectedSave');
    assert.equal(two!.contextValue, 'posthogNotebookVersion');
    assert.equal(two!.command?.command, COMMANDS.compareNotebookVersion, 'a click compares');

    await fixture.harness.run(COMMANDS.compareNotebookVersion, one, uri, timeline.id);
    const diff = fixture.harness.window.diffs.at(-1);
    assert.ok(diff);
    assert.equal(diff.right.toString(), uri.toString());
    assert.equal((await vscode.workspace.openTextDocument(diff.left)).getText(), versionOne, 'the version, in Markdown');

    // While the dialog is open, another user changes the second paragraph, and a live update brings it into
    // the editor: the user never saw it, so the restore must not take it away.
    fixture.harness.window.choose('Restore', async () => {
      await localApi.remoteEdit(fixture.projectId, notebook.short_id, {
        content: markdownDoc('# History\n\nFirst paragraph, version two.\n\nSecond paragraph, edited by them.\n'),
        by: { first_name: 'Lee' },
      });
      await fixture.files.pollOpenNotebooks(); // as the stream would: this suite's sessions only poll
      // The clean editor takes it in place and is saved as it is: the restore comes after that.
      await waitFor('the live change in the editor, clean', () => document.getText().includes('edited by them') && !document.isDirty);
      await localApi.clearRequests();
    });
    assert.equal(await fixture.harness.run(COMMANDS.restoreNotebookVersion, one, uri, timeline.id), true);
    assert.deepEqual(
      (await requestsOf(notebook)).filter((request) => request.path.endsWith(`/notebooks/${notebook.short_id}/`) || request.path.endsWith('/markdown_save/')).map((request) => `${request.method} ${request.status}`),
      ['POST 200'],
      'planned against the version the user saw, which the session knows PostHog has moved past: merged before sending, one save',
    );
    assert.equal(markdownOf((await server(notebook)).content), '# History\n\nFirst paragraph, version one.\n\nSecond paragraph, edited by them.\n');
    assert.ok(fixture.harness.window.messages.some((message) => /^Restored "History"/.test(message.text)), JSON.stringify(fixture.harness.window.messages));
    await waitFor('the editor to show the merge', () => document.getText().includes('edited by them') && !document.isDirty);

    await fixture.harness.run(COMMANDS.copyNotebookVersion, rejected, uri, timeline.id);
    const copy = vscode.window.activeTextEditor?.document;
    assert.ok(copy?.uri.path.includes('History (recovered from'), copy?.uri.path);
    assert.equal(copy?.getText(), '# History\n\nNever stored.\n');
  });

  it('PostHog\'s migration to Markdown shows as PostHog\'s in the Timeline, not as the last editor\'s', async () => {
    const notebook = await create('Legacy', { type: 'doc', content: [heading('Legacy'), paragraph('Body')] });
    await localApi.migrateToMarkdown(fixture.projectId, notebook.short_id);
    const { items } = await fixture.harness.notebooks.timeline.provideTimeline(uriOf(notebook, 'markdown'), {});
    assert.equal(items[0]?.label, 'Converted to Markdown by PostHog');
    assert.equal(items[0]?.description, 'PostHog');
  });
});
