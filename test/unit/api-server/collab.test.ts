import { describe, test, afterEach, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { crc32 } from 'node:zlib';
import { markdownDoc, startLocalApi, type LocalApi } from '../../api-server';
import { call, control, errorBody, mainProject } from './helpers';

/** CRC-32 of the UTF-16-LE bytes, computed with zlib as PostHog's markdown_crc does. */
const crcOf = (text: string) => crc32(Buffer.from(text, 'utf16le'));

interface Frame {
  id?: string;
  event?: string;
  data?: any;
  comment?: string;
}

/** An open collab/stream read frame by frame (the test's own reader, not the extension's parser). */
async function openStream(api: LocalApi, path: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const response = await fetch(`${api.url}${path}`, { headers: { Authorization: `Bearer ${api.keys.all}`, ...headers }, signal: controller.signal });
  const frames: Frame[] = [];
  let ended = false;
  const reading = (async () => {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame: Frame = {};
          for (const line of buffer.slice(0, end).split('\n')) {
            if (line.startsWith(':')) frame.comment = line.slice(1).trim();
            else if (line.startsWith('id: ')) frame.id = line.slice(4);
            else if (line.startsWith('event: ')) frame.event = line.slice(7);
            else if (line.startsWith('data: ')) frame.data = JSON.parse(line.slice(6));
          }
          frames.push(frame);
          buffer = buffer.slice(end + 2);
        }
      }
    } catch {
      // aborted
    }
    ended = true;
  })();
  return {
    response,
    frames,
    get ended() {
      return ended;
    },
    async until(what: string, check: () => boolean, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; frames: ${JSON.stringify(frames)}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async close() {
      controller.abort();
      await reading;
    },
  };
}

