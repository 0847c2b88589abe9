import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cellText, resultView, rowsText } from '../../../src/results/resultModel';

const trend = (label: string, days: string[], data: number[], extra: Record<string, unknown> = {}) => ({
  label,
  days,
  labels: days,
  data,
  count: data.reduce((sum, value) => sum + value, 0),
  ...extra,
});

describe('a query response as the Results panel shows it', () => {
  test('a HogQLQuery is a table headed by its columns, rows as PostHog sent them', () => {
    const response = { results: [['a', 1, null, { x: 1 }]], columns: ['s', 'n', 'none', 'map'], types: [], hasMore: true };
    const view = resultView('HogQLQuery', response);
    assert.equal(view.kind, 'table');
    assert.ok(view.kind === 'table');
    assert.deepEqual(view.table.columns, ['s', 'n', 'none', 'map']);
    assert.equal(view.table.rows, response.results, 'the rows are not copied');
    assert.equal(view.hasMore, true);
    assert.deepEqual(rowsText(view.table, 0, 10), [['a', '1', '', '{"x":1}']]);
  });

  test('an EventsQuery is a table too, its columns as text', () => {
    const view = resultView('EventsQuery', { results: [['$pageview', '2026-01-01']], columns: ['event', 'timestamp'] });
    assert.ok(view.kind === 'table');
    assert.deepEqual(view.table.columns, ['event', 'timestamp']);
  });

  test('a TrendsQuery is one series per result entry, on the union of their days, with label and total', () => {
    const view = resultView('TrendsQuery', {
      results: [
        trend('$pageview', ['2026-01-01', '2026-01-02'], [3, 4]),
        trend('$pageview', ['2025-12-31', '2026-01-01'], [1, 2], { compare_label: 'previous' }),
      ],
    });
    assert.ok(view.kind === 'trends');
    assert.deepEqual(view.chart.days, ['2025-12-31', '2026-01-01', '2026-01-02']);
    assert.deepEqual(view.chart.series, [
      { label: '$pageview', total: 7, values: [null, 3, 4] },
      { label: '$pageview (previous)', total: 3, values: [1, 2, null] },
    ]);
    assert.deepEqual(view.table.columns, ['Series', 'Total', '2025-12-31', '2026-01-01', '2026-01-02']);
    assert.deepEqual(rowsText(view.table, 0, 2)[0], ['$pageview', '7', '', '3', '4']);
  });

  test('a total-value trends display is a table of numbers, no chart', () => {
    const view = resultView('TrendsQuery', { results: [{ label: 'Signups', days: [], labels: [], data: [], aggregated_value: 42 }] });
    assert.ok(view.kind === 'totals');
    assert.deepEqual(rowsText(view.table, 0, 1), [['Signups', '42']]);
  });

  test('kinds not drawn here, and trends answered in another shape, show nothing rather than a wrong picture', () => {
    assert.equal(resultView('FunnelsQuery', { results: [[{ name: 'a', count: 1 }]] }).kind, 'unsupported');
    assert.equal(resultView('RetentionQuery', { results: [] }).kind, 'unsupported');
    assert.equal(resultView('TrendsQuery', { results: [{ heatmap: [] }] }).kind, 'unsupported');
    assert.equal(resultView('HogQLQuery', { nope: true }).kind, 'unsupported');
  });

  test('cells are text: strings as they are, null as nothing, objects as JSON', () => {
    assert.equal(cellText('<b>x</b>'), '<b>x</b>');
    assert.equal(cellText(null), '');
    assert.equal(cellText(false), 'false');
    assert.equal(cellText([1, 'a']), '[1,"a"]');
  });
});
