// Live events: polls for events newer than the newest one shown, as `tail -f` does. vscode-free: the panel
// says when it is visible and whether the window has focus, and shows what the tail reports.
import {
  BudgetWaitError,
  DEFAULT_RETRY,
  type Event,
  type EventsBatch,
  isAbortError,
  type LivePace,
  type LiveShare,
  NetworkError,
  PostHogError,
  RateLimitedError,
  retryDelayMs,
  ServerError,
  TimeoutError,
} from '../api';

export const DEFAULT_LIVE_INTERVAL_MS = 5_000;
export const MIN_LIVE_INTERVAL_MS = 1_000;
export const DEFAULT_KEPT_EVENTS = 10_000;
/** With the window in the background this long, polls stop until it has focus again. */
export const PAUSE_UNFOCUSED_AFTER_MS = 60_000;
/** Longest wait between polls when PostHog keeps failing. */
export const MAX_BACKOFF_MS = 5 * 60_000;
/**
 * Each poll asks for events after (newest shown − this): events with the newest timestamp that had not
 * arrived yet are not missed (PostHog's `after` is strict and timestamps can be equal); the ones already
 * shown come again and are dropped by id.
 */
export const OVERLAP_MS = 1_000;

/**
 * The events after `after` (undefined: the listing's own bounds), newest first, each once (the client's
 * walk). It asks the key's budget without waiting: BudgetWaitError when Live's share has no room.
 */
export type LiveFetch = (after: string | undefined, signal: AbortSignal) => AsyncIterator<EventsBatch>;

/** The key's request budget, as Live uses it (KeyBudget). */
export interface LiveBudget {
  joinLive(): LiveShare;
  livePace(preferredMs: number): LivePace;
}

export type LiveState =
  /** `pace` says how often, and why less often than the setting when it is. */
  | { kind: 'watching'; pace: LivePace }
  | { kind: 'paused'; reason: 'hidden' | 'unfocused' }
  | { kind: 'backingOff'; retryInMs: number; error: string }
  | { kind: 'stopped'; error?: string };

/** Events Live did not fetch: newer than `after` and older than `before` (ISO times). */
export interface LiveGap {
  after: string;
  before: string;
}

export interface LiveSink {
  /** Events not reported before, newest first. */
  events(events: readonly Event[]): void;
  state(state: LiveState): void;
  /** A catch-up was cut short by the key's budget: these events were skipped (the panel offers to load them). */
  gap?(gap: LiveGap): void;
}

export interface Timers {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface LiveOptions {
  intervalMs?: number;
  /** The most events one poll reports (the panel keeps no more than this either). */
  keep?: number;
  budget: LiveBudget;
  timers?: Timers;
  random?: () => number;
  pauseUnfocusedAfterMs?: number;
}

/** Whether a failed poll is worth repeating later: rate limits, 5xx, network trouble; not 4xx. */
export function isTransient(error: unknown): error is PostHogError {
  return (
    error instanceof RateLimitedError ||
    error instanceof BudgetWaitError ||
    error instanceof ServerError ||
    error instanceof NetworkError ||
    error instanceof TimeoutError ||
    (error instanceof PostHogError && (error.status ?? 0) >= 500)
  );
}

export class LiveTail {
  private intervalMs: number;
  private keep: number;
  private readonly timers: Timers;
  private readonly random: () => number;
  private readonly pauseUnfocusedAfterMs: number;
  private running = false;
  private visible = true;
  private focused = true;
  private blurredAt = 0;
  private timer: unknown;
  private dueAt = 0;
  private inFlight: AbortController | undefined;
  private failures = 0;
  /** False until the first poll, when nothing shown said where the list starts: that poll only sets the cursor. */
  private primed: boolean;
  private newestMs: number | undefined;
  /** Ids of the events within OVERLAP_MS of the newest, with their times: the next poll returns them again. */
  private readonly seen = new Map<string, number>();
  /** Requests made (each page is one). */
  requests = 0;
  private share: LiveShare | undefined;

