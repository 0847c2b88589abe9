import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ResultsPanelStateSchema, type RowsMessage, type SectionMessage, type SectionView } from '../../../src/results/protocol';
import { isTruncated, restoredSection, SAVED_CHART_POINTS, SAVED_ROWS_PER_SECTION, SAVED_STATE_CHARS, SAVED_TEXT_CHARS, SavedResults } from '../../../src/results/restoredResults';
import { rowChunks } from '../../../src/results/resultModel';

const RUN_AT = Date.UTC(2026, 10, 29, 5, 30);

function section(id: string, view: SectionView | undefined, extra: Partial<SectionMessage> = {}): SectionMessage {
  return {
    type: 'section',
    id,
    generation: 1,
    label: `Card ${id}`,
    queryKind: 'HogQLQuery',
    canOpen: false,
    state: 'done',
    summary: `${view?.rowCount ?? 0} rows in 1.0 s`,
    at: RUN_AT,
    ...(view ? { view } : {}),
    ...extra,
  };
}

const tableView = (rowCount: number, columns = 3): SectionView => ({ kind: 'table', columns: Array.from({ length: columns }, (_, column) => `col_${column}`), rowCount });

/** The rows messages the panel posts for `count` rows of `cell(row, column)`. */
function rowMessages(id: string, count: number, cell: (row: number, column: number) => unknown, columns = 3, generation = 1): RowsMessage[] {
  const rows = Array.from({ length: count }, (_, row) => Array.from({ length: columns }, (_, column) => cell(row, column)));
  return [...rowChunks({ columns: Array.from({ length: columns }, (_, column) => `col_${column}`), rows })].map((chunk) => ({ type: 'rows', id, generation, ...chunk }));
}

function show(saved: SavedResults, message: SectionMessage, rows: RowsMessage[] = []): void {
  saved.section(message);
  rows.forEach((chunk) => saved.rows(chunk));
}

