// The events list's progressive windows, strict `before` and deployment levels, as posthog-behaviour.md
// ("Events list paging") records them from PostHog's legacy_events_query.py.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startLocalApi, type EventListLevel, type LocalApi } from '../../api-server';
import { windowCacheKey } from '../../api-server/events-query';
import { errorBody, get } from './helpers';

const NOW = Date.UTC(2026, 2, 2, 12, 0, 0);
const q = (value: string): string => encodeURIComponent(value);

interface Page {
  next: string | null;
  results: { id: string; timestamp: string }[];
}

async function startAt(level: EventListLevel): Promise<{ api: LocalApi; clock: { now: number }; projectId: number }> {
  const clock = { now: NOW };
  const api = await startLocalApi({ seed: 'minimal', eventListLevel: level, now: () => new Date(clock.now) });
  const org = api.store.organizations[0]!;
  const projectId = api.store.createProject(org.id, { name: `Windows ${level}` }).id;
  return { api, clock, projectId };
}

describe('local API: the events list probes time windows', () => {
  let api: LocalApi;
  let clock: { now: number };
  let projectId: number;
  let base: string;
  const page = async (query: string): Promise<Page> => (await get(api, `${base}/?${query}`)).json as Page;

  before(async () => {
    ({ api, clock, projectId } = await startAt(2));
    base = `/api/projects/${projectId}/events`;
    api.store.addSteadyEvents(projectId, 7_200); // two hours at one a second
  });
  after(() => api.close());
  beforeEach(() => api.store.eventWindows.clear());

  test('a quiet project: the first page is the 15-minute window (about 900 rows of 1,000) without next, though older events exist', async () => {
    const first = await page('limit=1000');
    assert.ok(first.results.length >= 880 && first.results.length <= 920, `${first.results.length} rows`);
    assert.equal(first.next, null, 'no next: the window held fewer than a page');
    const oldest = first.results.at(-1)!.timestamp;
    const older = await page(`limit=1000&before=${q(oldest)}`);
    assert.ok(older.results.length >= 500, 'asked again below the oldest row, PostHog has more');
    assert.ok(older.results.every((event) => event.timestamp < oldest));
  });

  test('the window that gave half a page is cached per project and request shape, and tried first', async () => {
    await page('limit=1000');
    const key = windowCacheKey(projectId, false, false, 1000);
    assert.deepEqual({ ...api.store.eventWindows.get(key, clock.now), resultCount: 0 }, { window: 900, resultCount: 0 });
    assert.equal(api.store.eventWindows.get(windowCacheKey(projectId, true, false, 1000), clock.now), undefined, 'an event filter has its own entry');

    api.store.addSteadyEvents(projectId, 600, { perSecond: 20 }); // a burst: 600 in the last 30 seconds
    const cached = await page('limit=1000');
    assert.equal(cached.results.length, 1000, 'the cached 15-minute window is tried first: a full page');
    assert.ok(cached.next);
    api.store.eventWindows.clear();
    const fresh = await page('limit=1000');
    assert.ok(fresh.results.length >= 600 && fresh.results.length < 700, `without the cache the minute window wins: ${fresh.results.length}`);
    assert.equal(fresh.next, null);

    clock.now += 24 * 3_600_000 + 1;
    assert.equal(api.store.eventWindows.get(key, clock.now), undefined, 'kept 24 hours');
    clock.now = NOW;
  });

  test('only windows shorter than the asked range are probed; when none holds half a page the whole range answers, and next is exact', async () => {
    const end = new Date(NOW - 3_600_000);
    const start = new Date(end.getTime() - 10 * 60_000);
    const range = `after=${q(start.toISOString())}&before=${q(end.toISOString())}`;
    const whole = await page(`limit=1000&${range}`);
    assert.ok(whole.results.length >= 590 && whole.results.length <= 610, `all ten minutes: ${whole.results.length}`);
    assert.equal(whole.next, null);
    const small = await page(`limit=100&${range}`);
    assert.equal(small.results.length, 60, 'the one-minute window holds half of 100');
    assert.equal(small.next, null, 'and its next covers that window only');
  });

  test('before is strict: events sharing the last row\'s time are skipped by next, found with before = that time + 1 µs', async () => {
    const micros = (NOW - 5 * 3_600_000) * 1000;
    const ids: string[] = [];
    for (let i = 0; i < 98; i++) ids.push(api.store.addEvent(projectId, { event: 'cluster-test', timestamp: micros + (98 - i) * 1_000 }).uuid);
    const cluster = Array.from({ length: 5 }, () => api.store.addEvent(projectId, { event: 'cluster-test', timestamp: micros }).uuid);
    const window = `event=cluster-test&after=${q(new Date(NOW - 6 * 3_600_000).toISOString())}`;
    const first = await page(`limit=100&${window}`);
    assert.equal(first.results.length, 100);
    assert.ok(first.next);
    const next = (await get(api, new URL(first.next).pathname + new URL(first.next).search)).json as Page;
    const seen = new Set([...first.results, ...next.results].map((event) => event.id));
    const missed = cluster.filter((id) => !seen.has(id));
    assert.equal(missed.length, 3, 'three of the five sharing the boundary time are skipped');
    const boundary = first.results.at(-1)!.timestamp; // 2026-03-02T07:00:00.000000+00:00
    const justAfter = boundary.replace('.000000+', '.000001+');
    const overlap = await page(`limit=100&${window}&before=${q(justAfter)}`);
    assert.deepEqual(overlap.results.map((event) => event.id).sort(), cluster.sort(), 'the overlap brings the whole cluster');
  });
});

