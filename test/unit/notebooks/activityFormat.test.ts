import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { describeActivity, showValue } from '../../../src/notebooks/activityFormat';
import { describeUser } from '../../../src/notebooks/notebookDocument';

describe('notebook activity lines', () => {
  test('a name or activity with line breaks and bidi controls makes one safe label line', () => {
    const line = describeActivity(
      { id: '2', user: { first_name: 'Ann\n\u202eeeL', email: 'a@x' }, activity: 'updated\r\nInjected', scope: 'Notebook', created_at: '2026-01-01T11:00:00Z', detail: null },
      new Date('2026-01-01T12:00:00Z'),
    );
    assert.match(line.label, /^Ann \uFFFDeeL · updated Injected · /);
  });

  test('a user is described on one safe line', () => {
    const user = { first_name: 'Ann\n>>>>>>> x', last_name: 'Lee\u2067', email: 'ann@example.com\n' };
    assert.equal(describeUser(user as never), 'Ann >>>>>>> x Lee\uFFFD <ann@example.com>');
  });

  test('who · what · when, then field: before → after', () => {
    const line = describeActivity(
      {
        id: '1',
        user: { first_name: 'Ann', email: 'ann@example.com' },
        activity: 'updated',
        scope: 'Notebook',
        created_at: '2026-01-01T11:00:00Z',
        detail: { changes: [{ type: 'Notebook', action: 'changed', field: 'title', before: 'Old', after: 'New' }] },
      },
      new Date('2026-01-01T12:00:00Z'),
    );
    assert.match(line.label, /^Ann · updated · /);
    assert.deepEqual(line.changes, ['title: "Old" → "New"']);
  });

  test('system user, missing values and long values', () => {
    const line = describeActivity(
      { id: '2', user: { is_system: true }, activity: 'deleted', scope: 'Notebook', created_at: '2026-01-01T11:00:00Z' },
      new Date('2026-01-01T12:00:00Z'),
    );
    assert.match(line.label, /^PostHog · deleted/);
    assert.equal(showValue(null), '∅');
    assert.ok(showValue({ text: 'x'.repeat(500) }).length <= 80);
  });
});
