// Injected failures: throttling, server errors, dropped connections and delays.
import { ApiError, serverError, throttled } from './errors';
import type { Reply } from './http';

export interface FaultRule {
  method?: string;
  path?: RegExp;
  /** how many matching requests fail (default 1) */
  times?: number;
  status?: 400 | 402 | 429 | 500 | 502 | 503 | 504 | 512 | 513;
  /**
   * Which of PostHog's JSON answers for the status (without it 502-504 answer a load balancer's page):
   * 400 `too_many_bytes`; 402 `quota_limit_exceeded` (default), `api_queries_quota_exceeded` or
   * `payment_required`; 503 `database_unavailable` (Retry-After: 1) or `error` (too busy, no Retry-After);
   * 513 `clickhouse_memory_limit_exceeded` (always).
   */
  code?: string;
  /** 513 only: the "under heavy load" variant, whose next step is to wait rather than to narrow the query. */
  heavyLoad?: boolean;
  /**
   * 504 only: answer PostHog's own JSON for a query that hit its time limit (ClickHouseQueryTimeOut)
   * instead of the load balancer's HTML page. (512 always answers PostHog's JSON.)
   */
  queryTimeout?: boolean;
  /** destroy the socket without answering */
  drop?: boolean;
  /** adds a Retry-After header */
  retryAfterSeconds?: number;
  /** the wait named in a 429's detail (default: retryAfterSeconds, else 1) */
  throttleSeconds?: number;
  /**
   * A Retry-After header written as given, instead of retryAfterSeconds: an HTTP date, "Infinity", "-5",
   * digits past a double's range (what a broken proxy or server might send).
   */
  retryAfter?: string;
  /** 429 only: the N of "Expected available in N seconds." written as given ("99999999", "NaN", "-5"). */
  throttleText?: string;
  /** wait this long first (alone: a slow but otherwise normal answer) */
  delayMs?: number;
}

export class Faults {
  private rules: { rule: FaultRule; left: number }[] = [];

  add(rule: FaultRule): void {
    if ((rule.status === 400 || rule.status === 402 || rule.status === 513) && !queryError(rule)) {
      throw new Error(`No ${rule.status} answer for code "${rule.code ?? ''}"`);
    }
    this.rules.push({ rule, left: rule.times ?? 1 });
  }

  /** The first rule matching this request, counted as used. */
  take(method: string, path: string): FaultRule | undefined {
    const entry = this.rules.find(({ rule, left }) => left > 0 && matches(rule, method, path));
    if (!entry) return undefined;
    entry.left -= 1;
    this.rules = this.rules.filter((r) => r.left > 0);
    return entry.rule;
  }
}

/** drf-exceptions-hog's body for a 5xx APIException. */
function serverErrorBody(detail: string): { type: string; code: string; detail: string; attr: null } {
  return { type: 'server_error', code: 'error', detail, attr: null };
}

function matches(rule: FaultRule, method: string, path: string): boolean {
  if (rule.method && rule.method.toUpperCase() !== method) return false;
  if (rule.path) {
    rule.path.lastIndex = 0;
    if (!rule.path.test(path)) return false;
  }
  return true;
}

/** PostHog's ClickHouseEstimatedQueryExecutionTimeTooLong and ClickHouseQueryTimeOut details. */
export const QUERY_TOO_LONG_DETAIL = 'Estimated query execution time is too long. Try reducing its scope by changing the time range.';
export const QUERY_TIMEOUT_DETAIL =
  'Query has hit the max execution time before completing. See our docs for how to improve your query performance. You may need to materialize.';

/**
 * PostHog's query errors (posthog/exceptions.py and the query runner). Details marked verified are PostHog's
 * text; the others keep the words posthog-behaviour.md quotes and fill in the rest.
 */
const QUERY_ERRORS: Record<string, { status: number; type: string; detail: string; retryAfter?: number }> = {
  // verified (QuotaLimitExceeded)
  quota_limit_exceeded: { status: 402, type: 'server_error', detail: 'Your organization reached its billing limit for this resource. Increase the limits in Billing settings, or ask an org admin to do so.' },
  api_queries_quota_exceeded: { status: 402, type: 'server_error', detail: 'Your organization reached its API queries allowance for this billing period. Increase the limits in Billing settings, or ask an org admin to do so.' },
  // verified (EnterpriseFeatureException, cloud wording)
  payment_required: { status: 402, type: 'server_error', detail: 'This feature is part of the premium PostHog offering. To use it, subscribe to PostHog Cloud with a generous free tier.' },
  clickhouse_memory_limit_exceeded: { status: 513, type: 'server_error', detail: 'This query ran out of memory before it could finish. Try a shorter date range or narrower filters.' },
  heavy_load: { status: 513, type: 'server_error', detail: "We're under heavy load right now, and this query ran out of memory. Please try again in a few minutes." },
  database_unavailable: { status: 503, type: 'server_error', detail: 'The database is temporarily unavailable. Please try again.', retryAfter: 1 },
  // verified (ClickHouseAtCapacity)
  busy: { status: 503, type: 'server_error', detail: "Queries are a little too busy right now. We're working to free up resources. Please try again later." },
  too_many_bytes: { status: 400, type: 'validation_error', detail: 'This query would read too much data. Narrow the date range or add filters.' },
};

function queryError(rule: FaultRule): ApiError | undefined {
  const name =
    rule.status === 513 ? (rule.heavyLoad ? 'heavy_load' : 'clickhouse_memory_limit_exceeded')
    : rule.status === 402 ? (rule.code ?? 'quota_limit_exceeded')
    : rule.status === 503 && rule.code === 'error' ? 'busy'
    : rule.code;
  const known = name ? QUERY_ERRORS[name] : undefined;
  if (!known || known.status !== rule.status) return undefined;
  const code = name === 'heavy_load' ? 'clickhouse_memory_limit_exceeded' : name === 'busy' ? 'error' : name!;
  const retryAfter = rule.retryAfterSeconds ?? known.retryAfter;
  return new ApiError(rule.status, { type: known.type, code, detail: known.detail, attr: null }, retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) });
}

const GATEWAY_PAGES: Record<number, string> = {
  502: '502 Bad Gateway',
  503: '503 Service Temporarily Unavailable',
  504: '504 Gateway Time-out',
};

/**
 * The answer a fault produces: JSON from the app for 429/500/512, a 504 query timeout and the query errors
 * above (400/402/503/513 by `code`), an HTML page from the load balancer for 502-504 otherwise.
 */
export function faultReply(rule: FaultRule): ApiError | Reply | undefined {
  if (!rule.status) return undefined;
  const retryAfter = rule.retryAfter ?? (rule.retryAfterSeconds === undefined ? undefined : String(rule.retryAfterSeconds));
  const headers: Record<string, string> = retryAfter !== undefined ? { 'Retry-After': retryAfter } : {};
  if (rule.status === 429) return throttled(rule.throttleText ?? rule.throttleSeconds ?? rule.retryAfterSeconds ?? 1, headers);
  const query = queryError(rule);
  if (query) return query;
  if (rule.status === 500) {
    const error = serverError();
    return new ApiError(500, error.body, headers);
  }
  if (rule.status === 512) return new ApiError(512, serverErrorBody(QUERY_TOO_LONG_DETAIL), headers);
  if (rule.status === 504 && rule.queryTimeout) return new ApiError(504, serverErrorBody(QUERY_TIMEOUT_DETAIL), headers);
  const title = GATEWAY_PAGES[rule.status]!;
  return {
    status: rule.status,
    text: `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n</body>\r\n</html>\r\n`,
    contentType: 'text/html',
    headers,
  };
}
