// Injected failures: throttling, server errors, dropped connections and delays.
import { ApiError, serverError, throttled } from './errors';
import type { Reply } from './http';

export interface FaultRule {
  method?: string;
  path?: RegExp;
  /** how many matching requests fail (default 1) */
  times?: number;
  status?: 429 | 500 | 502 | 503 | 504 | 512;
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
  /** wait this long first (alone: a slow but otherwise normal answer) */
  delayMs?: number;
}

export class Faults {
  private rules: { rule: FaultRule; left: number }[] = [];

  add(rule: FaultRule): void {
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

const GATEWAY_PAGES: Record<number, string> = {
  502: '502 Bad Gateway',
  503: '503 Service Temporarily Unavailable',
  504: '504 Gateway Time-out',
};

/**
 * The answer a fault produces: JSON from the app for 429/500/512 (and a 504 query timeout), an HTML page
 * from the load balancer for 502-504.
 */
export function faultReply(rule: FaultRule): ApiError | Reply | undefined {
  if (!rule.status) return undefined;
  const headers: Record<string, string> = rule.retryAfterSeconds !== undefined ? { 'Retry-After': String(rule.retryAfterSeconds) } : {};
  if (rule.status === 429) return throttled(rule.throttleSeconds ?? rule.retryAfterSeconds ?? 1, headers);
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
