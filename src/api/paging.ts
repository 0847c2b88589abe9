import { ListLimitError, UnsafeNextUrlError } from './errors';
import type { RequestSpec } from './http';
import type { Paginated } from './schemas';
import { abortReason } from './sleep';

export interface PagingOptions {
  limit?: number;
  offset?: number;
}

export interface ListAllCall {
  signal?: AbortSignal;
  /** Called after each page with the number of items loaded so far and the total when known. */
  onProgress?(loaded: number, total?: number): void;
}

export const DEFAULT_PAGE_SIZE = 100;
/**
 * Page size when loading a whole list. PostHog sets no maximum on project and notebook lists, and
 * list items are small, so bigger pages mean fewer round trips and fewer requests against the rate
 * limit (480/minute): 5,000 notebooks take 10 requests in 4 waves instead of 50.
 */
export const LIST_ALL_PAGE_SIZE = 500;
export const DEFAULT_PAGE_CONCURRENCY = 4;

/**
 * The most a whole list loads: a server's `count` or next-page links decide how many requests are made and
 * how much is kept, so both are bounded. 100,000 notebooks or projects is far beyond any real project (the
 * tree could not show them usefully either); 1,000 pages leaves room for a server that caps pages at 100.
 */
export interface ListLimits {
  readonly maxItems: number;
  readonly maxPages: number;
}

export const DEFAULT_LIST_LIMITS: ListLimits = { maxItems: 100_000, maxPages: 1_000 };

/** Where a `next` link may be followed: same scheme, host and port as the base URL, no userinfo. */
export interface NextLocation {
  /** Path relative to the base URL's path prefix. */
  path: string;
  query: URLSearchParams;
  /** What was done to the link, for the request log (never the key or the query). */
  note?: string;
}

/** Logged when a next link said http:// on an https connection: it was followed over https. */
export const HTTP_NEXT_LINK_NOTE = 'the next-page link said http://; followed over this connection\'s https:// instead';

/**
 * Checks a `next` link before anything is sent to it. The Authorization header must never reach
 * another origin nor travel over plain http, so anything else throws UnsafeNextUrlError. One case is
 * mended rather than refused: self-hosted PostHog not configured as behind a proxy builds its links
 * with http:// while reached over https://. A link to the same host that differs only by that is
 * followed over the connection's https (the request goes to the base URL's origin, never the link's).
 */
export function resolveNextUrl(next: string, baseUrl: string, endpoint: string): NextLocation {
  const base = new URL(baseUrl);
  let url: URL;
  try {
    url = new URL(next);
  } catch {
    throw new UnsafeNextUrlError({ endpoint, target: 'an invalid URL' });
  }
  const downgraded = base.protocol === 'https:' && url.protocol === 'http:' && url.host === base.host;
  if (url.username || url.password || (url.origin !== base.origin && !downgraded)) {
    throw new UnsafeNextUrlError({ endpoint, target: `${url.protocol}//${url.host}` });
  }
  const prefix = base.pathname.replace(/\/+$/, '');
  const path = prefix && url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : url.pathname;
  return { path, query: url.searchParams, ...(downgraded ? { note: HTTP_NEXT_LINK_NOTE } : {}) };
}

/** The GET request for a checked `next` link, carrying the note of what was done to it for the log. */
export function nextPageRequest(next: string, baseUrl: string, endpoint: string): RequestSpec {
  const { path, query, note } = resolveNextUrl(next, baseUrl, endpoint);
  return { method: 'GET', path, query, ...(note ? { note } : {}) };
}

/** Fetches one page of a limit/offset list, or the page a (checked) next link names. */
export interface PageSource<T> {
  byOffset(offset: number, limit: number, signal?: AbortSignal): Promise<Paginated<T>>;
  byNextUrl(next: string, signal?: AbortSignal): Promise<Paginated<T>>;
  /** "GET /path/" of the list, for errors. */
  readonly endpoint?: string;
}

/** Refuses a next link the list already followed: the server would send the same pages forever. */
class NextLinks {
  private readonly seen = new Set<string>();

  constructor(private readonly endpoint: string | undefined) {}

  follow(next: string): string {
    if (this.seen.has(next)) {
      throw new ListLimitError({ endpoint: this.endpoint, reason: 'repeatedNext', limit: this.seen.size + 1 });
    }
    this.seen.add(next);
    return next;
  }
}

/** Pages one after another by following `next`; stops when the caller breaks out or the signal aborts. */
export async function* iteratePages<T>(
  source: PageSource<T>,
  start: PagingOptions,
  signal?: AbortSignal,
): AsyncGenerator<Paginated<T>, void, undefined> {
  const links = new NextLinks(source.endpoint);
  let page = await source.byOffset(start.offset ?? 0, start.limit ?? DEFAULT_PAGE_SIZE, signal);
  yield page;
  while (page.next) {
    if (signal?.aborted) {
      throw abortReason(signal);
    }
    page = await source.byNextUrl(links.follow(page.next), signal);
    yield page;
  }
}

