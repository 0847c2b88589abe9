// The Results panel with a big result, in headless Chromium running the panel's own script (no workbench: the
// rows reach the page as the extension posts them). Measured: from the response's last byte (its text
// complete) to the first rows painted, for 10,000 rows × 10 columns: the extension's part (parse, the
// section and row messages, serialised as postMessage does) plus the page's (messages in, rows painted); and
// the page's JS heap holding 50,000 rows × 10 columns, with the rows in the DOM at the bottom; and what the
// page's copy for a reload costs at its 2 MB cap: building it, and setState (as VS Code's webview does it:
// JSON.stringify, then a postMessage of the text to the workbench's frame).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { SAVED_ROWS_PER_SECTION, SavedResults } from '../../src/results/restoredResults';
import { resultView, rowChunks } from '../../src/results/resultModel';
import { launchChromium, VIEWPORT } from '../host/browser';
import { repoRoot } from '../host/paths';
import { runToCompletion } from '../host/processes';
import { heap } from './editor';
import { type Figure, median } from './results';

const COLUMNS = 10;
const PAINT_RUNS = 5;
const DOM_ROWS_BUDGET = 200;
const CAP_SECTIONS = 24;

function responseText(rows: number): string {
  const columns = Array.from({ length: COLUMNS }, (_, column) => `col_${column}`);
  const results = Array.from({ length: rows }, (_, row) => columns.map((_, column) => (column % 3 === 0 ? `text ${row}-${column}` : row * COLUMNS + column)));
  return JSON.stringify({ results, columns, types: columns.map((name) => [name, 'String']), hasMore: false });
}

/** What the extension does between the response's last byte and posting: parse, the view, the messages, serialised. */
function extensionSide(text: string): { ms: number; messages: string[] } {
  const started = performance.now();
  const view = resultView('HogQLQuery', JSON.parse(text));
  if (view.kind !== 'table') throw new Error('the canned response is not a table');
  const section = { type: 'section', id: 'bench', generation: 1, label: 'Bench', queryKind: 'HogQLQuery', canOpen: false, state: 'done', summary: '', view: { kind: 'table', columns: [...view.table.columns], rowCount: view.table.rows.length } };
  const messages = [JSON.stringify(section)];
  for (const chunk of rowChunks(view.table)) messages.push(JSON.stringify({ type: 'rows', id: 'bench', generation: 1, ...chunk }));
  return { ms: performance.now() - started, messages };
}

async function openPanelPage(page: Page, script: string, styles: string): Promise<void> {
  await page.setContent('<!DOCTYPE html><html><body><main id="app" data-l10n="{}"></main></body></html>');
  await page.addStyleTag({ content: styles });
  await page.evaluate(() => {
    const saves: { ms: number; chars: number }[] = [];
    const channel = new MessageChannel();
    const setState = (state: unknown) => {
      const started = performance.now();
      const text = JSON.stringify(state);
      channel.port1.postMessage(text);
      saves.push({ ms: performance.now() - started, chars: text.length });
    };
    Object.assign(window, { __stateSaves: saves, acquireVsCodeApi: () => ({ postMessage: () => undefined, getState: () => undefined, setState }) });
  });
  await page.addScriptTag({ content: script });
}

/** Posts the messages to the page as VS Code delivers them; resolves with the ms until the first rows are painted. */
function postAndTimeFirstPaint(page: Page, messages: string[]): Promise<number> {
  return page.evaluate(
    (texts) =>
      new Promise<number>((resolve) => {
        const started = performance.now();
        for (const text of texts) window.postMessage(JSON.parse(text), '*');
        const check = () => (document.querySelector('.row.data') ? requestAnimationFrame(() => resolve(performance.now() - started)) : requestAnimationFrame(check));
        check();
      }),
    messages,
  );
}

/**
 * Twenty-four 2,000-row sections whose first 1,000 rows are about 95 KB of JSON each: more than the 2 MB
 * the page keeps. The page's setState is timed; building the same copy is timed in Node with the same class.
 */
