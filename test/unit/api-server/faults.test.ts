import { describe, test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startLocalApi, type LocalApi } from '../../api-server';
import { RateLimiter } from '../../api-server/throttle';
import { call, errorBody, get, mainProject } from './helpers';

describe('local API: injected faults and latency', () => {
  let api: LocalApi;
  let notebooks: string;

  before(async () => {
    api = await startLocalApi({ seed: 'minimal' });
    notebooks = `/api/projects/${mainProject(api).projectId}/notebooks/`;
  });
  beforeEach(() => api.clearRequests());
  after(() => api.close());

  test('a 503 fault answers once with a gateway page, then the route works again', async () => {
    api.injectFault({ path: /\/notebooks\/$/, status: 503 });
    const failed = await get(api, notebooks);
    assert.equal(failed.status, 503);
    assert.match(failed.headers.get('content-type') ?? '', /text\/html/);
    assert.equal((await get(api, notebooks)).status, 200);
    assert.deepEqual(api.requests.map((r) => r.status), [503, 200]);
  });

  test('PostHog\'s query errors on demand: 402 (three codes), 513 (two texts), 503 with and without Retry-After, 400 too_many_bytes', async () => {
    const answer = async (rule: Parameters<LocalApi['injectFault']>[0]) => {
      api.injectFault({ path: /\/notebooks\/$/, ...rule });
      return get(api, notebooks);
    };
    const quota = await answer({ status: 402 });
    assert.equal(quota.status, 402);
    assert.deepEqual(quota.json, errorBody('server_error', 'quota_limit_exceeded', 'Your organization reached its billing limit for this resource. Increase the limits in Billing settings, or ask an org admin to do so.'));
    assert.equal((await answer({ status: 402, code: 'api_queries_quota_exceeded' })).json.code, 'api_queries_quota_exceeded');
    assert.match((await answer({ status: 402, code: 'payment_required' })).json.detail, /premium PostHog offering/);
    const memory = await answer({ status: 513 });
    assert.deepEqual([memory.status, memory.json.code], [513, 'clickhouse_memory_limit_exceeded']);
    assert.match(memory.json.detail, /Try a shorter date range or narrower filters/);
    assert.match((await answer({ status: 513, heavyLoad: true })).json.detail, /^We're under heavy load right now/);
    const unavailable = await answer({ status: 503, code: 'database_unavailable' });
    assert.deepEqual([unavailable.json.type, unavailable.json.code, unavailable.headers.get('retry-after')], ['server_error', 'database_unavailable', '1']);
    const busy = await answer({ status: 503, code: 'error' });
    assert.deepEqual(busy.json, errorBody('server_error', 'error', "Queries are a little too busy right now. We're working to free up resources. Please try again later."));
    assert.equal(busy.headers.get('retry-after'), null);
    const bytes = await answer({ status: 400, code: 'too_many_bytes' });
    assert.deepEqual([bytes.status, bytes.json.type, bytes.json.code], [400, 'validation_error', 'too_many_bytes']);
    assert.throws(() => api.injectFault({ status: 402, code: 'nonsense' }), /No 402 answer/);
  });

  test('a 500 fault answers the JSON server error body', async () => {
    api.injectFault({ status: 500 });
    const answer = await get(api, '/api/users/@me/');
    assert.deepEqual(answer.json, errorBody('server_error', 'error', 'A server error occurred.'));
  });

  test('a 429 fault names the wait in the detail and sends Retry-After only when asked', async () => {
    api.injectFault({ status: 429, throttleSeconds: 7 });
    const plain = await get(api, notebooks);
    assert.equal(plain.status, 429);
    assert.deepEqual(plain.json, errorBody('throttled_error', 'throttled', 'Request was throttled. Expected available in 7 seconds.'));
    assert.equal(plain.headers.get('retry-after'), null);
    api.injectFault({ status: 429, retryAfterSeconds: 1 });
    const withHeader = await get(api, notebooks);
    assert.equal(withHeader.headers.get('retry-after'), '1');
    assert.equal(withHeader.json.detail, 'Request was throttled. Expected available in 1 second.');
  });

  test('a 429 fault writes its Retry-After header and its detail\'s wait as given (a date, "NaN", digits past a double)', async () => {
    api.injectFault({ status: 429, retryAfter: 'Wed, 01 Jan 3000 00:00:00 GMT', throttleText: 'NaN' });
    const odd = await get(api, notebooks);
    assert.equal(odd.status, 429);
    assert.equal(odd.headers.get('retry-after'), 'Wed, 01 Jan 3000 00:00:00 GMT');
    assert.equal(odd.json.detail, 'Request was throttled. Expected available in NaN seconds.');
  });

  test('512 answers PostHog\'s "too long" JSON; a 504 query timeout answers its JSON, a plain 504 the gateway page', async () => {
    const events = `/api/projects/${mainProject(api).projectId}/events/`;
    api.injectFault({ path: /\/events\/$/, status: 512 });
    const tooLong = await get(api, events);
    assert.equal(tooLong.status, 512);
    assert.deepEqual(
      tooLong.json,
      errorBody('server_error', 'error', 'Estimated query execution time is too long. Try reducing its scope by changing the time range.'),
    );
    api.injectFault({ path: /\/events\/$/, status: 504, queryTimeout: true });
    const timedOut = await get(api, events);
    assert.equal(timedOut.status, 504);
    assert.match(timedOut.json.detail, /^Query has hit the max execution time before completing\./);
    api.injectFault({ status: 504 });
    assert.match((await get(api, events)).headers.get('content-type') ?? '', /text\/html/);
    assert.equal((await get(api, events)).status, 200);
  });

  test('times, method and path narrow which requests fail', async () => {
    api.injectFault({ method: 'PATCH', path: /notebooks/, status: 502, times: 2 });
    assert.equal((await get(api, notebooks)).status, 200, 'GET is not matched');
    const shortId = api.store.notebooksOf(mainProject(api).projectId)[0]!.short_id;
    const patch = () => call(api, 'PATCH', `${notebooks}${shortId}/`, { body: { title: 'x' } });
    assert.equal((await patch()).status, 502);
    assert.equal((await patch()).status, 502);
    assert.equal((await patch()).status, 200);
  });

  test('drop destroys the connection and is recorded with status 0', async () => {
    api.injectFault({ drop: true });
    await assert.rejects(fetch(`${api.url}${notebooks}`, { headers: { Authorization: `Bearer ${api.keys.all}` } }));
    assert.equal(api.requests.at(-1)!.status, 0);
    assert.equal((await get(api, notebooks)).status, 200);
  });

  test('latency delays answers (a short client timeout gives up)', async () => {
    api.setLatency(300);
    try {
      await assert.rejects(fetch(`${api.url}${notebooks}`, { headers: { Authorization: `Bearer ${api.keys.all}` }, signal: AbortSignal.timeout(30) }));
    } finally {
      api.setLatency(0);
    }
    api.injectFault({ delayMs: 300 });
    await assert.rejects(fetch(`${api.url}${notebooks}`, { headers: { Authorization: `Bearer ${api.keys.all}` }, signal: AbortSignal.timeout(30) }));
  });
});

describe('local API: rate limits', () => {
  let api: LocalApi;
  let clock = Date.UTC(2025, 0, 6, 12, 0, 0);
  before(async () => {
    api = await startLocalApi({ seed: 'minimal', rateLimits: true, now: () => new Date(clock) });
  });
  after(() => api.close());

  const burst = async (path: string, n: number) => {
    const statuses: number[] = [];
    for (let i = 0; i < n; i += 40) {
      const batch = await Promise.all(Array.from({ length: Math.min(40, n - i) }, () => get(api, path)));
      statuses.push(...batch.map((a) => a.status));
    }
    return statuses;
  };

  test('480 requests a minute per key, then 429 without Retry-After', async () => {
    const statuses = await burst('/api/users/@me/', 480);
    assert.ok(statuses.every((s) => s === 200));
    const throttled = await get(api, '/api/users/@me/');
    assert.equal(throttled.status, 429);
    assert.deepEqual(throttled.json, errorBody('throttled_error', 'throttled', 'Request was throttled. Expected available in 60 seconds.'));
    assert.equal(throttled.headers.get('retry-after'), null);
    assert.equal((await get(api, '/api/users/@me/', { key: api.keys.readOnly })).status, 200, 'other keys are not affected');
    clock += 61_000;
    assert.equal((await get(api, '/api/users/@me/')).status, 200);
  });

  test('the events endpoints allow 240 a minute', async () => {
    clock += 3_600_000;
    const path = `/api/projects/${mainProject(api).projectId}/events/?limit=1`;
    const statuses = await burst(path, 241);
    assert.deepEqual(statuses.slice(0, 240).filter((s) => s !== 200), []);
    assert.equal(statuses[240], 429);
    assert.equal((await get(api, '/api/users/@me/')).status, 200, 'the general limit is counted separately');
  });

  test('events/values has its own 60 a minute, apart from the events limit', async () => {
    clock += 3_600_000;
    const base = `/api/projects/${mainProject(api).projectId}/events/`;
    const statuses = await burst(`${base}values/?key=%24browser&event_name=%24pageview`, 61);
    assert.deepEqual(statuses.slice(0, 60).filter((s) => s !== 200), []);
    assert.equal(statuses[60], 429);
    assert.equal((await get(api, `${base}?limit=1`)).status, 200, 'the events list is counted separately');
  });

  test('the hourly limits (4,800, 1,200 and 300 for values) are sliding windows', () => {
    const limiter = new RateLimiter();
    const start = 1_000_000;
    for (let i = 0; i < 4800; i++) assert.equal(limiter.check('k', 'default', start + i * 200), undefined);
    const wait = limiter.check('k', 'default', start + 4800 * 200);
    assert.ok(wait !== undefined && wait > 2000 && wait <= 3600);
    assert.equal(limiter.check('k', 'default', start + 3_600_001), undefined);
    for (let i = 0; i < 1200; i++) assert.equal(limiter.check('e', 'clickhouse', start + i * 1000), undefined);
    assert.notEqual(limiter.check('e', 'clickhouse', start + 1200 * 1000), undefined);
    for (let i = 0; i < 300; i++) assert.equal(limiter.check('v', 'eventValues', start + i * 10_000), undefined);
    assert.notEqual(limiter.check('v', 'eventValues', start + 300 * 10_000), undefined);
  });
});
