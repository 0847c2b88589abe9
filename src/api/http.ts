import { Dispatcher } from 'undici';
import type * as z from 'zod/mini';
import { type BudgetPriority, type BudgetWait, type KeyBudget, throttleClassOf } from './budget';
import { errorFromResponse, errorFromTransportFailure } from './errorMapping';
import {
  ClientDisposedError,
  InvalidApiKeyError,
  PostHogError,
  RateLimitedError,
  ResponseShapeError,
  ResponseTooLargeError,
  TimeoutError,
  UnsafePathError,
} from './errors';
import { createDispatcher, NetworkOptions, NetworkRoute } from './network';
import { QueryParams, toSearchParams } from './query';
import { DEFAULT_RETRY, isRetryable, retryDelayMs, RetryOptions } from './retry';
import { abortReason, realSleep, Sleep, sleepUnlessAborted } from './sleep';
import { parseShape } from './validate';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Timeouts {
  /** TCP + TLS connect (default 10 s). */
  connectMs: number;
  /** From sending the request to the response headers (default 30 s). */
  headersMs: number;
  /** Longest pause between two body chunks (default 60 s). */
  bodyMs: number;
  /**
   * Longest a request may take in all, retries and their waits included, until its handler has what it
   * reads (default 120 s): a server sending a byte now and then, never pausing bodyMs, cannot hold a save.
   * A body handed on as a stream (an export) is not bound by it once its headers arrived.
   */
  totalMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 30_000, bodyMs: 60_000, totalMs: 120_000 };

/**
 * The largest successful answer read (default 64 MB). PostHog accepts request bodies up to 20 MB
 * (DATA_UPLOAD_MAX_MEMORY_SIZE), so a notebook's content and its text_content, each at most that, fit with
 * room to spare; list pages hold no content and are far smaller.
 */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

/** One attempt of one request, for logging. Never holds the key, the Authorization header or the query. */
export interface RequestLogEntry {
  method: string;
  /** API path without query string and without the base URL's path prefix. */
  path: string;
  status?: number;
  durationMs: number;
  /** 1 for the first try, 2 for the first retry, ... */
  attempt: number;
  /** "ErrorClass: message" when the attempt failed. */
  error?: string;
  /** Something the client did about the request that the log should say (see RequestSpec.note). */
  note?: string;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** false: a 429 is thrown at once, for a caller that waits for PostHog itself (the events budget). */
  retryThrottled?: boolean;
  /** Who asks, for the key's request budget (default 'interactive'). */
  priority?: BudgetPriority;
  /** Told when the request waits for the key's budget (the caller shows it where the user is looking). */
  onWait?: (wait: BudgetWait) => void;
  /** Throw BudgetWaitError instead of waiting for the key's budget. */
  noWait?: boolean;
  /**
   * Wait for the key's budget up to an hour (LONGEST_WAIT_MS; the caller shows the wait); otherwise a wait
   * longer than the longest 429 a request waits out (RetryOptions.maxRetryAfterMs) throws BudgetWaitError at
   * once. Either way a 429 naming more than an hour, or no number, ends the request (RateLimitedTooLongError).
   */
  patient?: boolean;
}

export interface TransportOptions {
  /** Already normalised (see normalizeBaseUrl). */
  baseUrl: string;
  apiKey: string;
  timeouts?: Partial<Timeouts>;
  retry?: RetryOptions;
  onRequest?: (entry: RequestLogEntry) => void;
  sleep?: Sleep;
  random?: () => number;
  /** Upper bound of parallel connections to the host (default 8). */
  connections?: number;
  /** Proxy, no-proxy list, certificate checks and extra authorities (default: direct or the environment's proxy). */
  network?: NetworkOptions;
  /** The largest successful answer read as JSON (default DEFAULT_MAX_BODY_BYTES). */
  maxBodyBytes?: number;
  /** The key's request budget: every request waits for room in its throttle class (none: sent at once). */
  budget?: KeyBudget;
}

export interface RequestSpec {
  method: HttpMethod;
  /** API path relative to the base URL, with its trailing slash, e.g. "/api/projects/". */
  path: string;
  query?: QueryParams | URLSearchParams;
  /** JSON body. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Logged with each attempt: what the client did to make the request (e.g. mended a next link). No secrets. */
  note?: string;
  /** Statuses besides 2xx and 304 whose answer the handler reads (a save's 409 carrying what it missed). */
  answers?: readonly number[];
  /**
   * A request that stays open (a stream of events): sent on a pool of its own, so that it never holds one of
   * the connections other requests wait for.
   */
  longLived?: boolean;
}

