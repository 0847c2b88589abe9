// The events walk (src/api/eventPages.ts) against the local API, which answers as PostHog's current code:
// progressive windows, strict `before`, the range check.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { type LocalApi, startLocalApi } from '../../api-server';
import { type Event, type EventFilters, EventRangeError, type EventsBatch, type EventsPage, PostHogClient, RequestBudgets, STALLED_PAGES, StalledWalkError, walkEvents } from '../../../src/api';

let api: LocalApi;
let client: PostHogClient;
let organizationId: string;

before(async () => {
  api = await startLocalApi({ seed: 'empty' });
  organizationId = api.store.addOrganization('Walk Org', [{ userId: api.store.mainUser.id, level: 15 }]).id;
  client = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.all, budgets: new RequestBudgets() });
});
after(async () => {
  await client.dispose();
  await api.close();
});
beforeEach(() => api.clearRequests());

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

async function walk(projectId: number, filters: Parameters<PostHogClient['events']['pages']>[1]): Promise<EventsBatch[]> {
  const batches: EventsBatch[] = [];
  for await (const batch of client.events.pages(projectId, filters)) batches.push(batch);
  return batches;
}

function allIds(projectId: number): string[] {
  const table = api.store.eventsOf(projectId);
  return [...table.sorted()].map((row) => table.record(row).uuid);
}

describe('events walk', () => {
  test('2,500 events on one timestamp: asked again with PostHog\'s largest page, then by offset; each event once', async () => {
    const projectId = api.store.createProject(organizationId, { name: 'One instant' }).id;
    api.store.addSteadyEvents(projectId, 2_500, { clusterEvery: 1, clusterSize: 2_500 });
    const now = api.store.now().getTime() * 1000;
    api.store.addEventsBetween(projectId, 300, now - 2 * 3_600_000_000, now - 3_600_000_000);
    const batches = await walk(projectId, { limit: 100, after: hoursAgo(3) });
    const ids = batches.flatMap((batch) => batch.events.map((event) => event.id));
    assert.equal(ids.length, 2_800);
    assert.deepEqual(new Set(ids), new Set(allIds(projectId)));
    assert.equal(batches.at(-1)!.last, true);
    const sent = api.requests.map((request) => request.query);
    assert.deepEqual(sent.slice(0, 4).map((query) => [query['limit'], query['offset']]), [
      ['100', undefined],
      ['1000', undefined],
      ['1000', '1000'],
      ['1000', '2000'],
    ]);
  });

  test('a range over 366 days is refused before anything is sent', async () => {
    const projectId = api.store.createProject(organizationId, { name: 'Long range' }).id;
    await assert.rejects(walk(projectId, { after: new Date(Date.now() - 400 * 86_400_000).toISOString() }), (error: unknown) => error instanceof EventRangeError && error.days === 400);
    await assert.rejects(client.events.list(projectId, { after: '2024-01-01T00:00:00Z', before: '2025-01-02T00:00:01Z' }), EventRangeError);
    assert.deepEqual(api.requests, []);
    assert.equal((await walk(projectId, { after: new Date(Date.now() - 366 * 86_400_000 + 60_000).toISOString() })).length, 1, '366 days is asked');
  });
});

describe('events walk on a deployment without a lower bound (PATCH_EVENT_LIST_MAX_OFFSET 0, self-hosted)', () => {
  let open: LocalApi;
  let openClient: PostHogClient;
  before(async () => {
    open = await startLocalApi({ seed: 'empty', eventListLevel: 0 });
    openClient = new PostHogClient({ baseUrl: open.url, apiKey: open.keys.all, budgets: new RequestBudgets() });
  });
  after(async () => {
    await openClient.dispose();
    await open.close();
  });

  test('without after it walks every event, window cuts and quiet days included, to the real end', async () => {
    const org = open.store.addOrganization('Open', [{ userId: open.store.mainUser.id, level: 15 }]);
    const projectId = open.store.createProject(org.id, { name: 'Years' }).id;
    open.store.addSteadyEvents(projectId, 1_500, { perSecond: 1 });
    const now = open.store.now().getTime() * 1000;
    open.store.addEventsBetween(projectId, 50, now - 40 * 86_400_000_000, now - 39 * 86_400_000_000);
    const ids: string[] = [];
    for await (const batch of openClient.events.pages(projectId, { limit: 1_000 })) ids.push(...batch.events.map((event) => event.id));
    assert.equal(ids.length, 1_550);
    assert.equal(new Set(ids).size, 1_550);
  });
});

describe('events walk against a server that does not keep to where it asked to go on', () => {
  const START = Date.parse('2026-11-20T12:00:00Z');
  /** `count` events a second apart (or all at one time), newest first. */
  const rows = (count: number, { sameTime = false } = {}): Event[] =>
    Array.from({ length: count }, (_, index) => ({
      id: `e${index}`,
      distinct_id: 'd',
      properties: {},
      event: 'pageview',
      timestamp: new Date(START - (sameTime ? 0 : index * 1_000)).toISOString(),
    }));

  async function walkAgainst(answer: (request: EventFilters) => EventsPage): Promise<{ ids: string[]; requests: EventFilters[]; error?: unknown }> {
    const requests: EventFilters[] = [];
    const ids: string[] = [];
    try {
      for await (const batch of walkEvents(async (request) => (requests.push(request), answer(request)), { limit: 1_000 })) {
        ids.push(...batch.events.map((event) => event.id));
      }
      return { ids, requests };
    } catch (error) {
      return { ids, requests, error };
    }
  }

  test('a server that ignores `before` and answers the same page: each event once, then it stops as stalled', async () => {
    const page = { next: 'http://127.0.0.1/next', results: rows(1_000) };
    const { ids, requests, error } = await walkAgainst(() => page);
    assert.equal(ids.length, 1_000);
    assert.equal(new Set(ids).size, 1_000);
    assert.ok(error instanceof StalledWalkError, String(error));
    assert.equal(error.eventsGiven, 1_000);
    assert.match(error.userMessage, /same events again/);
    assert.equal(requests.length, 1 + STALLED_PAGES);
  });

  test('a server that ignores the offset while one timestamp is listed: each event once, then stalled', async () => {
    const page = { next: 'http://127.0.0.1/next', results: rows(1_000, { sameTime: true }) };
    const { ids, requests, error } = await walkAgainst(() => page);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(ids.length, 1_000);
    assert.ok(error instanceof StalledWalkError);
    assert.ok(requests.some((request) => request.offset !== undefined), 'it had gone on by offset');
  });

  test('a full page on one timestamp with nothing older ends as the end, not as a stall', async () => {
    const all = rows(1_000, { sameTime: true });
    const before = (request: EventFilters) => (request.before ? Date.parse(request.before) : Infinity);
    const { ids, error } = await walkAgainst((request) => ({ results: request.offset ? [] : all.filter((row) => Date.parse(row.timestamp) < before(request)) }));
    assert.equal(error, undefined);
    assert.equal(ids.length, 1_000);
  });
});
