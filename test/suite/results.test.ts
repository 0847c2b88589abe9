import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { ResultsPanel, ResultsPanels } from '../../src/results';
import type { ResultsExtensionMessage, ResultsPanelState } from '../../src/results/protocol';
import { COMMANDS } from '../../src/workbench/commandIds';
import { waitForEvent } from './support/editorWaits';
import { ExplorerHarness, installedExtensionUri } from './support/explorerHarness';
import { runnerSecrets } from './support/runnerContext';
import {
  done,
  FUNNEL_SECTION,
  hogqlResponse,
  HOSTILE_CELL,
  registerCannedResultsCommand,
  RUNNING_SECTION,
  TABLE_ROWS,
  TABLE_SECTION,
  TRENDS_SECTION,
  trendsResponse,
} from './support/cannedResults';
import { csvRecords } from '../support/csv';

registerCannedResultsCommand();

describe('Results panel (in the editor)', () => {
  let harness: ExplorerHarness;
  let panels: ResultsPanels;
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'posthog-results-'));
  const notebook = { uri: vscode.Uri.parse('posthog-test:/notebooks/results-demo.md'), title: 'Results demo' };

  before(() => {
    harness = new ExplorerHarness(runnerSecrets(), { extensionUri: installedExtensionUri() });
    panels = harness.features.results.panels;
  });
  after(async () => {
    await harness.dispose();
    rmSync(tmp, { recursive: true, force: true });
  });

  /** Shows the canned sections in the panel of `notebook` and waits until its webview asked for them. */
  async function showCanned(): Promise<{ panel: ResultsPanel; posted: ResultsExtensionMessage[] }> {
    panels.show(notebook, RUNNING_SECTION, { state: 'running', startedAt: Date.now() });
    const panel = panels.panel(notebook.uri)!;
    const posted: ResultsExtensionMessage[] = [];
    panel.onDidPost((message) => posted.push(message));
    const ready = waitForEvent(panel.onDidPost, (message) => message.type === 'init', 'the webview to load (its script runs under the CSP)');
    panels.show(notebook, TABLE_SECTION, done(hogqlResponse()));
    panels.show(notebook, TRENDS_SECTION, done(trendsResponse()));
    panels.show(notebook, FUNNEL_SECTION, done({ results: [] }));
    await ready;
    return { panel, posted };
  }

  it('opens one panel beside the editor, titled "Results", a section per card in the order of first show, rows in chunks', async () => {
    const { panel, posted } = await showCanned();
    assert.equal(panel.panel.title, 'Results: Results demo');
    assert.equal(panel.panel.viewType, 'posthogExplorer.results');
    const sections = posted.filter((message) => message.type === 'section');
    assert.deepEqual(sections.map((message) => message.id), [RUNNING_SECTION.id, TABLE_SECTION.id, TRENDS_SECTION.id, FUNNEL_SECTION.id]);
    const table = sections[1]!;
    assert.equal(table.summary, '10,000 rows in 1.2 s');
    assert.deepEqual(table.view?.columns.slice(0, 2), ['col_0', 'col_1']);
    const rows = posted.filter((message) => message.type === 'rows' && message.id === TABLE_SECTION.id);
    assert.ok(rows[0]!.type === 'rows' && rows[0]!.rows.length <= 500, 'the first rows go alone, to paint at once');
    assert.equal(rows.reduce((sum, message) => sum + (message.type === 'rows' ? message.rows.length : 0), 0), TABLE_ROWS);
    assert.ok(rows.some((message) => message.type === 'rows' && message.rows.some((row) => row[1] === HOSTILE_CELL)), 'server text goes as it is, for textContent');
    const trends = sections[2]!;
    assert.deepEqual(trends.view?.chart?.series.map((series) => [series.label, series.total]), [['$pageview', 170], ['signed_up', 33]]);
    assert.equal(sections[3]!.view?.kind, 'unsupported');
    assert.equal(sections[0]!.state, 'running');

    panels.show(notebook, RUNNING_SECTION, done(hogqlResponse(3, 2)));
    assert.deepEqual(panel.sectionIds, [RUNNING_SECTION.id, TABLE_SECTION.id, TRENDS_SECTION.id, FUNNEL_SECTION.id], 'a section keeps its place when shown again');
    const other = { uri: vscode.Uri.parse('untitled:Untitled-9'), title: 'Untitled-9' };
    panels.show(other, TABLE_SECTION, { state: 'running', startedAt: Date.now() });
    assert.notEqual(panels.panel(other.uri), panel, 'one panel per document');
    panels.panel(other.uri)!.dispose();
  });

  it('asks the run to cancel from a running section only', async () => {
    const panel = panels.panel(notebook.uri)!;
    panels.show(notebook, RUNNING_SECTION, { state: 'running', startedAt: Date.now() });
    const requests: { uri: string; sectionId: string }[] = [];
    const subscription = panels.onDidRequestCancel((request) => requests.push(request));
    await panel.receive({ type: 'cancel', id: RUNNING_SECTION.id });
    await panel.receive({ type: 'cancel', id: TABLE_SECTION.id });
    subscription.dispose();
    assert.deepEqual(requests, [{ uri: notebook.uri.toString(), sectionId: RUNNING_SECTION.id }]);
  });

  it('copies through the clipboard seam, opens PostHog for kinds it does not draw, and exports CSV and JSON through the save dialog', async () => {
    const panel = panels.panel(notebook.uri)!;
    await panel.receive({ type: 'copy', text: 'row 1\tx' });
    assert.equal(harness.env.clipboard.text, 'row 1\tx');
    await panel.receive({ type: 'open', id: FUNNEL_SECTION.id });
    assert.deepEqual(harness.env.opened, [FUNNEL_SECTION.webUrl]);

    const csv = path.join(tmp, 'table.csv');
    harness.window.saveTargets.push(vscode.Uri.file(csv));
    await panel.receive({ type: 'export', id: TABLE_SECTION.id, format: 'csv' });
    const records = csvRecords(readFileSync(csv, 'utf8'));
    assert.equal(records.length, TABLE_ROWS + 1);
    assert.equal(records[0]![0], 'col_0');
    assert.equal(records[2]![1], HOSTILE_CELL);
    const json = path.join(tmp, 'trends.json');
    harness.window.saveTargets.push(vscode.Uri.file(json));
    await panel.receive({ type: 'export', id: TRENDS_SECTION.id, format: 'json' });
    const written = JSON.parse(readFileSync(json, 'utf8')) as { columns: string[]; rows: unknown[][] };
    assert.deepEqual(written.columns.slice(0, 3), ['Series', 'Total', '2026-11-22']);
    assert.deepEqual(written.rows[1]!.slice(0, 3), ['signed_up', 33, 2]);
    assert.ok(harness.window.messages.some((message) => message.text.startsWith('Exported 10,000 rows to')));
  });

  it('restores a panel from the state its webview kept: sections marked restored, Run again through Run Query, export of what it holds', async () => {
    const uri = vscode.Uri.parse('posthog-test:/notebooks/restored.md');
    const kept = Array.from({ length: 1_000 }, (_, row) => [`row ${row}`, row === 1 ? HOSTILE_CELL : String(row)]);
    const state: ResultsPanelState = {
      uri: uri.toString(),
      title: 'Restored demo',
      sections: [
        { id: 'card-big', label: 'Big table', queryKind: 'HogQLQuery', state: 'done', summary: '10,000 rows in 2.0 s', at: Date.UTC(2026, 10, 29, 5, 0), view: { kind: 'table', columns: ['name', 'value'], rowCount: 10_000 }, rows: kept },
        { id: 'card-broken', label: 'Broken', queryKind: 'HogQLQuery', state: 'failed', summary: 'Unknown table', at: Date.UTC(2026, 10, 29, 5, 1), rows: [] },
      ],
    };
    const webviewPanel = vscode.window.createWebviewPanel('posthogExplorer.results', 'Results: Restored demo', vscode.ViewColumn.Active);
    await panels.deserializeWebviewPanel(webviewPanel, state);
    const panel = panels.panel(uri);
    assert.ok(panel, 'the panel is known again, for the next run to show in');
    const posted: ResultsExtensionMessage[] = [];
    panel.onDidPost((message) => posted.push(message));
    await waitForEvent(panel.onDidPost, (message) => message.type === 'rows' && message.id === 'card-big' && message.start + message.rows.length === 1_000, 'the restored rows');
    const [big, broken] = posted.filter((message) => message.type === 'section');
    assert.ok(big?.type === 'section' && broken?.type === 'section');
    assert.deepEqual(big.restored, { rows: 10_000 });
    assert.equal(big.view?.rowCount, 1_000, 'the webview is told what the copy holds');
    assert.equal(big.summary, '10,000 rows in 2.0 s');
    assert.equal(big.at, Date.UTC(2026, 10, 29, 5, 0));
    assert.deepEqual([broken.state, broken.summary, broken.restored], ['failed', 'Unknown table', { rows: 0 }]);

    const runs: unknown[][] = [];
    const runQuery = harness.registry.commands.get(COMMANDS.runQuery);
    harness.registry.commands.set(COMMANDS.runQuery, (...args) => runs.push(args));
    try {
      await panel.receive({ type: 'rerun', id: 'card-big' });
      await panel.receive({ type: 'rerun', id: 'no-such-card' });
    } finally {
      harness.registry.commands.set(COMMANDS.runQuery, runQuery!);
    }
    assert.deepEqual(runs, [[uri, 'card-big']], 'Run again goes through Run Query, for the restored card only');

    const csv = path.join(tmp, 'restored.csv');
    harness.window.saveTargets.push(vscode.Uri.file(csv));
    await panel.receive({ type: 'export', id: 'card-big', format: 'csv' });
    const records = csvRecords(readFileSync(csv, 'utf8'));
    assert.equal(records.length, 1_001);
    assert.equal(records[2]![1], HOSTILE_CELL);
    assert.match(harness.window.messages.at(-1)!.text, /^Exported the first 1,000 of 10,000 rows to .*: run the query again to export all\.$/);
    harness.window.saveTargets.push(vscode.Uri.file(path.join(tmp, 'restored.json')));
    await panel.receive({ type: 'export', id: 'card-big', format: 'json' });
    assert.equal(harness.window.saveTargets.length, 1, 'no save dialog for JSON: the restored values are text');
    harness.window.saveTargets.length = 0;
    assert.match(harness.window.messages.at(-1)!.text, /exported as CSV only/);

    panels.show({ uri, title: 'Restored demo' }, { id: 'card-big', label: 'Big table', queryKind: 'HogQLQuery' }, done(hogqlResponse(3, 2)));
    const fresh = posted.at(-2);
    assert.ok(fresh?.type === 'section' && fresh.id === 'card-big');
    assert.equal(fresh.restored, undefined, 'a new run replaces the restored copy');
    assert.equal(fresh.generation, 2);
    panel.dispose();
  });

  it('a saved state it cannot read closes the panel', async () => {
    const webviewPanel = vscode.window.createWebviewPanel('posthogExplorer.results', 'Results', vscode.ViewColumn.Active);
    const closed = new Promise<void>((resolve) => webviewPanel.onDidDispose(() => resolve()));
    await panels.deserializeWebviewPanel(webviewPanel, { uri: 'x', title: 'y', sections: [{ id: 'no rows' }] });
    await closed;
  });
});
