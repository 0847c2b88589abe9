import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AuthenticationError, type Event, type EventsBatch, KeyBudget, PostHogClient, RateLimitedError, RequestBudgets, ServerError } from '../../../src/api';
import { MAX_TIMER_MS } from '../../../src/api/sleep';
import { type LocalApi, startLocalApi } from '../../api-server';
import { type LiveFetch, type LiveGap, type LiveState, LiveTail, MAX_BACKOFF_MS, OVERLAP_MS, type Timers } from '../../../src/events/liveTail';

/** Timers that move only when told: run(ms) fires what falls due, in order, letting promises settle. */
class FakeTimers implements Timers {
  private time = Date.parse('2026-01-01T12:00:00Z');
  private queue: { at: number; run: () => void; id: number }[] = [];
  private ids = 0;
  now = () => this.time;
  setTimeout = (run: () => void, ms: number) => {
    const id = ++this.ids;
    this.queue.push({ at: this.time + ms, run, id });
    return id;
  };
  clearTimeout = (handle: unknown) => {
    this.queue = this.queue.filter((entry) => entry.id !== handle);
  };
  get pending(): number {
    return this.queue.length;
  }
  async run(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await settle();
      this.queue.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.queue[0];
      if (!next || next.at > end) break;
      this.queue.shift();
      this.time = next.at;
      next.run();
    }
    this.time = end;
    await settle();
  }
}

const settle = async () => {
  for (let i = 0; i < 10; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

const BASE = Date.parse('2026-01-01T11:00:00Z');
const event = (id: string, secondsAfterBase: number): Event =>
  ({ id, event: '$pageview', distinct_id: 'd', timestamp: new Date(BASE + secondsAfterBase * 1000).toISOString(), properties: {}, elements: [], elements_chain: '' }) as unknown as Event;

/** A server holding `events`: answers `after` strictly, newest first, in pages of `pageSize`. */
class FakeServer {
  events: Event[] = [];
  calls: (string | undefined)[] = [];
  failures: Error[] = [];
  constructor(private readonly pageSize = 1000) {}
  add(...events: Event[]): void {
    this.events.push(...events);
  }
  fetch: LiveFetch = (after) => {
    this.calls.push(after);
    return this.pages(after);
  };

  /** Before each page: fails when it says so (a budget that has no room, a 429). */
  beforePage: (index: number) => void = () => undefined;

  private async *pages(after: string | undefined): AsyncGenerator<EventsBatch> {
    const failure = this.failures.shift();
    if (failure) throw failure;
    const rows = this.events
      .filter((e) => after === undefined || Date.parse(e.timestamp) > Date.parse(after))
      .sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp));
    for (let i = 0; i === 0 || i < rows.length; i += this.pageSize) {
      this.beforePage(i / this.pageSize);
      yield { events: rows.slice(i, i + this.pageSize), last: i + this.pageSize >= rows.length };
    }
  }
}

class Sink {
  batches: string[][] = [];
  states: LiveState[] = [];
  gaps: LiveGap[] = [];
  gap(gap: LiveGap): void {
    this.gaps.push(gap);
  }
  events(events: readonly Event[]): void {
    this.batches.push(events.map((e) => e.id));
  }
  state(state: LiveState): void {
    this.states.push(state);
  }
  get last(): LiveState | undefined {
    return this.states.at(-1);
  }
}

const watching = (intervalMs: number, panels = 1): LiveState => ({ kind: 'watching', pace: { intervalMs, panels } });

function setup(options: { shown?: Event[]; intervalMs?: number; keep?: number; budget?: KeyBudget; pageSize?: number; timers?: FakeTimers } = {}) {
  const timers = options.timers ?? new FakeTimers();
  const server = new FakeServer(options.pageSize);
  const sink = new Sink();
  const tail = new LiveTail(
    server.fetch,
    sink,
    { intervalMs: options.intervalMs ?? 5_000, keep: options.keep, budget: options.budget ?? new KeyBudget({ now: timers.now }), timers, random: () => 1 },
    options.shown,
  );
  return { timers, server, sink, tail };
}