describe('what a Results webview keeps for after a reload', () => {
  test('a 10,000-row table keeps its first 1,000 rows, with the run\'s row count, state line and time; the state reads back', () => {
    const saved = new SavedResults();
    show(saved, section('sql', tableView(10_000)), rowMessages('sql', 10_000, (row, column) => `r${row}c${column}`));
    const state = saved.state('posthog:/n.md', 'Notebook');
    const [kept] = state.sections;
    assert.equal(kept!.rows.length, SAVED_ROWS_PER_SECTION);
    assert.deepEqual(kept!.rows[999], ['r999c0', 'r999c1', 'r999c2']);
    assert.equal(kept!.view?.rowCount, 10_000);
    assert.equal(kept!.summary, '10000 rows in 1.0 s');
    assert.equal(kept!.at, RUN_AT);
    assert.deepEqual(ResultsPanelStateSchema.parse(JSON.parse(JSON.stringify(state))), state);
  });

  test('all sections together stay within SAVED_STATE_CHARS of JSON, escapes counted; each keeps its place and its first rows', () => {
    const saved = new SavedResults();
    // 1 KB cells of characters JSON writes as \u0001: six characters each.
    const wide = '\u0001'.repeat(200);
    for (const id of ['a', 'b', 'c', 'd']) {
      show(saved, section(id, tableView(1_000)), rowMessages(id, 1_000, () => wide));
    }
    const state = saved.state('posthog:/n.md', 'Notebook');
    const length = JSON.stringify(state).length;
    assert.ok(length <= SAVED_STATE_CHARS, `${length} characters`);
    assert.ok(length > SAVED_STATE_CHARS * 0.99, 'the budget is used, not wasted');
    assert.deepEqual(state.sections.map((kept) => kept.id), ['a', 'b', 'c', 'd']);
    const counts = state.sections.map((kept) => kept.rows.length);
    assert.ok(counts[0]! > 500 && counts[0]! < 1_000, `a row is 3.6 KB of JSON here: ${counts[0]} of the first section's rows`);
    assert.ok(counts.every((count, index) => index === 0 || count <= counts[index - 1]!), `rows kept: ${counts.join(', ')}`);
    assert.equal(counts.at(-1), 0, 'the last section keeps its state line without rows');
  });

  test('rows of an older run, or out of order, are not kept; a new run replaces the copy once it ends', () => {
    const saved = new SavedResults();
    show(saved, section('sql', tableView(2)), rowMessages('sql', 2, (row) => `first ${row}`, 1));
    saved.section(section('sql', undefined, { generation: 2, state: 'running', summary: 'Running…' }));
    assert.deepEqual(saved.state('u', 't').sections[0]!.rows, [['first 0'], ['first 1']], 'a running section keeps its last finished copy');
    assert.equal(saved.rows({ type: 'rows', id: 'sql', generation: 2, start: 0, rows: [['late']] }), false, 'the running generation has no copy to add to');
    saved.section(section('sql', tableView(3), { generation: 3 }));
    assert.equal(saved.rows({ type: 'rows', id: 'sql', generation: 1, start: 0, rows: [['old']] }), false);
    assert.equal(saved.rows({ type: 'rows', id: 'sql', generation: 3, start: 1, rows: [['gap']] }), false);
    assert.equal(saved.rows({ type: 'rows', id: 'sql', generation: 3, start: 0, rows: [['new']] }), true);
    assert.deepEqual(saved.state('u', 't').sections[0]!.rows, [['new']]);
  });

  test('sections keep the order they were first shown in, a running one included; failed and cancelled keep their line', () => {
    const saved = new SavedResults();
    saved.section(section('slow', undefined, { state: 'running', summary: 'Running…' }));
    show(saved, section('fast', tableView(0)));
    saved.section(section('broken', undefined, { state: 'failed', summary: 'Syntax error at 1:7' }));
    assert.deepEqual(saved.state('u', 't').sections.map((kept) => kept.id), ['fast', 'broken'], 'a run that never ended is not kept');
    saved.section(section('slow', undefined, { generation: 2, state: 'cancelled', summary: 'Cancelled' }));
    const sections = saved.state('u', 't').sections;
    assert.deepEqual(sections.map((kept) => [kept.id, kept.state, kept.summary]), [
      ['slow', 'cancelled', 'Cancelled'],
      ['fast', 'done', '0 rows in 1.0 s'],
      ['broken', 'failed', 'Syntax error at 1:7'],
    ]);
  });

  test('a chart is kept when small, its table alone when it has more than SAVED_CHART_POINTS values', () => {
    const chart = (series: number, days: number) => ({
      days: Array.from({ length: days }, (_, day) => `day ${day}`),
      series: Array.from({ length: series }, (_, index) => ({ label: `s${index}`, total: days, values: new Array<number>(days).fill(1) })),
    });
    const saved = new SavedResults();
    show(saved, section('small', { kind: 'trends', columns: ['Series'], rowCount: 2, chart: chart(2, 30) }));
    show(saved, section('big', { kind: 'trends', columns: ['Series'], rowCount: 20, chart: chart(20, SAVED_CHART_POINTS / 20 + 1) }));
    const [small, big] = saved.state('u', 't').sections;
    assert.equal(small!.view?.chart?.series.length, 2);
    assert.equal(big!.view?.kind, 'trends');
    assert.equal(big!.view?.chart, undefined);
  });

  test('long labels, errors and titles are cut to what the state\'s schema reads back', () => {
    const saved = new SavedResults();
    show(saved, section('x'.repeat(500), undefined, { state: 'failed', label: 'L'.repeat(50_000), summary: 'E'.repeat(50_000) }));
    const state = saved.state('posthog:/n.md', 'T'.repeat(5_000));
    assert.equal(state.sections[0]!.summary.length, SAVED_TEXT_CHARS);
    assert.ok(ResultsPanelStateSchema.safeParse(state).success);
  });

  test('a restored section saved again keeps the run\'s row count and time (a second reload says the same)', () => {
    const saved = new SavedResults(() => RUN_AT + 60_000);
    show(saved, section('sql', tableView(1_000), { restored: { rows: 10_000 } }), rowMessages('sql', 1_000, () => 'x'));
    const [kept] = saved.state('u', 't').sections;
    assert.equal(kept!.view?.rowCount, 10_000);
    assert.equal(kept!.at, RUN_AT);
  });
});

describe('a saved section read back by the extension', () => {
  const base = { id: 'sql', label: 'SQL', queryKind: 'HogQLQuery', summary: '10,000 rows in 1.0 s', at: RUN_AT };

  test('its kept rows are its table, and it says whether the run had more', () => {
    const restored = restoredSection({ ...base, state: 'done', view: tableView(10_000, 1), rows: [['a'], ['b']] });
    assert.ok(restored.view?.kind === 'table');
    assert.deepEqual(restored.view.table.rows, [['a'], ['b']]);
    assert.equal(restored.runRows, 10_000);
    assert.equal(isTruncated(restored), true);
    assert.equal(isTruncated(restoredSection({ ...base, state: 'done', view: tableView(2, 1), rows: [['a'], ['b']] })), false);
  });

  test('a trend without its chart is its table; a failed section has no table', () => {
    const trend = restoredSection({ ...base, state: 'done', view: { kind: 'trends', columns: ['Series', 'Total'], rowCount: 1 }, rows: [['$pageview', '3']] });
    assert.equal(trend.view?.kind, 'table');
    const failed = restoredSection({ ...base, state: 'failed', summary: 'Timed out', rows: [] });
    assert.equal(failed.view, undefined);
    assert.equal(isTruncated(failed), false);
  });
});
