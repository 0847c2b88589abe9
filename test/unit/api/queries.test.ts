// The Query API client (src/api/resources/queries.ts) against the local API's Query API: blocking and async
// answers, polling, cancel, errors, metadata positions, the schema and an older server.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { type LocalApi, startLocalApi } from '../../api-server';
import type { RecordedRequest } from '../../api-server/server';
import {
  HogQLError,
  HogQLQueryResponseSchema,
  isAbortError,
  isUuid,
  pollDelayMs,
  PostHogClient,
  QUERY_POLL,
  QueryApiUnavailableError,
  QueryFailedError,
  QueryTimedOutError,
  QueryTooSlowError,
  RateLimitedError,
  type Sleep,
  UnsupportedQueryKindError,
} from '../../../src/api';
import { VirtualClock } from '../../support/virtualClock';

let api: LocalApi;
let projectId: number;
/** Waits recorded instead of slept, so polls follow one another at once. */
let waits: number[];
let client: PostHogClient;
const clients: PostHogClient[] = [];

const noWait: Sleep = async (ms) => {
  waits.push(ms);
};

function newClient(options: { sleep?: Sleep; now?: () => number } = {}): PostHogClient {
  const made = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.all, sleep: noWait, ...options });
  clients.push(made);
  return made;
}

before(async () => {
  api = await startLocalApi({ seed: 'demo', demoEvents: 2_000 });
  projectId = api.store.visibleProjects()[0]!.id;
  client = newClient();
});
after(async () => {
  await Promise.all(clients.map((made) => made.dispose()));
  await api.close();
});
beforeEach(() => {
  api.clearRequests();
  api.setQueryApi({ available: true, runMs: 0 });
  api.store.queries.clearCache();
  waits = [];
});

const queryRequests = (): RecordedRequest[] => api.requests.filter((request) => request.path.includes('/query/'));
const methods = (): string[] => queryRequests().map((request) => request.method);