describe('live tail', () => {
  test('asks for events after the newest shown, less the overlap, and reports only new ones', async () => {
    const shown = [event('b', 10), event('a', 5)];
    const { timers, server, sink, tail } = setup({ shown });
    server.add(...shown);
    tail.start();
    await timers.run(0);
    assert.equal(server.calls[0], new Date(BASE + 10_000 - OVERLAP_MS).toISOString());
    assert.deepEqual(sink.batches, [], 'the shown event b came back and was dropped');
    server.add(event('c', 11), event('d', 12));
    await timers.run(5_000);
    assert.deepEqual(sink.batches, [['d', 'c']], 'newest first');
    assert.deepEqual(sink.last, watching(5_000));
    tail.stop();
  });

  test('an event with the same timestamp as the newest shown is reported once, not missed', async () => {
    const shown = [event('first', 20)];
    const { timers, server, sink, tail } = setup({ shown });
    server.add(...shown);
    tail.start();
    await timers.run(0);
    server.add(event('twin', 20));
    await timers.run(5_000);
    await timers.run(5_000);
    assert.deepEqual(sink.batches, [['twin']]);
    tail.stop();
  });

  test('without shown events the first poll only finds where the list starts', async () => {
    const { timers, server, sink, tail } = setup();
    server.add(event('old', 1));
    tail.start();
    await timers.run(0);
    assert.equal(server.calls[0], undefined);
    assert.deepEqual(sink.batches, []);
    server.add(event('new', 2));
    await timers.run(5_000);
    assert.deepEqual(sink.batches, [['new']]);
    tail.stop();
  });

  test('polls at the interval, and at a changed interval', async () => {
    const { timers, server, tail } = setup({ shown: [], intervalMs: 6_000 });
    tail.start();
    await timers.run(30_000);
    assert.equal(server.calls.length, 6); // 0, 6, 12, 18, 24, 30 s
    tail.configure({ intervalMs: 10_000 });
    await timers.run(20_000);
    assert.equal(server.calls.length, 8);
    tail.stop();
  });

  test('asked for less than 5 s with one panel, Live says it keeps to its share of the hour', async () => {
    const { timers, server, sink, tail } = setup({ shown: [], intervalMs: 1_000 });
    tail.start();
    await timers.run(60_000);
    assert.equal(server.calls.length, 13, 'every 5 s, not every second');
    assert.deepEqual(sink.last, { kind: 'watching', pace: { intervalMs: 5_000, slowedBy: 'share', panels: 1 } });
    tail.stop();
  });

  test('pauses while hidden and resumes when shown', async () => {
    const { timers, server, sink, tail } = setup({ shown: [] });
    tail.start();
    await timers.run(0);
    tail.setVisible(false);
    await timers.run(60_000);
    assert.equal(server.calls.length, 1, 'no polls while hidden');
    assert.deepEqual(sink.last, { kind: 'paused', reason: 'hidden' });
    server.add(event('while-away', 30));
    tail.setVisible(true);
    await timers.run(0);
    assert.equal(server.calls.length, 2, 'polls at once when shown again (the interval has passed)');
    assert.deepEqual(sink.batches, [['while-away']]);
    tail.stop();
  });

  test('keeps polling for a minute in an unfocused window, then pauses until focus returns', async () => {
    const { timers, server, sink, tail } = setup({ shown: [] });
    tail.start();
    await timers.run(0);
    tail.setFocused(false);
    await timers.run(55_000);
    const beforePause = server.calls.length;
    assert.equal(beforePause, 12);
    await timers.run(120_000);
    assert.equal(server.calls.length, beforePause, 'paused after a minute in the background');
    assert.deepEqual(sink.last, { kind: 'paused', reason: 'unfocused' });
    tail.setFocused(true);
    await timers.run(0);
    assert.equal(server.calls.length, beforePause + 1);
    tail.stop();
  });

  test('backs off on 429 and 5xx, honouring the wait PostHog names, and recovers', async () => {
    const { timers, server, sink, tail } = setup({ shown: [] });
    server.failures.push(
      new RateLimitedError({ endpoint: 'GET /e/', status: 429, retryAfterSeconds: 30 }),
      new ServerError({ endpoint: 'GET /e/', status: 503 }),
      new ServerError({ endpoint: 'GET /e/', status: 500 }),
    );
    tail.start();
    await timers.run(0);
    const first = sink.last;
    assert.equal(first?.kind, 'backingOff');
    assert.ok(first.kind === 'backingOff' && first.retryInMs >= 30_000, 'waits at least what the 429 said');
    await timers.run(29_000);
    assert.equal(server.calls.length, 1, 'no poll before the named wait');
    await timers.run(first.kind === 'backingOff' ? first.retryInMs - 29_000 : 0);
    assert.equal(server.calls.length, 2);
    const second = sink.last;
    assert.ok(second?.kind === 'backingOff' && second.retryInMs === 10_000, 'exponential: 5 s × 2');
    await timers.run(10_000);
    const third = sink.last;
    assert.ok(third?.kind === 'backingOff' && third.retryInMs === 20_000, 'and again: 5 s × 4');
    await timers.run(20_000);
    assert.deepEqual(sink.last, watching(5_000), 'back to the interval once a poll succeeds');
    tail.stop();
  });

  test('the backoff never exceeds five minutes', async () => {
    const { timers, server, sink, tail } = setup({ shown: [] });
    for (let i = 0; i < 12; i++) server.failures.push(new ServerError({ endpoint: 'GET /e/', status: 502 }));
    tail.start();
    await timers.run(0);
    for (let i = 0; i < 11; i++) {
      const state = sink.last;
      assert.ok(state?.kind === 'backingOff' && state.retryInMs <= MAX_BACKOFF_MS);
      await timers.run(state.retryInMs);
    }
    assert.ok(sink.last?.kind === 'backingOff' && sink.last.retryInMs === MAX_BACKOFF_MS);
    tail.stop();
  });

  test('stops with the error on a 401: polling again cannot help', async () => {
    const { timers, server, sink, tail } = setup({ shown: [] });
    server.failures.push(new AuthenticationError({ endpoint: 'GET /e/', status: 401, detail: 'Invalid key' }));
    tail.start();
    await timers.run(60_000);
    assert.equal(server.calls.length, 1);
    assert.equal(sink.last?.kind, 'stopped');
    assert.ok(sink.last.kind === 'stopped' && sink.last.error);
    assert.equal(tail.isRunning, false);
    assert.equal(timers.pending, 0);
  });

  test('stop() ends polling: no timer left', async () => {
    const { timers, server, tail } = setup({ shown: [] });
    tail.start();
    await timers.run(0);
    tail.stop();
    await timers.run(60_000);
    assert.equal(server.calls.length, 1);
    assert.equal(timers.pending, 0);
  });

  test('one poll reports at most `keep` events, the newest', async () => {
    const { timers, server, sink, tail } = setup({ shown: [], keep: 150, pageSize: 100 });
    tail.start();
    await timers.run(0);
    server.add(...Array.from({ length: 400 }, (_, i) => event(`e${i}`, 100 + i)));
    await timers.run(5_000);
    assert.equal(sink.batches[0]?.length, 150);
    assert.equal(sink.batches[0]?.[0], 'e399');
    assert.equal(tail.requests, 3, 'two pages of 100 were enough, plus the first poll');
    tail.stop();
  });

  test('follows pages while they hold only new events and stops at the first one already seen', async () => {
    const shown = [event('s', 1)];
    const { timers, server, sink, tail } = setup({ shown, pageSize: 2 });
    server.add(...shown);
    tail.start();
    await timers.run(0);
    server.add(event('n1', 2), event('n2', 3), event('n3', 4));
    const before = tail.requests;
    await timers.run(5_000);
    assert.deepEqual(sink.batches, [['n3', 'n2', 'n1']]);
    assert.equal(tail.requests - before, 2);
    tail.stop();
  });

  test('panels of one key share its budget: three panels poll every 15 s, 720 requests an hour together', async () => {
    const timers = new FakeTimers();
    const budget = new KeyBudget({ now: timers.now });
    const server = new FakeServer();
    const sinks = [0, 1, 2].map(() => new Sink());
    const tails = sinks.map((sink) => new LiveTail(server.fetch, sink, { intervalMs: 5_000, budget, timers }, []));
    tails.forEach((tail) => tail.start());
    await timers.run(3_600_000 - 1);
    assert.ok(server.calls.length <= 720 + 3, `${server.calls.length} polls in an hour`);
    assert.ok(server.calls.length >= 700, `${server.calls.length} polls in an hour`);
    assert.deepEqual(sinks[0]!.last, { kind: 'watching', pace: { intervalMs: 15_000, slowedBy: 'panels', panels: 3 } });
    tails[1]!.stop();
    tails[2]!.stop();
    await timers.run(20_000);
    assert.deepEqual(sinks[0]!.last, watching(5_000), 'alone again: back to the setting');
    const other = new LiveTail(server.fetch, new Sink(), { intervalMs: 5_000, budget: new KeyBudget({ now: timers.now }), timers }, []);
    const calls = server.calls.length;
    other.start();
    await timers.run(0);
    assert.equal(server.calls.length, calls + 1, 'another key has its own budget');
    [tails[0]!, other].forEach((tail) => tail.stop());
  });

  test('a hidden panel leaves its share to the others', async () => {
    const timers = new FakeTimers();
    const budget = new KeyBudget({ now: timers.now });
    const server = new FakeServer();
    const [shown, hidden] = [new Sink(), new Sink()];
    const tails = [shown, hidden].map((sink) => new LiveTail(server.fetch, sink, { intervalMs: 5_000, budget, timers }, []));
    tails.forEach((tail) => tail.start());
    await timers.run(30_000);
    assert.deepEqual(shown.last, { kind: 'watching', pace: { intervalMs: 10_000, slowedBy: 'panels', panels: 2 } });
    tails[1]!.setVisible(false);
    await timers.run(30_000);
    assert.deepEqual(shown.last, watching(5_000));
    tails.forEach((tail) => tail.stop());
  });

  test('when Live\'s share of the budget has no room, it waits (saying why) instead of failing', async () => {
    const timers = new FakeTimers();
    const budget = new KeyBudget({ now: timers.now });
    for (let second = 0; second < 240; second++) {
      for (let i = 0; i < 3; i++) await budget.acquire('clickhouse', 'bulk'); // an export used Live's share of the hour
      await timers.run(1_000);
    }
    const { server, sink, tail } = setup({ shown: [], budget, timers });
    server.fetch = (after, signal) => {
      server.calls.push(after);
      return (async function* () {
        await budget.acquire('clickhouse', 'live', { noWait: true, signal });
        yield { events: [], last: true } as EventsBatch;
      })();
    };
    tail.start();
    await timers.run(0);
    assert.equal(sink.last?.kind, 'watching');
    assert.ok(sink.last?.kind === 'watching' && sink.last.pace.slowedBy === 'hour' && sink.last.pace.intervalMs > 3_000_000, JSON.stringify(sink.last));
    assert.equal(tail.isRunning, true);
    tail.stop();
  });

  test('a catch-up cut short by the budget shows what it fetched and reports the gap', async () => {
    const shown = [event('s', 1)];
    const { timers, server, sink, tail } = setup({ shown, pageSize: 2 });
    server.add(...shown);
    tail.start();
    await timers.run(0);
    server.add(event('n1', 2), event('n2', 3), event('n3', 4), event('n4', 5), event('n5', 6));
    server.beforePage = (index) => {
      if (index === 1) throw new RateLimitedError({ endpoint: 'GET /e/', status: 429, retryAfterSeconds: 30 });
    };
    await timers.run(5_000);
    assert.deepEqual(sink.batches, [['n5', 'n4']]);
    assert.deepEqual(sink.gaps, [{ after: new Date(BASE + 1_000 - OVERLAP_MS).toISOString(), before: event('n4', 5).timestamp }]);
    server.beforePage = () => undefined;
    await timers.run(5_000);
    assert.deepEqual(sink.batches.length, 1, 'the skipped events are not fetched later by Live (the panel offers to load them)');
    tail.stop();
  });
});

