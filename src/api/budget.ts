// One request budget per personal API key, shared by everything that calls PostHog with that key: every
// events panel, Live, exports, suggestions, notebooks (their streams, saves and carets), projects, comments,
// across the connections (and clients) that use the key. PostHog counts a key's requests across all its
// projects in sliding windows, per throttle class (posthog-behaviour.md, "Rate limits"); once over, every
// request of that class gets 429 for up to an hour. The budget keeps the key under each class's windows,
// each kind of caller under its own share, so that what the user does by hand always has room.
import { createHash } from 'node:crypto';
import { isBoundedWait, LONGEST_WAIT_MS, PostHogError, RateLimitedTooLongError, waitText } from './errors';
import { realSleep, type Sleep, sleepUnlessAborted } from './sleep';

/**
 * Who is asking: what the user just did, a long export, Live's polling or a notebook following PostHog's
 * changes, or this window's caret shown to others (which yields first: lossy by design).
 */
export type BudgetPriority = 'interactive' | 'bulk' | 'live' | 'presence';

/**
 * PostHog's throttle classes a request of the extension meets (each a pair of buckets, or one):
 * - `default`: every view without its own throttles: notebooks (and their collab stream, saves and presence),
 *   projects, comments, activity, organizations, users, keys, property definitions;
 * - `clickhouse`: the events list and retrieve, `POST /query/` of any kind but HogQLQuery, and polls and
 *   cancels of a query run (`GET`/`DELETE /query/:id/`), all sharing one pair;
 * - `hogql`: `POST /query/` of a HogQLQuery (its `query` scope: an hourly bucket only);
 * - `eventValues`: events/values;
 * - `apiQueries`: a query run's log (`GET /query/:id/log/`).
 */
export type BudgetBucket = 'default' | 'clickhouse' | 'hogql' | 'eventValues' | 'apiQueries';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;

interface WindowShares {
  readonly windowMs: number;
  /** PostHog's limit in this window. */
  readonly server: number;
  /** The most requests (of all kinds) in the window when one of this kind may go. */
  readonly shares: Readonly<Record<BudgetPriority, number>>;
}

/**
 * Shares of PostHog's limits. A request may go when the key's requests of its class in the last minute and
 * in the last hour are under its kind's share: by hand up to just under PostHog's limit, exports to about
 * 80 %, Live to 720 an hour (one panel every 5 seconds) and half the minute. So, whatever Live and exports do,
 * a click still has 150 requests an hour and 50 a minute of room. Of the default class, notebooks following
 * PostHog's changes keep to three quarters, and carets to half: they stop long before a save or an open
 * would wait.
 */
export const BUDGET_LIMITS: Readonly<Record<BudgetBucket, readonly WindowShares[]>> = {
  default: [
    { windowMs: MINUTE_MS, server: 480, shares: { interactive: 470, bulk: 400, live: 360, presence: 240 } },
    { windowMs: HOUR_MS, server: 4_800, shares: { interactive: 4_700, bulk: 4_000, live: 3_600, presence: 2_400 } },
  ],
  clickhouse: [
    { windowMs: MINUTE_MS, server: 240, shares: { interactive: 230, bulk: 180, live: 120, presence: 120 } },
    { windowMs: HOUR_MS, server: 1_200, shares: { interactive: 1_150, bulk: 1_000, live: 720, presence: 720 } },
  ],
  hogql: [{ windowMs: HOUR_MS, server: 120, shares: { interactive: 115, bulk: 90, live: 60, presence: 60 } }],
  eventValues: [
    { windowMs: MINUTE_MS, server: 60, shares: { interactive: 55, bulk: 40, live: 30, presence: 30 } },
    { windowMs: HOUR_MS, server: 300, shares: { interactive: 280, bulk: 200, live: 100, presence: 100 } },
  ],
  apiQueries: [
    { windowMs: MINUTE_MS, server: 240, shares: { interactive: 230, bulk: 180, live: 120, presence: 120 } },
    { windowMs: HOUR_MS, server: 2_400, shares: { interactive: 2_300, bulk: 2_000, live: 1_200, presence: 1_200 } },
  ],
};

