import assert from 'node:assert/strict';
import { copyFile, mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, it } from 'mocha';
import type { Frame, Page } from 'playwright-core';
import { sampleMarkdownNotebooks } from '../api-server/notebook-samples';
import { repoRoot } from '../host/paths';
import { e2e, showNotebooksOf } from './context';
import { waitUntil } from './eventsWebview';

const HOSTILE_CELL = '<img src=x onerror="window.__pwned=1">';
const README_SCREENSHOT = path.join(repoRoot, 'media', 'screenshots', 'query-results.png');

/** The content frame of the Results webview whose heading is `title` (VS Code nests it two iframes deep). */
async function resultsFrame(page: Page, title: string, timeout = 30_000): Promise<Frame> {
  const deadline = Date.now() + timeout;
  for (;;) {
    for (const frame of page.frames()) {
      try {
        if ((await frame.locator('h1', { hasText: title }).count()) > 0) return frame;
      } catch {
        // a frame that went away while we looked
      }
    }
    if (Date.now() > deadline) throw new Error(`No Results webview titled ${title}`);
    await page.waitForTimeout(200);
  }
}

describe('Results panel (e2e)', () => {
  it('runs the demo notebook\'s cards from the Command Palette and shows their table and chart beside it (screenshot)', async () => {
    const { workbench, page, api, resultsDir } = e2e();
    // The demo's notebook of query cards (npm start's seed; the tests' seed is smaller), with events to count.
    const organization = api.store.organizations.find((entry) => entry.name === 'Hedgebox Inc.')!;
    const project = api.store.projectsOf(organization.id).find((entry) => entry.name === 'Hedgebox')!;
    const demo = sampleMarkdownNotebooks().find((entry) => entry.title === 'Weekly product numbers')!;
    const title = 'Query cards (e2e)';
    api.store.createNotebook(project.id, { title, content: demo.content });
    api.store.addEvents(project.id, 300, { withinHours: 20 });
    await workbench.runCommand('View: Close All Editors');
    await showNotebooksOf(organization.name, project.name);
    await workbench.clickTreeItem(title);
    await workbench.poll(async () => (await workbench.activeEditorTitle()).startsWith(title), 'the notebook opens');
    await workbench.runCommand('PostHog: Run All Queries');
    const frame = await resultsFrame(page, title);
    const section = (label: string) => frame.locator('section.result', { has: frame.locator('h2', { hasText: label }) });
    const trends = section('Pageviews and uploads, daily');
    await waitUntil(page, async () => (await trends.locator('.chart-canvas canvas').count()) > 0, 'the trend is drawn', 60_000);
    assert.deepEqual((await trends.locator('.legend td.series-label').allInnerTexts()).map((text) => text.trim()), ['$pageview', 'uploaded_file']);
    const table = section('Top events');
    await waitUntil(page, async () => (await table.locator('.grid .row.data').count()) > 0, 'the table shows its rows', 60_000);
    assert.deepEqual(await table.locator('.row.header .cell').allInnerTexts(), ['event', 'events']);
    assert.match(await table.locator('.summary').innerText(), /^\d+ rows in [\d.]+ s/);
    assert.equal(await frame.locator('section.result h2').count(), 4, 'a section per card');

    const file = await workbench.screenshot(path.join(resultsDir, 'query-results.png'));
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      await mkdir(path.dirname(README_SCREENSHOT), { recursive: true });
      await copyFile(file, README_SCREENSHOT);
    }
  });

  // A test-only path: the test runner extension's command shows canned responses in a real Results panel (no
  // query runs), for what the demo's cards do not have: 10,000 rows, hostile text, a kind not drawn, a running card.
  it('shows canned results: sections in order, a 10,000-row table with at most 200 rows in the DOM, a trends chart with its legend, text as text', async () => {
    const { workbench, page, resultsDir } = e2e();
    await workbench.runCommand('PostHog Test: Show Canned Results');
    const frame = await resultsFrame(page, 'Canned results');
    const table = frame.locator('section[data-section="card-sql"]');
    await waitUntil(page, async () => (await table.locator('.summary').innerText()).includes('10,000 rows'), 'the table section is done');

    await waitUntil(page, async () => (await frame.locator('section.result h2').count()) === 4, 'every section is shown');
    const labels = await frame.locator('section.result h2').allInnerTexts();
    assert.deepEqual(labels, ['Pageviews and sign-ups', 'Daily active users (SQL)', 'Sign-up funnel', 'Slow query']);
    assert.deepEqual(await table.locator('.row.header .cell').allInnerTexts(), Array.from({ length: 10 }, (_, column) => `col_${column}`));

    const grid = table.locator('.grid');
    await waitUntil(page, async () => (await grid.locator('.row.data').count()) > 0, 'the first rows are painted');
    const counts = [await grid.locator('.row.data').count()];
    for (const fraction of [0.25, 0.5, 1]) {
      await grid.evaluate((element, at) => {
        element.scrollTop = (element.scrollHeight - element.clientHeight) * at;
      }, fraction);
      await page.waitForTimeout(100);
      counts.push(await grid.locator('.row.data').count());
    }
    assert.ok(counts.every((count) => count > 0 && count <= 200), `rows in the DOM: ${counts.join(', ')}`);
    await waitUntil(page, async () => (await grid.locator('.row.data .cell', { hasText: /^row 9999$/ }).count()) === 1, 'the last row is shown at the bottom');

    await grid.evaluate((element) => (element.scrollTop = 0));
    await waitUntil(page, async () => (await grid.locator('.cell', { hasText: HOSTILE_CELL }).count()) === 1, 'the hostile cell shows as its text');
    assert.equal(await frame.locator('img').count(), 0, 'no markup from the server is rendered');
    assert.equal(await frame.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);

    const trends = frame.locator('section[data-section="card-trends"]');
    await waitUntil(page, async () => (await trends.locator('.chart-canvas canvas').count()) > 0, 'the trends chart is drawn');
    assert.deepEqual(await trends.locator('.legend td').allInnerTexts(), ['$pageview', '170', 'signed_up', '33']);
    const funnel = frame.locator('section[data-section="card-funnel"]');
    assert.match(await funnel.locator('.note').innerText(), /open it in PostHog/);
    assert.equal(await funnel.locator('vscode-button', { hasText: 'Open in PostHog' }).count(), 1);
    const slow = frame.locator('section[data-section="card-slow"]');
    assert.equal(await slow.locator('vscode-button', { hasText: 'Cancel' }).isVisible(), true);
    assert.equal(await slow.locator('.ring').isVisible(), true);

    await workbench.screenshot(path.join(resultsDir, 'query-results-canned.png'));
  });

  // Last of the file: the window reloads (the test runner extension does not run the suites again).
  it('after a window reload, the panel shows the results it had, each marked restored, without running anything', async () => {
    const { workbench, page, api, resultsDir } = e2e();
    await workbench.runCommand('PostHog Test: Show Canned Results');
    const before = await resultsFrame(page, 'Canned results');
    await waitUntil(page, async () => (await before.locator('.sections').getAttribute('data-saved-sections')) === '3', 'the webview kept its three finished sections');
    // Runs only: the restored notebook editor's SQL cells are checked again (HogQLMetadata), which runs nothing.
    const runs = () =>
      api.requests
        .filter((request) => request.method === 'POST' && request.path.includes('/query/'))
        .map((request) => (request.body as { query?: { kind?: string } } | undefined)?.query?.kind)
        .filter((kind) => kind !== 'HogQLMetadata' && kind !== 'DatabaseSchemaQuery');
    const runsBefore = runs().length;

    page.once('dialog', (dialog) => void dialog.accept()); // a "leave the page?" prompt would keep the old page
    await workbench.runCommand('Developer: Reload Window');
    await workbench.waitUntilReady();
    const frame = await resultsFrame(page, 'Canned results', 60_000);
    const table = frame.locator('section[data-section="card-sql"]');
    await waitUntil(page, async () => (await table.locator('.note.restored').count()) === 1, 'the table section is restored', 60_000);
    assert.match(await table.locator('.note.restored').innerText(), /^Restored from the run at .+: the first 1,000 of 10,000 rows\. Run again for all\. Its cells were kept as text, so it exports as CSV only: run again to export JSON with PostHog’s types\.$/);
    assert.match(await table.locator('.summary').innerText(), /^10,000 rows in [\d.]+ s$/, 'the run\'s state line');
    assert.deepEqual(await table.locator('.row.header .cell').allInnerTexts(), Array.from({ length: 10 }, (_, column) => `col_${column}`));
    await waitUntil(page, async () => (await table.locator('.grid').getAttribute('aria-rowcount')) === '1001', 'the 1,000 kept rows are in the grid');
    await waitUntil(page, async () => (await table.locator('.cell', { hasText: HOSTILE_CELL }).count()) === 1, 'the hostile cell shows as its text');
    assert.equal(await frame.locator('img').count(), 0, 'no markup from the server is rendered');
    assert.deepEqual(await table.locator('.tools vscode-button').allInnerTexts(), ['Copy cell', 'Copy row', 'Export the first 1,000 rows as CSV…', 'Run again']);

    const trends = frame.locator('section[data-section="card-trends"]');
    await waitUntil(page, async () => (await trends.locator('.chart-canvas canvas').count()) > 0, 'the restored trend is drawn');
    assert.match(await trends.locator('.note.restored').innerText(), /^Restored from the run at .+\. Run again for a fresh result\. Its cells were kept as text, so it exports as CSV only: run again to export JSON with PostHog’s types\.$/);
    assert.deepEqual(await frame.locator('section.result h2').allInnerTexts(), ['Pageviews and sign-ups', 'Daily active users (SQL)', 'Sign-up funnel'], 'the running section had no result to keep');
    assert.deepEqual(runs().slice(runsBefore), [], 'no query was run to restore it');

    await workbench.screenshot(path.join(resultsDir, 'query-results-restored.png'));
  });
});
