import { describe, test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startLocalApi, type LocalApi } from '../../api-server';
import { call, control, errorBody, get, mainProject, type Answer } from './helpers';

const MINUTE = 60_000;
const START = Date.UTC(2026, 5, 10, 12);
const HOGQL = { kind: 'HogQLQuery', query: 'select count() from events' };

/** Polls until the run is no longer 202 (each poll lets the server's timers run). */
async function settle(poll: () => Promise<Answer>): Promise<Answer> {
  for (;;) {
    const answer = await poll();
    if (answer.status !== 202) return answer;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('local API: Query API runs (async, poll, cancel, cache)', () => {
  let api: LocalApi;
  let projectId: number;
  const clock = { now: START };
  const base = () => `/api/projects/${projectId}/query/`;
  const post = (query: unknown, extra: Record<string, unknown> = {}): Promise<Answer> => call(api, 'POST', base(), { body: { query, ...extra } });
  const poll = (id: string, suffix = ''): Promise<Answer> => get(api, `${base()}${id}/${suffix}`);
  const cancel = (id: string, suffix = ''): Promise<Answer> => call(api, 'DELETE', `${base()}${id}/${suffix}`);

  before(async () => {
    api = await startLocalApi({ seed: 'minimal', control: true, now: () => new Date(clock.now) });
    ({ projectId } = mainProject(api));
  });
  beforeEach(() => {
    clock.now += 10 * MINUTE;
    api.setQueryApi({ available: true, runMs: 0 });
  });
  after(() => api.close());

  test('async: 202 with a query_status, then polls answer 200 with the whole response', async () => {
    const started = await post(HOGQL, { refresh: 'force_async', client_query_id: 'run-1' });
    assert.equal(started.status, 202);
    const status = started.json.query_status;
    assert.equal(status.id, 'run-1');
    assert.equal(status.complete, false);
    assert.equal(status.query_async, true);
    assert.equal(status.team_id, projectId);
    assert.equal(Date.parse(status.expiration_time) - Date.parse(status.start_time), 20 * MINUTE);
    const done = await settle(() => poll('run-1'));
    assert.equal(done.status, 200);
    assert.equal(done.json.query_status.complete, true);
    const blocking = await post(HOGQL, { refresh: 'force_blocking' });
    assert.deepEqual(done.json.query_status.results.results, blocking.json.results);
    assert.deepEqual(done.json.query_status.results.columns, ['count()']);
  });

  test('without client_query_id the server makes a hex id', async () => {
    const started = await post(HOGQL, { refresh: 'force_async' });
    assert.match(started.json.query_status.id, /^[0-9a-f]{32}$/);
    assert.equal((await settle(() => poll(started.json.query_status.id))).status, 200);
  });

  test('a slow run: 202 while running (with progress when asked), cancelled, then 404', async () => {
    api.setQueryApi({ runMs: 3_600_000 });
    const started = await post({ kind: 'EventsQuery', select: ['event'] }, { refresh: 'async', client_query_id: 'slow-1' });
    assert.equal(started.status, 202);
    assert.equal(typeof started.json.cache_key, 'string');
    const running = await poll('slow-1');
    assert.equal(running.status, 202);
    assert.equal(running.json.query_status.complete, false);
    assert.equal(running.json.query_status.query_progress, null);
    const progress = await poll('slow-1', '?show_progress=true');
    assert.deepEqual(Object.keys(progress.json.query_status.query_progress).sort(), ['active_cpu_time', 'bytes_read', 'estimated_rows_total', 'rows_read', 'time_elapsed']);
    const cancelled = await cancel('slow-1');
    assert.deepEqual([cancelled.status, cancelled.json], [200, { message: 'Cancelled query on clickhouse' }]);
    const gone = await poll('slow-1');
    assert.deepEqual([gone.status, gone.json], [404, errorBody('invalid_request', 'not_found', `Query slow-1 not found for team ${projectId}`)]);
    assert.deepEqual((await cancel('never-existed')).json, { message: 'Cancelled query on clickhouse' }, 'an unknown id is still "cancelled"');
    await post(HOGQL, { refresh: 'force_async', client_query_id: 'slow-2' });
    assert.deepEqual((await cancel('slow-2', '?dequeue_only=true')).json, { message: 'Only tried to dequeue, not cancelling query on clickhouse' });
    assert.equal((await poll('slow-2')).status, 404);
  });

  test('a complete run is kept by DELETE and expires 20 minutes after its last write', async () => {
    await post(HOGQL, { refresh: 'force_async', client_query_id: 'done-1' });
    assert.equal((await settle(() => poll('done-1'))).status, 200);
    assert.deepEqual((await cancel('done-1')).json, { message: 'Query already complete' });
    clock.now += 20 * MINUTE - 1;
    assert.equal((await poll('done-1')).status, 200);
    clock.now += 1;
    assert.equal((await poll('done-1')).status, 404);
  });

  test('a failed run: 400 with the HogQL message, in the status', async () => {
    await post({ kind: 'HogQLQuery', query: 'select nope from events' }, { refresh: 'force_async', client_query_id: 'bad-1' });
    const failed = await settle(() => poll('bad-1'));
    assert.equal(failed.status, 400);
    assert.equal(failed.json.query_status.error, true);
    assert.equal(failed.json.query_status.complete, true);
    assert.equal(failed.json.query_status.error_message, 'Unable to resolve field: nope');
  });

  test('client_query_id reuse: async gets the stored status back, force_async starts over', async () => {
    api.setQueryApi({ runMs: 3_600_000 });
    const first = await post({ kind: 'HogQLQuery', query: 'select 1' }, { refresh: 'async', client_query_id: 'same' });
    clock.now += MINUTE;
    const again = await post({ kind: 'HogQLQuery', query: 'select 2' }, { refresh: 'async', client_query_id: 'same' });
    assert.deepEqual(again.json.query_status, first.json.query_status);
    const fresh = await post({ kind: 'HogQLQuery', query: 'select 2' }, { refresh: 'force_async', client_query_id: 'same' });
    assert.notEqual(fresh.json.query_status.start_time, first.json.query_status.start_time);
    await cancel('same');
  });

  test('the cache: blocking answers a fresh HogQL result from it; force_blocking and an EventsQuery with relative bounds recompute', async () => {
    const query = { kind: 'HogQLQuery', query: 'select count() from events where event = \'$pageview\'' };
    assert.equal((await post(query)).json.is_cached, false);
    const cached = await post(query);
    assert.equal(cached.json.is_cached, true);
    assert.equal((await post(query, { refresh: 'force_blocking' })).json.is_cached, false);
    clock.now += 2 * MINUTE;
    assert.equal((await post(query)).json.is_cached, false, 'stale after a minute');
    const events = { kind: 'EventsQuery', select: ['event'], after: '-1h' };
    await post(events);
    assert.equal((await post(events)).json.is_cached, false);
    const fixed = { kind: 'EventsQuery', select: ['event'], after: '2026-06-01T00:00:00Z', before: '2026-06-02T00:00:00Z' };
    await post(fixed);
    assert.equal((await post(fixed)).json.is_cached, true, 'both bounds fixed: cacheable');
    api.setQueryApi({ runMs: 3_600_000 });
    const lazy = await post(query, { refresh: 'lazy_async' });
    assert.equal(lazy.status, 200, 'lazy_async answers a cached result at once');
    assert.equal(lazy.json.is_cached, true);
  });

  test('an older server: 404 under /query/ (also set over the control surface) while the events list answers', async () => {
    api.setQueryApi({ available: false });
    const answer = await post(HOGQL);
    assert.deepEqual([answer.status, answer.json], [404, errorBody('invalid_request', 'not_found', 'Not found.')]);
    assert.equal((await poll('x')).status, 404);
    assert.equal((await get(api, `/api/projects/${projectId}/events/`)).status, 200);
    api.setQueryApi({ available: true });
    assert.equal((await post(HOGQL)).status, 200);
    assert.equal((await control(api, 'POST', 'settings', { queryApi: false, queryRunMs: 5 })).json.queryApi, false);
    assert.equal((await post(HOGQL)).status, 404);
  });
});

describe('local API: Query API cursor paging', () => {
  let api: LocalApi;
  let projectId: number;

  before(async () => {
    api = await startLocalApi({ seed: 'minimal' });
    ({ projectId } = mainProject(api));
  });
  after(() => api.close());

  test('nextCursor pages through 350 events sharing one timestamp with none lost or repeated', async () => {
    const at = new Date(Date.now() - 3_600_000);
    const tied = new Set(Array.from({ length: 350 }, (_, i) => api.store.addEvent(projectId, { event: 'tied', timestamp: at, properties: { i } }).uuid));
    api.store.addEvent(projectId, { event: 'tied', timestamp: new Date(at.getTime() + 1) });
    api.store.addEvent(projectId, { event: 'tied', timestamp: new Date(at.getTime() - 1) });
    const page = (before?: string) =>
      call(api, 'POST', `/api/projects/${projectId}/query/`, { body: { query: { kind: 'EventsQuery', select: ['uuid', 'timestamp'], event: 'tied', orderBy: ['timestamp DESC'], limit: 100, ...(before ? { before } : {}) } } });
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const answer = await page(cursor);
      assert.equal(answer.status, 200, answer.text);
      seen.push(...answer.json.results.map((row: string[]) => row[0]));
      cursor = answer.json.nextCursor;
      if (cursor) assert.match(cursor, /^\d{4}-.*\|[0-9a-f-]{36}$/);
      assert.equal(Boolean(cursor), answer.json.hasMore);
      pages++;
    } while (cursor && pages < 10);
    assert.equal(seen.length, 352);
    assert.equal(new Set(seen).size, 352, 'no event repeated');
    assert.ok([...tied].every((uuid) => seen.includes(uuid)), 'no event lost');

    const bare = await call(api, 'POST', `/api/projects/${projectId}/query/`, { body: { query: { kind: 'EventsQuery', select: ['timestamp'], event: 'tied', orderBy: ['timestamp DESC'], limit: 100 } } });
    const plain: string = bare.json.nextCursor;
    assert.ok(!plain.includes('|'), 'without uuid selected the cursor is the bare timestamp');
    const after = await call(api, 'POST', `/api/projects/${projectId}/query/`, { body: { query: { kind: 'EventsQuery', select: ['timestamp'], event: 'tied', orderBy: ['timestamp DESC'], before: plain } } });
    assert.equal(after.json.results.length, 1, 'a bare timestamp is a plain strict bound: the rest of the tie is skipped');
  });
});

describe('local API: Query API throttles by kind', () => {
  let api: LocalApi;
  let projectId: number;
  let clock = START;

  before(async () => {
    api = await startLocalApi({ seed: 'minimal', rateLimits: true, now: () => new Date(clock) });
    ({ projectId } = mainProject(api));
  });
  after(() => api.close());

  const post = (query: unknown, key?: string): Promise<Answer> => call(api, 'POST', `/api/projects/${projectId}/query/`, { body: { query }, key });

  test('a bare HogQLQuery counts against `query` (120 an hour); a wrapped one and EventsQuery against ClickHouse', async () => {
    const key = api.createKey({ scopes: ['query:read'] });
    const hogql = { kind: 'HogQLQuery', query: 'select 1' };
    for (let i = 0; i < 120; i++) {
      clock += 1000;
      assert.equal((await post(hogql, key)).status, 200, `request ${i + 1}`);
    }
    const refused = await post(hogql, key);
    assert.equal(refused.status, 429);
    assert.match(refused.json.detail, /^Request was throttled\. Expected available in \d+ seconds\.$/);
    assert.equal((await post({ kind: 'DataVisualizationNode', source: hogql }, key)).status, 200, 'wrapped: ClickHouse buckets');
    assert.equal((await post({ kind: 'EventsQuery', select: ['event'] }, key)).status, 200);
    clock += 3_600_000;
    assert.equal((await post(hogql, key)).status, 200, 'an hour later');
  });

  test('EventsQuery, polls, cancels and the events list share the ClickHouse buckets (240 a minute)', async () => {
    const key = api.createKey({ scopes: ['query:read'] });
    clock += 3_600_000;
    const kinds = [
      () => post({ kind: 'EventsQuery', select: ['event'] }, key),
      () => get(api, `/api/projects/${projectId}/events/?limit=1`, { key }),
      () => get(api, `/api/projects/${projectId}/query/unknown/`, { key }),
      () => call(api, 'DELETE', `/api/projects/${projectId}/query/unknown/`, { key }),
      () => post({ kind: 'HogQLMetadata', language: 'hogQL', query: 'select 1' }, key),
    ];
    for (let i = 0; i < 240; i++) assert.notEqual((await kinds[i % kinds.length]!()).status, 429, `request ${i + 1}`);
    for (const next of kinds) assert.equal((await next()).status, 429);
    assert.equal((await post({ kind: 'HogQLQuery', query: 'select 1' }, key)).status, 200, 'a bare HogQLQuery is not in these buckets');
  });
});
