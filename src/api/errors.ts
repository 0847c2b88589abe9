/** Everything the client throws (apart from an AbortSignal's own reason) extends PostHogError. */
export interface PostHogErrorInit {
  /** "METHOD /path/" of the request, without query and without the base URL's path prefix. */
  endpoint?: string;
  status?: number;
  code?: string;
  detail?: string;
  attr?: string | null;
  cause?: unknown;
}

export class PostHogError extends Error {
  override name = 'PostHogError';
  readonly endpoint: string;
  readonly status?: number;
  readonly code?: string;
  readonly detail?: string;
  readonly attr?: string | null;
  /** A sentence fit to show a user as is. */
  readonly userMessage: string;

  constructor(message: string, userMessage: string, init: PostHogErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.userMessage = userMessage;
    this.endpoint = init.endpoint ?? '';
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.attr = init.attr;
  }

  /** Logs and telemetry serialise errors; keep that to own fields, which never carry a credential. */
  toJSON(): Record<string, unknown> {
    const fields: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [key, value] of Object.entries(this)) {
      if (key !== 'cause' && value !== undefined) {
        fields[key] = value;
      }
    }
    return fields;
  }
}

/** Message for logs: endpoint, status and the server's own words. */
function describe(init: PostHogErrorInit, fallback: string): string {
  const status = init.status === undefined ? '' : ` ${init.status}`;
  return `${init.endpoint ?? ''}${status}: ${init.detail || fallback}`.trim();
}

