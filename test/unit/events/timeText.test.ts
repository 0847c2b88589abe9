import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TimeText } from '../../../src/webview/shared/timeText';

describe('time text', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  const text = new TimeText('en');

  test('ages in seconds, minutes, hours, days', () => {
    assert.equal(text.age(now - 12_000, now), '12s ago');
    assert.equal(text.age(now - 5 * 60_000, now), '5m ago');
    assert.equal(text.age(now - 3 * 3_600_000, now), '3h ago');
    assert.equal(text.age(now - 2 * 86_400_000, now), '2d ago');
  });

  test('a cell is the local date and time with the age; anything else stays as it is', () => {
    const cell = text.cell('2026-11-23T11:59:48.123456+00:00', now);
    assert.match(cell, /2026/);
    assert.match(cell, / · 12s ago$/);
    const local = new Date('2026-11-23T11:59:48Z');
    assert.ok(cell.includes(String(local.getSeconds()).padStart(2, '0')), cell);
    assert.equal(text.cell('not a time', now), 'not a time');
    assert.equal(text.cell('', now), '');
  });

  test('another language formats its own way; an unknown one falls back', () => {
    assert.match(new TimeText('de').age(now - 12_000, now), /12/);
    assert.notEqual(new TimeText('de').age(now - 12_000, now), '12s ago');
    assert.doesNotThrow(() => new TimeText('xx-invalid-').cell('2026-11-23T11:59:48Z', now));
  });
});