async function stateAtTheCap(browser: Browser, script: string, styles: string): Promise<{ setStateMs: number; buildMs: number; chars: number; sections: number; saves: number; messages: number }> {
  const page = await browser.newPage({ viewport: VIEWPORT });
  await openPanelPage(page, script, styles);
  const messages: string[] = [JSON.stringify({ type: 'init', uri: 'posthog:/bench.md', title: 'Bench' })];
  const saved = new SavedResults();
  for (let index = 0; index < CAP_SECTIONS; index++) {
    const id = `bench-${index}`;
    const view = resultView('HogQLQuery', JSON.parse(responseText(2_000)));
    if (view.kind !== 'table') throw new Error('the canned response is not a table');
    const section = { type: 'section' as const, id, generation: 1, label: id, queryKind: 'HogQLQuery', canOpen: false, state: 'done' as const, summary: '', at: 0, view: { kind: 'table' as const, columns: [...view.table.columns], rowCount: view.table.rows.length } };
    messages.push(JSON.stringify(section));
    saved.section(section);
    for (const chunk of rowChunks(view.table)) {
      messages.push(JSON.stringify({ type: 'rows', id, generation: 1, ...chunk }));
      saved.rows({ type: 'rows', id, generation: 1, ...chunk });
    }
  }
  const started = performance.now();
  saved.state('posthog:/bench.md', 'Bench');
  const buildMs = performance.now() - started;
  await page.evaluate((texts) => texts.forEach((text) => window.postMessage(JSON.parse(text), '*')), messages);
  const saves = await page.waitForFunction(() => {
    const recorded = (window as unknown as { __stateSaves: { ms: number; chars: number }[] }).__stateSaves;
    return recorded.length > 0 && recorded;
  }, undefined, { timeout: 60_000 });
  await saves.dispose();
  await page.waitForTimeout(1_500); // a save after the first, if the messages took longer than its delay
  const recorded = await page.evaluate(() => (window as unknown as { __stateSaves: { ms: number; chars: number }[] }).__stateSaves);
  await page.close();
  const last = recorded.at(-1)!;
  return { setStateMs: last.ms, buildMs, chars: last.chars, sections: CAP_SECTIONS, saves: recorded.length, messages: messages.length };
}

export async function benchResultsPanel(): Promise<Figure[]> {
  const scriptFile = path.join(repoRoot, 'dist', 'webview', 'results.js');
  if (!existsSync(scriptFile)) await runToCompletion('node', ['esbuild.mjs', '--production'], { cwd: repoRoot });
  const script = await readFile(scriptFile, 'utf8');
  const styles = (await Promise.all([path.join(repoRoot, 'dist', 'webview', 'results.css'), path.join(repoRoot, 'media', 'panel.css'), path.join(repoRoot, 'media', 'results.css')].map((file) => readFile(file, 'utf8')))).join('\n');
  const browser = await launchChromium(['--enable-precise-memory-info']);
  try {
    const small = responseText(10_000);
    const extensionMs: number[] = [];
    const pageMs: number[] = [];
    for (let run = 0; run < PAINT_RUNS; run++) {
      const page = await browser.newPage({ viewport: VIEWPORT });
      await openPanelPage(page, script, styles);
      const { ms, messages } = extensionSide(small);
      extensionMs.push(ms);
      pageMs.push(await postAndTimeFirstPaint(page, messages));
      await page.close();
    }

    const page = await browser.newPage({ viewport: VIEWPORT });
    await openPanelPage(page, script, styles);
    const session = await page.context().newCDPSession(page);
    const before = await heap(session, page.mainFrame());
    await postAndTimeFirstPaint(page, extensionSide(responseText(50_000)).messages);
    await page.waitForFunction(() => document.querySelector('.grid')?.getAttribute('aria-rowcount') === '50001', undefined, { timeout: 120_000 });
    const domRows: number[] = [];
    for (const fraction of [0, 0.5, 1]) {
      domRows.push(
        await page.evaluate(async (at) => {
          const grid = document.querySelector('.grid')!;
          grid.scrollTop = (grid.scrollHeight - grid.clientHeight) * at;
          await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
          return grid.querySelectorAll('.row.data').length;
        }, fraction),
      );
    }
    const loaded = await heap(session, page.mainFrame());
    const saving = await stateAtTheCap(browser, script, styles);

    const section = 'Results panel (its script in headless Chromium, no workbench)';
    const total = extensionMs.map((ms, run) => ms + pageMs[run]!);
    return [
      {
        section,
        what: '10,000 rows × 10 columns: response complete → first rows painted',
        value: median(total),
        unit: 'ms',
        note: `median of ${PAINT_RUNS}: extension ${median(extensionMs).toFixed(0)} ms (parse, messages), page ${median(pageMs).toFixed(0)} ms; VS Code's own message passing not included`,
      },
      { section, what: 'page JS heap holding 50,000 rows × 10 columns (after GC)', value: loaded.usedMB, unit: 'MB', note: `${(loaded.usedMB - before.usedMB).toFixed(1)} MB more than the empty panel` },
      {
        section,
        what: 'the copy kept for a reload at its 2 MB cap: setState (JSON.stringify and post)',
        value: saving.setStateMs,
        unit: 'ms',
        note: `${(saving.chars / 1e6).toFixed(2)} M characters, ${saving.sections} sections × their first ${SAVED_ROWS_PER_SECTION.toLocaleString('en-US')} rows; building the copy ${saving.buildMs.toFixed(1)} ms (Node); ${saving.saves} setState for ${saving.messages} messages (coalesced)`,
      },
      { section, what: 'most rows in the DOM at 50,000 rows (top, middle, bottom)', value: Math.max(...domRows), unit: 'rows', budget: `≤ ${DOM_ROWS_BUDGET}`, pass: Math.max(...domRows) <= DOM_ROWS_BUDGET, note: domRows.join(', ') },
    ];
  } finally {
    await browser.close();
  }
}
