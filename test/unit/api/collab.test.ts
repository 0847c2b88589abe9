import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type CollabEvent, type CollabStream, NotFoundError, PostHogClient, readEvent, ServerError } from '../../../src/api';
import { markdownDoc, type LocalApi } from '../../api-server';
import { withLocalApiClient } from '../../support/localApiClient';

describe('the collaboration calls against the local API', () => {
  let api: LocalApi;
  let client: PostHogClient;
  let projectId: number;

  withLocalApiClient({ seed: 'minimal', control: true }, (started) => {
    ({ api, client, projectId } = started);
  });

  const newNotebook = (markdown: string) => client.notebooks.create(projectId, { title: 'Collab client', content: markdownDoc(markdown), text_content: markdown });

  /** Reads events until `enough` says so. */
  async function collect(stream: CollabStream, enough: (events: CollabEvent[]) => boolean): Promise<CollabEvent[]> {
    const events: CollabEvent[] = [];
    for await (const event of stream) {
      events.push(event);
      if (enough(events)) break;
    }
    return events;
  }

  test('markdownSave answers saved, the updates missed (409) or stale (410), never an error', async () => {
    const notebook = await newNotebook('a\n');
    const body = (version: number, markdown: string) => ({ client_id: 'me', version, content: markdownDoc(markdown), text_content: markdown });
    const saved = await client.notebooks.collab.markdownSave(projectId, notebook.short_id, body(0, 'ab\n'));
    assert.equal(saved.kind, 'saved');
    assert.equal(saved.kind === 'saved' && saved.notebook.version, 1);
    const conflict = await client.notebooks.collab.markdownSave(projectId, notebook.short_id, body(0, 'ac\n'));
    assert.deepEqual(conflict, { kind: 'conflict', version: 1, updates: [{ version: 1, diff: [{ start: 1, end: 1, text: 'b' }], base_crc: conflict.kind === 'conflict' ? conflict.updates[0]!.base_crc : 0, client_id: 'me' }] });
    const stale = await client.notebooks.collab.markdownSave(projectId, notebook.short_id, body(5, 'ad\n'));
    assert.deepEqual(stale, { kind: 'stale' });
  });

  test('the stream gives updates with their version and author, carets, and resumes after a Last-Event-ID', async () => {
    const notebook = await newNotebook('a\n');
    const path = `/_control/notebooks/${projectId}/${notebook.short_id}`;
    const stream = await client.notebooks.collab.stream(projectId, notebook.short_id);
    const post = (route: string, body: unknown) => fetch(`${api.url}${path}/${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await post('web-edit', { append: 'b', by: { first_name: 'Lee', last_name: 'Chen' }, cursor: { node_index: 1, offset: 1 } });
    await post('presence', { cursor: { node_index: 1, offset: 1 }, by: { first_name: 'Lee', last_name: 'Chen' } });
    const events = await collect(stream, (seen) => seen.length >= 2);
    assert.equal(events[0]!.kind, 'update');
    const update = events[0] as Extract<CollabEvent, { kind: 'update' }>;
    assert.equal(update.id, '1-0');
    assert.equal(update.version, 1);
    assert.equal(update.userName, 'Lee Chen');
    assert.deepEqual(update.cursor, { node_index: 1, offset: 1 });
    assert.deepEqual(update.diff, [{ start: 2, end: 2, text: '\nb\n' }]);
    assert.deepEqual(events[1], { kind: 'presence', clientId: update.clientId, userId: update.userId, userName: 'Lee Chen', version: 1, cursor: { node_index: 1, offset: 1 } });
    await post('web-edit', { append: 'c' });
    const resumed = await client.notebooks.collab.stream(projectId, notebook.short_id, { lastEventId: '1-0' });
    const replay = await collect(resumed, (seen) => seen.some((event) => event.kind === 'update'));
    assert.deepEqual(replay.filter((event) => event.kind === 'update').map((event) => event.kind === 'update' && event.id), ['2-0']);
  });

  test('streams hold connections of their own: with more streams open than the pool has connections (8), a GET still answers', async () => {
    const notebook = await newNotebook('a\n');
    const streams = await Promise.all(Array.from({ length: 9 }, () => client.notebooks.collab.stream(projectId, notebook.short_id)));
    const answer = await Promise.race([
      client.notebooks.get(projectId, notebook.short_id).then(() => 'answered'),
      new Promise((resolve) => setTimeout(() => resolve('blocked'), 2000)),
    ]);
    assert.equal(answer, 'answered');
    for (const stream of streams) stream.close();
  });

  test('a stream that does not exist answers 404 (the caller then polls); a failing server\'s 503 is a server error, retried later', async () => {
    await assert.rejects(client.notebooks.collab.stream(projectId, 'nothere'), NotFoundError);
    api.injectFault({ path: /collab\/stream/, status: 503, times: 10 });
    await assert.rejects(client.notebooks.collab.stream(projectId, 'nothere'), ServerError);
  });

  test('events are read leniently: an unreadable one says so instead of failing the stream', () => {
    assert.deepEqual(readEvent('update', '{not json', '1-0'), { kind: 'unreadable', reason: '"update" data that is not JSON' });
    assert.deepEqual(readEvent('update', '{"type":"update"}', 'x-0'), { kind: 'unreadable', reason: 'an "update" event whose id is not a version' });
    assert.deepEqual(readEvent('error', '{"error":"stream error"}', undefined), { kind: 'error' });
    const update = readEvent('update', '{"type":"update","version":4,"diff":"nope","user_name":7}', '4-1');
    assert.deepEqual(update, { kind: 'update', id: '4-1', version: 4, diff: undefined, baseCrc: undefined, clientId: undefined, userId: undefined, userName: undefined, cursor: undefined });
  });
});
