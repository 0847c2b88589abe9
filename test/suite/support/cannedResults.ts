// Canned query responses for the Results panel's tests: a 10,000-row HogQL table (a hostile cell among
// them), a trends result of two series, and a kind the panel does not draw.
import * as vscode from 'vscode';
import { type ResultSection, type ResultSectionState, ResultsPanels } from '../../../src/results';
import { VSCODE_ENV, vscodeWindow } from '../../../src/workbench/window';

export const HOSTILE_CELL = '<img src=x onerror="window.__pwned=1">';
export const TABLE_ROWS = 10_000;
export const TABLE_COLUMNS = 10;

export function hogqlResponse(rows = TABLE_ROWS, columns = TABLE_COLUMNS): unknown {
  const names = Array.from({ length: columns }, (_, column) => `col_${column}`);
  const results = Array.from({ length: rows }, (_, row) =>
    names.map((_, column) => (column === 0 ? `row ${row}` : row === 1 && column === 1 ? HOSTILE_CELL : row * columns + column)),
  );
  return { results, columns: names, types: names.map((name) => [name, 'String']), hasMore: false, is_cached: false };
}

const DAYS = ['2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28'];

export function trendsResponse(): unknown {
  const series = (label: string, data: number[], extra: Record<string, unknown> = {}) => ({
    label,
    data,
    days: DAYS,
    labels: DAYS,
    count: data.reduce((sum, value) => sum + value, 0),
    action: { id: label, type: 'events', order: 0, name: label },
    ...extra,
  });
  return {
    results: [series('$pageview', [12, 18, 25, 22, 30, 28, 35]), series('signed_up', [2, 3, 5, 4, 6, 5, 8])],
  };
}

export const TABLE_SECTION: ResultSection = { id: 'card-sql', label: 'Daily active users (SQL)', queryKind: 'HogQLQuery' };
export const TRENDS_SECTION: ResultSection = { id: 'card-trends', label: 'Pageviews and sign-ups', queryKind: 'TrendsQuery', webUrl: 'http://127.0.0.1:8010/project/1/insights/new' };
export const FUNNEL_SECTION: ResultSection = { id: 'card-funnel', label: 'Sign-up funnel', queryKind: 'FunnelsQuery', webUrl: 'http://127.0.0.1:8010/project/1/insights/new#funnel' };
export const RUNNING_SECTION: ResultSection = { id: 'card-slow', label: 'Slow query', queryKind: 'HogQLQuery' };

export const done = (response: unknown, durationMs = 1_234): ResultSectionState => ({ state: 'done', response, durationMs });

/** The e2e tests' way in (no query runs here): a command of the test runner extension that shows the canned results. */
export const SHOW_CANNED_RESULTS = 'posthogExplorerTest.showCannedResults';

export function registerCannedResultsCommand(): void {
  let panels: ResultsPanels | undefined;
  vscode.commands.registerCommand(SHOW_CANNED_RESULTS, () => {
    const extension = vscode.extensions.getExtension('posthog-explorer.posthog-explorer')!;
    panels ??= new ResultsPanels({ extensionUri: extension.extensionUri, window: vscodeWindow(), env: VSCODE_ENV });
    const target = { uri: vscode.Uri.parse('untitled:canned-results'), title: 'Canned results' };
    panels.show(target, TRENDS_SECTION, done(trendsResponse()));
    panels.show(target, TABLE_SECTION, done(hogqlResponse()));
    panels.show(target, FUNNEL_SECTION, done({ results: [] }));
    panels.show(target, RUNNING_SECTION, { state: 'running', startedAt: Date.now() });
  });
}
