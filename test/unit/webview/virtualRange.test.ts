import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_RENDERED_ROWS, shouldLoadMore, visibleRange } from '../../../src/webview/shared/virtualRange';

describe('virtual scrolling range', () => {
  const base = { rowHeight: 24, viewportHeight: 480, overscan: 20 };

  test('at the top: the visible rows and the overscan below', () => {
    assert.deepEqual(visibleRange({ ...base, scrollTop: 0, total: 100_000 }), { start: 0, end: 41, firstVisible: 0, lastVisible: 20 });
  });

  test('deep in 100,000 rows only the rows around the view are rendered', () => {
    const range = visibleRange({ ...base, scrollTop: 50_000 * 24, total: 100_000 });
    assert.equal(range.firstVisible, 50_000);
    assert.equal(range.start, 49_980);
    assert.equal(range.end, 50_041);
    assert.ok(range.end - range.start <= MAX_RENDERED_ROWS);
  });

  test('at the end, nothing past the last row', () => {
    const range = visibleRange({ ...base, scrollTop: 10_000 * 24, total: 1_000 });
    assert.equal(range.end, 1_000);
    assert.equal(range.lastVisible, 999);
  });

  test('a huge viewport or overscan never puts more than 200 rows in the DOM', () => {
    for (const scrollTop of [0, 1_000, 123_456, 2_399_976]) {
      const range = visibleRange({ rowHeight: 24, viewportHeight: 20_000, overscan: 500, scrollTop, total: 100_000 });
      assert.ok(range.end - range.start <= MAX_RENDERED_ROWS, JSON.stringify(range));
      assert.ok(range.start <= range.firstVisible && range.firstVisible < range.end);
    }
  });

  test('no rows, no range', () => {
    assert.deepEqual(visibleRange({ ...base, scrollTop: 0, total: 0 }), { start: 0, end: 0, firstVisible: 0, lastVisible: -1 });
  });

  test('asks for more before the end of what is loaded, never once the list is done', () => {
    assert.equal(shouldLoadMore(100, 300, false, 150), false);
    assert.equal(shouldLoadMore(160, 300, false, 150), true);
    assert.equal(shouldLoadMore(299, 300, true, 150), false);
  });
});
