import {
  AdminOnlySettingsError,
  AuthenticationError,
  CertificateError,
  type CertificateProblem,
  ConflictError,
  HOGQL_ERROR_CODES,
  HogQLError,
  MethodNotAllowedError,
  MissingScopeError,
  NetworkError,
  NotFoundError,
  PermissionDeniedError,
  PersonalApiKeyNotSupportedError,
  PostHogError,
  PostHogErrorInit,
  QueryMemoryError,
  QueryTooLargeError,
  QueryTooSlowError,
  ProjectScopedKeyError,
  QuotaExceededError,
  ServiceUnavailableError,
  RateLimitedError,
  RateLimitedTooLongError,
  isBoundedWait,
  ServerError,
  TimeoutError,
  UnexpectedStatusError,
  UnsupportedQueryKindError,
  ValidationError,
} from './errors';

/** What PostHog puts in an error body: {type, code, detail, attr}. Any part may be missing. */
export interface ErrorBody {
  type?: string;
  code?: string;
  detail?: string;
  attr?: string | null;
}

export interface FailedResponse {
  endpoint: string;
  status: number;
  bodyText: string;
  /** Value of the Retry-After header, if any. */
  retryAfter?: string;
  /** Value of the Location header of a redirect, if any. */
  location?: string;
  now?: Date;
}

const MISSING_SCOPE = /API key missing required scope '([^']+)'/i;
const NO_PERSONAL_KEY = /does not support personal API key access/i;
const SCOPED_PROJECTS_ONLY = /scoped projects are only supported on project-based endpoints/i;
/** validate_team_attrs, on create and on update: the field names follow the colon, comma-separated. */
const ADMIN_ONLY_SETTINGS = /^Only (?:organization|project) admins can (?:set|modify) these settings[^:]*:([^\n]*)$/;
const THROTTLE_WAIT = /available in (\S+?) seconds?/i;

/** Reads an error body; tolerates empty, non-JSON and plain DRF field-error bodies. */
export function parseErrorBody(bodyText: string): ErrorBody {
  const text = bodyText.trim();
  if (!text) {
    return {};
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { detail: text.startsWith('<') ? undefined : text.slice(0, 500) };
  }
  if (Array.isArray(json)) {
    return { detail: firstText(json) };
  }
  if (!json || typeof json !== 'object') {
    return { detail: String(json) };
  }
  const body = json as Record<string, unknown>;
  if ('detail' in body || 'type' in body || 'code' in body) {
    return {
      type: typeof body.type === 'string' ? body.type : undefined,
      code: typeof body.code === 'string' ? body.code : undefined,
      detail: firstText(body.detail),
      attr: typeof body.attr === 'string' ? body.attr : null,
    };
  }
  // DRF without PostHog's handler: {"field": ["message", ...]}
  const [field, messages] = Object.entries(body)[0] ?? [];
  return field === undefined ? {} : { detail: firstText(messages), attr: field === 'non_field_errors' ? null : field };
}

function firstText(value: unknown): string | undefined {
  if (typeof value === 'string') {
    return value;
  }
  if (Array.isArray(value)) {
    return firstText(value[0]);
  }
  if (value && typeof value === 'object') {
    return firstText(Object.values(value)[0]);
  }
  return value === undefined || value === null ? undefined : String(value);
}

/**
 * Seconds to wait before retrying: the Retry-After header (seconds or an HTTP date), else the N of
 * PostHog's "Expected available in N seconds." detail (PostHog sends no Retry-After header). NaN when the
 * server named a wait that is no number (a "-5" or "NaN" header, "available in NaN seconds"); a value may
 * also be Infinity or centuries: the caller bounds it (isBoundedWait).
 */
export function retryAfterSeconds(retryAfter: string | undefined, detail: string | undefined, now = new Date()): number | undefined {
  const header = retryAfter?.trim();
  if (header) {
    if (/^\d+(\.\d+)?$/.test(header)) {
      return Number(header);
    }
    // An HTTP date names its day and month; Date.parse would also read "-5" as a year.
    const date = /[a-z]/i.test(header) ? Date.parse(header) : Number.NaN;
    return Number.isNaN(date) ? Number.NaN : Math.max(0, (date - now.getTime()) / 1000);
  }
  const match = detail ? THROTTLE_WAIT.exec(detail) : null;
  return match ? Number(match[1]) : undefined;
}