/** What a response handler gets once the status is a success (2xx or 304), or one the request `answers`. */
export interface SuccessResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
  endpoint: string;
}

const MAX_ERROR_BODY_BYTES = 64 * 1024;
/** Connections of the pool for long-lived requests (streams), per client. */
export const LONG_LIVED_CONNECTIONS = 16;
const USER_AGENT = 'posthog-explorer-vscode';

/**
 * Sends requests to one PostHog connection: auth header, timeouts, retries, error mapping and shape
 * checks. Redirects are never followed (undici's dispatcher does not), so the key stays on this origin.
 */
export class Transport {
  readonly origin: string;
  /** Path prefix of a self-hosted instance (e.g. "/posthog"), '' for none. */
  readonly basePath: string;
  readonly host: string;
  /** Which way requests go (direct or which proxy), without credentials. */
  readonly route: NetworkRoute;
  private readonly agent: Dispatcher;
  private streamAgent: Dispatcher | undefined;
  private readonly network: NetworkOptions;
  private readonly authorization: string;
  private readonly apiKey: string;
  private readonly timeouts: Timeouts;
  private readonly retry: Required<RetryOptions>;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private readonly onRequest?: (entry: RequestLogEntry) => void;
  private readonly maxBodyBytes: number;
  private readonly budget: KeyBudget | undefined;
  private disposed = false;

  constructor(options: TransportOptions) {
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.host = url.host;
    this.apiKey = checkApiKey(options.apiKey);
    this.authorization = `Bearer ${this.apiKey}`;
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.sleep = options.sleep ?? realSleep;
    this.random = options.random ?? Math.random;
    this.onRequest = options.onRequest;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.budget = options.budget;
    this.network = options.network ?? {};
    const { dispatcher, route } = createDispatcher(url, this.network, {
      connections: options.connections ?? 8,
      connectMs: this.timeouts.connectMs,
      headersMs: this.timeouts.headersMs,
      bodyMs: this.timeouts.bodyMs,
    });
    this.agent = dispatcher;
    this.route = route;
  }

  /** Sends a request and validates its JSON answer against the schema. */
  async json<T extends z.ZodMiniType>(spec: RequestSpec, schema: T, call?: CallOptions): Promise<z.infer<T>> {
    return this.send(spec, call, (response) => this.parseJsonBody(response, schema));
  }

  /** Reads a successful response as JSON and validates it; for handlers given to send(). */
  async parseJsonBody<T extends z.ZodMiniType>(response: SuccessResponse, schema: T): Promise<z.infer<T>> {
    return parseShape(schema, await readJson(response, this.maxBodyBytes), response.endpoint);
  }

  /**
   * Like json(), for endpoints whose answer comes in more than one shape (spec versus real server):
   * `pick` chooses the schema from the parsed body, so a mismatch names a field of the likely shape.
   */
  async jsonOneOf<T extends z.ZodMiniType>(spec: RequestSpec, pick: (body: unknown) => T, call?: CallOptions): Promise<z.infer<T>> {
    return this.send(spec, call, async (response) => {
      const body = await readJson(response, this.maxBodyBytes);
      return parseShape(pick(body), body, response.endpoint);
    });
  }

  /** Sends a request whose success has no body (e.g. 204). */
  async noContent(spec: RequestSpec, call?: CallOptions): Promise<void> {
    await this.send(spec, call, async (response) => {
      await response.body.dump();
    });
  }

