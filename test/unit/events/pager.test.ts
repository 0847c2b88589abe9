import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { type LocalApi, startLocalApi } from '../../api-server';
import { type BudgetWait, PostHogClient, RequestBudgets, timestampMicros } from '../../../src/api';
import { buildQuery } from '../../../src/events/filters';
import { EventPager, type PagerSink } from '../../../src/events/pager';
import { defaultFilters, type FilterState, type Row } from '../../../src/events/protocol';

let api: LocalApi;
let client: PostHogClient;
let projectId: number;
let quietProjectId: number;
let clusterProjectId: number;
let emptyProjectId: number;

class RecordingSink implements PagerSink {
  readonly pages: { start: number; rows: Row[]; done: boolean }[] = [];
  readonly statuses: { loading: boolean; error?: string }[] = [];
  readonly waits: (BudgetWait | undefined)[] = [];
  rows(start: number, rows: Row[], done: boolean): void {
    this.pages.push({ start, rows, done });
  }
  status(loading: boolean, error?: string): void {
    this.statuses.push({ loading, error });
  }
  waiting(wait: BudgetWait | undefined): void {
    this.waits.push(wait);
  }
  get all(): Row[] {
    return this.pages.flatMap((page) => page.rows);
  }
}

function pager(filters: Partial<FilterState>, sink: PagerSink, options: { prefetchRows?: number; maxRows?: number } = {}, project = projectId, events = client.events) {
  const query = buildQuery({ ...defaultFilters(), ...filters }, api.store.now());
  return new EventPager((call) => events.pages(project, query.filters, call), query, sink, options);
}

const eventRequests = (project = projectId) =>
  api.requests.filter((request) => request.path === `/api/projects/${project}/events/` && request.method === 'GET');

/** Every event of a project newer than `hours` ago, newest first, as the store has them. */
function storedIds(project: number, hours: number): string[] {
  const table = api.store.eventsOf(project);
  const since = (api.store.now().getTime() - hours * 3_600_000) * 1000;
  return [...table.sorted()].filter((row) => table.timeOf(row) > since).map((row) => table.record(row).uuid);
}

before(async () => {
  api = await startLocalApi({ seed: 'empty' });
  const org = api.store.addOrganization('Pager Org', [{ userId: api.store.mainUser.id, level: 15 }]);
  projectId = api.store.createProject(org.id, { name: 'Pager' }).id;
  quietProjectId = api.store.createProject(org.id, { name: 'Quiet' }).id;
  clusterProjectId = api.store.createProject(org.id, { name: 'Clusters' }).id;
  emptyProjectId = api.store.createProject(org.id, { name: 'Empty' }).id;
  api.store.addSteadyEvents(projectId, 5_000, { perSecond: 20 }); // dense: PostHog's first window fills every page
  api.store.addSteadyEvents(quietProjectId, 3_000, { perSecond: 1 });
  api.store.addSteadyEvents(clusterProjectId, 2_000, { perSecond: 1, clusterEvery: 9, clusterSize: 6 });
  client = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.all });
});
after(async () => {
  await client.dispose();
  await api.close();
});
beforeEach(() => api.clearRequests());

