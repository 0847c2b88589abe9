// Loads the event list page by page as the user scrolls, ahead of where they are. vscode-free.
import { z } from 'zod';
import { type EventsApi, type EventsPage, isAbortError, PostHogError } from '../api';
import type { EventQuery } from './filters';
import type { Row } from './protocol';
import { eventColumns, eventRow, idColumnOf, selectedRow } from './rows';

/** Rows kept ahead of the furthest row the user has reached. */
export const DEFAULT_PREFETCH_ROWS = 300;
/** No more is loaded past this many rows (PostHog refuses offsets above 50,000 for `select` anyway). */
export const MAX_ROWS = 200_000;
const SELECT_MAX_OFFSET = 50_000;
const DEFAULT_SELECT_PAGE = 100;

export interface PagerSink {
  /** Rows appended at `start`; `done` once nothing more will come. */
  rows(start: number, rows: Row[], done: boolean): void;
  status(loading: boolean, error?: string): void;
}

export interface PagerOptions {
  prefetchRows?: number;
  maxRows?: number;
}

/** PostHog's answer to a `select` listing: rows as arrays in the order of `select`. */
const SelectPageSchema = z.object({
  columns: z.array(z.unknown()).optional(),
  results: z.array(z.array(z.unknown())),
  has_more: z.boolean().nullable().optional(),
});

type PageLoader = (signal: AbortSignal) => Promise<{ rows: Row[]; more: boolean } | undefined>;

export class EventPager {
  readonly columns: string[];
  /** Whether a row can be opened (retrieved by id). */
  readonly openable: boolean;
  private loadedCount = 0;
  private finished = false;
  private target = 0;
  private running: Promise<void> | undefined;
  private readonly controller = new AbortController();
  private readonly loadPage: PageLoader;
  private readonly prefetchRows: number;
  private readonly maxRows: number;

  constructor(
    private readonly events: Pick<EventsApi, 'pages' | 'export'>,
    private readonly projectId: number,
    private readonly query: EventQuery,
    private readonly sink: PagerSink,
    options: PagerOptions = {},
  ) {
    this.prefetchRows = options.prefetchRows ?? DEFAULT_PREFETCH_ROWS;
    this.maxRows = options.maxRows ?? MAX_ROWS;
    if (query.selecting) {
      this.columns = query.filters.select?.map(String) ?? [];
      const idColumn = idColumnOf(this.columns);
      this.openable = idColumn >= 0;
      this.loadPage = this.selectPages(idColumn);
    } else {
      this.columns = eventColumns(query.columns);
      this.openable = true;
      this.loadPage = this.eventPages();
    }
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
        this.finished = !page || !page.more || rows.length === 0 || this.loadedCount >= this.maxRows;
        this.sink.rows(start, rows, this.finished);
      }
      if (!this.cancelled) {
        this.sink.status(false);
      }
    } catch (error) {
      if (this.cancelled || isAbortError(error)) {
        return;
      }
      this.finished = true;
      this.sink.rows(this.loadedCount, [], true);
      this.sink.status(false, error instanceof PostHogError ? error.userMessage : String(error));
    }
  }

  /** The plain listing: follow `next` (PostHog moves `before` back to the last row). */
  private eventPages(): PageLoader {
    let iterator: AsyncGenerator<EventsPage, void, undefined> | undefined;
    return async (signal) => {
      iterator ??= this.events.pages(this.projectId, this.query.filters, { signal });
      const next = await iterator.next();
      if (next.done) {
        return undefined;
      }
      const page = next.value;
      return { rows: page.results.map((event) => eventRow(event, this.query.columns)), more: Boolean(page.next) };
    };
  }

  /**
   * The experimental `select` listing answers rows as arrays, without a next link, which the
   * client's list schema does not take; the raw JSON body (the export call) is read instead, by offset.
   */
  private selectPages(idColumn: number): PageLoader {
    const pageSize = this.query.filters.limit ?? DEFAULT_SELECT_PAGE;
    let offset = this.query.filters.offset ?? 0;
    return async (signal) => {
      if (offset > SELECT_MAX_OFFSET) {
        return undefined;
      }
      const body = await this.events.export(this.projectId, { ...this.query.filters, limit: pageSize, offset: offset || undefined }, 'json', { signal });
      const chunks: Buffer[] = [];
      for await (const chunk of body) {
        chunks.push(Buffer.from(chunk));
      }
      const parsed = SelectPageSchema.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      if (!parsed.success) {
        throw new Error('PostHog answered the select listing in an unexpected shape.');
      }
      offset += parsed.data.results.length;
      const more = parsed.data.has_more ?? parsed.data.results.length >= pageSize;
      return { rows: parsed.data.results.map((values) => selectedRow(values, idColumn)), more };
    };
  }
}