  /**
   * Sends a request and hands the successful response to `handle` (which must consume or return the
   * body). Failed attempts are retried per the retry policy.
   */
  async send<R>(spec: RequestSpec, call: CallOptions | undefined, handle: (response: SuccessResponse) => Promise<R>): Promise<R> {
    const endpoint = `${spec.method} ${spec.path}`;
    checkPath(spec.path);
    // The first wait for the budget is not the request's time: an export may wait minutes for room.
    await this.takeBudget(spec, call, call?.signal);
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new TimeoutError({ endpoint, host: this.host, phase: 'total', timeoutMs: this.timeouts.totalMs })),
      this.timeouts.totalMs,
    );
    try {
      return await this.attempts(spec, endpoint, call, deadline.signal, handle);
    } finally {
      clearTimeout(timer);
    }
  }

  /** send()'s attempts: `deadline` aborts with the TimeoutError of the whole request. */
  private async attempts<R>(
    spec: RequestSpec,
    endpoint: string,
    call: CallOptions | undefined,
    deadline: AbortSignal,
    handle: (response: SuccessResponse) => Promise<R>,
  ): Promise<R> {
    const caller = call?.signal;
    const signal = caller ? AbortSignal.any([caller, deadline]) : deadline;
    for (let attempt = 1; ; attempt++) {
      if (signal.aborted) {
        throw abortReason(signal);
      }
      if (this.disposed) {
        throw new ClientDisposedError({ endpoint });
      }
      if (attempt > 1) {
        await this.takeBudget(spec, call, signal);
      }
      const started = performance.now();
      let status: number | undefined;
      try {
        const response = await this.dispatch(spec, signal);
        status = response.statusCode;
        if (status >= 300 && status !== 304 && !spec.answers?.includes(status)) {
          throw await this.failure(response, endpoint);
        }
        const result = await handle({ status, headers: response.headers, body: response.body, endpoint });
        this.log({ method: spec.method, path: spec.path, status, durationMs: performance.now() - started, attempt, ...noteOf(spec) });
        return result;
      } catch (caught) {
        if (caller?.aborted) {
          throw abortReason(caller);
        }
        const error = deadline.aborted ? (deadline.reason as PostHogError) : this.toPostHogError(caught, endpoint);
        if (error instanceof RateLimitedError) {
          this.budget?.throttled(throttleClassOf(spec), error.retryAfterSeconds ?? 60, error.detail);
        }
        this.log({
          method: spec.method,
          path: spec.path,
          status,
          durationMs: performance.now() - started,
          attempt,
          error: `${error.name}: ${error.message}`,
          ...noteOf(spec),
        });
        const retryable = !deadline.aborted && isRetryable(spec.method, error) && !(error instanceof RateLimitedError && call?.retryThrottled === false);
        const delay = retryable ? retryDelayMs(attempt - 1, error, this.retry, this.random) : undefined;
        if (delay === undefined) {
          throw error;
        }
        await sleepUnlessAborted(this.sleep, delay, signal);
      }
    }
  }

  /** Waits for room in the key's budget for the request's throttle class, and counts it as sent. */
  private async takeBudget(spec: RequestSpec, call: CallOptions | undefined, signal: AbortSignal | undefined): Promise<void> {
    await this.budget?.acquire(throttleClassOf(spec), call?.priority ?? 'interactive', {
      signal,
      onWait: call?.onWait,
      noWait: call?.noWait,
      maxWaitMs: call?.patient ? undefined : this.retry.maxRetryAfterMs,
    });
  }

  /** Closes the connection pool; requests in flight fail with ClientDisposedError. */
  async dispose(): Promise<void> {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    await Promise.all([this.agent.destroy(), this.streamAgent?.destroy()]);
  }

  /** Replaces every occurrence of the key in text that may reach a log or a user. */
  redact(text: string): string {
    return this.apiKey ? text.split(this.apiKey).join('[redacted]') : text;
  }

  /**
   * An error body with the key redacted as its reader will see it: a JSON body is decoded first, as its
   * message is shown decoded (the key could be spelled with escapes, e.g. `phx\u005f…`), and written
   * again.
   */
  private redactBody(text: string): string {
    let decoded: unknown;
    try {
      decoded = JSON.parse(text);
    } catch {
      return this.redact(text);
    }
    try {
      return JSON.stringify(redactStrings(decoded, (value) => this.redact(value)));
    } catch {
      return ''; // nested too deep to walk: shown as no body rather than unredacted
    }
  }

  private dispatch(spec: RequestSpec, signal: AbortSignal | undefined): Promise<Dispatcher.ResponseData> {
    const search = toSearchParams(spec.query).toString();
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': USER_AGENT,
      ...spec.headers,
      authorization: this.authorization,
    };
    let body: string | undefined;
    if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers['content-type'] = 'application/json';
    }
    return this.dispatcherFor(spec).request({
      origin: this.origin,
      path: `${this.basePath}${spec.path}${search ? `?${search}` : ''}`,
      method: spec.method,
      headers,
      body,
      signal,
    });
  }

  private dispatcherFor(spec: RequestSpec): Dispatcher {
    if (!spec.longLived) {
      return this.agent;
    }
    this.streamAgent ??= createDispatcher(new URL(this.origin), this.network, {
      connections: LONG_LIVED_CONNECTIONS,
      connectMs: this.timeouts.connectMs,
      headersMs: this.timeouts.headersMs,
      bodyMs: this.timeouts.bodyMs,
    }).dispatcher;
    return this.streamAgent;
  }

  private async failure(response: Dispatcher.ResponseData, endpoint: string): Promise<PostHogError> {
    const bodyText = this.redactBody(await readLimitedText(response.body, MAX_ERROR_BODY_BYTES));
    return errorFromResponse({
      endpoint,
      status: response.statusCode,
      bodyText,
      retryAfter: header(response.headers, 'retry-after'),
      location: header(response.headers, 'location'),
    });
  }

  /** Maps anything a request or a streamed body threw to a PostHogError. */
  toPostHogError(caught: unknown, endpoint: string): PostHogError {
    if (caught instanceof PostHogError) {
      return caught;
    }
    if (this.disposed) {
      return new ClientDisposedError({ endpoint, cause: caught });
    }
    return errorFromTransportFailure(caught, { endpoint, host: this.host, timeouts: this.timeouts, proxy: this.route.proxy });
  }

  private log(entry: RequestLogEntry): void {
    if (!this.onRequest) {
      return;
    }
    const safe = { ...entry, durationMs: Math.round(entry.durationMs) };
    if (safe.error) {
      safe.error = this.redact(safe.error);
    }
    try {
      this.onRequest(safe);
    } catch {
      // A failing logger must not fail the request.
    }
  }
}

