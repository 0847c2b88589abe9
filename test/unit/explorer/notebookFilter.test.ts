import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  containsProblem,
  describeFilter,
  isEmptyFilter,
  isIsoDate,
  toNotebookQuery,
} from '../../../src/tree/notebookFilter';

describe('notebook filter', () => {
  test('maps each field to the query parameter the spec names', () => {
    assert.deepEqual(
      toNotebookQuery({
        contains: ' recording:true insight:false ',
        createdBy: 7,
        onlyMine: true,
        dateFrom: '2026-11-01',
        dateTo: '2026-11-20T12:00Z',
      }),
      {
        contains: 'recording:true insight:false',
        created_by: 7,
        user: 'true',
        date_from: '2026-11-01',
        date_to: '2026-11-20T12:00Z',
      },
    );
  });

  test('an empty filter sends nothing', () => {
    assert.deepEqual(toNotebookQuery({ contains: '  ', onlyMine: false }), {});
    assert.ok(isEmptyFilter({ contains: ' ' }));
    assert.ok(!isEmptyFilter({ createdBy: 0 }));
  });

  test('describes the active filter for the Notebooks item', () => {
    assert.equal(describeFilter({ contains: 'recording', onlyMine: true }), 'contains recording · mine');
    assert.equal(describeFilter({}), '');
  });

  test('checks contains pairs and names the bad one', () => {
    assert.equal(containsProblem('recording:true, insight:false query:abc123 flag'), undefined);
    assert.equal(containsProblem('recording:true bad:pair:x'), 'bad:pair:x');
    assert.equal(containsProblem('rec-ording:true'), 'rec-ording:true');
  });

  test('accepts ISO dates and date-times only', () => {
    for (const good of ['2026-11-01', '2026-11-01T12:30', '2026-11-01T12:30:00Z', '2026-11-01T12:30:00.5+02:00']) {
      assert.ok(isIsoDate(good), good);
    }
    for (const bad of ['yesterday', '01/11/2026', '2026-13-01', '2026-11-01 12:00']) {
      assert.ok(!isIsoDate(bad), bad);
    }
  });
});
