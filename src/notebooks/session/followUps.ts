import type { CallOptions, Sleep } from '../../api';
import { checkForChanges, type LiveUpdateTarget } from './liveUpdates';
import type { NotebookCalls, SessionLog } from './ports';

/** The fewest milliseconds between two reads of a notebook that its stream asked for (at most 1,200 an hour). */
export const FOLLOW_UP_SPACING_MS = 3_000;
/** How long a burst of unreadable stream events is counted before it is logged once and the notebook checked. */
export const UNREADABLE_BURST_MS = 1_000;

/** The stream's reads count as following PostHog, not as something the user did (the key's budget). */
const FOLLOWING: CallOptions = { priority: 'live' };

export interface FollowUpOptions {
  readonly sleep: Sleep;
  readonly now: () => number;
  readonly spacingMs?: number;
}

/**
 * The reads of a notebook its stream asks for (a legacy notebook's steps, updates without a diff, unreadable
 * events): at most one in flight and one pending, the next no sooner than FOLLOW_UP_SPACING_MS after the one
 * before, however fast the stream tells of versions. A lone update is handed to the session as it came (so its
 * author is named); updates that pile up while one is taken are read as one conditional GET. A read is skipped
 * when the session already holds every version asked for (its own saves).
 */
export class FollowUps {
  private running: Promise<void> | undefined;
  private pending = false;
  private wanted = -1;
  private forced = false;
  private direct: (() => Promise<void>) | undefined;
  private lastStarted = Number.NEGATIVE_INFINITY;
  private stopped = new AbortController();

  constructor(
    private readonly target: LiveUpdateTarget,
    private readonly calls: () => Promise<NotebookCalls>,
    private readonly log: SessionLog,
    private readonly options: FollowUpOptions,
  ) {}

  /** Whether a read is running or waiting: later updates join it, so that they are taken in order. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /**
   * Version `version` is to be taken (undefined: something may have been missed, read the notebook anyway);
   * `take` takes that one update alone, if nothing else piles up with it.
   */
  want(version: number | undefined, take?: () => Promise<void>): void {
    this.direct = this.pending || version === undefined ? undefined : take;
    this.pending = true;
    if (version === undefined) {
      this.forced = true;
    } else {
      this.wanted = Math.max(this.wanted, version);
    }
    this.running ??= this.run().finally(() => (this.running = undefined));
  }

  /** Nothing more is read (the stream stopped); a read in flight ends on its own. */
  stop(): void {
    this.stopped.abort();
    this.stopped = new AbortController();
    this.pending = false;
    this.direct = undefined;
  }

  private async run(): Promise<void> {
    while (this.pending) {
      const wait = this.lastStarted + (this.options.spacingMs ?? FOLLOW_UP_SPACING_MS) - this.options.now();
      if (wait > 0 && !(await this.pause(wait))) {
        return;
      }
      const take = this.direct;
      const forced = this.forced;
      this.pending = false;
      this.forced = false;
      this.direct = undefined;
      if (!forced && this.wanted <= this.target.latestKnown().version) {
        continue; // held already: this window's own save, or a read that covered it
      }
      this.lastStarted = this.options.now();
      await (take ? take() : checkForChanges(this.target, this.calls, this.log, FOLLOWING));
    }
  }

  private async pause(ms: number): Promise<boolean> {
    try {
      await this.options.sleep(ms, this.stopped.signal);
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * Unreadable events of a stream, counted: the first of a burst starts it, and once it has lasted
 * UNREADABLE_BURST_MS it is logged as one line and `after` runs once (the notebook is checked).
 */
export class UnreadableBurst {
  private count = 0;
  private first = '';

  constructor(
    private readonly label: string,
    private readonly log: SessionLog,
    private readonly sleep: Sleep,
    private readonly after: () => void,
  ) {}

  add(reason: string): void {
    if (this.count++ > 0) {
      return;
    }
    this.first = reason;
    void this.sleep(UNREADABLE_BURST_MS).then(
      () => this.end(),
      () => this.end(),
    );
  }

  private end(): void {
    const count = this.count;
    this.count = 0;
    this.log.warn(
      count === 1
        ? `${this.label}: skipped ${this.first} on PostHog's stream; checking the notebook.`
        : `${this.label}: skipped ${count} events on PostHog's stream that could not be read (the first: ${this.first}); checking the notebook.`,
    );
    this.after();
  }
}