describe('local API: notebook collaboration', () => {
  let api: LocalApi;
  let projectId: number;
  let base: string;

  beforeEach(async () => {
    api = await startLocalApi({ seed: 'minimal', control: true });
    ({ projectId } = mainProject(api));
    base = `/api/projects/${projectId}/notebooks`;
  });
  afterEach(() => api.close());

  async function markdownNotebook(markdown: string) {
    const created = await call(api, 'POST', `${base}/`, { body: { title: 'Collab', content: markdownDoc(markdown), text_content: markdown } });
    assert.equal(created.status, 201);
    return created.json as { short_id: string; version: number };
  }

  const save = (shortId: string, body: Record<string, unknown>, key?: string) =>
    call(api, 'POST', `${base}/${shortId}/collab/markdown_save/`, { body, key });

  test('a markdown_save at the current version saves and streams the diff with its author, caret and base CRC', async () => {
    const notebook = await markdownNotebook('# Plan\n\nFirst line\n');
    const stream = await openStream(api, `${base}/${notebook.short_id}/collab/stream/`);
    assert.equal(stream.response.headers.get('content-type'), 'text/event-stream');
    const saved = await save(notebook.short_id, {
      client_id: 'tab-1',
      version: 0,
      content: markdownDoc('# Plan\n\nFirst line, edited\n'),
      text_content: '# Plan\n\nFirst line, edited\n',
      cursor: { node_index: 1, offset: 18 },
    });
    assert.equal(saved.status, 200);
    assert.equal(saved.json.version, 1);
    assert.equal(saved.json.text_content, '# Plan\n\nFirst line, edited', 'DRF trims a CharField');
    await stream.until('the update', () => stream.frames.some((frame) => frame.event === 'update'));
    const update = stream.frames.find((frame) => frame.event === 'update')!;
    assert.equal(update.id, '1-0');
    assert.deepEqual(update.data, {
      type: 'update',
      client_id: 'tab-1',
      diff: [{ start: 18, end: 18, text: ', edited' }],
      base_crc: crcOf('# Plan\n\nFirst line\n'),
      user_id: api.store.mainUser.id,
      user_name: `${api.store.mainUser.first_name} ${api.store.mainUser.last_name}`,
      cursor: { node_index: 1, offset: 18 },
    });
    await stream.close();
    assert.deepEqual(
      api.store.activity.filter((entry) => entry.item_id === notebook.short_id).map((entry) => entry.activity),
      ['created', 'updated'],
    );
  });

  test('a save based on an older version gets the updates it missed (409), which rebuild the current text', async () => {
    const notebook = await markdownNotebook('one\n\ntwo\n');
    await control(api, 'POST', `notebooks/${projectId}/${notebook.short_id}/web-edit`, { replace: { find: 'one', with: 'one 😀' } });
    await control(api, 'POST', `notebooks/${projectId}/${notebook.short_id}/web-edit`, { replace: { find: 'two', with: 'two!' }, agent: 'ai' });
    const refused = await save(notebook.short_id, { client_id: 'me', version: 0, content: markdownDoc('one\n\ntwo\n\nmine\n'), text_content: 'x' });
    assert.equal(refused.status, 409);
    assert.equal(refused.json.code, 'conflict');
    assert.equal(refused.json.version, 2);
    let text = 'one\n\ntwo\n';
    for (const update of refused.json.updates) {
      assert.equal(update.base_crc, crcOf(text));
      for (const change of [...update.diff].reverse()) text = text.slice(0, change.start) + change.text + text.slice(change.end);
    }
    assert.equal(text, 'one 😀\n\ntwo!\n');
    assert.deepEqual(refused.json.updates.map((update: { version: number; client_id: string }) => [update.version, update.client_id]), [
      [1, `web-${api.store.users[1]!.id}`],
      [2, 'notebook-agent:ai'],
    ]);
    const stored = api.store.getNotebook(projectId, notebook.short_id)!;
    assert.equal(stored.version, 2, 'nothing saved');
    assert.equal(api.store.activity.filter((entry) => entry.item_id === notebook.short_id).at(-1)!.activity, 'save_rejected_conflict');
  });

  test('410 when the missed range cannot be replayed: a diff-less update, a version ahead, or no stream for the version', async () => {
    const notebook = await markdownNotebook('short\n');
    const huge = 'x'.repeat(70 * 1024);
    const patched = await call(api, 'PATCH', `${base}/${notebook.short_id}/`, { body: { content: markdownDoc(huge), version: 0 } });
    assert.equal(patched.status, 200);
    const stale = await save(notebook.short_id, { client_id: 'me', version: 0, content: markdownDoc('mine\n') });
    assert.equal(stale.status, 410);
    assert.deepEqual(stale.json, { code: 'conflict_stale' });
    const ahead = await save(notebook.short_id, { client_id: 'me', version: 7, content: markdownDoc('mine\n') });
    assert.equal(ahead.status, 410);
    const seeded = api.store.notebooksOf(projectId).find((n) => n.short_id !== notebook.short_id)!;
    seeded.version = 3; // stored at 3 with no stream: a baseline the server cannot replay from
    const unknown = await save(seeded.short_id, { client_id: 'me', version: 2, content: markdownDoc('mine\n') });
    assert.equal(unknown.status, 410);
    assert.equal(api.store.activity.filter((entry) => entry.item_id === notebook.short_id).at(-1)!.activity, 'save_rejected_stale');
  });

  test('a PATCH with content publishes an update N-1: with the diff for a Markdown notebook, without for a legacy one', async () => {
    const notebook = await markdownNotebook('abc\n');
    const legacy = api.store.notebooksOf(projectId).find((n) => n.short_id !== notebook.short_id)!;
    const markdownStream = await openStream(api, `${base}/${notebook.short_id}/collab/stream/`);
    const legacyStream = await openStream(api, `${base}/${legacy.short_id}/collab/stream/`);
    await call(api, 'PATCH', `${base}/${notebook.short_id}/`, { body: { content: markdownDoc('abXc\n'), version: 0 } });
    await call(api, 'PATCH', `${base}/${legacy.short_id}/`, { body: { content: { type: 'doc', content: [] }, version: legacy.version } });
    await call(api, 'PATCH', `${base}/${legacy.short_id}/`, { body: { title: 'no content: no update' } });
    await markdownStream.until('the update', () => markdownStream.frames.length > 0);
    await legacyStream.until('the update', () => legacyStream.frames.length > 0);
    assert.deepEqual(markdownStream.frames, [
      { id: '1-1', event: 'update', data: { type: 'update', version: 1, diff: [{ start: 2, end: 2, text: 'X' }], base_crc: crcOf('abc\n') } },
    ]);
    assert.deepEqual(legacyStream.frames, [{ id: `${legacy.version}-1`, event: 'update', data: { type: 'update', version: legacy.version } }]);
    await Promise.all([markdownStream.close(), legacyStream.close()]);
  });

  test('the stream resumes after Last-Event-ID, replays 10 seconds of presence, keeps alive, and closes after its lifetime', async () => {
    const notebook = await markdownNotebook('a\n');
    const path = `notebooks/${projectId}/${notebook.short_id}`;
    for (const word of ['b', 'c', 'd']) await control(api, 'POST', `${path}/web-edit`, { append: word });
    await control(api, 'POST', `${path}/presence`, { cursor: { node_index: 0, offset: 1 }, by: { first_name: 'Lee', last_name: 'Chen' } });
    await control(api, 'POST', 'collab/timing', { keepaliveMs: 50, lifetimeMs: 400 });
    const resumed = await openStream(api, `${base}/${notebook.short_id}/collab/stream/`, { 'Last-Event-ID': '1-0' });
    await resumed.until('the replay', () => resumed.frames.filter((frame) => frame.event).length >= 3);
    assert.deepEqual(resumed.frames.filter((frame) => frame.id).map((frame) => frame.id), ['2-0', '3-0']);
    const presence = resumed.frames.find((frame) => frame.event === 'presence')!;
    assert.equal(presence.id, undefined, 'presence events carry no id');
    assert.equal(presence.data.user_name, 'Lee Chen');
    await resumed.until('a keepalive', () => resumed.frames.some((frame) => frame.comment === 'keepalive'));
    await resumed.until('the end of its lifetime', () => resumed.ended);
    const fromNow = await openStream(api, `${base}/${notebook.short_id}/collab/stream/`);
    await control(api, 'POST', `${path}/web-edit`, { append: 'e' });
    await fromNow.until('the new update', () => fromNow.frames.some((frame) => frame.id));
    assert.deepEqual(fromNow.frames.filter((frame) => frame.id).map((frame) => frame.id), ['4-0'], 'without Last-Event-ID it starts at now');
    await fromNow.close();
    const broken = await openStream(api, `${base}/${notebook.short_id}/collab/stream/`, { 'Last-Event-ID': 'not an id' });
    await broken.until('the end', () => broken.ended);
    assert.deepEqual(broken.frames, [{ event: 'error', data: { error: 'stream error' } }]);
  });

  test('bodies are validated as PostHog serializers do, before the notebook is looked up', async () => {
    const notebook = await markdownNotebook('a\n');
    const path = `${base}/${notebook.short_id}/collab`;
    const legacyContent = { type: 'doc', content: [{ type: 'paragraph' }] };
    assert.deepEqual((await save(notebook.short_id, { version: 0, content: markdownDoc('b') })).json, errorBody('validation_error', 'required', 'This field is required.', 'client_id'));
    assert.deepEqual(
      (await save(notebook.short_id, { client_id: 'me', version: 0, content: legacyContent })).json,
      errorBody('validation_error', 'invalid', 'Content must be a markdown notebook document.', 'content'),
    );
    assert.deepEqual((await save(notebook.short_id, { client_id: 'me', version: 'x', content: markdownDoc('b') })).json.attr, 'version');
    assert.equal((await call(api, 'POST', `${base}/nothere/collab/markdown_save/`, { body: { client_id: 'me', version: 0, content: markdownDoc('b') } })).status, 404);
    const long = await call(api, 'POST', `${path}/presence/`, { body: { client_id: 'x'.repeat(201), version: 0, cursor: {} } });
    assert.equal(long.json.attr, 'client_id');
    const negative = await call(api, 'POST', `${path}/presence/`, { body: { client_id: 'me', version: 0, cursor: { offset: -1 } } });
    assert.deepEqual(negative.json, errorBody('validation_error', 'min_value', 'Ensure this value is greater than or equal to 0.', 'cursor__offset'));
    const stream = await openStream(api, `${path}/stream/`);
    const presence = await call(api, 'POST', `${path}/presence/`, { body: { client_id: 'me', version: 0, cursor: { node_index: 0, offset: 1 } } });
    assert.equal(presence.status, 204);
    await stream.until('the caret', () => stream.frames.some((frame) => frame.event === 'presence'));
    assert.deepEqual(stream.frames.find((frame) => frame.event === 'presence')!.data.cursor, { node_index: 0, offset: 1 });
    await stream.close();
  });

  test('the stream needs notebook:read, the saves notebook:write', async () => {
    const notebook = await markdownNotebook('a\n');
    const readOnly = api.keys.readOnly;
    const refused = await save(notebook.short_id, { client_id: 'me', version: 0, content: markdownDoc('b') }, readOnly);
    assert.equal(refused.status, 403);
    assert.match(refused.json.detail, /notebook:write/);
    const stream = await fetch(`${api.url}${base}/${notebook.short_id}/collab/stream/`, { headers: { Authorization: `Bearer ${readOnly}` } });
    assert.equal(stream.status, 200);
    await stream.body?.cancel();
  });

  test('a web edit of a legacy notebook is a ProseMirror step on the stream', async () => {
    const legacy = api.store.notebooksOf(projectId)[0]!;
    const stream = await openStream(api, `${base}/${legacy.short_id}/collab/stream/`);
    const edited = await control(api, 'POST', `notebooks/${projectId}/${legacy.short_id}/web-edit`, { append: 'From the browser', by: { first_name: 'Ana' } });
    assert.equal(edited.json.version, legacy.version);
    await stream.until('the step', () => stream.frames.some((frame) => frame.event));
    const step = stream.frames.find((frame) => frame.event)!;
    assert.equal(step.event, 'step');
    assert.equal(step.id, `${legacy.version}-0`);
    assert.equal(step.data.user_name, 'Ana');
    await stream.close();
  });
});
