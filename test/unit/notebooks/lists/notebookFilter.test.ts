import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Me, NotebookListItem, UserBasic } from '../../../../src/api';
import { describeFilter, isEmptyFilter, isIsoDate, isNotebookDate, knownCreators, toNotebookQuery } from '../../../../src/notebooks/lists/notebookFilter';

const LEE_UUID = '0191c2b9-1d4e-7a2b-8c3d-4e5f6a7b8c9d';
const SAM_UUID = '0191c2a7-5e2b-7c1d-9f3e-2a6b8c4d1e0f';

function user(id: number, uuid: string, first: string, last: string): UserBasic {
  return { id, uuid, first_name: first, last_name: last, email: `${first.toLowerCase()}@hedgebox.net` };
}

function listed(createdBy: UserBasic | null): NotebookListItem {
  return {
    id: `nb-${Math.random()}`,
    short_id: 'aB3dE5fG',
    title: 'A notebook',
    created_at: '2026-11-01T00:00:00Z',
    created_by: createdBy,
    last_modified_at: '2026-11-02T00:00:00Z',
    last_modified_by: createdBy,
  };
}

describe('notebook filter', () => {
  test('maps each field to the query parameter the spec names; created_by is the creator\'s UUID', () => {
    assert.deepEqual(
      toNotebookQuery({
        contains: ' recording:true insight:false ',
        createdBy: { uuid: LEE_UUID, name: 'Lee Chen' },
        onlyMine: true,
        dateFrom: '2026-11-01',
        dateTo: '2026-11-20T12:00Z',
      }),
      {
        contains: 'recording:true insight:false',
        created_by: LEE_UUID,
        user: 'true',
        date_from: '2026-11-01',
        date_to: '2026-11-20T12:00Z',
      },
    );
  });

  test('an empty filter sends nothing', () => {
    assert.deepEqual(toNotebookQuery({ contains: '  ', onlyMine: false }), {});
    assert.ok(isEmptyFilter({ contains: ' ' }));
    assert.ok(!isEmptyFilter({ createdBy: { uuid: LEE_UUID, name: 'Lee Chen' } }));
  });

  test('describes the active filter for the Notebooks item, the creator by name', () => {
    assert.equal(describeFilter({ contains: 'recording', onlyMine: true }), 'contains recording · mine');
    assert.equal(describeFilter({ createdBy: { uuid: LEE_UUID, name: 'Lee Chen' } }), 'created by Lee Chen');
    assert.equal(describeFilter({}), '');
  });

  test('known creators: the signed-in user first, then creators seen in the list by name, each once by UUID', () => {
    const sam = user(1, SAM_UUID, 'Sam', 'Rivera');
    const lee = user(2, LEE_UUID, 'Lee', 'Chen');
    const priya = user(3, '0191c2c0-0000-7000-8000-000000000003', 'Priya', 'Patel');
    const me: Me = { id: 1, uuid: SAM_UUID.toUpperCase(), first_name: 'Sam', last_name: 'Rivera', email: 'sam@hedgebox.net' };
    const creators = knownCreators(me, [listed(priya), listed(sam), listed(lee), listed(null), listed(lee)]);
    assert.deepEqual(
      creators.map((creator) => [creator.name, creator.uuid, creator.isMe ?? false]),
      [
        ['Sam Rivera', SAM_UUID.toUpperCase(), true],
        ['Lee Chen', LEE_UUID, false],
        ['Priya Patel', priya.uuid, false],
      ],
    );
    assert.ok(creators.every((creator) => !/^\d+$/.test(creator.uuid)), 'never an integer id');
  });

  test('known creators without the profile (no user:read) come from the list; the current choice stays offered', () => {
    const lee = user(2, LEE_UUID, 'Lee', 'Chen');
    const gone = { uuid: SAM_UUID, name: 'Sam Rivera' };
    assert.deepEqual(
      knownCreators(undefined, [listed(lee)], gone).map((creator) => creator.name),
      ['Lee Chen', 'Sam Rivera'],
    );
    assert.deepEqual(knownCreators(undefined, []), []);
    const nameless = { ...user(4, '0191c2c0-0000-7000-8000-000000000004', '', ''), email: 'ops@hedgebox.net' };
    assert.equal(knownCreators(undefined, [listed(nameless)])[0]?.name, 'ops@hedgebox.net', 'no name: the email');
  });

  test('accepts ISO dates and date-times only', () => {
    for (const good of ['2026-11-01', '2026-11-01T12:30', '2026-11-01T12:30:00Z', '2026-11-01T12:30:00.5+02:00']) {
      assert.ok(isIsoDate(good), good);
    }
    for (const bad of ['yesterday', '01/11/2026', '2026-13-01', '2026-11-01 12:00']) {
      assert.ok(!isIsoDate(bad), bad);
    }
  });

  test('notebook dates: ISO, or a time ago as PostHog reads it; not what PostHog would read as now', () => {
    for (const good of ['2026-11-01', '-24h', '-7d', '-2w', '-1m', '-1y']) {
      assert.ok(isNotebookDate(good), good);
    }
    for (const bad of ['yesterday', '7d', '-7days', '-1q', 'dStart', '-d']) {
      assert.ok(!isNotebookDate(bad), bad);
    }
  });
});