/** A request as the budget sorts it: its method, its API path (no query string) and its JSON body. */
export interface ThrottledRequest {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
}

const PROJECT_ITEM = String.raw`^/api/(?:projects|environments)/[^/]+/`;
const EVENT_VALUES = new RegExp(`${PROJECT_ITEM}events/values/?$`);
const EVENTS = new RegExp(`${PROJECT_ITEM}events(?:/|$)`);
const QUERY_LOG = new RegExp(`${PROJECT_ITEM}query/[^/]+/log/?$`);
const QUERY = new RegExp(`${PROJECT_ITEM}query(?:/|$)`);

/** The throttle class PostHog counts a request against (see BudgetBucket). */
export function throttleClassOf(request: ThrottledRequest): BudgetBucket {
  const { path } = request;
  if (EVENT_VALUES.test(path)) {
    return 'eventValues';
  }
  if (EVENTS.test(path)) {
    return 'clickhouse';
  }
  if (QUERY_LOG.test(path)) {
    return 'apiQueries';
  }
  if (QUERY.test(path)) {
    // PostHog reads only the top-level kind: a HogQLQuery wrapped in another node counts as ClickHouse.
    return request.method.toUpperCase() === 'POST' && queryKindOf(request.body) === 'HogQLQuery' ? 'hogql' : 'clickhouse';
  }
  return 'default';
}

function queryKindOf(body: unknown): unknown {
  const query = typeof body === 'object' && body !== null ? (body as { query?: unknown }).query : undefined;
  return typeof query === 'object' && query !== null ? (query as { kind?: unknown }).kind : undefined;
}

/** Why a request has to wait: the key's share of a minute or an hour is used, or PostHog answered 429. */
export interface BudgetWait {
  /** When the request may go (epoch milliseconds). */
  readonly untilMs: number;
  readonly reason: 'minute' | 'hour' | 'throttled';
  /** PostHog's words, after a 429. */
  readonly detail?: string;
}

/** A request that would have to wait, from a caller that asked not to (Live tries again later). */
export class BudgetWaitError extends PostHogError {
  override name = 'BudgetWaitError';
  constructor(
    readonly wait: BudgetWait,
    now: number,
  ) {
    super(
      `request budget: wait until ${new Date(wait.untilMs).toISOString()} (${wait.reason})`,
      wait.reason === 'throttled'
        ? `PostHog has limited the requests of this API key. Try again in ${waitText((wait.untilMs - now) / 1000)}.`
        : `This API key is near PostHog's ${wait.reason === 'minute' ? 'per-minute' : 'hourly'} limit for these requests. Try again in ${waitText((wait.untilMs - now) / 1000)}.`,
    );
  }
}

export interface AcquireOptions {
  signal?: AbortSignal;
  /** Told when a wait begins (the caller shows it where the user is looking). */
  onWait?: (wait: BudgetWait) => void;
  /** Throw BudgetWaitError instead of waiting. */
  noWait?: boolean;
  /** Throw BudgetWaitError instead of waiting longer than this (default: up to an hour, LONGEST_WAIT_MS). */
  maxWaitMs?: number;
}

export interface BudgetClock {
  now?: () => number;
  sleep?: Sleep;
}

/** The requests of one key in one of PostHog's buckets, over the last hour. */
class BucketBudget {
  /** Send times of the last hour, oldest first (at most the hour's limit: the budget never lets more go). */
  private readonly sent: number[] = [];
  private blockedUntil = 0;
  private blockDetail: string | undefined;

  constructor(private readonly windows: readonly WindowShares[]) {}

