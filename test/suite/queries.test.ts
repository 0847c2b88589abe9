import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { Notebook } from '../../src/api';
import type { ConnectionSession } from '../../src/connections';
import { findQueryCards, QueriesFeature } from '../../src/queries';
import type { ResultSection, ResultSectionState, ResultsTarget, ResultsView } from '../../src/results';
import type { RecordedRequest } from '../api-server/server';
import { closeAllEditors, waitFor } from './support/editorWaits';
import { ExplorerHarness } from './support/explorerHarness';
import { localApi } from './support/localApi';
import { runnerSecrets } from './support/runnerContext';

/** The Results view as the queries feature sees it: every state it was shown, in order. */
class RecordingResults implements ResultsView {
  readonly shown: { target: ResultsTarget; section: ResultSection; state: ResultSectionState }[] = [];
  private readonly cancels = new vscode.EventEmitter<{ readonly uri: string; readonly sectionId: string }>();
  readonly onDidRequestCancel = this.cancels.event;

  show(target: ResultsTarget, section: ResultSection, state: ResultSectionState): void {
    this.shown.push({ target, section, state });
  }

  requestCancel(uri: string, sectionId: string): void {
    this.cancels.fire({ uri, sectionId });
  }

  statesOf(sectionId: string): string[] {
    return this.shown.filter((entry) => entry.section.id === sectionId).map((entry) => entry.state.state);
  }
}

const SCHEME = 'posthog-querytest';

const sql = (text: string) => ({ kind: 'HogQLQuery', query: text });
const trends = { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: '$pageview', name: '$pageview', math: 'total' }], interval: 'day', dateRange: { date_from: '-7d' } };
const queryTag = (query: unknown) => `<Query hideFilters query={${JSON.stringify(query)}} />`;