  constructor(
    private readonly fetch: LiveFetch,
    private readonly sink: LiveSink,
    private readonly options: LiveOptions,
    /** The events already shown, newest first; undefined when not known yet. */
    shown?: readonly Event[],
  ) {
    this.intervalMs = Math.max(MIN_LIVE_INTERVAL_MS, options.intervalMs ?? DEFAULT_LIVE_INTERVAL_MS);
    this.keep = Math.max(1, options.keep ?? DEFAULT_KEPT_EVENTS);
    this.timers = options.timers ?? systemTimers;
    this.random = options.random ?? Math.random;
    this.pauseUnfocusedAfterMs = options.pauseUnfocusedAfterMs ?? PAUSE_UNFOCUSED_AFTER_MS;
    this.primed = shown !== undefined;
    this.remember(shown ?? []);
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** The `after` the next poll sends. */
  get after(): string | undefined {
    return this.newestMs === undefined ? undefined : new Date(this.newestMs - OVERLAP_MS).toISOString();
  }

  start(): void {
    if (this.running) {
      return;
    }
    this.running = true;
    this.share = this.options.budget.joinLive();
    this.schedule(0);
  }

  stop(error?: string): void {
    if (!this.running) {
      return;
    }
    this.running = false;
    this.share?.leave();
    this.share = undefined;
    this.timers.clearTimeout(this.timer);
    this.inFlight?.abort();
    this.inFlight = undefined;
    this.sink.state({ kind: 'stopped', error });
  }

  setVisible(visible: boolean): void {
    this.visible = visible;
    this.resumeIfDue();
  }

  setFocused(focused: boolean): void {
    if (!focused && this.focused) {
      this.blurredAt = this.timers.now();
    }
    this.focused = focused;
    this.resumeIfDue();
  }

  configure(settings: { intervalMs?: number; keep?: number }): void {
    if (settings.intervalMs !== undefined) {
      this.intervalMs = Math.max(MIN_LIVE_INTERVAL_MS, settings.intervalMs);
    }
    if (settings.keep !== undefined) {
      this.keep = Math.max(1, settings.keep);
    }
  }

  private pauseReason(): 'hidden' | 'unfocused' | undefined {
    if (!this.visible) {
      return 'hidden';
    }
    if (!this.focused && this.timers.now() - this.blurredAt >= this.pauseUnfocusedAfterMs) {
      return 'unfocused';
    }
    return undefined;
  }

  private resumeIfDue(): void {
    if (this.running && !this.inFlight && this.pauseReason() === undefined) {
      this.schedule(Math.max(0, this.dueAt - this.timers.now()));
    }
  }

  private schedule(ms: number): void {
    this.timers.clearTimeout(this.timer);
    this.dueAt = this.timers.now() + ms;
    this.timer = this.timers.setTimeout(() => void this.tick(), ms);
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    if (!this.running || this.inFlight) {
      return;
    }
    const paused = this.pauseReason();
    this.share?.setActive(!paused);
    if (paused) {
      this.sink.state({ kind: 'paused', reason: paused });
      return; // setVisible / setFocused resume
    }
    const controller = new AbortController();
    this.inFlight = controller;
    try {
      const fresh = await this.poll(controller.signal);
      if (controller.signal.aborted) {
        return;
      }
      this.failures = 0;
      if (this.primed && fresh.length > 0) {
        this.sink.events(fresh);
      }
      this.primed = true;
      this.watchOn();
    } catch (error) {
      if (controller.signal.aborted || isAbortError(error)) {
        return;
      }
      if (error instanceof BudgetWaitError) {
        // Live's share of the key's budget has no room now: not a failure, a slower pace.
        const pace = this.options.budget.livePace(this.intervalMs);
        const waitMs = Math.max(pace.intervalMs, error.wait.untilMs - this.timers.now());
        this.sink.state({ kind: 'watching', pace: { ...pace, intervalMs: waitMs, slowedBy: error.wait.reason, ...(error.wait.detail ? { detail: error.wait.detail } : {}) } });
        this.schedule(waitMs);
        return;
      }
      if (!isTransient(error)) {
        this.inFlight = undefined;
        this.stop(error instanceof PostHogError ? error.userMessage : String(error instanceof Error ? error.message : error));
        return;
      }
      const backoff = { ...DEFAULT_RETRY, retries: Number.POSITIVE_INFINITY, baseDelayMs: this.intervalMs, maxDelayMs: MAX_BACKOFF_MS, maxRetryAfterMs: MAX_BACKOFF_MS };
      const delay = Math.max(this.intervalMs, retryDelayMs(this.failures++, error, backoff, this.random) ?? MAX_BACKOFF_MS);
      this.sink.state({ kind: 'backingOff', retryInMs: delay, error: error.userMessage });
      this.schedule(delay);
    } finally {
      if (this.inFlight === controller) {
        this.inFlight = undefined;
      }
    }
  }

  /** Next poll at the pace the key's budget allows (the setting, or slower when shared or used). */
  private watchOn(): void {
    const pace = this.options.budget.livePace(this.intervalMs);
    this.sink.state({ kind: 'watching', pace });
    this.schedule(pace.intervalMs);
  }

  /**
   * New events since the cursor, newest first. Pages go on down to the cursor (the first event already
   * seen, or the end of the walk), up to `keep`. When the key's budget stops a catch-up halfway, what was
   * fetched is shown and the rest reported as a gap.
   */
  private async poll(signal: AbortSignal): Promise<Event[]> {
    const after = this.after;
    const pages = this.fetch(after, signal);
    const fresh: Event[] = [];
    const freshIds = new Set<string>();
    try {
      let reachedSeen = false;
      while (!reachedSeen && fresh.length < this.keep) {
        let page: IteratorResult<EventsBatch>;
        try {
          page = await pages.next();
        } catch (error) {
          const cut = fresh.length > 0 && (error instanceof BudgetWaitError || error instanceof RateLimitedError);
          if (!cut) {
            throw error;
          }
          if (this.primed && after !== undefined) {
            this.sink.gap?.({ after, before: fresh[fresh.length - 1]!.timestamp });
          }
          break;
        }
        this.requests++;
        if (page.done || signal.aborted) {
          break;
        }
        for (const event of page.value.events) {
          if (this.seen.has(event.id)) {
            reachedSeen = true;
          } else if (fresh.length < this.keep && !freshIds.has(event.id)) {
            freshIds.add(event.id);
            fresh.push(event);
          }
        }
        if (page.value.last) {
          break;
        }
      }
    } finally {
      void pages.return?.(undefined);
    }
    this.remember(fresh);
    return fresh;
  }

  /** Moves the cursor to the newest of these events and forgets ids older than the overlap. */
  private remember(events: readonly Event[]): void {
    for (const event of events) {
      const ms = Date.parse(event.timestamp);
      if (Number.isNaN(ms)) {
        continue;
      }
      this.newestMs = Math.max(this.newestMs ?? ms, ms);
      this.seen.set(event.id, ms);
    }
    if (this.newestMs !== undefined) {
      const horizon = this.newestMs - OVERLAP_MS;
      for (const [id, ms] of this.seen) {
        if (ms < horizon) {
          this.seen.delete(id);
        }
      }
    }
  }
}
