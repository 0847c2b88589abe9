// 1. Loading a project's 5,000 notebooks and an organization's 1,000 projects as the explorer tree does
//    (NotebookLists / ExplorerModel → client.notebooks.listAll / projects.listAll), against a naive client that follows `next`
//    one page at a time, and against the network's floor (one round trip per wave of concurrent requests).
import { Agent, fetch } from 'undici';
import { PostHogClient } from '../../src/api';
import { collectAll, DEFAULT_PAGE_CONCURRENCY } from '../../src/api/paging';
import { ExplorerModel } from '../../src/catalog/explorerModel';
import { NotebookLists } from '../../src/notebooks/lists/notebookLists';
import type { BenchApi } from './benchApi';
import { type Figure, median, waves } from './results';

const REPETITIONS = 3;
/** The client's connection pool per host (Transport's default): more pages than this at once just queue. */
const POOL_CONNECTIONS = 8;

interface Run {
  ms: number;
  requests: number;
  connections: number;
  items: number;
}

/** The naive client: plain fetch, one page after another by following `next`, on a fresh connection pool. */
async function naiveListAll(firstUrl: string, key: string): Promise<number> {
  const dispatcher = new Agent();
  let items = 0;
  try {
    for (let url: string | null = firstUrl; url; ) {
      const response = await fetch(url, { headers: { authorization: `Bearer ${key}` }, dispatcher });
      if (!response.ok) throw new Error(`${response.status} from ${url}`);
      const page = (await response.json()) as { next: string | null; results: unknown[] };
      items += page.results.length;
      url = page.next;
    }
  } finally {
    await dispatcher.close();
  }
  return items;
}

async function measure(api: BenchApi, load: () => Promise<number>): Promise<Run> {
  await api.reset();
  const started = performance.now();
  const items = await load();
  const ms = performance.now() - started;
  const traffic = await api.traffic();
  return { ms, requests: traffic.requests.length, connections: traffic.connections, items };
}

/** A new client and model per run: a cold connection pool and an empty cache, as after a refresh of a new session. */
async function withModel<T>(api: BenchApi, pageConcurrency: number | undefined, use: (model: ExplorerModel, client: PostHogClient) => Promise<T>): Promise<T> {
  const client = new PostHogClient({ baseUrl: api.url, apiKey: api.key, pageConcurrency });
  try {
    return await use(new ExplorerModel(client, () => []), client);
  } finally {
    await client.dispose();
  }
}

interface Variant {
  label: string;
  concurrency: number;
  load: () => Promise<number>;
}

function summarize(runs: Run[]): Run {
  return {
    ms: median(runs.map((run) => run.ms)),
    requests: median(runs.map((run) => run.requests)),
    connections: median(runs.map((run) => run.connections)),
    items: median(runs.map((run) => run.items)),
  };
}

async function compare(api: BenchApi, section: string, naive: () => Promise<number>, variants: Variant[], latencyMs: number, expected: number): Promise<Figure[]> {
  const naiveRuns: Run[] = [];
  const variantRuns = variants.map(() => [] as Run[]);
  for (let repetition = 0; repetition < REPETITIONS; repetition++) {
    naiveRuns.push(await measure(api, naive));
    for (const [index, variant] of variants.entries()) variantRuns[index]!.push(await measure(api, variant.load));
  }
  const base = summarize(naiveRuns);
  const all = [base, ...variantRuns.map(summarize)];
  for (const run of all) {
    if (run.items !== expected) throw new Error(`${section}: loaded ${run.items} items, expected ${expected}`);
  }
  const naiveFloor = base.requests * latencyMs;
  const figures: Figure[] = [
    { section, what: 'naive client (fetch, follows next): time', value: base.ms, unit: 'ms', vsNaive: 1, vsFloor: base.ms / naiveFloor },
    { section, what: 'naive client: requests / connections', value: base.requests, unit: 'requests', note: `${base.connections} connection(s)` },
  ];
  for (const [index, variant] of variants.entries()) {
    const run = all[index + 1]!;
    const floor = waves(run.requests, Math.min(variant.concurrency, POOL_CONNECTIONS)) * latencyMs;
    const isDefault = index === 0;
    figures.push(
      {
        section,
        what: `${variant.label}: time`,
        value: run.ms,
        unit: 'ms',
        budget: '≤ 0.3 × naive',
        pass: run.ms <= 0.3 * base.ms,
        vsNaive: run.ms / base.ms,
        vsFloor: run.ms / floor,
        note: isDefault ? undefined : 'variant, not the shipped default',
      },
      { section, what: `${variant.label}: requests`, value: run.requests, unit: 'requests' },
      { section, what: `${variant.label}: connections opened`, value: run.connections, unit: 'connections' },
      { section, what: `${variant.label}: network floor (${waves(run.requests, Math.min(variant.concurrency, POOL_CONNECTIONS))} waves × ${latencyMs} ms)`, value: floor, unit: 'ms' },
    );
  }
  return figures;
}

