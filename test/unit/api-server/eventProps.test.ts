import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startLocalApi } from '../../api-server';
import { SLOW } from '../../api-server/event-props';
import { mainProject } from './helpers';

describe('local API: generated events', () => {
  test('a property read without building the event equals the built event\'s', async () => {
    const api = await startLocalApi({ seed: 'minimal' });
    try {
      const table = api.store.eventsOf(mainProject(api).projectId);
      const keys = ['$browser', '$os', '$geoip_country_code', '$referrer', '$host', '$lib', '$is_identified', '$pathname', '$current_url', '$session_id'];
      let quick = 0;
      for (const row of table.sorted()) {
        const record = table.record(row);
        assert.equal(table.uuidOf(row), record.uuid);
        for (const key of keys) {
          const value = table.quickProperty(row, key);
          if (value === SLOW) continue;
          quick++;
          assert.deepEqual(value, record.properties[key], `${key} of row ${row}`);
        }
      }
      assert.ok(quick >= 9 * table.size, 'all but $session_id are read quickly');
    } finally {
      await api.close();
    }
  });
});
