// 3. Events through the panel's pager (src/events/pager.ts): time to the first rows, loading 100,000 events with
// prefetch against one page at a time, and what a scrolling user waits. The event list is a cursor chain
// (each page asks below the last; no count), so pages cannot be fetched in parallel: the floor is one round trip
// per page. Then an export of 100,000 events from a quiet project, where PostHog's time windows cut pages short.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch } from 'undici';
import { EVENTS_MAX_PAGE, EVENTS_QUERY_MAX_PAGE, HOUR_MS, KeyBudget, PostHogClient, RequestBudgets } from '../../src/api';
import { eventBatches, SourceChoice } from '../../src/events/eventSource';
import { DEFAULT_LIVE_INTERVAL_MS } from '../../src/events/liveTail';
import { writeEventsFile } from '../../src/events/exportWriter';
import { buildQuery } from '../../src/events/filters';
import { DEFAULT_PREFETCH_ROWS, EventPager, type PagerSink } from '../../src/events/pager';
import { defaultFilters } from '../../src/events/protocol';
import type { BenchApi } from './benchApi';
import { type Figure, median } from './results';

const FIRST_ROWS_REPETITIONS = 5;
const ALL_EVENTS = 100_000;
/** Loading all: PostHog's largest page (100 requests, inside its 240 a minute). */
const ALL_PAGE_SIZE = 1_000;
/** The demo project's events span 14 days: the listing asks for all of them. */
const ALL_AFTER = '-14d';
/**
 * The quiet project for the export: an event a second, and every five minutes 20 events on one timestamp
 * (about 960 events in PostHog's 15-minute window: fewer than a page of 1,000).
 */
const QUIET = { count: 100_000, perSecond: 1, clusterEvery: 300, clusterSize: 20 };
const SCROLLED_ROWS = 5_000;
/** A quick, steady scroll: 1,000 rows a second (about 40 screens of 24-px rows a second). */
const SCROLL_ROWS_PER_SECOND = 1_000;

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The legacy events list (the figures before the Query API), unless `choice` says where to read. */
function newPager(client: PostHogClient, projectId: number, sink: Partial<PagerSink>, prefetchRows?: number, form: Partial<ReturnType<typeof defaultFilters>> = {}, choice?: SourceChoice): EventPager {
  const query = buildQuery({ ...defaultFilters(), ...form }, new Date());
  const source = choice ? (call: Parameters<PostHogClient['events']['pages']>[2]) => eventBatches(client, choice, 'bench', projectId, query, call) : (call: Parameters<PostHogClient['events']['pages']>[2]) => client.events.pages(projectId, query.filters, call);
  return new EventPager(source, query, { rows: () => undefined, status: () => undefined, ...sink }, { prefetchRows });
}

async function firstRowsMs(client: PostHogClient, projectId: number, choice?: SourceChoice): Promise<number> {
  const started = performance.now();
  let pager: EventPager | undefined;
  const first = new Promise<number>((resolve, reject) => {
    pager = newPager(client, projectId, {
      rows: () => resolve(performance.now() - started),
      status: (_, error) => error && reject(new Error(error)),
    }, undefined, {}, choice);
    void pager.need(0);
  });
  try {
    return await first;
  } finally {
    pager?.cancel();
  }
}