export async function benchLists(api: BenchApi, latencyMs: number): Promise<Figure[]> {
  const notebooks = 5_000;
  const projects = 1_000;
  const [projectId, organizationId] = await Promise.all([
    api.call<number>({ op: 'projectWithNotebooks', name: 'Bench notebooks', notebooks }),
    api.call<string>({ op: 'organizationWithProjects', name: 'Bench organization', projects }),
  ]);
  // Warm up the code paths once (JIT, schemas) so the first measured run is not the only cold one.
  await withModel(api, undefined, (model) => model.projects(organizationId));
  await naiveListAll(`${api.url}/api/organizations/${organizationId}/projects/`, api.key);

  const c = DEFAULT_PAGE_CONCURRENCY;
  const notebookFigures = await compare(
    api,
    `Load ${notebooks.toLocaleString('en-US')} notebooks of a project (${latencyMs} ms per request)`,
    () => naiveListAll(`${api.url}/api/projects/${projectId}/notebooks/`, api.key),
    [
      { label: `tree (NotebookLists, pageConcurrency ${c})`, concurrency: c, load: () => withModel(api, undefined, async (_, client) => (await new NotebookLists().list(client, projectId, {})).length) },
      { label: 'tree with pageConcurrency 8', concurrency: 8, load: () => withModel(api, 8, async (_, client) => (await new NotebookLists().list(client, projectId, {})).length) },
      {
        label: `client listAll with limit 1000, pageConcurrency ${c}`,
        concurrency: c,
        load: () => withModel(api, undefined, async (_, client) => (await client.notebooks.listAll(projectId, { limit: 1000 })).length),
      },
    ],
    latencyMs,
    notebooks,
  );
  const projectFigures = await compare(
    api,
    `Load ${projects.toLocaleString('en-US')} projects of an organization (${latencyMs} ms per request)`,
    () => naiveListAll(`${api.url}/api/organizations/${organizationId}/projects/`, api.key),
    [
      { label: `tree (ExplorerModel, pageConcurrency ${c})`, concurrency: c, load: () => withModel(api, undefined, async (model) => (await model.projects(organizationId)).length) },
      { label: 'tree with pageConcurrency 8', concurrency: 8, load: () => withModel(api, 8, async (model) => (await model.projects(organizationId)).length) },
      { label: 'tree with pageConcurrency 16 (pool: 8 connections)', concurrency: 16, load: () => withModel(api, 16, async (model) => (await model.projects(organizationId)).length) },
      {
        label: `paging.collectAll over projects.list with limit 1000`,
        concurrency: c,
        load: () =>
          withModel(api, undefined, async (_, client) => {
            const source = {
              byOffset: (offset: number, limit: number, signal?: AbortSignal) => client.projects.list(organizationId, { offset, limit }, { signal }),
              byNextUrl: () => Promise.reject(new Error('not used: the count is known')),
            };
            return (await collectAll(source, { limit: 1000, concurrency: c })).length;
          }),
      },
    ],
    latencyMs,
    projects,
  );
  return [...notebookFigures, ...projectFigures];
}
