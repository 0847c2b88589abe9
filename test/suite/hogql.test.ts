import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { ConnectionSession } from '../../src/connections';
import { DIAGNOSTIC_SOURCE, type HogQLFeature } from '../../src/hogql';
import { schemaKey } from '../../src/hogql/hogqlCompletion';
import type { RunState } from '../../src/queries/runController';
import type { ResultSection, ResultSectionState, ResultsTarget } from '../../src/results';
import { ProjectNode } from '../../src/tree';
import { COMMANDS } from '../../src/workbench/commandIds';
import { ExplorerHarness } from './support/explorerHarness';
import { localApi, type RecordedRequest } from './support/localApi';
import { runnerSecrets } from './support/runnerContext';

/** Resolves once the document's PostHog diagnostics (of this harness) satisfy `test`. */
function diagnosticsOf(hogql: HogQLFeature, uri: vscode.Uri, test: (diagnostics: readonly vscode.Diagnostic[]) => boolean): Promise<readonly vscode.Diagnostic[]> {
  return new Promise((resolve) => {
    const check = () => {
      const diagnostics = hogql.diagnostics.collection.get(uri) ?? [];
      if (test(diagnostics)) {
        subscription.dispose();
        resolve(diagnostics);
      }
    };
    const subscription = vscode.languages.onDidChangeDiagnostics(check);
    check();
  });
}

async function metadataRequests(): Promise<RecordedRequest[]> {
  return (await localApi.requests()).filter((request) => request.method === 'POST' && /\/query\/$/.test(request.path) && (request.body as any)?.query?.kind === 'HogQLMetadata');
}

/** The `query` of each HogQLQuery sent to /query/, in order. */
async function hogqlQueriesSent(): Promise<string[]> {
  return (await localApi.requests())
    .filter((request) => request.method === 'POST' && /\/query\/$/.test(request.path) && (request.body as any)?.query?.kind === 'HogQLQuery')
    .map((request) => (request.body as any).query.query);
}

async function setText(document: vscode.TextDocument, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), text);
  assert.ok(await vscode.workspace.applyEdit(edit));
}

async function completionItems(uri: vscode.Uri, position: vscode.Position): Promise<vscode.CompletionItem[]> {
  const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, position);
  return list.items;
}

function labelOf(item: vscode.CompletionItem): string {
  return typeof item.label === 'string' ? item.label : item.label.label;
}

async function completionLabels(uri: vscode.Uri, position: vscode.Position): Promise<string[]> {
  return (await completionItems(uri, position)).map(labelOf);
}