describe('local API: the events list at each PATCH_EVENT_LIST_MAX_OFFSET level', () => {
  const started: LocalApi[] = [];
  after(() => Promise.all(started.map((api) => api.close())));

  async function level(value: EventListLevel): Promise<{ api: LocalApi; base: string }> {
    const { api, projectId } = await startAt(value);
    started.push(api);
    api.store.addEvent(projectId, { event: 'old', timestamp: new Date(NOW - 30 * 86_400_000) });
    api.store.addSteadyEvents(projectId, 10);
    return { api, base: `/api/projects/${projectId}/events/` };
  }
  const yearsAgo = (days: number) => q(new Date(NOW + 5_000 - days * 86_400_000).toISOString());

  test('2 (enabled): no after means the last 24 hours; over 366 days is a generic 500; offsets over 50,000 are refused; X-PostHog-Warn', async () => {
    const { api, base } = await level(2);
    const recent = await get(api, base);
    assert.equal(recent.json.results.length, 10, 'the old event is out of reach');
    assert.equal(recent.headers.get('x-posthog-warn'), 'https://posthog.com/docs/api/events');
    const tooLong = await get(api, `${base}?after=${yearsAgo(367)}`);
    assert.equal(tooLong.status, 500);
    assert.deepEqual(tooLong.json, errorBody('server_error', 'error', 'A server error occurred.'));
    assert.equal((await get(api, `${base}?after=${yearsAgo(366)}`)).json.results.length, 11, '366 days is allowed');
    assert.equal((await get(api, `${base}?offset=50001`)).status, 400);
  });

  test('1 (migration): ranges over 366 days fail only now and then (1 %); the warning header is sent', async () => {
    const { api, base } = await level(1);
    const statuses = [];
    for (let i = 0; i < 20; i++) statuses.push((await get(api, `${base}?after=${yearsAgo(400)}`)).status);
    assert.ok(statuses.filter((status) => status === 200).length >= 18, statuses.join(','));
    assert.equal((await get(api, base)).json.results.length, 11, 'no lower bound without after');
    assert.equal((await get(api, base)).headers.get('x-posthog-warn'), 'https://posthog.com/docs/api/events');
  });

  test('0 (off, the self-hosted default): no lower bound, no range check, no offset cap, no warning', async () => {
    const { api, base } = await level(0);
    const all = await get(api, base);
    assert.equal(all.json.results.length, 11);
    assert.equal(all.headers.get('x-posthog-warn'), null);
    assert.equal((await get(api, `${base}?after=${yearsAgo(800)}`)).status, 200);
    assert.equal((await get(api, `${base}?offset=50001`)).status, 200);
    assert.equal((await get(api, `${base}?offset=abc`)).json.results.length, 11, 'an offset that is not a number reads as 0');
  });
});