describe('Running a notebook\'s queries', function () {
  this.timeout(120_000);
  let harness: ExplorerHarness;
  let session: ConnectionSession;
  let projectId: number;
  let results: RecordingResults;
  let queries: QueriesFeature;

  before(async () => {
    harness = new ExplorerHarness(runnerSecrets(), { scheme: SCHEME });
    ({ session, projectId } = await harness.signInToProject());
  });

  beforeEach(async () => {
    results = new RecordingResults();
    queries = new QueriesFeature(harness.services, results, harness.features.hogql.targets);
    await localApi.clearRequests();
  });

  afterEach(async () => {
    queries.dispose();
    await localApi.setQueryRunMs(0);
    await closeAllEditors();
    harness.window.messages.length = 0;
  });

  after(() => harness.dispose());

  const openNotebook = async (title: string, markdown: string): Promise<{ document: vscode.TextDocument; editor: vscode.TextEditor; notebook: Notebook }> => {
    const content = { type: 'doc', content: [{ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown } }] };
    const notebook = await session.client.notebooks.get(projectId, await localApi.storeNotebook(projectId, { title, content, text_content: markdown }));
    const document = await vscode.workspace.openTextDocument(harness.notebooks.files.uriOf(session.connection.id, projectId, notebook, 'markdown'));
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    return { document, editor, notebook };
  };
  const queryRequests = async (): Promise<RecordedRequest[]> => (await localApi.requests()).filter((request) => request.path.includes(`/api/projects/${projectId}/query/`));
  const lensTitles = (document: vscode.TextDocument, line: number) =>
    queries.lenses.provideCodeLenses(document).filter((lens) => lens.range.start.line === line).map((lens) => lens.command?.title ?? '');

  it('runs the card under the cursor: sends its source with a client_query_id, shows N rows in T s, and leaves the notebook as it was', async () => {
    const hogql = sql('select 7 as seven, count() as n from events');
    const markdown = ['# Top events', '', queryTag({ kind: 'DataVisualizationNode', source: hogql, display: 'ActionsTable' }), '', 'Some text.', ''].join('\n');
    const { document, editor } = await openNotebook('Queries: run one', markdown);
    const before = document.getText();
    editor.selection = new vscode.Selection(2, 5, 2, 5);
    assert.deepEqual(lensTitles(document, 2), ['$(play) Run', '$(link-external) Open in PostHog']);

    const state = await queries.commands.runQuery();

    assert.equal(state?.state, 'done');
    const [post, ...others] = await queryRequests();
    assert.deepEqual(others, []);
    const body = post!.body as { query: unknown; client_query_id?: string; refresh?: string };
    assert.deepEqual(body.query, hogql, 'the wrapper\'s source, as the web app sends it');
    assert.match(body.client_query_id ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(body.refresh, 'async_except_on_cache_miss');
    const cardId = queries.documents.cardAt(document, 2)!.id;
    assert.deepEqual(results.statesOf(cardId), ['running', 'done']);
    const shown = results.shown.at(-1)!;
    assert.equal(shown.section.label, 'Top events');
    assert.equal(shown.section.queryKind, 'HogQLQuery');
    assert.equal(shown.target.uri.toString(), document.uri.toString());
    assert.ok(shown.section.webUrl?.includes(`/project/${projectId}/notebooks/`));
    assert.equal(state.state === 'done' ? state.rows : undefined, 1);
    assert.match(lensTitles(document, 2)[1]!, /^\$\(check\) 1 row in \d+\.\d+ s$/);
    assert.equal(document.getText(), before, 'running never changes the notebook');
    assert.equal(document.isDirty, false, 'nor leaves it unsaved');
    assert.equal((await localApi.requests()).filter((request) => request.path.includes('/notebooks/') && request.method !== 'GET').length, 0, 'nor saves it');
  });

  it('the cards follow edits without reading the whole notebook again: typing, several carets, a fence, undo', async () => {
    const paragraphs = Array.from({ length: 40 }, (_, index) => `Paragraph ${index} of notes.`);
    const markdown = ['# Weekly', '', queryTag(sql('select 1')), '', ...paragraphs.slice(0, 20).flatMap((text) => [text, '']), '## Events', '', queryTag(sql('select 2')), '', ...paragraphs.slice(20).flatMap((text) => [text, '']), '<Insight id="Ab12Cd34" />', ''].join('\n');
    const { document, editor } = await openNotebook('Queries: cards follow edits', markdown);
    const documents = queries.documents;
    const sameAsWholeReading = (step: string) => assert.deepEqual(documents.cardsOf(document), findQueryCards(document.getText()), step);
    sameAsWholeReading('opened');
    assert.equal(documents.cardsOf(document).length, 3);
    const wholeReads = documents.readsOfWholeText;

    assert.ok(await editor.edit((builder) => builder.insert(new vscode.Position(4, 0), 'Typed words ')));
    sameAsWholeReading('a word typed');
    assert.ok(await editor.edit((builder) => {
      builder.insert(new vscode.Position(0, 2), 'The ');
      builder.insert(new vscode.Position(30, 0), 'A new paragraph.\n\n');
      builder.delete(new vscode.Range(50, 0, 52, 0));
    }));
    sameAsWholeReading('three carets at once');
    const fenceLine = documents.cardsOf(document)[1]!.range.startLine;
    assert.ok(await editor.edit((builder) => builder.insert(new vscode.Position(fenceLine, 0), '```\n')));
    sameAsWholeReading('a fence opened above the second card');
    assert.equal(documents.cardsOf(document).length, 1, 'the open fence takes the cards after it into its code');
    await vscode.commands.executeCommand('undo');
    sameAsWholeReading('undone');
    assert.equal(documents.cardsOf(document).length, 3);
    assert.deepEqual(lensTitles(document, fenceLine), ['$(play) Run', '$(link-external) Open in PostHog']);
    assert.equal(documents.readsOfWholeText, wholeReads, 'each edit re-read its neighbourhood only');
  });

  it('typing in a notebook without cards reads only the edits, until a card tag is typed: then its card is found', async () => {
    const markdown = ['# Notes', '', ...Array.from({ length: 40 }, (_, index) => `Paragraph ${index} of notes.\n`), ''].join('\n');
    const { document, editor } = await openNotebook('Queries: typing without cards', markdown);
    const documents = queries.documents;
    assert.deepEqual(documents.cardsOf(document), []);
    const wholeReads = documents.readsOfWholeText;
    for (const word of ['Some ', 'words ', '<b>', ' typed']) {
      assert.ok(await editor.edit((builder) => builder.insert(new vscode.Position(2, 0), word)));
      assert.deepEqual(documents.cardsOf(document), []);
    }
    assert.equal(documents.readsOfWholeText, wholeReads, 'no keystroke read the whole text');

    const line = document.lineCount - 1;
    const tag = '<SQLV2 code="select 1" />';
    for (const character of tag.slice(0, 7)) {
      assert.ok(await editor.edit((builder) => builder.insert(document.lineAt(line).range.end, character)));
      assert.deepEqual(documents.cardsOf(document), findQueryCards(document.getText()));
    }
    assert.equal(documents.readsOfWholeText, wholeReads + 1, 'read once, when "<SQLV2" made a tag');
    assert.ok(await editor.edit((builder) => builder.insert(document.lineAt(line).range.end, tag.slice(7))));
    assert.equal(documents.cardsOf(document).length, 1);
    assert.equal(documents.cardsOf(document)[0]!.tag, 'SQLV2');
  });

  it('shows PostHog\'s error on the lens and in the results', async () => {
    const { document, editor } = await openNotebook('Queries: an error', queryTag({ kind: 'DataTableNode', source: sql('select nonsense_column from events') }));
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    const state = await queries.commands.runQuery();
    assert.equal(state?.state, 'failed');
    const message = state.state === 'failed' ? state.message : '';
    assert.match(message, /nonsense_column/);
    assert.equal(results.shown.at(-1)!.state.state, 'failed');
    assert.ok(lensTitles(document, 0).some((title) => title.startsWith('$(error) ') && title.includes('nonsense_column')));
  });

  it('runs all 20 cards of a notebook in order, within the HogQL budget: no 429, and the queries left go down', async () => {
    const cards = Array.from({ length: 20 }, (_, index) =>
      index % 4 === 3 ? queryTag({ kind: 'InsightVizNode', source: { ...trends, dateRange: { date_from: `-${index + 1}d` } } }) : queryTag({ kind: 'DataTableNode', source: sql(`select ${index} as card, count() from events`) }),
    );
    const { document } = await openNotebook('Queries: run all', cards.join('\n\n'));
    const leftBefore = (await queries.runner.budgetOf(session.connection.id))!.left('hogql');

    const states = await queries.commands.runAllQueries(document.uri);

    assert.deepEqual(states.map((state) => state.state), Array(20).fill('done'));
    const posts = (await queryRequests()).filter((request) => request.method === 'POST');
    assert.deepEqual(posts.map((request) => request.status), Array(20).fill(200), 'no 429');
    const sent = posts.map((request) => (request.body as { query: { kind: string; query?: string; dateRange?: unknown } }).query);
    assert.deepEqual(sent.map((query) => query.kind), cards.map((_, index) => (index % 4 === 3 ? 'TrendsQuery' : 'HogQLQuery')), 'in order, each its source');
    assert.equal(sent[0]!.query, 'select 0 as card, count() from events');
    const leftAfter = (await queries.runner.budgetOf(session.connection.id))!.left('hogql');
    assert.equal(leftAfter, leftBefore - 15, 'the 15 HogQL cards count against the hourly 120');
    await vscode.window.showTextDocument(document);
    assert.equal(await queries.budget.update(), leftAfter);
  });

  it('cancel frees the card at once, sends PostHog\'s DELETE by the run\'s id, and polls no more', async () => {
    const { document, editor } = await openNotebook('Queries: cancel', queryTag({ kind: 'DataTableNode', source: sql('select count() from events where event = \'$pageview\'') }));
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    assert.equal((await queries.commands.runQuery())?.state, 'done', 'a first run, so that Run again asks for a fresh one');
    await localApi.setQueryRunMs(10 * 60_000);
    await localApi.clearRequests();
    const cardId = queries.documents.cardAt(document, 0)!.id;

    const running = queries.commands.runQuery(document.uri, cardId);
    await waitFor('a poll of the async run', async () => (await queryRequests()).some((request) => request.method === 'GET'));
    assert.deepEqual(lensTitles(document, 0).slice(0, 2), ['$(debug-stop) Cancel', '$(sync~spin) Running…']);
    assert.equal(await queries.commands.cancelQuery(), 1);

    assert.deepEqual(lensTitles(document, 0).slice(0, 2), ['$(play) Run', '$(circle-slash) Cancelled'], 'free at once');
    assert.equal(results.shown.at(-1)!.state.state, 'cancelled');
    assert.equal((await running)?.state, 'cancelled');
    const [post] = await queryRequests();
    const id = (post!.body as { client_query_id: string; refresh: string }).client_query_id;
    assert.equal((post!.body as { refresh: string }).refresh, 'force_async');
    await waitFor('the DELETE', async () => (await queryRequests()).some((request) => request.method === 'DELETE'));
    const methods = (await queryRequests()).map((request) => `${request.method} ${request.path.split('/query/')[1]}`);
    assert.deepEqual(methods.slice(methods.indexOf(`DELETE ${id}/`)), [`DELETE ${id}/`], 'nothing after the DELETE');
    const polls = methods.filter((method) => method.startsWith('GET'));
    const next = await localApi.requests();
    assert.equal(next.filter((request) => request.method === 'GET' && request.path.includes('/query/')).length, polls.length, 'no poll after the cancel');
  });

  it('the Results view\'s cancel cancels the card\'s run', async () => {
    const { document } = await openNotebook('Queries: cancel from results', queryTag({ kind: 'DataTableNode', source: sql('select 1') }));
    const cardId = queries.documents.cardsOf(document)[0]!.id;
    await queries.commands.runQuery(document.uri, cardId);
    await localApi.setQueryRunMs(10 * 60_000);
    const running = queries.commands.runQuery(document.uri, cardId);
    await waitFor('the run to start', () => queries.runner.runs.isRunning({ documentUri: document.uri.toString(), cardId }));
    results.requestCancel(document.uri.toString(), cardId);
    assert.equal(queries.runner.runs.stateOf({ documentUri: document.uri.toString(), cardId })?.state, 'cancelled');
    assert.equal((await running)?.state, 'cancelled');
  });

  it('saved insights are not run: the lens and the command offer Open in PostHog, which opens the insight', async () => {
    const { document, editor } = await openNotebook('Queries: saved insight', queryTag({ kind: 'SavedInsightNode', shortId: 'Xk3pQ9aZ' }));
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    assert.deepEqual(lensTitles(document, 0), ['$(info) A saved insight: shown in PostHog', '$(link-external) Open in PostHog']);
    harness.window.choose('Open in PostHog');
    assert.equal(await queries.commands.runQuery(), undefined);
    await waitFor('the insight opened', () => harness.env.opened.some((url) => url.endsWith(`/project/${projectId}/insights/Xk3pQ9aZ`)));
    assert.deepEqual(await queryRequests(), [], 'nothing sent');
  });
});
