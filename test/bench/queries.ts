// Query cards (issue 34): how soon a cancel reaches PostHog, and what a query that runs for a minute costs the
// key. The real client and run controller against the local API (in this process), `latencyMs` on every answer.
import { HogQLQueryResponseSchema } from '../../src/api/schemas';
import { errorText, PostHogClient, RequestBudgets, type QueryNode } from '../../src/api';
import { QueryRunController } from '../../src/queries/runController';
import { startLocalApi } from '../api-server';
import { median, type Figure } from './results';

const CANCELS = 7;
const LONG_RUN_MS = 60_000;
const query: QueryNode = { kind: 'HogQLQuery', query: 'select event, count() from events group by event' };

async function withClient<T>(latencyMs: number, work: (client: PostHogClient, projectId: number, api: Awaited<ReturnType<typeof startLocalApi>>) => Promise<T>): Promise<T> {
  const api = await startLocalApi({ seed: 'demo' });
  api.setLatency(latencyMs);
  const deletes: number[] = [];
  const client = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.all, budgets: new RequestBudgets(), onRequest: (entry) => entry.method === 'DELETE' && deletes.push(performance.now()) });
  try {
    return await work(client, api.store.visibleProjects()[0]!.id, Object.assign(api, { deletes }));
  } finally {
    await client.dispose();
    await api.close();
  }
}

function controller(): QueryRunController {
  let ids = 0;
  return new QueryRunController({ now: () => performance.now(), newId: () => `bench-${Date.now()}-${++ids}`, describe: errorText });
}

/** Cancel of a running async query: when the card is free, and when PostHog has answered the DELETE. */
async function cancelLatency(latencyMs: number): Promise<{ freeMs: number; deleteMs: number }> {
  return withClient(latencyMs, async (client, projectId, api) => {
    api.setQueryApi({ runMs: 10 * 60_000 });
    const deletes = (api as unknown as { deletes: number[] }).deletes;
    const free: number[] = [];
    const answered: number[] = [];
    for (let index = 0; index < CANCELS; index++) {
      const runs = controller();
      const key = { documentUri: 'bench', cardId: String(index) };
      let polled!: () => void;
      const firstPoll = new Promise<void>((resolve) => (polled = resolve));
      const running = runs.run(key, { query, refresh: 'force_async', priority: 'interactive', execute: (node, options) => client.queries.run(projectId, node, HogQLQueryResponseSchema, { ...options, onPoll: () => polled() }) });
      await firstPoll;
      const before = deletes.length;
      const started = performance.now();
      runs.cancel(key);
      free.push(performance.now() - started);
      await running;
      while (deletes.length === before) await new Promise((resolve) => setTimeout(resolve, 1));
      answered.push(deletes[before]! - started);
    }
    return { freeMs: median(free), deleteMs: median(answered) };
  });
}

/** A query PostHog runs for a minute: every request of its run, and how many count against HogQL's 120 an hour. */
async function longRunRequests(latencyMs: number): Promise<{ requests: number; hogql: number }> {
  return withClient(latencyMs, async (client, projectId, api) => {
    api.setQueryApi({ runMs: LONG_RUN_MS });
    api.clearRequests();
    const state = await controller().run({ documentUri: 'bench', cardId: 'long' }, {
      query,
      refresh: 'force_async',
      priority: 'interactive',
      execute: (node, options) => client.queries.run(projectId, node, HogQLQueryResponseSchema, options),
    });
    if (state.state !== 'done') throw new Error(`the long run ended ${state.state}`);
    const requests = api.requests.filter((request) => request.path.includes('/query/'));
    return { requests: requests.length, hogql: requests.filter((request) => request.method === 'POST').length };
  });
}

export async function benchQueries(latencyMs: number): Promise<Figure[]> {
  const section = `Query cards (local API, ${latencyMs} ms per answer)`;
  const { freeMs, deleteMs } = await cancelLatency(latencyMs);
  const { requests, hogql } = await longRunRequests(latencyMs);
  return [
    { section, what: 'Cancel: the card free (state "cancelled")', value: freeMs, unit: 'ms', budget: 'at once (< 16 ms)', pass: freeMs < 16, note: `median of ${CANCELS}` },
    { section, what: 'Cancel: PostHog has answered the DELETE', value: deleteMs, unit: 'ms', budget: '< 1,000 ms', pass: deleteMs < 1_000, note: `median of ${CANCELS}; no poll follows (checked by the unit and in-editor tests)` },
    {
      section,
      what: 'A query running 1 minute (force_async): requests of its run',
      value: requests,
      unit: 'requests',
      note: `${hogql} of them against HogQL's 120 an hour; the rest are status polls (300 ms growing ×1.25 to 3 s), counted as ClickHouse`,
    },
  ];
}
