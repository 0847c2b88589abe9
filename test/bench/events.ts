// 3. Events through the panel's pager (src/events/pager.ts): time to the first rows, loading 100,000 events with
// prefetch against one page at a time, and what a scrolling user waits. The event list is a cursor chain
// (`next` moves `before`; no count), so pages cannot be fetched in parallel: the floor is one round trip per page.
import { Agent, fetch } from 'undici';
import { PostHogClient } from '../../src/api';
import { buildQuery } from '../../src/events/filters';
import { DEFAULT_PREFETCH_ROWS, EventPager, type PagerSink } from '../../src/events/pager';
import { defaultFilters } from '../../src/events/protocol';
import type { BenchApi } from './benchApi';
import { type Figure, median } from './results';

const FIRST_ROWS_REPETITIONS = 5;
const ALL_EVENTS = 100_000;
const PAGE_SIZE = 100;
const SCROLLED_ROWS = 5_000;
/** A quick, steady scroll: 1,000 rows a second (about 40 screens of 24-px rows a second). */
const SCROLL_ROWS_PER_SECOND = 1_000;

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function newPager(client: PostHogClient, projectId: number, sink: Partial<PagerSink>, prefetchRows?: number): EventPager {
  const query = buildQuery(defaultFilters(), new Date());
  return new EventPager(client.events, projectId, query, { rows: () => undefined, status: () => undefined, ...sink }, { prefetchRows });
}

async function firstRowsMs(client: PostHogClient, projectId: number): Promise<number> {
  const started = performance.now();
  let pager: EventPager | undefined;
  const first = new Promise<number>((resolve, reject) => {
    pager = newPager(client, projectId, {
      rows: () => resolve(performance.now() - started),
      status: (_, error) => error && reject(new Error(error)),
    });
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
  const clients = [0, 1].map(() => new PostHogClient({ baseUrl: api.url, apiKey: api.key }));
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
    const pages = Math.ceil(ALL_EVENTS / PAGE_SIZE);
    const floor = pages * latencyMs;
    const section2 = `Events: load ${ALL_EVENTS.toLocaleString('en-US')} events, scrolled to the end as fast as they come (both at once; ${pages} pages of ${PAGE_SIZE})`;
    figures.push(
      { section: section2, what: 'one page at a time (naive)', value: onePage.ms, unit: 'ms', vsNaive: 1, vsFloor: onePage.ms / floor, note: `${onePage.loaded} events` },
      { section: section2, what: `pager with prefetch (${DEFAULT_PREFETCH_ROWS} rows ahead)`, value: prefetch.ms, unit: 'ms', vsNaive: prefetch.ms / onePage.ms, vsFloor: prefetch.ms / floor, note: `${prefetch.loaded} events` },
      { section: section2, what: `network floor (${pages} sequential round trips)`, value: floor, unit: 'ms' },
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
  } finally {
    await Promise.all([...clients.map((client) => client.dispose()), dispatcher.close()]);
  }
  return figures;
}
