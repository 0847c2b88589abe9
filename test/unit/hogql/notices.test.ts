import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { placeNotices } from '../../../src/hogql/notices';
import { plainTextMap, writtenValueMap } from '../../../src/hogql/textOffsets';

describe('placeNotices', () => {
  test('errors, warnings and notices keep their severity and PostHog positions', () => {
    const text = 'select foo from events';
    const placed = placeNotices(
      {
        errors: [{ message: 'Unable to resolve field: foo', start: 7, end: 10 }],
        warnings: [{ message: 'w', start: 0, end: 6 }],
        notices: [{ message: 'no position' }],
      },
      plainTextMap(text),
    );
    assert.deepEqual(placed, [
      { start: 7, end: 10, message: 'Unable to resolve field: foo', severity: 'error' },
      { start: 0, end: 6, message: 'w', severity: 'warning' },
      { start: 0, end: text.length, message: 'no position', severity: 'notice' },
    ]);
  });

  test("in a notebook's SQL cell, positions land on the written characters past escapes", () => {
    const document = '<SQLV2 code="select\\n foo from events" />';
    const start = document.indexOf('"') + 1;
    const text = 'select\n foo from events';
    const [error] = placeNotices({ errors: [{ message: 'bad', start: 8, end: 11 }], warnings: [], notices: [] }, writtenValueMap(document, start, text, '"'));
    assert.equal(document.slice(error!.start, error!.end), 'foo');
  });
});