/** A 429: RateLimitedError for a wait the client may wait out, RateLimitedTooLongError for any other. */
function rateLimited(init: PostHogErrorInit, response: FailedResponse): PostHogError {
  const named = retryAfterSeconds(response.retryAfter, init.detail, response.now);
  if (named === undefined || isBoundedWait(named)) {
    return new RateLimitedError({ ...init, retryAfterSeconds: named });
  }
  return new RateLimitedTooLongError({ ...init, retryAfterSeconds: named, ...(response.retryAfter === undefined ? {} : { retryAfter: response.retryAfter }) });
}

/** A 503's Retry-After, or none when it is no number (then the retry backs off as without one). */
function serviceRetryAfter(response: FailedResponse): number | undefined {
  const named = retryAfterSeconds(response.retryAfter, undefined, response.now);
  return named === undefined || Number.isNaN(named) ? undefined : named;
}

/** Maps a non-2xx answer to the error class for its case. */
export function errorFromResponse(response: FailedResponse): PostHogError {
  const body = parseErrorBody(response.bodyText);
  const init: PostHogErrorInit = { endpoint: response.endpoint, status: response.status, ...body };
  const detail = body.detail ?? '';
  switch (response.status) {
    case 400:
      return badRequest(init);
    case 401:
      return new AuthenticationError(init);
    case 403: {
      const scope = MISSING_SCOPE.exec(detail);
      if (scope) {
        return new MissingScopeError({ ...init, scope: scope[1] });
      }
      if (NO_PERSONAL_KEY.test(detail)) {
        return new PersonalApiKeyNotSupportedError(init);
      }
      if (SCOPED_PROJECTS_ONLY.test(detail)) {
        return new ProjectScopedKeyError(init);
      }
      const adminOnly = ADMIN_ONLY_SETTINGS.exec(detail);
      if (adminOnly) {
        return new AdminOnlySettingsError({ ...init, fields: adminOnly[1]!.split(',').map((field) => field.trim()).filter(Boolean) });
      }
      return new PermissionDeniedError(init);
    }
    case 404:
      return new NotFoundError(init);
    case 405:
      return new MethodNotAllowedError(init);
    case 409:
      return new ConflictError(init);
    case 429:
      return rateLimited(init, response);
    case 402:
      return new QuotaExceededError(init);
    case 503:
      return new ServiceUnavailableError({ ...init, retryAfterSeconds: serviceRetryAfter(response) });
    case 504:
    case 512:
      return new QueryTooSlowError(init);
    case 513:
      return new QueryMemoryError(init);
  }
  if (response.status >= 500) {
    return new ServerError(init);
  }
  if (response.status >= 300 && response.status < 400) {
    return redirectRefused(init, response.location);
  }
  return new UnexpectedStatusError(init);
}

const UNSUPPORTED_KIND = /^Unsupported query kind: (\S+)/;

/** 400: PostHog's query errors (too much data, HogQL, a kind it cannot run) get their own classes. */
function badRequest(init: PostHogErrorInit): PostHogError {
  const unsupported = UNSUPPORTED_KIND.exec(init.detail ?? '');
  if (unsupported) {
    return new UnsupportedQueryKindError({ ...init, kind: unsupported[1] });
  }
  if (init.code === 'too_many_bytes') {
    return new QueryTooLargeError(init);
  }
  return init.code && HOGQL_ERROR_CODES.has(init.code) ? new HogQLError(init) : new ValidationError(init);
}