/** "." or "..", also spelled with %2e, which servers decode before resolving: a URL's way to another path. */
export function isDotSegment(segment: string): boolean {
  return /^(?:\.|%2e){1,2}$/i.test(segment);
}

/** Every request stays on the path it names: no segment may be "." or "..". */
function checkPath(path: string): void {
  const dotSegment = path.split('/').find(isDotSegment);
  if (dotSegment !== undefined) {
    throw new UnsafePathError(dotSegment);
  }
}

function noteOf(spec: RequestSpec): Pick<RequestLogEntry, 'note'> {
  return spec.note ? { note: spec.note } : {};
}

function checkApiKey(apiKey: string): string {
  const key = (apiKey ?? '').trim();
  if (!key) {
    throw new InvalidApiKeyError('Enter a personal API key (it starts with phx_).');
  }
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new InvalidApiKeyError('The personal API key contains spaces or characters that are not allowed.');
  }
  return key;
}

function header(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A decoded JSON value with `redact` applied to every string in it, keys included. */
function redactStrings(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') {
    return redact(value);
  }
  if (Array.isArray(value)) {
    return value.map((item) => redactStrings(item, redact));
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [redact(key), redactStrings(item, redact)]));
  }
  return value;
}

async function readJson(response: SuccessResponse, maxBytes: number): Promise<unknown> {
  const text = await readBodyText(response, maxBytes);
  try {
    return JSON.parse(text);
  } catch {
    const type = header(response.headers, 'content-type') ?? 'no content type';
    throw new ResponseShapeError({
      endpoint: response.endpoint,
      status: response.status,
      path: '',
      problem: `expected JSON, received ${text.trim() ? type : 'an empty body'}`,
    });
  }
}

/** Reads a successful body as text, or throws ResponseTooLargeError past `maxBytes` (declared or as it arrives). */
async function readBodyText(response: SuccessResponse, maxBytes: number): Promise<string> {
  const tooLarge = () => {
    response.body.destroy();
    return new ResponseTooLargeError({ endpoint: response.endpoint, status: response.status, limitBytes: maxBytes });
  };
  const declared = Number(header(response.headers, 'content-length'));
  if (declared > maxBytes) {
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += buffer.length;
    if (size > maxBytes) {
      throw tooLarge();
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** Reads at most `limit` bytes of a body as text and discards the rest. */
async function readLimitedText(body: Dispatcher.ResponseData['body'], limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    if (size + buffer.length > limit) {
      chunks.push(buffer.subarray(0, limit - size));
      body.destroy();
      break;
    }
    chunks.push(buffer);
    size += buffer.length;
  }
  return Buffer.concat(chunks).toString('utf8');
}