async function rawRoundTripMs(url: string, key: string, dispatcher: Agent): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` }, dispatcher });
  await response.arrayBuffer();
  return performance.now() - started;
}

/**
 * The user holds the scroll at the end of the list, as the webview asks: each time rows arrive it asks, one
 * task later (the postMessage hop), for the row after the last one loaded. Resolves with the time to `total`.
 */
async function drain(client: PostHogClient, projectId: number, total: number, prefetchRows?: number): Promise<{ ms: number; loaded: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const pager: EventPager = newPager(
      client,
      projectId,
      {
        rows: (_, __, done) => {
          if (done || pager.loaded >= total) resolve({ ms: performance.now() - started, loaded: pager.loaded });
          else void nextTask().then(() => pager.need(pager.loaded));
        },
        status: (_, error) => error && reject(new Error(error)),
      },
      prefetchRows,
      { limit: String(ALL_PAGE_SIZE), after: ALL_AFTER },
    );
    void pager.need(0);
  });
}

/** A user scrolling at a steady speed through the first `rows` rows; returns the time spent waiting for rows. */
async function scrollingUser(client: PostHogClient, projectId: number, rows: number, prefetchRows?: number): Promise<{ ms: number; stalledMs: number }> {
  const pager = newPager(client, projectId, {}, prefetchRows);
  const started = performance.now();
  let position = 0;
  let stalledMs = 0;
  let last = started;
  try {
    while (position < rows - 1) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      const now = performance.now();
      const wanted = position + ((now - last) * SCROLL_ROWS_PER_SECOND) / 1000;
      const reachable = Math.max(0, pager.loaded - 1);
      if (wanted > reachable) stalledMs += ((wanted - reachable) / SCROLL_ROWS_PER_SECOND) * 1000;
      position = Math.min(wanted, reachable, rows - 1);
      last = now;
      // As the webview does: the row after the last one shown is needed once the user is at the end.
      void pager.need(position >= reachable ? Math.floor(position) + 1 : Math.floor(position));
    }
    return { ms: performance.now() - started, stalledMs };
  } finally {
    pager.cancel();
  }
}

export async function benchEvents(api: BenchApi, latencyMs: number): Promise<Figure[]> {
  const projectId = await api.call<number>({ op: 'projectByName', name: 'Hedgebox' });
  // Each client its own request budget, as if each had its own key: these figures are about paging, and
  // together they make more requests a minute than one key may.
  const clients = [0, 1].map(() => new PostHogClient({ baseUrl: api.url, apiKey: api.key, budgets: new RequestBudgets() }));
  const dispatcher = new Agent();
  const figures: Figure[] = [];
  try {
    await Promise.all(clients.map((client) => client.users.me()));
    const url = `${api.url}/api/projects/${projectId}/events/`;
    await rawRoundTripMs(url, api.key, dispatcher);
    const firstRows: number[] = [];
    const roundTrips: number[] = [];
    for (let repetition = 0; repetition < FIRST_ROWS_REPETITIONS; repetition++) {
      firstRows.push(await firstRowsMs(clients[0]!, projectId));
      roundTrips.push(await rawRoundTripMs(url, api.key, dispatcher));
    }
    const first = median(firstRows);
    const roundTrip = median(roundTrips);
    const section1 = `Events panel: first rows (${latencyMs} ms per request; ${FIRST_ROWS_REPETITIONS} runs, median)`;
    figures.push(
      { section: section1, what: 'time to the first rows (pager)', value: first, unit: 'ms', budget: `≤ round trip + 50 ms (${Math.round(roundTrip + 50)} ms)`, pass: first <= roundTrip + 50, vsFloor: first / roundTrip, note: `first (cold) run ${Math.round(firstRows[0]!)} ms` },
      { section: section1, what: 'one round trip of the same request (plain fetch)', value: roundTrip, unit: 'ms' },
      { section: section1, what: 'time to the first rows, first (cold) run', value: firstRows[0]!, unit: 'ms', budget: `≤ ${latencyMs} + 50 ms`, pass: firstRows[0]! <= latencyMs + 50 },
    );

    // Both variants side by side, at the same time, each on its own client (connection).
    const [prefetch, onePage] = await Promise.all([drain(clients[0]!, projectId, ALL_EVENTS), drain(clients[1]!, projectId, ALL_EVENTS, 0)]);
    const pages = Math.ceil(ALL_EVENTS / ALL_PAGE_SIZE);
    // A page of 1,000 events takes longer than the small request above: the floor is that page's round trip.
    const pageUrl = `${url}?limit=${ALL_PAGE_SIZE}&after=${encodeURIComponent(new Date(Date.now() - 14 * 86_400_000).toISOString())}`;
    const pageRoundTrip = median(await Promise.all([0, 1, 2].map(() => rawRoundTripMs(pageUrl, api.key, dispatcher))));
    const floor = pages * pageRoundTrip;
    const section2 = `Events: load ${ALL_EVENTS.toLocaleString('en-US')} events, scrolled to the end as fast as they come (both at once; at least ${pages} pages of ${ALL_PAGE_SIZE})`;
    figures.push(
      { section: section2, what: 'one page at a time (naive)', value: onePage.ms, unit: 'ms', vsNaive: 1, vsFloor: onePage.ms / floor, note: `${onePage.loaded} events` },
      { section: section2, what: `pager with prefetch (${DEFAULT_PREFETCH_ROWS} rows ahead)`, value: prefetch.ms, unit: 'ms', vsNaive: prefetch.ms / onePage.ms, vsFloor: prefetch.ms / floor, note: `${prefetch.loaded} events` },
      { section: section2, what: `floor: ${pages} sequential round trips of a 1,000-event page (${Math.round(pageRoundTrip)} ms each, plain fetch)`, value: floor, unit: 'ms' },
    );

    const [scrollPrefetch, scrollOnePage] = await Promise.all([
      scrollingUser(clients[0]!, projectId, SCROLLED_ROWS),
      scrollingUser(clients[1]!, projectId, SCROLLED_ROWS, 0),
    ]);
    const ideal = (SCROLLED_ROWS / SCROLL_ROWS_PER_SECOND) * 1000;
    const section3 = `Events: a user scrolling ${SCROLL_ROWS_PER_SECOND.toLocaleString('en-US')} rows/s through ${SCROLLED_ROWS.toLocaleString('en-US')} rows (both at once; ${ideal} ms without waiting)`;
    figures.push(
      { section: section3, what: 'one page at a time: time waiting for rows', value: scrollOnePage.stalledMs, unit: 'ms', vsNaive: 1, note: `total ${Math.round(scrollOnePage.ms)} ms` },
      { section: section3, what: 'pager with prefetch: time waiting for rows', value: scrollPrefetch.stalledMs, unit: 'ms', vsNaive: scrollPrefetch.stalledMs / scrollOnePage.stalledMs, note: `total ${Math.round(scrollPrefetch.ms)} ms` },
    );
    figures.push(...(await benchQuietExport(api, dispatcher)));
    figures.push(...(await benchEventsQuery(api, projectId, clients[0]!)));
  } finally {
    await Promise.all([...clients.map((client) => client.dispose()), dispatcher.close()]);
  }
  return figures;
}

/**
 * An export of 100,000 events from a project with an event a second and clusters on one timestamp: PostHog
 * answers pages of about 900 rows without `next` (its 15-minute window), and events sharing a timestamp
 * straddle page boundaries. The extension's walk against following `next`, and against the floor of one
 * round trip per 1,000 rows.
 */
async function benchQuietExport(api: BenchApi, dispatcher: Agent): Promise<Figure[]> {
  const projectId = await api.call<number>({ op: 'steadyProject', name: 'Quiet export', ...QUIET });
  const after = new Date(Date.now() - 30 * 3_600_000).toISOString();
  const section = `Events: export ${QUIET.count.toLocaleString('en-US')} events of a quiet project (1 a second, ${QUIET.clusterSize} on one timestamp every ${QUIET.clusterEvery / 60} minutes; PostHog's windows answer ~950 rows a page)`;

  // Following PostHog's next links, as the client did before.
  await api.reset();
  let url: string | null = `${api.url}/api/projects/${projectId}/events/?limit=${EVENTS_MAX_PAGE}&after=${encodeURIComponent(after)}`;
  let naiveRows = 0;
  const naiveStarted = performance.now();
  while (url) {
    const response = await fetch(url, { headers: { authorization: `Bearer ${api.key}` }, dispatcher });
    const page = (await response.json()) as { next: string | null; results: unknown[] };
    naiveRows += page.results.length;
    url = page.next;
  }
  const naiveMs = performance.now() - naiveStarted;
  const naiveRequests = (await api.traffic()).requests.length;

  const client = new PostHogClient({ baseUrl: api.url, apiKey: api.key, budgets: new RequestBudgets() });
  const directory = mkdtempSync(join(tmpdir(), 'posthog-bench-export-'));
  try {
    await api.reset();
    const target = join(directory, 'events.jsonl');
    const started = performance.now();
    const written = await writeEventsFile(client.events.pages(projectId, { limit: EVENTS_MAX_PAGE, after }, { priority: 'bulk' }), target, { format: 'jsonl', rows: QUIET.count });
    const ms = performance.now() - started;
    const requests = (await api.traffic()).requests.length;
    const ids = readFileSync(target, 'utf8').trimEnd().split('\n').map((line) => (JSON.parse(line) as { id: string }).id);
    const unique = new Set(ids).size;
    const floorPages = Math.ceil(QUIET.count / EVENTS_MAX_PAGE);
    // One round trip of a page of this project, as the plain loop above measured it.
    const pageRoundTrip = naiveMs / naiveRequests;
    // The same export as CSV (persons included, as the panel asks): flattened, staged, quoted, formula cells
    // neutralised. A client with a budget of its own: the export above spent most of this minute's share.
    const csvClient = new PostHogClient({ baseUrl: api.url, apiKey: api.key, budgets: new RequestBudgets() });
    const csvTarget = join(directory, 'events.csv');
    let csvWaits = 0;
    const csvStarted = performance.now();
    const csvWritten = await writeEventsFile(
      csvClient.events.pages(projectId, { limit: EVENTS_MAX_PAGE, after, include_person: true }, { priority: 'bulk', onWait: () => csvWaits++ }),
      csvTarget,
      { format: 'csv', rows: QUIET.count },
    ).finally(() => csvClient.dispose());
    const csvMs = performance.now() - csvStarted;
    const csvMB = statSync(csvTarget).size / 1e6;
    return [
      { section, what: 'following next (the client before this change): rows it got before next ran out', value: naiveRows, unit: 'rows', note: `${naiveRequests} request(s), ${Math.round(naiveMs)} ms; it would have said that was everything` },
      { section, what: 'the export (walk below the oldest row): rows written, each once', value: written.rows, unit: 'rows', budget: `${QUIET.count.toLocaleString('en-US')}, no duplicate`, pass: written.rows === QUIET.count && unique === QUIET.count, note: `${unique.toLocaleString('en-US')} distinct ids` },
      { section, what: 'the export: requests', value: requests, unit: 'requests', vsFloor: requests / floorPages, note: `floor: ${floorPages} pages of ${EVENTS_MAX_PAGE}` },
      { section, what: 'the export: time', value: ms, unit: 'ms', vsFloor: ms / (floorPages * pageRoundTrip), note: `floor: ${floorPages} round trips of a page (${Math.round(pageRoundTrip)} ms each) = ${Math.round(floorPages * pageRoundTrip)} ms` },
      { section, what: 'the same export as CSV, persons included: time', value: csvMs, unit: 'ms', vsFloor: csvMs / (floorPages * pageRoundTrip), note: `${csvWritten.rows.toLocaleString('en-US')} rows, ${csvMB.toFixed(1)} MB, ${csvWaits} waits for the key's budget` },
    ];
  } finally {
    await client.dispose();
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * The Query API (issue 33): the first rows through an EventsQuery against the legacy list, an export of
 * 100,000 events by PostHog's cursor against the floor of one round trip per page, and Live's requests an
 * hour with three panels on one key.
 */
async function benchEventsQuery(api: BenchApi, projectId: number, client: PostHogClient): Promise<Figure[]> {
  const viaQuery: number[] = [];
  const viaLegacy: number[] = [];
  for (let repetition = 0; repetition < FIRST_ROWS_REPETITIONS; repetition++) {
    viaQuery.push(await firstRowsMs(client, projectId, new SourceChoice()));
    viaLegacy.push(await firstRowsMs(client, projectId, new SourceChoice(() => true)));
  }
  const section1 = `Events through the Query API: first rows (${FIRST_ROWS_REPETITIONS} runs, median)`;
  const query = median(viaQuery);
  const legacy = median(viaLegacy);
  const figures: Figure[] = [
    { section: section1, what: 'time to the first rows, EventsQuery', value: query, unit: 'ms', budget: '≤ legacy list + 50 ms', pass: query <= legacy + 50, vsNaive: query / legacy },
    { section: section1, what: 'time to the first rows, legacy events list', value: legacy, unit: 'ms', vsNaive: 1 },
  ];

  const quietId = await api.call<number>({ op: 'steadyProject', name: 'Quiet export by cursor', ...QUIET });
  const after = new Date(Date.now() - 30 * 3_600_000).toISOString();
  const exporter = new PostHogClient({ baseUrl: api.url, apiKey: api.key, budgets: new RequestBudgets() });
  const directory = mkdtempSync(join(tmpdir(), 'posthog-bench-query-export-'));
  try {
    await api.reset();
    const target = join(directory, 'events.jsonl');
    const pageStarted = performance.now();
    await exporter.queries.events(quietId, { select: ['*', 'person'], orderBy: ['timestamp DESC'], after, limit: EVENTS_QUERY_MAX_PAGE });
    const pageRoundTrip = performance.now() - pageStarted;
    await api.reset();
    const started = performance.now();
    const written = await writeEventsFile(exporter.queries.eventPages(quietId, { after, limit: EVENTS_QUERY_MAX_PAGE }, { priority: 'bulk' }), target, { format: 'jsonl', rows: QUIET.count });
    const ms = performance.now() - started;
    const requests = (await api.traffic()).requests.length;
    const ids = readFileSync(target, 'utf8').trimEnd().split('\n').map((line) => (JSON.parse(line) as { id: string }).id);
    const unique = new Set(ids).size;
    const floorPages = Math.ceil(QUIET.count / EVENTS_QUERY_MAX_PAGE);
    const section2 = `Events through the Query API: export ${QUIET.count.toLocaleString('en-US')} events of the quiet project by cursor (pages of ${EVENTS_QUERY_MAX_PAGE.toLocaleString('en-US')})`;
    figures.push(
      { section: section2, what: 'rows written, each once', value: written.rows, unit: 'rows', budget: `${QUIET.count.toLocaleString('en-US')}, no duplicate`, pass: written.rows === QUIET.count && unique === QUIET.count, note: `${unique.toLocaleString('en-US')} distinct ids` },
      { section: section2, what: 'requests', value: requests, unit: 'requests', vsFloor: requests / floorPages, budget: `≤ ${floorPages + 1}`, pass: requests <= floorPages + 1, note: `floor: ${floorPages} pages` },
      { section: section2, what: 'time', value: ms, unit: 'ms', vsFloor: ms / (floorPages * pageRoundTrip), note: `floor: ${floorPages} round trips of a page (${Math.round(pageRoundTrip)} ms each, first page)` },
    );
  } finally {
    await exporter.dispose();
    rmSync(directory, { recursive: true, force: true });
  }

  // Live with three panels on one key: the pace the budget gives each, as requests an hour together.
  const budget = new KeyBudget();
  const shares = [0, 1, 2].map(() => budget.joinLive());
  const pace = budget.livePace(DEFAULT_LIVE_INTERVAL_MS);
  shares.forEach((share) => share.leave());
  const perHour = Math.round((shares.length * HOUR_MS) / pace.intervalMs);
  figures.push({ section: 'Events through the Query API: Live with three panels on one key', what: 'requests an hour (all three panels, one page a poll)', value: perHour, unit: 'requests', budget: '≤ 720 (Live\'s share of 1,200)', pass: perHour <= 720, note: `each panel every ${pace.intervalMs / 1000} s` });
  return figures;
}