/** Redirects are never followed: the Authorization header must not travel to wherever they point. */
function redirectRefused(init: PostHogErrorInit, location: string | undefined): PostHogError {
  let target = 'another address';
  try {
    target = location ? new URL(location, 'http://same-host.invalid').host.replace('same-host.invalid', 'the same host') : target;
  } catch {
    // keep the generic wording
  }
  return new UnexpectedStatusError(
    { ...init, detail: init.detail ?? `redirect to ${target} not followed` },
    `PostHog answered with a redirect to ${target}, which is not followed to keep your API key safe. Check the URL (for example https:// and the exact host name).`,
  );
}

const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export interface TransportFailureContext {
  endpoint: string;
  host: string;
  timeouts: { connectMs: number; headersMs: number; bodyMs: number };
  /** The proxy requests go through (without credentials), if any. */
  proxy?: string;
}

/** Maps an undici / socket failure (never an abort) to NetworkError or TimeoutError. */
export function errorFromTransportFailure(error: unknown, context: TransportFailureContext): PostHogError {
  const code = errorCode(error);
  const init = { endpoint: context.endpoint, host: context.host, cause: error };
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return new TimeoutError({ ...init, phase: 'connect', timeoutMs: context.timeouts.connectMs });
    case 'UND_ERR_HEADERS_TIMEOUT':
      return new TimeoutError({ ...init, phase: 'headers', timeoutMs: context.timeouts.headersMs });
    case 'UND_ERR_BODY_TIMEOUT':
      return new TimeoutError({ ...init, phase: 'body', timeoutMs: context.timeouts.bodyMs });
  }
  const certificate = certificateFailure(error);
  if (certificate) {
    return new CertificateError({ ...init, ...certificate });
  }
  const proxyStatus = /Proxy response \((\d+)\)/.exec(error instanceof Error ? error.message : '');
  if (proxyStatus && context.proxy) {
    return proxyRefused(init, Number(proxyStatus[1]), context.proxy);
  }
  const reason = code ?? 'UNKNOWN';
  if (context.proxy && CONNECT_FAILURES.has(reason)) {
    // Through a proxy the client only ever connects to the proxy: the target's failures come back as its answer.
    return new NetworkError(
      { ...init, reason, beforeRequestSent: true },
      `Could not reach the proxy ${context.proxy} (${reason === 'ECONNREFUSED' ? 'connection refused' : `host name not found or unreachable, ${reason}`}). Check the proxy setting (http.proxy or HTTPS_PROXY).`,
    );
  }
  const beforeRequestSent = CONNECT_FAILURES.has(reason) || isTlsFailure(reason);
  return new NetworkError({ ...init, reason, beforeRequestSent });
}

const CERTIFICATE_PROBLEMS: Record<string, CertificateProblem> = {
  CERT_HAS_EXPIRED: 'expired',
  CERT_NOT_YET_VALID: 'expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'unknown-authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'unknown-authority',
  UNABLE_TO_GET_ISSUER_CERT: 'unknown-authority',
  CERT_UNTRUSTED: 'unknown-authority',
  ERR_TLS_CERT_ALTNAME_INVALID: 'hostname-mismatch',
};

/** The certificate code anywhere in the cause chain (undici wraps some, e.g. in a tunnel), with its plain-words problem. */
function certificateFailure(error: unknown): { reason: string; problem: CertificateProblem } | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (CERTIFICATE_PROBLEMS[code] || /CERT/.test(code))) {
      return { reason: code, problem: CERTIFICATE_PROBLEMS[code] ?? 'other' };
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The proxy answered CONNECT with something else than 200 (407: credentials refused). */
function proxyRefused(init: { endpoint: string; host: string; cause: unknown }, status: number, proxy: string): NetworkError {
  const why =
    status === 407
      ? 'it asks for credentials it did not get or did not accept: put the user name and password in http.proxy (http://user:password@host:port)'
      : `it answered HTTP ${status}`;
  return new NetworkError(
    { ...init, reason: `PROXY_${status}`, beforeRequestSent: true },
    `The proxy ${proxy} did not open a connection to ${init.host}: ${why}.`,
  );
}

export function isTlsFailure(code: string): boolean {
  return /CERT|^ERR_TLS|^ERR_SSL|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code);
}

function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      return code;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