/**
 * Loads every item. After the first page, when `count` is known the remaining pages are fetched by
 * offset, up to `concurrency` at a time, and kept in order; otherwise `next` is followed. A list longer
 * than `limits` allows, by its count or as it comes, or whose next links loop, throws ListLimitError
 * (checked before a request is planned, so a count of billions costs nothing).
 */
export async function collectAll<T>(
  source: PageSource<T>,
  options: PagingOptions & { concurrency?: number; limits?: ListLimits },
  call: ListAllCall = {},
): Promise<T[]> {
  const limits = options.limits ?? DEFAULT_LIST_LIMITS;
  const start = options.offset ?? 0;
  const first = await source.byOffset(start, options.limit ?? LIST_ALL_PAGE_SIZE, call.signal);
  const total = first.count;
  // A server that caps the page size answers fewer rows than asked; step by what it really sends.
  const pageSize = first.results.length;
  const budget = new ListBudget(source.endpoint, limits);
  budget.add(pageSize);
  call.onProgress?.(budget.items, total);
  if (!first.next || pageSize === 0) {
    return first.results;
  }
  if (total === undefined) {
    return followNext(source, first, call, budget);
  }
  budget.plan(total - start, Math.ceil((total - start) / pageSize));
  const offsets: number[] = [];
  for (let offset = start + pageSize; offset < total; offset += pageSize) {
    offsets.push(offset);
  }
  const pages = await mapConcurrently(offsets, options.concurrency ?? DEFAULT_PAGE_CONCURRENCY, call.signal, async (offset, signal) => {
    const page = await source.byOffset(offset, pageSize, signal);
    budget.add(page.results.length);
    call.onProgress?.(budget.items, total);
    return page.results;
  });
  return first.results.concat(...pages);
}

async function followNext<T>(source: PageSource<T>, first: Paginated<T>, call: ListAllCall, budget: ListBudget): Promise<T[]> {
  const items = [...first.results];
  const links = new NextLinks(source.endpoint);
  for (let next = first.next; next; ) {
    if (call.signal?.aborted) {
      throw abortReason(call.signal);
    }
    budget.nextPage();
    const page = await source.byNextUrl(links.follow(next), call.signal);
    budget.add(page.results.length);
    items.push(...page.results);
    call.onProgress?.(budget.items, undefined);
    next = page.next;
  }
  return items;
}

/** Counts what a whole-list load took so far against its limits. */
class ListBudget {
  items = 0;
  private pages = 1;

  constructor(
    private readonly endpoint: string | undefined,
    private readonly limits: ListLimits,
  ) {}

  /** Before planning pages by a count: refuses a list whose count or pages exceed the limits. */
  plan(count: number, pages: number): void {
    if (count > this.limits.maxItems) {
      throw new ListLimitError({ endpoint: this.endpoint, reason: 'items', limit: this.limits.maxItems, count });
    }
    if (pages > this.limits.maxPages) {
      throw new ListLimitError({ endpoint: this.endpoint, reason: 'pages', limit: this.limits.maxPages });
    }
  }

  nextPage(): void {
    if (++this.pages > this.limits.maxPages) {
      throw new ListLimitError({ endpoint: this.endpoint, reason: 'pages', limit: this.limits.maxPages });
    }
  }

  add(items: number): void {
    this.items += items;
    if (this.items > this.limits.maxItems) {
      throw new ListLimitError({ endpoint: this.endpoint, reason: 'items', limit: this.limits.maxItems });
    }
  }
}

/**
 * Runs `work` over the inputs with at most `limit` in flight; results are in input order. The first
 * failure aborts the others and is thrown.
 */
export async function mapConcurrently<I, O>(
  inputs: readonly I[],
  limit: number,
  signal: AbortSignal | undefined,
  work: (input: I, signal: AbortSignal) => Promise<O>,
): Promise<O[]> {
  const controller = new AbortController();
  const forwardAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) {
    throw abortReason(signal);
  }
  signal?.addEventListener('abort', forwardAbort, { once: true });
  const results = new Array<O>(inputs.length);
  let nextIndex = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && !controller.signal.aborted && nextIndex < inputs.length) {
      const index = nextIndex++;
      try {
        results[index] = await work(inputs[index], controller.signal);
      } catch (error) {
        failure ??= { error };
        controller.abort(error);
      }
    }
  };
  try {
    const workers = Array.from({ length: Math.max(1, Math.min(limit, inputs.length)) }, worker);
    await Promise.all(workers);
  } finally {
    signal?.removeEventListener('abort', forwardAbort);
  }
  if (signal?.aborted) {
    throw abortReason(signal);
  }
  if (failure) {
    throw failure.error;
  }
  return results;
}