describe('event pager', () => {
  test('loads the first rows and a prefetch margin, not the whole list', async () => {
    const sink = new RecordingSink();
    const events = pager({ limit: '100' }, sink, { prefetchRows: 250 });
    await events.need(0);
    // row 0 + 250 ahead → 251 rows → 3 pages of 100 (each after the first brings its first row again)
    assert.equal(events.loaded, 298);
    assert.equal(eventRequests().length, 3);
    assert.deepEqual(sink.pages.map((page) => page.start), [0, 100, 199]);
    assert.ok(sink.pages.every((page) => !page.done));
    assert.deepEqual(sink.statuses, [{ loading: true, error: undefined }, { loading: false, error: undefined }]);
  });

  test('each later page asks below the oldest row it has, a microsecond later, and drops the row it already has', async () => {
    const sink = new RecordingSink();
    const events = pager({ limit: '100' }, sink, { prefetchRows: 0 });
    await events.need(250);
    const requests = eventRequests();
    assert.equal(requests.length, 3);
    assert.equal(requests[0]!.query['before'], undefined);
    let loaded = 0;
    for (let page = 1; page < requests.length; page++) {
      loaded += sink.pages[page - 1]!.rows.length;
      const before = timestampMicros(String(requests[page]!.query['before']));
      const oldestShown = timestampMicros(sink.all[loaded - 1]!.cells[0]!);
      assert.equal(before, oldestShown! + 1, `page ${page} continues below the previous one`);
    }
    const ids = sink.all.map((row) => row.id);
    assert.equal(new Set(ids).size, ids.length, 'no event twice');
    const times = sink.all.map((row) => Date.parse(row.cells[0]!));
    assert.deepEqual(times, [...times].sort((a, b) => b - a), 'newest first');
  });

  test('scrolling further loads further, up to the end of the list, then says done', async () => {
    const sink = new RecordingSink();
    const events = pager({ limit: '500', after: '-24h' }, sink, { prefetchRows: 200 });
    await events.need(0);
    assert.equal(events.loaded, 500);
    await events.need(4_800);
    assert.equal(events.loaded, 5_000);
    assert.equal(events.done, true);
    assert.equal(sink.pages.at(-1)!.done, true);
    const asked = eventRequests().length;
    await events.need(10_000);
    assert.equal(eventRequests().length, asked, 'nothing more is asked once done');
  });

  test('a page PostHog cut at a time window (no next, over half a page) is not the end: every event is listed', async () => {
    const sink = new RecordingSink();
    const quiet = pager({ limit: '1000', after: '-2h' }, sink, { prefetchRows: 0 }, quietProjectId);
    await quiet.need(0);
    assert.ok(sink.pages[0]!.rows.length < 1000, `PostHog's first answer: ${sink.pages[0]!.rows.length} rows, no next`);
    assert.equal(quiet.done, false, 'not the end');
    await quiet.need(10_000);
    assert.equal(quiet.done, true);
    assert.equal(quiet.loaded, 3_000, 'all of them');
  });

  test('events sharing a timestamp across a page boundary: none skipped, none twice', async () => {
    const sink = new RecordingSink();
    const events = pager({ limit: '100', after: '-2h' }, sink, { prefetchRows: 0 }, clusterProjectId);
    await events.need(10_000);
    const ids = sink.all.map((row) => row.id);
    assert.equal(new Set(ids).size, ids.length, 'no event twice');
    assert.deepEqual(new Set(ids), new Set(storedIds(clusterProjectId, 2)), 'every event');
    assert.equal(ids.length, 2_000);
    const boundaries = eventRequests(clusterProjectId).filter((request) => /\.\d{6}Z$/.test(String(request.query['before'] ?? '')));
    assert.ok(boundaries.length > 0);
  });

  test('concurrent needs share one loading loop and raise its target', async () => {
    const sink = new RecordingSink();
    const events = pager({ limit: '100' }, sink, { prefetchRows: 0 });
    await Promise.all([events.need(0), events.need(150), events.need(399)]);
    assert.equal(events.loaded, 496);
    assert.deepEqual(sink.pages.map((page) => page.start), [0, 100, 199, 298, 397]);
  });

  test('a 429 is waited out as PostHog\'s text says, and the panel is told while it waits', async () => {
    const slept: number[] = [];
    let now = Date.now();
    const budgets = new RequestBudgets({ now: () => now, sleep: async (ms) => void (slept.push(ms), (now += ms)) });
    const patient = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.all, budgets });
    try {
      api.injectFault({ path: /\/events\/$/, status: 429, throttleSeconds: 42 });
      const sink = new RecordingSink();
      const events = pager({ limit: '100' }, sink, { prefetchRows: 0 }, projectId, patient.events);
      await events.need(0);
      assert.equal(events.loaded, 100);
      assert.deepEqual(sink.waits.map((wait) => wait?.reason), ['throttled', undefined]);
      assert.match(sink.waits[0]?.detail ?? '', /Expected available in 42 seconds/);
      assert.deepEqual(slept, [42_000]);
      assert.deepEqual(eventRequests().map((request) => request.status), [429, 200]);
    } finally {
      await patient.dispose();
    }
  });

  test('cancel aborts the request in flight and nothing more reaches the sink', async () => {
    api.setLatency(300);
    try {
      const sink = new RecordingSink();
      const events = pager({ limit: '100' }, sink);
      const loading = events.need(0);
      setTimeout(() => events.cancel(), 50);
      await loading;
      assert.equal(events.cancelled, true);
      assert.equal(sink.pages.length, 0);
      assert.deepEqual(sink.statuses, [{ loading: true, error: undefined }]);
    } finally {
      api.setLatency(0);
    }
  });

  test('filters reach the server: event, relative after, properties', async () => {
    const sink = new RecordingSink();
    const events = pager(
      { event: '$pageview', after: '-2h', properties: [{ key: '$browser', operator: 'exact', value: 'Chrome', type: 'event' }], limit: '50', columns: '$current_url, $browser' },
      sink,
      { prefetchRows: 0 },
    );
    await events.need(0);
    const [request] = eventRequests();
    assert.equal(request!.query['event'], '$pageview');
    assert.match(String(request!.query['after']), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.deepEqual(JSON.parse(String(request!.query['properties'])), [{ key: '$browser', operator: 'exact', type: 'event', value: 'Chrome' }]);
    assert.ok(sink.all.length > 0);
    const twoHoursAgo = api.store.now().getTime() - 2 * 3_600_000;
    for (const row of sink.all) {
      assert.equal(row.cells[1], '$pageview');
      assert.ok(Date.parse(row.cells[0]!) >= twoHoursAgo - 1);
      assert.equal(row.cells[5], 'Chrome', 'the $browser column');
    }
  });

  test('a server refusal ends the list with its message', async () => {
    const sink = new RecordingSink();
    const events = pager({ propertiesJson: '[{"key":"a","value":"b","operator":"between"}]' }, sink);
    await events.need(0);
    assert.equal(events.done, true);
    assert.match(sink.statuses.at(-1)!.error ?? '', /between/);
  });

  test('an empty project is done at once', async () => {
    const sink = new RecordingSink();
    const events = pager({}, sink, {}, emptyProjectId);
    await events.need(0);
    assert.deepEqual(sink.pages, [{ start: 0, rows: [], done: true }]);
  });

  test('asks for the persons, so the Person column is filled', async () => {
    const sink = new RecordingSink();
    const events = pager({ limit: '200' }, sink, { prefetchRows: 0 });
    assert.equal(events.columns[3], 'Person');
    await events.need(0);
    assert.ok(eventRequests().every((request) => request.query['include_person'] === 'true'));
    assert.ok(sink.all.some((row) => row.cells[3] !== ''), 'some rows show their person');
  });

  test('a 512 (query too expensive) shows PostHog\'s text and is asked once', async () => {
    api.injectFault({ path: /\/events\/$/, status: 512 });
    const sink = new RecordingSink();
    const events = pager({}, sink);
    await events.need(0);
    assert.equal(events.done, true);
    assert.equal(sink.statuses.at(-1)!.error, 'Estimated query execution time is too long. Try reducing its scope by changing the time range.');
    assert.equal(eventRequests().length, 1);
  });

  test('a 504 query timeout shows PostHog\'s text and is not retried', async () => {
    api.injectFault({ path: /\/events\/$/, status: 504, queryTimeout: true });
    const sink = new RecordingSink();
    await pager({}, sink).need(0);
    assert.match(sink.statuses.at(-1)!.error ?? '', /^Query has hit the max execution time before completing\./);
    assert.equal(eventRequests().length, 1);
  });
});
