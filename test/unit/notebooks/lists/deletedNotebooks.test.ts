import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DeletedNotebooks } from '../../../../src/notebooks/lists/deletedNotebooks';
import { MemoryState } from '../../../support/memoryStores';

test('remembers deleted notebooks per connection and project, newest first, once each', async () => {
  const deleted = new DeletedNotebooks(new MemoryState());
  await deleted.add('c1', 1, { shortId: 'aaaaaaaa', title: 'A', deletedAt: '2026-11-01T00:00:00Z' });
  await deleted.add('c1', 1, { shortId: 'bbbbbbbb', title: 'B', deletedAt: '2026-11-02T00:00:00Z' });
  await deleted.add('c1', 1, { shortId: 'aaaaaaaa', title: 'A', deletedAt: '2026-11-03T00:00:00Z' });
  await deleted.add('c2', 1, { shortId: 'cccccccc', title: 'C', deletedAt: '2026-11-01T00:00:00Z' });
  assert.deepEqual(deleted.list('c1', 1).map((entry) => entry.shortId), ['aaaaaaaa', 'bbbbbbbb']);
  assert.deepEqual(deleted.list('c1', 2), []);
  await deleted.remove('c1', 1, 'aaaaaaaa');
  assert.deepEqual(deleted.list('c1', 1).map((entry) => entry.shortId), ['bbbbbbbb']);
  assert.deepEqual(deleted.list('c2', 1).map((entry) => entry.shortId), ['cccccccc']);
});