/** A POST of the local API itself (not the client): replaces the run under `id` with one that ends at once. */
async function finishRunNow(id: string, query: unknown): Promise<void> {
  api.setQueryApi({ runMs: 0 });
  const response = await fetch(`${api.url}/api/projects/${projectId}/query/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.keys.all}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, client_query_id: id, refresh: 'force_async' }),
  });
  await response.arrayBuffer();
  while (api.store.queries.poll(api.store.visibleProjects()[0]!, id, false).status !== 200) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('running a query', () => {
  test('blocking: one POST with a new client_query_id and refresh blocking; the answer checked', async () => {
    const answer = await client.queries.hogql(projectId, 'select 1 + 1 as two');
    assert.deepEqual(answer.results, [[2]]);
    assert.deepEqual(answer.columns, ['two']);
    const [post] = queryRequests();
    assert.deepEqual(methods(), ['POST']);
    const body = post!.body as { client_query_id: string; refresh: string; query: { kind: string } };
    assert.ok(isUuid(body.client_query_id));
    assert.equal(body.refresh, 'blocking');
    assert.equal(body.query.kind, 'HogQLQuery');

    await client.queries.hogql(projectId, 'select 1 + 1 as two', { refresh: 'force_blocking' });
    const second = queryRequests()[1]!.body as { client_query_id: string; refresh: string };
    assert.equal(second.refresh, 'force_blocking');
    assert.notEqual(second.client_query_id, body.client_query_id, 'a new id per run');
  });

  test('an EventsQuery answers rows in select order, newest first, with a cursor', async () => {
    const answer = await client.queries.events(projectId, { select: ['event', 'timestamp', 'uuid'], orderBy: ['timestamp DESC'], after: '-30d', limit: 5 });
    assert.deepEqual(answer.columns, ['event', 'timestamp', 'uuid']);
    assert.equal(answer.results.length, 5);
    assert.equal(answer.hasMore, true);
    const times = answer.results.map((row) => String(row[1]));
    assert.deepEqual([...times].sort().reverse(), times);
    assert.match(answer.nextCursor ?? '', /\|/);
  });

  test('a TrendsQuery answers one series per event', async () => {
    const answer = await client.queries.trends(projectId, { series: [{ kind: 'EventsNode', event: '$pageview' }], dateRange: { date_from: '-7d' } });
    assert.equal(answer.results.length, 1);
    assert.equal(answer.results[0]!.label, '$pageview');
    assert.equal(answer.results[0]!.data.length, answer.results[0]!.days.length);
  });

  test('async: the 202 is polled by GET /query/:id/ with growing waits until complete', async () => {
    const query = { kind: 'HogQLQuery', query: 'select 40 + 2' };
    const id = 'poll-to-completion-run';
    let polls = 0;
    const answer = await client.queries.run(projectId, query, HogQLQueryResponseSchema, {
      refresh: 'force_async',
      clientQueryId: id,
      onPoll: async () => {
        polls++;
      },
    });
    assert.deepEqual(answer.results, [[42]]);
    // runMs 0 completes on the server's next turn of its loop: the first poll finds it complete, or one more does.
    assert.ok(polls <= 1, `complete by the second poll (${polls} waits)`);

    api.clearRequests();
    waits = [];
    api.setQueryApi({ runMs: 3_600_000 });
    const seen: string[] = [];
    const slower = client.queries.run(projectId, query, HogQLQueryResponseSchema, {
      refresh: 'force_async',
      clientQueryId: 'three-polls-run',
      onPoll: (status) => {
        seen.push(status.id);
        if (seen.length === 2) void finishRunNow('three-polls-run', query);
      },
    });
    assert.deepEqual((await slower).results, [[42]]);
    const gets = queryRequests().filter((request) => request.method === 'GET');
    assert.ok(gets.length >= 3, `polled until complete (${gets.length} polls)`);
    assert.ok(gets.every((request) => request.path.endsWith('/query/three-polls-run/')));
    assert.deepEqual(
      waits.slice(0, gets.length),
      gets.map((_, index) => pollDelayMs(index)),
    );
    assert.equal(waits[0], 300);
    assert.ok(waits[1]! > waits[0]! && waits[2]! > waits[1]!, 'each wait longer than the last');
  });

  test('the wait grows by 1.25 from 300 ms and stops growing at 3 s', () => {
    assert.equal(pollDelayMs(0), 300);
    assert.equal(pollDelayMs(1), 375);
    assert.equal(pollDelayMs(30), 3_000);
  });
});

describe('cancel', () => {
  test('an abort before the POST has answered: the POST is dropped, one DELETE by the id, no poll', async () => {
    api.injectFault({ method: 'POST', path: /\/query\/$/, delayMs: 2_000 });
    const controller = new AbortController();
    const run = client.queries.hogql(projectId, 'select 1', { clientQueryId: 'cancel-before-answer', signal: controller.signal });
    while (!queryRequests().some((request) => request.method === 'POST')) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    controller.abort();
    await assert.rejects(run, (error) => isAbortError(error));
    assert.deepEqual(methods(), ['POST', 'DELETE']);
    assert.equal(queryRequests()[1]!.path, `/api/projects/${projectId}/query/cancel-before-answer/`);
    assert.equal(queryRequests()[1]!.status, 200);
  });

  test('an abort while polling: exactly one DELETE and no poll after it; the run is gone', async () => {
    api.setQueryApi({ runMs: 3_600_000 });
    const controller = new AbortController();
    const run = client.queries.hogql(projectId, 'select 2', {
      refresh: 'force_async',
      clientQueryId: 'cancel-while-polling',
      signal: controller.signal,
      onPoll: () => controller.abort(),
    });
    await assert.rejects(run, (error) => isAbortError(error));
    assert.deepEqual(methods(), ['POST', 'GET', 'DELETE']);
    assert.throws(() => api.store.queries.poll(api.store.visibleProjects()[0]!, 'cancel-while-polling', false), /not found/);
  });

  test('an aborted signal sends nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(client.queries.hogql(projectId, 'select 3', { signal: controller.signal }), (error) => isAbortError(error));
    assert.deepEqual(methods(), []);
  });

  test('cancel() by id answers PostHog message', async () => {
    assert.equal(await client.queries.cancel(projectId, 'never-started'), 'Cancelled query on clickhouse');
  });

  test('after 10 minutes of polling (virtual clock): Query timed out, one DELETE, no poll after it', async () => {
    api.setQueryApi({ runMs: 3_600_000 });
    const clock = new VirtualClock();
    const slept: number[] = [];
    const sleep: Sleep = (ms, signal) => {
      slept.push(ms);
      return clock.sleep(ms, signal);
    };
    const timed = newClient({ sleep, now: clock.now });
    const run = clock.track(() => timed.queries.hogql(projectId, 'select 4', { refresh: 'force_async', clientQueryId: 'ten-minutes' }));
    const outcome = run.then(
      () => undefined,
      (error: unknown) => error,
    );
    await clock.run(QUERY_POLL.limitMs + 60_000);
    const error = await outcome;
    assert.ok(error instanceof QueryTimedOutError, String(error));
    assert.match(error.userMessage, /^Query timed out/);
    assert.ok(error.waitedMs >= QUERY_POLL.limitMs);
    let expectedPolls = 0;
    for (let total = 0; total < QUERY_POLL.limitMs; expectedPolls++) total += pollDelayMs(expectedPolls);
    const kinds = methods();
    assert.equal(kinds.filter((method) => method === 'GET').length, expectedPolls);
    assert.equal(kinds.at(-1), 'DELETE');
    assert.equal(kinds.filter((method) => method === 'DELETE').length, 1);
    assert.equal(Math.max(...slept), QUERY_POLL.maxMs);
    assert.equal(slept[0], QUERY_POLL.firstMs);
  });
});

describe('errors', () => {
  test('a HogQL syntax error: HogQLError with the code and PostHog message', async () => {
    const error = await client.queries.hogql(projectId, 'select from where').catch((caught: unknown) => caught);
    assert.ok(error instanceof HogQLError, String(error));
    assert.equal(error.code, 'hogql_syntax_error');
    assert.equal(error.status, 400);
    assert.ok(error.detail && error.userMessage.includes(error.detail.replace(/\.$/, '')));
  });

  test('an unknown field: HogQLError hogql_query_error', async () => {
    const error = await client.queries.hogql(projectId, 'select nosuchfield from events').catch((caught: unknown) => caught);
    assert.ok(error instanceof HogQLError, String(error));
    assert.equal(error.code, 'hogql_query_error');
  });

  test('an unsupported kind: UnsupportedQueryKindError naming it', async () => {
    const error = await client.queries
      .run(projectId, { kind: 'SavedInsightNode', shortId: 'abc' }, HogQLQueryResponseSchema)
      .catch((caught: unknown) => caught);
    assert.ok(error instanceof UnsupportedQueryKindError, String(error));
    assert.equal(error.kind, 'SavedInsightNode');
  });

  test('a failed async run: QueryFailedError with its error_message', async () => {
    const error = await client.queries
      .hogql(projectId, 'select nosuchfield from events', { refresh: 'force_async', clientQueryId: 'failing-run' })
      .catch((caught: unknown) => caught);
    assert.ok(error instanceof QueryFailedError, String(error));
    assert.equal(error.queryId, 'failing-run');
    assert.match(error.detail ?? '', /nosuchfield/);
    // The run fails on the server's next turn of its loop: a poll that comes before that finds it running.
    const [post, ...polls] = methods();
    assert.equal(post, 'POST');
    assert.ok(polls.length >= 1 && polls.every((method) => method === 'GET'), `polled by GET until it failed: ${polls.join(', ')}`);
  });

  test('429 and 504 keep their classes and PostHog text', async () => {
    api.injectFault({ method: 'POST', path: /\/query\/$/, status: 429, throttleSeconds: 30 });
    const throttled = await client.queries.hogql(projectId, 'select 1').catch((caught: unknown) => caught);
    assert.ok(throttled instanceof RateLimitedError, String(throttled));
    assert.equal(throttled.retryAfterSeconds, 30);
    api.injectFault({ method: 'POST', path: /\/query\/$/, status: 504, queryTimeout: true });
    const slow = await client.queries.hogql(projectId, 'select 1').catch((caught: unknown) => caught);
    assert.ok(slow instanceof QueryTooSlowError, String(slow));
    assert.match(slow.userMessage, /max execution time/);
  });

  test('an older server (404 on /query/): QueryApiUnavailableError', async () => {
    api.setQueryApi({ available: false });
    const error = await client.queries.hogql(projectId, 'select 1').catch((caught: unknown) => caught);
    assert.ok(error instanceof QueryApiUnavailableError, String(error));
    assert.equal(error.status, 404);
  });
});

describe('editor helpers', () => {
  test('metadata: the error with its offsets into the text', async () => {
    const text = 'select event, nosuchfield from events';
    const answer = await client.queries.metadata(projectId, text);
    assert.equal(answer.isValid, false);
    const [first] = answer.errors;
    assert.ok(first, 'one error');
    assert.equal(text.slice(first.start!, first.end!), 'nosuchfield');
    assert.match(first.message, /nosuchfield/);

    const valid = await client.queries.metadata(projectId, "properties.$browser = 'Chrome'", { language: 'hogQLExpr' });
    assert.equal(valid.isValid, true);
    assert.deepEqual(valid.errors, []);
  });

  test('databaseSchema: the tables and their fields', async () => {
    const schema = await client.queries.databaseSchema(projectId);
    assert.ok(schema.tables['events']);
    assert.equal(schema.tables['events']!.fields['event']!.type, 'string');
    assert.ok(schema.tables['persons']);
  });
});