  waitFor(priority: BudgetPriority, now: number): BudgetWait | undefined {
    this.forget(now);
    let wait: BudgetWait | undefined =
      this.blockedUntil > now ? { untilMs: this.blockedUntil, reason: 'throttled', ...(this.blockDetail ? { detail: this.blockDetail } : {}) } : undefined;
    for (const window of this.windows) {
      const inWindow = this.countSince(now - window.windowMs);
      const share = window.shares[priority];
      if (inWindow < share) {
        continue;
      }
      // The request may go once the oldest (inWindow - share + 1) requests of the window have left it.
      const first = this.sent.length - inWindow;
      const untilMs = this.sent[first + inWindow - share]! + window.windowMs;
      if (!wait || untilMs > wait.untilMs) {
        wait = { untilMs, reason: window.windowMs === MINUTE_MS ? 'minute' : 'hour' };
      }
    }
    return wait;
  }

  record(now: number): void {
    this.sent.push(now);
  }

  block(untilMs: number, detail: string | undefined): void {
    if (untilMs > this.blockedUntil) {
      this.blockedUntil = untilMs;
      this.blockDetail = detail;
    }
  }

  countSince(since: number): number {
    let low = 0;
    let high = this.sent.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.sent[mid]! <= since) low = mid + 1;
      else high = mid;
    }
    return this.sent.length - low;
  }

  private forget(now: number): void {
    const horizon = now - HOUR_MS;
    let expired = 0;
    while (expired < this.sent.length && this.sent[expired]! <= horizon) expired++;
    if (expired) this.sent.splice(0, expired);
  }
}

/** How often one Live panel may poll now, and why it is slower than asked when it is. */
export interface LivePace {
  readonly intervalMs: number;
  /**
   * Set when the interval is longer than asked: the panels with Live on share Live's part of the hour
   * ('panels'), one panel asked for more than that part ('share'), the key's other requests of the last
   * hour or minute leave no room ('hour', 'minute'), or PostHog answered 429 ('throttled').
   */
  readonly slowedBy?: 'panels' | 'share' | 'hour' | 'minute' | 'throttled';
  /** Live panels polling with this key now. */
  readonly panels: number;
  /** PostHog's words, after a 429. */
  readonly detail?: string;
}

/** A Live panel's place in the budget: counted while it polls (not while paused). */
export interface LiveShare {
  setActive(active: boolean): void;
  leave(): void;
}

/** The budget of one personal API key (see the top of this file). vscode-free; tests inject the clock. */
export class KeyBudget {
  private readonly buckets: Record<BudgetBucket, BucketBudget>;
  private readonly activeLive = new Set<object>();
  private readonly now: () => number;
  private readonly sleep: Sleep;

  constructor(clock: BudgetClock = {}) {
    this.now = clock.now ?? Date.now;
    this.sleep = clock.sleep ?? realSleep;
    this.buckets = Object.fromEntries(Object.entries(BUDGET_LIMITS).map(([bucket, windows]) => [bucket, new BucketBudget(windows)])) as Record<BudgetBucket, BucketBudget>;
  }

  /** When a request of this kind may go; undefined: now. */
  waitFor(bucket: BudgetBucket, priority: BudgetPriority): BudgetWait | undefined {
    return this.buckets[bucket].waitFor(priority, this.now());
  }

  /** Waits (cancellable) until a request of this kind fits, then counts it as sent. */
  async acquire(bucket: BudgetBucket, priority: BudgetPriority, options: AcquireOptions = {}): Promise<void> {
    for (;;) {
      options.signal?.throwIfAborted();
      const wait = this.waitFor(bucket, priority);
      if (!wait) {
        this.buckets[bucket].record(this.now());
        return;
      }
      const waitMs = wait.untilMs - this.now();
      if (!(waitMs <= LONGEST_WAIT_MS)) {
        throw new RateLimitedTooLongError({ retryAfterSeconds: waitMs / 1000, detail: wait.detail });
      }
      if (options.noWait || waitMs > (options.maxWaitMs ?? LONGEST_WAIT_MS)) {
        throw new BudgetWaitError(wait, this.now());
      }
      options.onWait?.(wait);
      await sleepUnlessAborted(this.sleep, Math.max(1, waitMs), options.signal);
    }
  }

