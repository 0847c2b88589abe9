import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { errorText, KeyBudget, type PostHogClient, type QueryNode } from '../../../src/api';
import { HogQLQueryResponseSchema } from '../../../src/api/schemas';
import { QueryRunController, type RunChange, type RunRequest } from '../../../src/queries/runController';
import type { LocalApi } from '../../api-server';
import { withLocalApiClient } from '../../support/localApiClient';

let api: LocalApi;
let client: PostHogClient;
let projectId: number;
withLocalApiClient({ seed: 'demo' }, (started) => {
  ({ api, client, projectId } = started);
});

let ids = 0;
const clock = { now: () => Date.now(), newId: () => `run-${process.pid}-${++ids}`, describe: errorText };
const card = { documentUri: 'posthog://c/1/notebooks/n.md', cardId: 'Query-1' };
const sql: QueryNode = { kind: 'HogQLQuery', query: 'select event, count() from events group by event' };

function request(refresh: RunRequest['refresh'], query = sql): RunRequest {
  return { query, refresh, priority: 'interactive', execute: (node, options) => client.queries.run(projectId, node, HogQLQueryResponseSchema, options) };
}

const queryRequests = () => api.requests.filter((recorded) => recorded.path.includes('/query/'));

describe('QueryRunController against the local API', () => {
  beforeEach(() => {
    api.clearRequests();
    api.setQueryApi({ runMs: 0 });
    api.store.queries.clearCache();
  });

  test('a run goes running → done with its rows and the client_query_id it made', async () => {
    const runs = new QueryRunController(clock);
    const seen: RunChange[] = [];
    runs.onDidChange((change) => seen.push(change));
    const end = await runs.run(card, request('async_except_on_cache_miss'));
    assert.equal(end.state, 'done');
    assert.ok(end.state === 'done' && end.rows! > 0);
    assert.deepEqual(seen.map((change) => change.state.state), ['running', 'done']);
    const body = queryRequests()[0]!.body as { client_query_id: string; refresh: string; query: QueryNode };
    assert.equal(body.client_query_id, `run-${process.pid}-${ids}`);
    assert.equal(body.refresh, 'async_except_on_cache_miss');
    assert.deepEqual(body.query, sql);
  });

  test('showing a result again comes from PostHog cache: async_except_on_cache_miss answers is_cached', async () => {
    const runs = new QueryRunController(clock);
    await runs.run(card, request('async_except_on_cache_miss'));
    const again = await runs.run(card, request('async_except_on_cache_miss'));
    assert.equal(again.state === 'done' && (again.response as { is_cached?: boolean }).is_cached, true);
  });

  test('cancel frees the card at once, sends one DELETE by the run id, and no poll follows', async () => {
    api.setQueryApi({ runMs: 60_000 });
    const runs = new QueryRunController(clock);
    const polled = new Promise<void>((resolve) => {
      const seen = runs.onDidChange(() => undefined);
      const timer = setInterval(() => {
        if (queryRequests().some((recorded) => recorded.method === 'GET')) {
          clearInterval(timer);
          seen.dispose();
          resolve();
        }
      }, 20);
    });
    const running = runs.run(card, request('force_async'));
    await polled;
    assert.equal(runs.cancel(card), true);
    assert.equal(runs.stateOf(card)?.state, 'cancelled', 'the card is free before PostHog answers');
    assert.equal((await running).state, 'cancelled');
    const methods = queryRequests().map((recorded) => recorded.method);
    const id = (queryRequests()[0]!.body as { client_query_id: string }).client_query_id;
    assert.equal(methods.filter((method) => method === 'DELETE').length, 1);
    assert.ok(queryRequests().find((recorded) => recorded.method === 'DELETE')!.path.endsWith(`/query/${id}/`));
    const afterDelete = methods.slice(methods.indexOf('DELETE') + 1);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.deepEqual(queryRequests().map((recorded) => recorded.method).slice(methods.indexOf('DELETE') + 1), afterDelete, 'no poll after the DELETE');
    assert.deepEqual(afterDelete, []);
  });

  test("a failure is PostHog's words", async () => {
    const runs = new QueryRunController(clock);
    const end = await runs.run(card, request('async_except_on_cache_miss', { kind: 'HogQLQuery', query: 'select from where' }));
    assert.equal(end.state, 'failed');
    assert.match(end.state === 'failed' ? end.message : '', /\S/);
  });

  test('a new run of a card cancels its last one', async () => {
    api.setQueryApi({ runMs: 60_000 });
    const runs = new QueryRunController(clock);
    const first = runs.run(card, request('force_async'));
    api.setQueryApi({ runMs: 0 });
    const second = await runs.run(card, request('async_except_on_cache_miss'));
    assert.equal((await first).state, 'cancelled');
    assert.equal(second.state, 'done');
    assert.equal(queryRequests().filter((recorded) => recorded.method === 'DELETE').length, 1);
  });
});

describe('the HogQL budget left', () => {
  test('counts down from the hour share as HogQL queries go', async () => {
    const now = 1_000_000;
    const budget = new KeyBudget({ now: () => now });
    const full = budget.left('hogql');
    await budget.acquire('hogql', 'interactive');
    await budget.acquire('hogql', 'interactive');
    assert.equal(budget.left('hogql'), full - 2);
    assert.equal(full, 115);
  });
});
