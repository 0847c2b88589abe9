// The EventsQuery walk (src/api/eventsQueryPages.ts) against the local API's Query API (nextCursor, the uuid
// tiebreak, strict bounds), and against servers that ignore the cursor or send none.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { type LocalApi, startLocalApi } from '../../api-server';
import { type EventsBatch, type EventsQueryFetch, type EventsQueryResponse, PostHogClient, type QueriedEvent, RequestBudgets, STALLED_PAGES, StalledWalkError, walkEventsQuery } from '../../../src/api';

let api: LocalApi;
let client: PostHogClient;
let organizationId: string;

before(async () => {
  api = await startLocalApi({ seed: 'empty' });
  organizationId = api.store.addOrganization('Query Walk Org', [{ userId: api.store.mainUser.id, level: 15 }]).id;
  client = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.all, budgets: new RequestBudgets() });
});
after(async () => {
  await client.dispose();
  await api.close();
});
beforeEach(() => api.clearRequests());

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

async function collect(batches: AsyncIterable<EventsBatch>): Promise<EventsBatch[]> {
  const all: EventsBatch[] = [];
  for await (const batch of batches) all.push(batch);
  return all;
}

function allIds(projectId: number): string[] {
  const table = api.store.eventsOf(projectId);
  return [...table.sorted()].map((row) => table.record(row).uuid);
}

const queryBodies = () => api.requests.filter((request) => request.path.includes('/query/')).map((request) => (request.body as { query: Record<string, unknown> }).query);

describe('EventsQuery walk', () => {
  test('250 events on one timestamp across pages of 100: each once, by PostHog\'s cursor', async () => {
    const projectId = api.store.createProject(organizationId, { name: 'Ties' }).id;
    api.store.addSteadyEvents(projectId, 250, { clusterEvery: 1, clusterSize: 250 });
    const now = api.store.now().getTime() * 1000;
    api.store.addEventsBetween(projectId, 120, now - 2 * 3_600_000_000, now - 3_600_000_000);
    const batches = await collect(client.queries.eventPages(projectId, { limit: 100, after: hoursAgo(3) }));
    const ids = batches.flatMap((batch) => batch.events.map((event) => event.id));
    assert.equal(ids.length, 370);
    assert.equal(new Set(ids).size, 370);
    assert.deepEqual(new Set(ids), new Set(allIds(projectId)));
    assert.equal(batches.at(-1)!.last, true);
    const bodies = queryBodies();
    assert.deepEqual(bodies[0]!['orderBy'], ['timestamp DESC']);
    assert.match(String(bodies[1]!['before']), /\|[0-9a-f-]{36}$/, 'the second page asks before PostHog\'s cursor');
  });

  test('rows come newest first with the user\'s columns after the event and its person', async () => {
    const projectId = api.store.createProject(organizationId, { name: 'Columns' }).id;
    api.store.addEvent(projectId, { event: 'clicked', distinct_id: 'd1', properties: { $browser: 'Firefox' }, timestamp: hoursAgo(1) });
    api.store.addEvent(projectId, { event: 'viewed', distinct_id: 'd2', properties: { $browser: 'Chrome' }, timestamp: hoursAgo(2) });
    const batches = await collect(client.queries.eventPages(projectId, { after: hoursAgo(3), columns: ['properties.$browser', 'upper(event)'], where: ["event != 'nothing'"] }));
    const events = batches.flatMap((batch) => batch.events) as QueriedEvent[];
    assert.deepEqual(events.map((event) => [event.event, event.distinct_id, ...(event.selected ?? [])]), [
      ['clicked', 'd1', 'Firefox', 'CLICKED'],
      ['viewed', 'd2', 'Chrome', 'VIEWED'],
    ]);
    assert.deepEqual(queryBodies()[0]!['where'], ["event != 'nothing'"]);
  });
});

/** A server answering full pages of the same rows (it ignores `before`), `hasMore` always true. */
function ignoringCursor(rows: number, withCursor: boolean): EventsQueryFetch {
  const time = '2026-01-01T00:00:00.000000Z';
  const results = Array.from({ length: rows }, (_, index) => [{ uuid: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`, event: 'e', timestamp: time, distinct_id: 'd', properties: {} }, null]);
  let calls = 0;
  return async () => {
    if (++calls > 20) throw new Error('the walk never stopped');
    return { results, columns: ['*', 'person'], hasMore: true, ...(withCursor ? { nextCursor: `${time}|00000000-0000-4000-8000-000000000000` } : {}) } as EventsQueryResponse;
  };
}

describe('EventsQuery walk against a server that does not keep to the cursor', () => {
  for (const withCursor of [true, false]) {
    test(`the same page again${withCursor ? '' : ' (no nextCursor)'}: each row given once, then the walk stops as stalled`, async () => {
      const given: string[] = [];
      await assert.rejects(
        (async () => {
          for await (const batch of walkEventsQuery(ignoringCursor(10, withCursor), { limit: 10 })) given.push(...batch.events.map((event) => event.id));
        })(),
        (error: unknown) => error instanceof StalledWalkError && error.eventsGiven === 10,
      );
      assert.equal(given.length, 10);
      assert.equal(new Set(given).size, 10);
    });
  }

  test('rows newer than the cursor asked are dropped', async () => {
    let page = 0;
    const fetch: EventsQueryFetch = async () => {
      page++;
      const row = (id: number, time: string) => [{ uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`, event: 'e', timestamp: time, distinct_id: 'd' }, null];
      const results = page === 1 ? [row(1, '2026-01-01T00:00:02Z'), row(2, '2026-01-01T00:00:01Z')] : [row(3, '2026-01-01T00:00:03Z'), row(4, '2026-01-01T00:00:00Z')];
      return { results, columns: [], hasMore: page === 1, nextCursor: '2026-01-01T00:00:01.000000Z|00000000-0000-4000-8000-000000000002' } as EventsQueryResponse;
    };
    const batches = await collect(walkEventsQuery(fetch, { limit: 2 }));
    assert.deepEqual(batches.flatMap((batch) => batch.events.map((event) => event.id.slice(-1))), ['1', '2', '4']);
    assert.equal(STALLED_PAGES, 3);
  });
});