  /**
   * PostHog answered 429 naming `seconds`: no request of the key goes to that bucket before then. A wait that
   * is not from 0 to an hour blocks nothing and throws RateLimitedTooLongError: the operation ends, and a
   * retry by the user sends again rather than finding the key blocked for centuries.
   */
  throttled(bucket: BudgetBucket, seconds: number, detail?: string): void {
    if (!isBoundedWait(seconds)) {
      throw new RateLimitedTooLongError({ retryAfterSeconds: seconds, detail });
    }
    this.buckets[bucket].block(this.now() + Math.max(1, seconds) * 1000, detail);
  }

  /**
   * How many more requests of this kind may go now before one has to wait: the fewest left of its share in
   * any of the bucket's windows (for the hogql bucket, of the hour's 120).
   */
  left(bucket: BudgetBucket, priority: BudgetPriority = 'interactive'): number {
    const now = this.now();
    const windows = BUDGET_LIMITS[bucket];
    return Math.min(...windows.map((window) => Math.max(0, window.shares[priority] - this.buckets[bucket].countSince(now - window.windowMs))));
  }

  /** Requests counted in the last `windowMs` (the benchmark and tests read it). */
  sentWithin(bucket: BudgetBucket, windowMs: number): number {
    return this.buckets[bucket].countSince(this.now() - windowMs);
  }

  /** A Live panel joins: while active, it shares Live's part of the hour with the other active ones. */
  joinLive(): LiveShare {
    const share = {};
    this.activeLive.add(share);
    return {
      setActive: (active) => (active ? this.activeLive.add(share) : this.activeLive.delete(share)),
      leave: () => this.activeLive.delete(share),
    };
  }

  /**
   * The interval for a Live panel that asked for `preferredMs`: Live's hourly share split between the
   * active panels (one panel every 5 s, two every 10 s, three every 15 s), and no sooner than Live's share
   * of the budget (used by exports, other tools or a 429) allows.
   */
  livePace(preferredMs: number): LivePace {
    const panels = Math.max(1, this.activeLive.size);
    const hourShare = BUDGET_LIMITS.clickhouse.find((window) => window.windowMs === HOUR_MS)!.shares.live;
    const sustainableMs = Math.ceil((HOUR_MS * panels) / hourShare);
    let pace: LivePace = sustainableMs > preferredMs ? { intervalMs: sustainableMs, slowedBy: panels > 1 ? 'panels' : 'share', panels } : { intervalMs: preferredMs, panels };
    const wait = this.waitFor('clickhouse', 'live');
    const waitMs = wait ? wait.untilMs - this.now() : 0;
    if (wait && waitMs > pace.intervalMs) {
      pace = { intervalMs: waitMs, slowedBy: wait.reason, panels, ...(wait.detail ? { detail: wait.detail } : {}) };
    }
    return pace;
  }
}

/** The budgets of every key this window uses, by host and key fingerprint (the key itself is not kept). */
export class RequestBudgets {
  private readonly budgets = new Map<string, KeyBudget>();

  constructor(private readonly clock: BudgetClock = {}) {}

  of(baseUrl: string, apiKey: string): KeyBudget {
    const id = createHash('sha256').update(`${baseUrl}\n${apiKey.trim()}`).digest('hex').slice(0, 24);
    let budget = this.budgets.get(id);
    if (!budget) {
      budget = new KeyBudget(this.clock);
      this.budgets.set(id, budget);
    }
    return budget;
  }
}

/** The extension's budgets: one per key for the whole window. */
export const sharedBudgets = new RequestBudgets();