describe('HogQL documents (in the editor)', () => {
  let harness: ExplorerHarness;
  let hogql: HogQLFeature;
  let project: ProjectNode;
  let session: ConnectionSession;

  before(async () => {
    harness = new ExplorerHarness(runnerSecrets());
    await harness.signInToLocalApi();
    hogql = harness.features.hogql;
    const node = await harness.child('Hedgebox Inc.', 'Hedgebox');
    assert.ok(node instanceof ProjectNode);
    project = node;
    session = node.session;
  });
  after(async () => {
    // Untitled documents hold edits: reverted first, so that closing them asks nothing.
    for (let left = 20; left > 0 && vscode.window.activeTextEditor; left--) {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await harness.dispose();
  });

  it('New HogQL Query opens an untitled hogql document bound to the project, named in the status bar', async () => {
    const editor = (await harness.run(COMMANDS.newHogQLQuery, project)) as vscode.TextEditor;
    assert.equal(editor.document.languageId, 'hogql');
    assert.equal(editor.document.uri.scheme, 'untitled');
    assert.deepEqual(hogql.targets.targetOf(editor.document), { connectionId: session.connection.id, projectId: project.project.id });
    await hogql.statusBar.update();
    assert.match(hogql.statusBar.shown?.text ?? '', /Hedgebox/);
    // Closed, so that the check of its starting text never lands among the next test's requests.
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it("shows PostHog's errors at PostHog's positions after typing pauses, one check at a time, and clears them on close", async () => {
    const editor = (await harness.run(COMMANDS.newHogQLQuery, project)) as vscode.TextEditor;
    const document = editor.document;
    await localApi.clearRequests();
    await setText(document, 'select');
    await setText(document, 'select nope');
    await setText(document, 'select nope from events');
    const [diagnostic, ...others] = await diagnosticsOf(hogql, document.uri, (diagnostics) => diagnostics.length > 0);
    assert.deepEqual(others, []);
    assert.equal(diagnostic!.source, DIAGNOSTIC_SOURCE);
    assert.equal(diagnostic!.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(document.getText(diagnostic!.range), 'nope');
    assert.deepEqual((await metadataRequests()).map((request) => (request.body as any).query.query), ['select nope from events'], 'only the text after the pause is sent');

    await setText(document, 'select event from events');
    await diagnosticsOf(hogql, document.uri, (diagnostics) => diagnostics.length === 0);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    assert.equal(hogql.diagnostics.collection.get(document.uri)?.length ?? 0, 0);
  });

  it('sends nothing for a HogQL document without a project, and says so in the status bar', async () => {
    const unbound = await vscode.workspace.openTextDocument({ language: 'hogql', content: 'select unbound_marker from events' });
    await vscode.window.showTextDocument(unbound);
    await hogql.statusBar.update();
    assert.match(hogql.statusBar.shown?.text ?? '', /no project/);
    const bound = (await harness.run(COMMANDS.newHogQLQuery, project)) as vscode.TextEditor;
    await localApi.clearRequests();
    await setText(bound.document, 'select bound_marker from events');
    await diagnosticsOf(hogql, bound.document.uri, (diagnostics) => diagnostics.length > 0);
    const sent = (await metadataRequests()).map((request) => (request.body as any).query.query);
    assert.deepEqual(sent, ['select bound_marker from events']);
    assert.equal(hogql.diagnostics.collection.get(unbound.uri)?.length ?? 0, 0);
  });

  it("completes tables after FROM, fields of the table read, and property names after properties. from PostHog's definitions", async () => {
    const editor = (await harness.run(COMMANDS.newHogQLQuery, project)) as vscode.TextEditor;
    // Only PostHog's property definitions know it: no stored event carries it.
    await localApi.addPropertyDefinition(project.project.id, 'event', 'legacy_coupon_code', 'SPRING24');
    await localApi.addPropertyDefinition(project.project.id, 'person', 'lifetime_value', 120);
    await hogql.schemas.refresh(schemaKey({ connectionId: session.connection.id, projectId: project.project.id }));
    const document = editor.document;
    await setText(document, 'select  from ');
    const tables = await completionLabels(document.uri, new vscode.Position(0, 'select  from '.length));
    assert.ok(tables.includes('events') && tables.includes('persons'), `tables: ${tables.join(', ')}`);
    assert.ok(!tables.includes('timestamp'));
    await setText(document, 'select  from events');
    const fields = await completionLabels(document.uri, new vscode.Position(0, 'select '.length));
    assert.ok(fields.includes('timestamp') && fields.includes('distinct_id'), `fields: ${fields.join(', ')}`);
    await setText(document, 'select properties. from events');
    const properties = await completionLabels(document.uri, new vscode.Position(0, 'select properties.'.length));
    assert.ok(properties.includes('$browser'), `properties: ${properties.slice(0, 20).join(', ')}`);
    assert.ok(properties.includes('legacy_coupon_code'), 'a property only a definition names');
    assert.ok(!properties.includes('timestamp'));
    await setText(document, 'select person.properties. from events');
    const personItems = await completionItems(document.uri, new vscode.Position(0, 'select person.properties.'.length));
    const lifetimeValue = personItems.find((item) => labelOf(item) === 'lifetime_value');
    assert.equal(lifetimeValue?.detail, 'person property · Numeric', "PostHog's type of it");
  });

  it('Run Query runs a HogQL document in its project and shows the rows in a done section; a selection runs alone', async () => {
    const editor = (await harness.run(COMMANDS.newHogQLQuery, project)) as vscode.TextEditor;
    const document = editor.document;
    await setText(document, 'select event, count() from events group by event');
    const panels = harness.features.results.panels;
    const shown: { target: ResultsTarget; section: ResultSection; state: ResultSectionState }[] = [];
    const show = panels.show.bind(panels);
    panels.show = (target, section, state) => {
      shown.push({ target, section, state });
      show(target, section, state);
    };
    try {
      editor.selection = new vscode.Selection(0, 7, 0, 7);
      await localApi.clearRequests();
      const whole = (await harness.run(COMMANDS.runQuery)) as RunState | undefined;
      assert.equal(whole?.state, 'done');
      assert.deepEqual(shown.map((entry) => entry.state.state), ['running', 'done']);
      const done = shown.at(-1)!;
      assert.equal(done.target.uri.toString(), document.uri.toString());
      assert.equal(done.section.queryKind, 'HogQLQuery');
      const response = (done.state as { response: { columns: string[]; results: unknown[][] } }).response;
      assert.deepEqual(response.columns, ['event', 'count()']);
      assert.ok(response.results.some(([event, count]) => event === '$pageview' && typeof count === 'number' && count > 0), JSON.stringify(response.results.slice(0, 3)));
      assert.deepEqual(panels.panel(document.uri)?.sectionIds, ['hogql'], 'the real Results panel holds the section');
      assert.deepEqual(await hogqlQueriesSent(), ['select event, count() from events group by event']);

      shown.length = 0;
      await setText(document, 'select event, count() from events group by event\nselect count() as total from events');
      await localApi.clearRequests();
      const shownEditor = await vscode.window.showTextDocument(document, editor.viewColumn);
      shownEditor.selection = new vscode.Selection(1, 0, 1, 'select count() as total from events'.length);
      const selected = (await harness.run(COMMANDS.runQuery)) as RunState | undefined;
      assert.equal(selected?.state, 'done');
      assert.deepEqual(await hogqlQueriesSent(), ['select count() as total from events'], 'only the selected text is sent');
      const total = (shown.at(-1)!.state as { response: { columns: string[]; results: unknown[][] } }).response;
      assert.deepEqual(total.columns, ['total']);
      assert.equal(total.results.length, 1);
    } finally {
      panels.show = show;
      panels.panel(document.uri)?.dispose();
    }
  });

  it("checks and completes a notebook's SQL cell, with PostHog's positions on the written code", async () => {
    const notebook = await session.client.notebooks.create(project.project.id, { title: 'HogQL cell' });
    const uri = harness.notebooks.files.uriOf(session.connection.id, project.project.id, notebook, 'markdown');
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: false });
    const cell = '<SQLV2 nodeId="cell-1" code="select\\n  nope from events" />';
    await setText(document, `# HogQL cell\n\n${cell}\n`);
    const [diagnostic] = await diagnosticsOf(hogql, uri, (diagnostics) => diagnostics.length > 0);
    assert.equal(document.getText(diagnostic!.range), 'nope');
    assert.equal(diagnostic!.range.start.line, 2);
    await hogql.schemas.refresh(schemaKey({ connectionId: session.connection.id, projectId: project.project.id }));
    const at = document.positionAt(document.getText().indexOf('events"'));
    await setText(document, document.getText().replace('from events"', 'from "'));
    const tables = await completionLabels(uri, at);
    assert.ok(tables.includes('events'), `tables: ${tables.join(', ')}`);
    const outside = await completionLabels(uri, new vscode.Position(0, 2));
    assert.ok(!outside.includes('events'), 'nothing outside SQL cells');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
