// Where events are read (src/events/eventSource.ts): EventsQuery where the local API offers the Query API,
// the legacy list after its 404 (decided once per connection), or when the setting forces it; and where
// PostHog's HogQL error is in the form.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { type LocalApi, startLocalApi } from '../../api-server';
import { type EventsBatch, HogQLError, PostHogClient, RequestBudgets } from '../../../src/api';
import { eventBatches, eventsQueryFields, locateHogQLError, NeedsQueryApiError, SourceChoice } from '../../../src/events/eventSource';
import { buildQuery } from '../../../src/events/filters';
import { defaultFilters, type FilterState } from '../../../src/events/protocol';

let api: LocalApi;
let client: PostHogClient;
let projectId: number;

before(async () => {
  api = await startLocalApi({ seed: 'demo', demoEvents: 400 });
  projectId = api.store.visibleProjects()[0]!.id;
  client = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.all, budgets: new RequestBudgets() });
});
after(async () => {
  await client.dispose();
  await api.close();
});
beforeEach(() => {
  api.clearRequests();
  api.setQueryApi({ available: true, runMs: 0 });
});

const query = (form: Partial<FilterState> = {}) => buildQuery({ ...defaultFilters(), after: '-30d', limit: '50', ...form }, api.store.now());

async function firstBatch(choice: SourceChoice, form: Partial<FilterState> = {}, onLegacy?: (unshown: string[]) => void): Promise<EventsBatch> {
  const batches = eventBatches(client, choice, 'connection-1', projectId, query(form), {}, onLegacy);
  const first = await batches.next();
  await batches.return(undefined);
  assert.equal(first.done, false);
  return first.value as EventsBatch;
}

const paths = () => api.requests.map((request) => request.path.replace(/\d+/g, ':id'));

describe('the events source', () => {
  test('EventsQuery where the server has the Query API: the filters as its own fields, newest first', async () => {
    const batch = await firstBatch(new SourceChoice(), { event: '$pageview' });
    assert.ok(batch.events.length > 0);
    assert.ok(batch.events.every((event) => event.event === '$pageview'));
    assert.deepEqual(paths(), ['/api/projects/:id/query/']);
    const body = api.requests[0]!.body as { query: Record<string, unknown> };
    assert.equal(body.query['event'], '$pageview');
    assert.deepEqual(body.query['orderBy'], ['timestamp DESC']);
  });

  test('a 404 on /query/ falls back to the legacy list, remembered for the connection and logged once', async () => {
    api.setQueryApi({ available: false });
    const logged: string[] = [];
    const choice = new SourceChoice(() => false, (message) => logged.push(message));
    const unshown: string[][] = [];
    const form = { columns: '$browser, upper(event)' };
    assert.ok((await firstBatch(choice, form, (columns) => unshown.push(columns))).events.length > 0);
    assert.deepEqual(paths(), ['/api/projects/:id/query/', '/api/projects/:id/events/']);
    api.clearRequests();
    await firstBatch(choice, form);
    assert.deepEqual(paths(), ['/api/projects/:id/events/'], 'the Query API is not asked again');
    assert.equal(logged.length, 1);
    assert.deepEqual(unshown, [['upper(event)']], 'the columns the legacy list cannot show are named');
  });

  test('the setting forces the legacy list; a where then asks for the Query API', async () => {
    const choice = new SourceChoice(() => true);
    await firstBatch(choice);
    assert.deepEqual(paths(), ['/api/projects/:id/events/']);
    await assert.rejects(firstBatch(choice, { where: "event = 'x'" }), NeedsQueryApiError);
  });

  test('the where is sent as typed, beside the distinct id, which EventsQuery has no field for', () => {
    const fields = eventsQueryFields(query({ where: "properties.$os = 'Mac OS X'", distinctId: "o'brien" }));
    assert.deepEqual(fields.where, ["distinct_id = 'o\\'brien'", "properties.$os = 'Mac OS X'"]);
  });
});

describe('a HogQL error at its field', () => {
  test('a bad where: PostHog\'s message, then one metadata check places it in the where text', async () => {
    const bad = query({ where: 'event = = 1' });
    await assert.rejects(firstBatch(new SourceChoice(), { where: 'event = = 1' }), HogQLError);
    api.clearRequests();
    const located = await locateHogQLError(client.queries, projectId, bad);
    assert.equal(api.requests.length, 1);
    assert.equal(located?.field, 'where');
    assert.equal(located?.text, 'event = = 1');
    assert.ok(located?.start !== undefined && located.start >= 6 && located.start <= 8, `start ${located?.start}`);
  });

  test('a bad column: placed in that column expression', async () => {
    const located = await locateHogQLError(client.queries, projectId, query({ columns: 'properties.$browser, nosuchfunction(event)' }));
    assert.equal(located?.field, 'columns');
    assert.equal(located?.text, 'nosuchfunction(event)');
    assert.equal(located?.start, 0);
  });
});
