// Loads the event list page by page as the user scrolls, ahead of where they are. vscode-free.
import { type BudgetWait, type CallOptions, type Event, type EventsBatch, isAbortError, PostHogError, RateLimitedTooLongError } from '../api';
import { isTransient } from './liveTail';
import type { EventQuery } from './filters';
import type { Row } from './protocol';
import { eventColumns, eventRow } from './rows';

/** Rows kept ahead of the furthest row the user has reached. */
export const DEFAULT_PREFETCH_ROWS = 300;
/** No more is loaded past this many rows (the panel keeps them all; exports go to a file instead). */
export const MAX_ROWS = 200_000;

export interface PagerSink {
  /** Rows appended at `start`; `done` once nothing more will come. */
  rows(start: number, rows: Row[], done: boolean): void;
  /** `retry`: the error may pass if the query runs again (see worthRetrying). */
  status(loading: boolean, error?: string, retry?: boolean): void;
  /** The events of each page as they arrive (the panel learns event names from them). */
  events?(events: readonly Event[]): void;
  /** A request waits for room in the key's budget or for PostHog's 429 (undefined: no longer waiting). */
  waiting?(wait: BudgetWait | undefined): void;
  /** The listing failed with this error (before `status` shows its message). */
  failed?(error: unknown): void;
  /** Events at this time could not all be listed (over 51,000 share it). */
  skipped?(timestamp: string): void;
}

/** A failure the same request may get past later: PostHog's rate limits (however long they asked), 5xx, the network. */
export function worthRetrying(error: unknown): boolean {
  return isTransient(error) || error instanceof RateLimitedTooLongError;
}

export interface PagerOptions {
  prefetchRows?: number;
  maxRows?: number;
}

/** The query's events, newest first, each once (eventSource.ts: EventsQuery or the legacy list). */
export type BatchSource = (call: CallOptions) => AsyncGenerator<EventsBatch, void, undefined>;

type PageLoader = (signal: AbortSignal) => Promise<{ rows: Row[]; more: boolean } | undefined>;

export class EventPager {
  readonly columns: string[];
  private loadedCount = 0;
  private finished = false;
  private target = 0;
  private running: Promise<void> | undefined;
  private readonly controller = new AbortController();
  private readonly loadPage: PageLoader;
  private readonly prefetchRows: number;
  private readonly maxRows: number;

  constructor(
    private readonly source: BatchSource,
    private readonly query: EventQuery,
    private readonly sink: PagerSink,
    options: PagerOptions = {},
  ) {
    this.prefetchRows = options.prefetchRows ?? DEFAULT_PREFETCH_ROWS;
    this.maxRows = options.maxRows ?? MAX_ROWS;
    this.columns = eventColumns(query.columns);
    this.loadPage = this.eventPages();
  }

  get loaded(): number {
    return this.loadedCount;
  }

  get done(): boolean {
    return this.finished;
  }

  get cancelled(): boolean {
    return this.controller.signal.aborted;
  }

  /** The user reached row `upTo`: load until it and `prefetchRows` beyond it are there (or the list ends). */
  need(upTo: number): Promise<void> {
    this.target = Math.max(this.target, Math.min(upTo + 1 + this.prefetchRows, this.maxRows));
    this.running ??= this.fill().finally(() => (this.running = undefined));
    return this.running;
  }

  /** Stops loading: the request in flight is aborted and nothing more reaches the sink. */
  cancel(): void {
    this.controller.abort();
  }

  private async fill(): Promise<void> {
    if (this.finished || this.loadedCount >= this.target) {
      return;
    }
    this.sink.status(true);
    try {
      while (!this.finished && this.loadedCount < this.target && !this.cancelled) {
        const page = await this.loadPage(this.controller.signal);
        if (this.cancelled) {
          return;
        }
        const rows = page?.rows ?? [];
        const start = this.loadedCount;
        this.loadedCount += rows.length;
        this.finished = !page || !page.more || this.loadedCount >= this.maxRows;
        if (rows.length > 0 || this.finished) {
          this.sink.rows(start, rows, this.finished);
        }
      }
      if (!this.cancelled) {
        this.sink.status(false);
      }
    } catch (error) {
      if (this.cancelled || isAbortError(error)) {
        return;
      }
      this.finished = true;
      this.sink.failed?.(error);
      this.sink.rows(this.loadedCount, [], true);
      this.sink.status(false, error instanceof PostHogError ? error.userMessage : error instanceof Error ? error.message : String(error), worthRetrying(error));
    }
  }

  /**
   * The listing, newest first: the walks (eventsQueryPages.ts, eventPages.ts) ask below the oldest row they
   * have until PostHog answers nothing older.
   */
  private eventPages(): PageLoader {
    let iterator: AsyncGenerator<EventsBatch, void, undefined> | undefined;
    let waited = false;
    const onWait = (wait: BudgetWait) => {
      waited = true;
      this.sink.waiting?.(wait);
    };
    return async (signal) => {
      iterator ??= this.source({ signal, priority: 'interactive', onWait });
      const next = await iterator.next();
      if (waited) {
        waited = false;
        this.sink.waiting?.(undefined);
      }
      if (next.done) {
        return undefined;
      }
      const batch = next.value;
      if (batch.skippedAt) {
        this.sink.skipped?.(batch.skippedAt);
      }
      this.sink.events?.(batch.events);
      return { rows: batch.events.map((event) => eventRow(event, this.query.columns)), more: !batch.last };
    };
  }
}