describe('live tail against the local API: a 429 naming more than an hour', () => {
  let api: LocalApi;
  before(async () => {
    api = await startLocalApi({ seed: 'minimal' });
  });
  after(() => api.close());

  for (const rule of [{ throttleText: '99999999' }, { throttleText: 'NaN' }, { retryAfter: 'Wed, 01 Jan 3000 00:00:00 GMT' }]) {
    test(`${JSON.stringify(rule)}: Live stops with PostHog's text and a retry, no timer left or longer than a timer holds`, async () => {
      const timers = new FakeTimers();
      const longest: number[] = [];
      const setTimeout = timers.setTimeout;
      timers.setTimeout = (run, ms) => (longest.push(ms), setTimeout(run, ms));
      const budgets = new RequestBudgets({ now: timers.now, sleep: () => Promise.reject(new Error('Live never sleeps')) });
      const client = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.all, budgets });
      const projectId = api.store.visibleProjects()[0]!.id;
      const sink = new Sink();
      const fetch: LiveFetch = (after, signal) => client.events.pages(projectId, { after, limit: 100 }, { signal, priority: 'live', noWait: true });
      const tail = new LiveTail(fetch, sink, { intervalMs: 5_000, budget: budgets.of(api.url, api.keys.all), timers }, []);
      try {
        await timers.run(0);
        api.clearRequests();
        api.injectFault({ status: 429, times: 100, ...rule });
        tail.start();
        await timers.run(60_000);
        await new Promise((resolve) => setImmediate(resolve));
        await timers.run(60_000);
        assert.equal(sink.last?.kind, 'stopped');
        assert.match(sink.last?.kind === 'stopped' ? (sink.last.error ?? '') : '', /PostHog: "Request was throttled\..*Retry later/);
        assert.equal(api.requests.length, 1, 'one poll, then nothing');
        assert.equal(timers.pending, 0, 'no timer left');
        assert.ok(longest.every((ms) => ms <= MAX_TIMER_MS), `timers of ${longest.join(', ')} ms`);
      } finally {
        tail.stop();
        await client.dispose();
      }
    });
  }
});
