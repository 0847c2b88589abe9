// Injected failures: throttling, server errors, dropped connections and delays.
import { ApiError, serverError, throttled } from './errors';
import type { Reply } from './http';

export interface FaultRule {
  method?: string;
  path?: RegExp;
  /** how many matching requests fail (default 1) */
  times?: number;
  status?: 429 | 500 | 502 | 503 | 504;
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

function matches(rule: FaultRule, method: string, path: string): boolean {
  if (rule.method && rule.method.toUpperCase() !== method) return false;
  if (rule.path) {
    rule.path.lastIndex = 0;
    if (!rule.path.test(path)) return false;
  }
  return true;
}

const GATEWAY_PAGES: Record<number, string> = {
  502: '502 Bad Gateway',
  503: '503 Service Temporarily Unavailable',
  504: '504 Gateway Time-out',
};

/** The answer a fault produces: JSON from the app for 429/500, an HTML page from the load balancer for 502-504. */
export function faultReply(rule: FaultRule): ApiError | Reply | undefined {
  if (!rule.status) return undefined;
  const headers: Record<string, string> = rule.retryAfterSeconds !== undefined ? { 'Retry-After': String(rule.retryAfterSeconds) } : {};
  if (rule.status === 429) return throttled(rule.throttleSeconds ?? rule.retryAfterSeconds ?? 1, headers);
  if (rule.status === 500) {
    const error = serverError();
    return new ApiError(500, error.body, headers);
  }
  const title = GATEWAY_PAGES[rule.status]!;
  return {
    status: rule.status,
    text: `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n</body>\r\n</html>\r\n`,
    contentType: 'text/html',
    headers,
  };
}