/** The server's detail as a sentence (ends with a period), or '' when there is none. */
function sentence(detail: string | undefined): string {
  const text = (detail ?? '').trim();
  if (!text) {
    return '';
  }
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

export class AuthenticationError extends PostHogError {
  override name = 'AuthenticationError';
  constructor(init: PostHogErrorInit) {
    super(
      describe(init, 'authentication failed'),
      init.code === 'not_authenticated'
        ? 'No personal API key was sent to PostHog. Set the API key for this connection.'
        : `PostHog rejected the personal API key. ${sentence(init.detail)} Check that the key exists and was copied completely.`.trim(),
      init,
    );
  }
}

export class MissingScopeError extends PostHogError {
  override name = 'MissingScopeError';
  /** The scope the key lacks, e.g. "notebook:write". */
  readonly scope: string;

  constructor(init: PostHogErrorInit & { scope: string }) {
    super(
      describe(init, `missing scope ${init.scope}`),
      `The personal API key lacks the scope '${init.scope}'. Edit the key in PostHog (Settings → Personal API keys) and add it.`,
      init,
    );
    this.scope = init.scope;
  }
}

export class PersonalApiKeyNotSupportedError extends PostHogError {
  override name = 'PersonalApiKeyNotSupportedError';
  constructor(init: PostHogErrorInit) {
    super(
      describe(init, 'personal API keys are not supported here'),
      'PostHog does not allow personal API keys for this action. Open it in the PostHog web app instead.',
      init,
    );
  }
}

export class PermissionDeniedError extends PostHogError {
  override name = 'PermissionDeniedError';
  constructor(init: PostHogErrorInit) {
    super(
      describe(init, 'permission denied'),
      `PostHog refused the request. ${sentence(init.detail) || 'You do not have permission for this.'}`,
      init,
    );
  }
}

/**
 * 403 from PostHog's validate_team_attrs: a member below admin sent project settings only admins may set
 * ("Only organization admins can set these settings on project creation: a, b" / "Only project admins can
 * modify these settings: a, b"). `fields` are the names PostHog lists, so each can be shown at its place.
 */
export class AdminOnlySettingsError extends PermissionDeniedError {
  override name = 'AdminOnlySettingsError';
  readonly fields: readonly string[];

  constructor(init: PostHogErrorInit & { fields: readonly string[] }) {
    super(init);
    this.fields = init.fields;
  }
}

/**
 * 403 for a key limited to some projects (PostHog's scoped_teams) on an endpoint that is not about one
 * project: organization lists and project lists. The key still works on each of its projects.
 */
export class ProjectScopedKeyError extends PostHogError {
  override name = 'ProjectScopedKeyError';
  constructor(init: PostHogErrorInit) {
    super(
      describe(init, 'key limited to some projects'),
      'This personal API key is limited to some projects. PostHog lets such a key use only the endpoints of those projects, not lists of organizations or projects.',
      init,
    );
  }
}

export class NotFoundError extends PostHogError {
  override name = 'NotFoundError';
  constructor(init: PostHogErrorInit) {
    super(
      describe(init, 'not found'),
      'PostHog could not find this item. It may have been deleted, or the key may not have access to it.',
      init,
    );
  }
}

export class ValidationError extends PostHogError {
  override name = 'ValidationError';
  constructor(init: PostHogErrorInit, userMessage?: string) {
    const field = init.attr ? `${init.attr.replace(/__/g, '.')}: ` : '';
    super(
      describe(init, 'invalid request'),
      userMessage ?? `PostHog did not accept the request. ${field}${sentence(init.detail) || 'The input is invalid.'}`,
      init,
    );
  }
}

/**
 * 400 too_many_bytes: PostHog's query would read more data than it allows. Its own text, and the way out:
 * a narrower query. Not retried (the same query reads as much again).
 */
export class QueryTooLargeError extends ValidationError {
  override name = 'QueryTooLargeError';
  constructor(init: PostHogErrorInit) {
    super(init, `${sentence(init.detail) || "PostHog's query would read too much data."} Narrow it: a shorter time range or more filters.`);
  }
}

/** The codes PostHog gives a 400 for a HogQL error (posthog/hogql/errors.py; older servers: `invalid`). */
export const HOGQL_ERROR_CODES: ReadonlySet<string> = new Set([
  'hogql_syntax_error',
  'hogql_query_error',
  'hogql_error',
  'invalid_property_filter',
  'table_access_denied',
]);

/**
 * 400 for a HogQL error in a query (syntax, unknown field, ...). PostHog's body keeps only the message: ask
 * HogQLMetadata (`client.queries.metadata`) for where in the text it is.
 */
export class HogQLError extends ValidationError {
  override name = 'HogQLError';
  constructor(init: PostHogErrorInit) {
    super(init, `PostHog could not run the query: ${sentence(init.detail) || 'the HogQL is invalid.'}`);
  }
}

/** 400 "Unsupported query kind: X": the server has no runner for the kind (e.g. SavedInsightNode). */
export class UnsupportedQueryKindError extends ValidationError {
  override name = 'UnsupportedQueryKindError';
  /** The kind PostHog named. */
  readonly kind: string;
  constructor(init: PostHogErrorInit & { kind: string }) {
    super(init, `PostHog cannot run queries of the kind ${init.kind}. ${sentence(init.detail)}`.trim());
    this.kind = init.kind;
  }
}

export class MethodNotAllowedError extends PostHogError {
  override name = 'MethodNotAllowedError';
  constructor(init: PostHogErrorInit) {
    const method = (init.endpoint ?? '').split(' ')[0] || 'This request';
    super(
      describe(init, 'method not allowed'),
      init.endpoint?.startsWith('DELETE ') && init.endpoint.includes('/notebooks/')
        ? 'PostHog does not delete notebooks permanently. Move the notebook to the trash (soft delete) instead.'
        : `PostHog does not allow ${method} here.`,
      init,
    );
  }
}

export class ConflictError extends PostHogError {
  override name = 'ConflictError';
  constructor(init: PostHogErrorInit) {
    super(
      describe(init, 'conflict'),
      /edited the notebook/i.test(init.detail ?? '')
        ? 'Someone else edited this notebook in the meantime. Reload it and apply your changes again.'
        : sentence(init.detail) || 'The request conflicts with the current state on the server.',
      init,
    );
  }
}

/** "in 45 seconds", "in 1 second", "in 12 minutes": a wait in plain words. */
export function waitText(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  if (whole < 120) {
    return `${whole} second${whole === 1 ? '' : 's'}`;
  }
  const minutes = Math.ceil(whole / 60);
  return `${minutes} minutes`;
}

/**
 * 429: PostHog counts every request of a personal API key, across all its projects (the events endpoints
 * 240 a minute and 1,200 an hour), and names the wait only in its text ("Expected available in N seconds").
 */
export class RateLimitedError extends PostHogError {
  override name = 'RateLimitedError';
  /** Seconds the server asked to wait, when it said. */
  readonly retryAfterSeconds?: number;

  constructor(init: PostHogErrorInit & { retryAfterSeconds?: number }) {
    const wait = init.retryAfterSeconds;
    super(
      describe(init, 'rate limited'),
      wait === undefined
        ? 'PostHog has limited the requests of this API key. Try again in a minute.'
        : `PostHog has limited the requests of this API key. Try again in ${waitText(wait)}.`,
      init,
    );
    this.retryAfterSeconds = wait;
  }
}

/** The longest the client waits for PostHog (a 429's named wait, the key's budget): longer ends the operation. */
export const LONGEST_WAIT_MS = 60 * 60 * 1000;

/** Whether a wait PostHog named, in seconds, is one the client waits out (a number from 0 to an hour). */
export function isBoundedWait(seconds: number): boolean {
  return seconds >= 0 && seconds * 1000 <= LONGEST_WAIT_MS;
}

/** "3 hours", "12 days", "31,710 years": a wait longer than an hour in plain words. */
export function longWaitText(seconds: number): string {
  const units: [number, string][] = [
    [365 * 86_400, 'years'],
    [86_400, 'days'],
    [3_600, 'hours'],
  ];
  const [size, unit] = units.find(([size]) => seconds >= 2 * size) ?? units[units.length - 1]!;
  return `${Math.round(seconds / size).toLocaleString('en-US')} ${unit}`;
}

/** PostHog's words quoted in a message, cut short: a body may be long and is shown as literal text. */
function quoted(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return `"${line.length > 300 ? `${line.slice(0, 299)}…` : line}"`;
}

/**
 * 429 (or the key's budget after one) asking to wait longer than an hour, or a wait that is no number of seconds
 * (NaN, negative, Infinity, a date centuries away): the operation ends at once with PostHog's text, never waits
 * or spins on a timer. Not a RateLimitedError: nothing retries it by itself; the user may.
 */
export class RateLimitedTooLongError extends PostHogError {
  override name = 'RateLimitedTooLongError';
  /** What PostHog asked, in seconds: NaN when it named no readable wait. */
  readonly retryAfterSeconds: number;

  constructor(init: PostHogErrorInit & { retryAfterSeconds: number; retryAfter?: string }) {
    const asked = init.retryAfterSeconds;
    const words = [init.detail, init.retryAfter === undefined ? undefined : `Retry-After: ${init.retryAfter}`].filter((text) => text?.trim());
    const said = words.length ? ` (PostHog: ${words.map((text) => quoted(text!)).join(', ')})` : '';
    const wait = Number.isFinite(asked) && asked >= 0 ? `to wait ${longWaitText(asked)}` : 'to wait a time that is no number of seconds';
    super(
      describe(init, `rate limited, wait ${asked} s`),
      `PostHog has limited the requests of this API key and asked ${wait}${said}. The extension waits at most an hour, so it stopped. Retry later.`,
      init,
    );
    this.retryAfterSeconds = asked;
  }
}

/**
 * 402: the organization reached a billing limit (quota_limit_exceeded), used up its API query allowance
 * (api_queries_quota_exceeded), or the feature is paid (payment_required). PostHog's text and where to go;
 * never retried.
 */
export class QuotaExceededError extends PostHogError {
  override name = 'QuotaExceededError';
  constructor(init: PostHogErrorInit) {
    const next =
      init.code === 'payment_required'
        ? 'This needs a paid PostHog plan.'
        : "Check the organization's billing limits in PostHog (Settings → Billing), or ask an organization admin.";
    super(describe(init, 'payment required'), `${sentence(init.detail) || 'PostHog refused the request under its billing limits.'} ${next}`, init);
  }
}

export class ServerError extends PostHogError {
  override name = 'ServerError';
  constructor(init: PostHogErrorInit, userMessage?: string) {
    super(
      describe(init, 'server error'),
      userMessage ?? `PostHog had a problem answering (HTTP ${init.status ?? '5xx'}). Try again later.`,
      init,
    );
  }
}

/**
 * 512 (PostHog estimated the query would take too long) or 504 (the query hit its time limit, or a
 * gateway gave up waiting). Shows PostHog's own text; not retried, as a retry re-runs the same query.
 */
export class QueryTooSlowError extends ServerError {
  override name = 'QueryTooSlowError';
  constructor(init: PostHogErrorInit) {
    super(
      init,
      sentence(init.detail) ||
        `PostHog's query took too long (HTTP ${init.status ?? 504}). Narrow the filters, for example to a shorter time range.`,
    );
  }
}

/**
 * 513: the query ran out of memory (clickhouse_memory_limit_exceeded). PostHog's own text says what to do:
 * a shorter range or narrower filters, or, when it is under heavy load, to wait. Never retried at once.
 */
export class QueryMemoryError extends ServerError {
  override name = 'QueryMemoryError';
  /** PostHog said it is under heavy load: waiting helps, narrowing may not. */
  readonly heavyLoad: boolean;
  constructor(init: PostHogErrorInit) {
    const heavyLoad = /heavy load/i.test(init.detail ?? '');
    super(
      init,
      `${sentence(init.detail) || 'PostHog ran out of memory running the query.'} ${heavyLoad ? 'Wait a few minutes, then try again.' : 'Try a shorter time range or narrower filters.'}`,
    );
    this.heavyLoad = heavyLoad;
  }
}

/**
 * 503: PostHog's database is briefly unavailable (database_unavailable, with Retry-After: 1) or its queries
 * are too busy (no Retry-After), or a load balancer's page. Reads are retried after the wait it names, else
 * with backoff.
 */
export class ServiceUnavailableError extends ServerError {
  override name = 'ServiceUnavailableError';
  /** Seconds the Retry-After header asked to wait, when it did. */
  readonly retryAfterSeconds?: number;
  constructor(init: PostHogErrorInit & { retryAfterSeconds?: number }) {
    const text = sentence(init.detail) || 'PostHog is unavailable for a moment (HTTP 503).';
    super(init, /try again/i.test(text) ? text : `${text} Try again in a moment.`);
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/** A time range PostHog would refuse (over 366 days): caught before anything is sent. */
export class EventRangeError extends PostHogError {
  override name = 'EventRangeError';
  constructor(readonly days: number) {
    super(
      `events range of ${days} days refused before sending`,
      `The time range is ${days} days long; PostHog lists events from at most 366 days at once. Move After and Before closer together (for a year, use -365d).`,
    );
  }
}

/**
 * An id that would take a request out of its resource's path (".", "..", empty), or a path holding such a
 * segment: refused before anything is sent.
 */
export class UnsafePathError extends PostHogError {
  override name = 'UnsafePathError';
  constructor(readonly value: string) {
    super(
      `request path segment ${JSON.stringify(value.slice(0, 100))} refused before sending`,
      `"${value.slice(0, 100)}" cannot be used as an id in a request to PostHog (it would address another path).`,
    );
  }
}

/** Any status the client has no better class for (e.g. 418); also refused redirects. */
export class UnexpectedStatusError extends PostHogError {
  override name = 'UnexpectedStatusError';
  constructor(init: PostHogErrorInit, userMessage?: string) {
    super(
      describe(init, 'unexpected status'),
      userMessage ?? `PostHog answered with an unexpected status (HTTP ${init.status}).`,
      init,
    );
  }
}

export class NetworkError extends PostHogError {
  override name = 'NetworkError';
  /** The system or undici code, e.g. ECONNREFUSED, ECONNRESET, ENOTFOUND, UND_ERR_SOCKET. */
  readonly reason: string;
  /** True when the request provably never reached the server (refused, DNS), so any method may be retried. */
  readonly beforeRequestSent: boolean;

  constructor(init: PostHogErrorInit & { host: string; reason: string; beforeRequestSent: boolean }, userMessage?: string) {
    super(
      describe(init, init.reason),
      userMessage ?? `Could not reach ${init.host}${networkReasonText(init.reason)}. Check the URL and your connection.`,
      init,
    );
    this.reason = init.reason;
    this.beforeRequestSent = init.beforeRequestSent;
  }
}

function networkReasonText(reason: string): string {
  switch (reason) {
    case 'ECONNREFUSED':
      return ' (connection refused)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return ' (host name not found)';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return ' (the connection was closed)';
    default:
      return /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/.test(reason) ? ' (its TLS certificate was not accepted)' : '';
  }
}

/** What was wrong with a server's TLS certificate, in plain words. */
export type CertificateProblem = 'expired' | 'self-signed' | 'unknown-authority' | 'hostname-mismatch' | 'other';

const TRUST_HINT =
  "If it is your company's or your server's own authority, add it: keep http.systemCertificates on and install the authority in the system, or name a PEM file holding it in NODE_EXTRA_CA_CERTS. (Turning http.proxyStrictSSL off skips the check, but then anyone in between can read your key.)";

/** A server certificate the client does not accept: which host, why, and the setting that helps. */
export class CertificateError extends NetworkError {
  override name = 'CertificateError';
  readonly problem: CertificateProblem;

  constructor(init: PostHogErrorInit & { host: string; reason: string; problem: CertificateProblem }) {
    super({ ...init, beforeRequestSent: true }, certificateMessage(init.host, init.reason, init.problem));
    this.problem = init.problem;
  }
}

function certificateMessage(host: string, code: string, problem: CertificateProblem): string {
  switch (problem) {
    case 'expired':
      return `The TLS certificate of ${host} has expired or is not valid yet (${code}). Check this computer's date and time; otherwise the server's certificate must be renewed.`;
    case 'self-signed':
      return `${host} presents a self-signed TLS certificate, which is not trusted (${code}). ${TRUST_HINT}`;
    case 'unknown-authority':
      return `The TLS certificate of ${host} was issued by an authority that is not trusted (${code}). ${TRUST_HINT}`;
    case 'hostname-mismatch':
      return `The TLS certificate of ${host} is for another host name (${code}). Check the address of the connection.`;
    default:
      return `The secure connection to ${host} failed (${code}). If a proxy inspects your traffic, add its authority with NODE_EXTRA_CA_CERTS; turning http.proxyStrictSSL off skips certificate checks but exposes your key.`;
  }
}

export class TimeoutError extends PostHogError {
  override name = 'TimeoutError';
  /** Connecting, waiting for the headers, a pause in the body, or the whole request (retries included). */
  readonly phase: 'connect' | 'headers' | 'body' | 'total';
  readonly beforeRequestSent: boolean;

  constructor(init: PostHogErrorInit & { host: string; phase: 'connect' | 'headers' | 'body' | 'total'; timeoutMs: number }) {
    const seconds = Math.round(init.timeoutMs / 1000);
    super(
      describe(init, `${init.phase} timeout after ${init.timeoutMs} ms`),
      init.phase === 'total'
        ? `${init.host} took more than ${seconds} seconds to answer in full, so the request was stopped. Try again later.`
        : `${init.host} did not answer within ${seconds} seconds. Try again later.`,
      init,
    );
    this.phase = init.phase;
    this.beforeRequestSent = init.phase === 'connect';
  }
}

export class ResponseShapeError extends PostHogError {
  override name = 'ResponseShapeError';
  /** Dotted path of the first field that did not fit, '' for the whole body. */
  readonly path: string;

  constructor(init: PostHogErrorInit & { path: string; problem: string }) {
    const where = init.path ? `${init.path}: ` : '';
    super(
      `${init.endpoint ?? ''}: ${where}${init.problem}`,
      `PostHog answered in an unexpected format (${where}${init.problem}). The server may run a different version.`,
      init,
    );
    this.path = init.path;
  }
}

/** A successful answer larger than the client reads (see TransportOptions.maxBodyBytes): not read to its end. */
export class ResponseTooLargeError extends PostHogError {
  override name = 'ResponseTooLargeError';
  readonly limitBytes: number;

  constructor(init: PostHogErrorInit & { limitBytes: number }) {
    const megabytes = Math.round(init.limitBytes / (1024 * 1024));
    super(
      `${init.endpoint ?? ''}: answer larger than ${init.limitBytes} bytes`,
      `PostHog's answer is larger than ${megabytes > 0 ? `${megabytes} MB` : `${init.limitBytes} bytes`}, more than the extension reads at once, so it was not loaded.`,
      init,
    );
    this.limitBytes = init.limitBytes;
  }
}

export class InvalidBaseUrlError extends PostHogError {
  override name = 'InvalidBaseUrlError';
  constructor(message: string) {
    super(message, message);
  }
}

export class InvalidApiKeyError extends PostHogError {
  override name = 'InvalidApiKeyError';
  constructor(message: string) {
    super(message, message);
  }
}

export class UnsafeNextUrlError extends PostHogError {
  override name = 'UnsafeNextUrlError';
  constructor(init: PostHogErrorInit & { target: string }) {
    super(
      `${init.endpoint ?? ''}: next page link points to ${init.target}, not the configured server`,
      `PostHog sent a next-page link to another address (${init.target}). It was not followed, to keep your API key safe.`,
      init,
    );
  }
}

export class ClientDisposedError extends PostHogError {
  override name = 'ClientDisposedError';
  constructor(init: PostHogErrorInit) {
    super(`${init.endpoint ?? ''}: client disposed`, 'The connection to PostHog was closed.', init);
  }
}

/** Why a list was not loaded to its end: too many items or pages, or a next-page link met before (a loop). */
export type ListLimitReason = 'items' | 'pages' | 'repeatedNext';

/**
 * A list longer than the client loads at once, or one whose next-page links loop: refused rather than
 * followed, so that a server's `count` or links cannot keep the client busy or its memory growing forever.
 */
export class ListLimitError extends PostHogError {
  override name = 'ListLimitError';
  readonly reason: ListLimitReason;
  /** The limit that was reached (items or pages); for repeatedNext, the pages loaded. */
  readonly limit: number;

  constructor(init: PostHogErrorInit & { reason: ListLimitReason; limit: number; count?: number }) {
    super(`${init.endpoint ?? ''}: ${listLimitProblem(init)}`.replace(/^: /, ''), listLimitMessage(init), init);
    this.reason = init.reason;
    this.limit = init.limit;
  }
}

function listLimitProblem(init: { reason: ListLimitReason; limit: number; count?: number }): string {
  switch (init.reason) {
    case 'items':
      return `list of ${init.count ?? 'more than ' + init.limit} items exceeds the ${init.limit} loaded at once`;
    case 'pages':
      return `list needs more than ${init.limit} pages`;
    case 'repeatedNext':
      return `next-page link repeats an earlier page after ${init.limit} pages`;
  }
}

function listLimitMessage(init: { reason: ListLimitReason; limit: number; count?: number }): string {
  const limit = init.limit.toLocaleString('en-US');
  switch (init.reason) {
    case 'items':
      return `This list is too long to load at once: ${init.count === undefined ? 'PostHog sent more than' : `PostHog reports ${init.count.toLocaleString('en-US')} items, and the explorer loads at most`} ${limit} items. Narrow it with a filter where there is one.`;
    case 'pages':
      return `PostHog split this list into more than ${limit} pages, so it was not loaded to its end.`;
    case 'repeatedNext':
      return 'PostHog sent a next-page link to a page it had already sent, so the list would never end. It was not followed again.';
  }
}

/**
 * The server answered 404 to POST /query/: an older (self-hosted) PostHog without the Query API. Callers fall
 * back to the legacy events endpoint.
 */
export class QueryApiUnavailableError extends PostHogError {
  override name = 'QueryApiUnavailableError';
  constructor(init: PostHogErrorInit) {
    super(
      describe(init, 'no Query API'),
      'This PostHog server has no Query API (it answered 404 to /query/); it is probably an older self-hosted version.',
      init,
    );
  }
}

/** An asynchronous query run that PostHog reports as failed: its `error_message`, or none for an internal error. */
export class QueryFailedError extends PostHogError {
  override name = 'QueryFailedError';
  /** The run's client_query_id. */
  readonly queryId: string;
  constructor(init: PostHogErrorInit & { queryId: string }) {
    super(
      describe(init, 'query failed'),
      init.detail
        ? `PostHog could not run the query: ${sentence(init.detail)}`
        : 'PostHog could not run the query (an internal error, without a message). Try again later.',
      init,
    );
    this.queryId = init.queryId;
  }
}

/**
 * An asynchronous run still not complete after the polling limit (10 minutes, as PostHog's web app polls). The
 * run was cancelled. "Query timed out" is the web app's message.
 */
export class QueryTimedOutError extends PostHogError {
  override name = 'QueryTimedOutError';
  readonly queryId: string;
  readonly waitedMs: number;
  constructor(init: PostHogErrorInit & { queryId: string; waitedMs: number }) {
    super(
      describe(init, `Query timed out after ${init.waitedMs} ms`),
      `Query timed out: PostHog did not finish it within ${waitText(init.waitedMs / 1000)}, so it was cancelled. Narrow it (a shorter time range, fewer rows) and run it again.`,
      init,
    );
    this.queryId = init.queryId;
    this.waitedMs = init.waitedMs;
  }
}
