import { NetworkError, PostHogError, RateLimitedError, ServerError, ServiceUnavailableError, TimeoutError } from './errors';

export interface RetryOptions {
  /** Retries after the first attempt (default 3). */
  retries?: number;
  /** First backoff ceiling; doubles each retry (default 500 ms). */
  baseDelayMs?: number;
  /** Largest backoff ceiling (default 8 s). */
  maxDelayMs?: number;
  /** A 429 asking to wait longer than this is not retried but surfaced (default 60 s). */
  maxRetryAfterMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = {
  retries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * Not 504 (nor 512): a query that timed out would run again just as long (QueryTooSlowError); not 513: it
 * would run out of memory again (QueryMemoryError).
 */
const RETRYABLE_STATUSES = new Set([502, 503]);
const RETRYABLE_NETWORK_REASONS = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
]);

/**
 * Whether a failed attempt may be repeated.
 * - GET/HEAD/OPTIONS change nothing, so they are retried on 429, 502/503, resets and timeouts; never on
 *   504/512, PostHog's answers to a query that took too long.
 * - PATCH/PUT/DELETE are retried only when the server provably did not act: a 429 (PostHog throttles
 *   before the view runs) or a failure to connect at all. A reset or 502 may come after the change was
 *   made, and repeating e.g. reset_token or a project DELETE would then act twice or fail confusingly.
 * - POST is never retried: a repeated create makes a duplicate.
 */
export function isRetryable(method: string, error: PostHogError): boolean {
  const verb = method.toUpperCase();
  if (verb === 'POST') {
    return false;
  }
  if (error instanceof RateLimitedError) {
    return true;
  }
  const safe = SAFE_METHODS.has(verb);
  if (error instanceof ServerError) {
    return safe && RETRYABLE_STATUSES.has(error.status ?? 0);
  }
  if (error instanceof NetworkError) {
    return RETRYABLE_NETWORK_REASONS.has(error.reason) && (safe || error.beforeRequestSent);
  }
  if (error instanceof TimeoutError) {
    return safe || error.beforeRequestSent;
  }
  return false;
}

/**
 * Milliseconds to wait before retry number `retry` (0 = first retry), or undefined to give up.
 * Exponential backoff with full jitter; a 429 or 503 that names its wait (PostHog's text, Retry-After) is
 * honoured (plus a little jitter so parallel requests do not return together), unless that wait exceeds
 * maxRetryAfterMs.
 */
export function retryDelayMs(
  retry: number,
  error: PostHogError,
  options: Required<RetryOptions>,
  random: () => number,
): number | undefined {
  if (retry >= options.retries) {
    return undefined;
  }
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** retry);
  const named = error instanceof RateLimitedError || error instanceof ServiceUnavailableError ? error.retryAfterSeconds : undefined;
  if (named !== undefined) {
    const wait = named * 1000;
    if (!(wait >= 0 && wait <= options.maxRetryAfterMs)) {
      return undefined;
    }
    return Math.round(wait + random() * Math.min(options.baseDelayMs, ceiling));
  }
  return Math.round(random() * ceiling);
}
