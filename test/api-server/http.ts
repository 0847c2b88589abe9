// Request context, replies, and the URL/pagination conventions of Django REST framework.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { ApiKey, Organization, Project, User } from './model';
import type { Store } from './store';
import { validation } from './errors';
import type { EventListLevel } from './events-query';

export interface ServerOptions {
  refusePersonalKeyActions: boolean;
  rateLimits: boolean;
  /**
   * The scheme of absolute links (next/previous): the one the server is reached by, or "http" while served
   * over https, as self-hosted PostHog does when it is not configured as behind a proxy.
   */
  linkScheme: 'http' | 'https';
  /** PostHog's PATCH_EVENT_LIST_MAX_OFFSET for the events list (see events-query.ts). */
  eventListLevel: EventListLevel;
  /** Whether GET /api/personal_api_keys/@current/ exists (older servers: 404). */
  currentKeyEndpoint: boolean;
}

export interface Ctx {
  method: string;
  /** Path as requested (percent-encoded, trailing slash as sent). */
  path: string;
  /** Raw query string without "?" ('' when none). */
  rawQuery: string;
  query: URLSearchParams;
  params: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: unknown;
  key: ApiKey;
  user: User;
  store: Store;
  options: ServerOptions;
  origin: string;
  /** Resolved from :projectId / :orgId before the handler runs. */
  project?: Project;
  organization?: Organization;
}

export function projectOf(ctx: Ctx): Project {
  if (!ctx.project) throw new Error('route has no :projectId');
  return ctx.project;
}

export function organizationOf(ctx: Ctx): Organization {
  if (!ctx.organization) throw new Error('route has no organization');
  return ctx.organization;
}

export interface Reply {
  status: number;
  body?: unknown;
  /** Text body sent as-is (CSV, HTML). */
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** A body written over time (server-sent events): called once the status and headers are sent. */
  stream?: (res: ServerResponse) => void;
}

export const ok = (body: unknown, status = 200): Reply => ({ status, body });
export const noContent = (): Reply => ({ status: 204 });

/** Django's QueryDict.get: the last value given for a name. */
export function param(ctx: Ctx, name: string): string | undefined {
  const values = ctx.query.getAll(name);
  return values.length ? values[values.length - 1] : undefined;
}

/** QueryDict.dict(): one (last) value per name, in order of first appearance. */
export function queryDict(query: URLSearchParams): Map<string, string> {
  const dict = new Map<string, string>();
  for (const [key, value] of query) dict.set(key, value);
  return dict;
}

/** Python's urllib.parse.urlencode (quote_plus). */
export function urlencode(entries: Iterable<[string, string]>): string {
  const quote = (s: string): string =>
    encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase()).replace(/%20/g, '+');
  return [...entries].map(([k, v]) => `${quote(k)}=${quote(v)}`).join('&');
}

export function absoluteUrl(ctx: Ctx, query: string = ctx.rawQuery): string {
  return `${ctx.origin}${ctx.path}${query ? `?${query}` : ''}`;
}

/** Python's int() on a query value: optional sign and surrounding whitespace, digits only. */
export function parseIntStrict(text: string): number | undefined {
  const trimmed = text.trim();
  return /^[+-]?\d+$/.test(trimmed) ? Number(trimmed) : undefined;
}

/** An integer query parameter that PostHog parses with int(); bad values are refused. */
export function intParam(ctx: Ctx, name: string, fallback: number, min = 0): number {
  const raw = param(ctx, name);
  if (raw === undefined) return fallback;
  const value = parseIntStrict(raw);
  if (value === undefined || value < min) throw validation(`A valid integer (at least ${min}) is required for "${name}".`, name);
  return value;
}

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** DRF LimitOffsetPagination: default 100, no maximum, bad values fall back to defaults. */
export function paginate<T, R>(ctx: Ctx, items: readonly T[], serialize: (item: T) => R, defaultLimit = 100): Page<R> {
  const limitValue = parseIntStrict(param(ctx, 'limit') ?? '');
  const limit = limitValue !== undefined && limitValue > 0 ? limitValue : defaultLimit;
  const offsetValue = parseIntStrict(param(ctx, 'offset') ?? '');
  const offset = offsetValue !== undefined && offsetValue >= 0 ? offsetValue : 0;
  const count = items.length;
  const withLimit = replaceQueryParam(ctx.rawQuery, 'limit', String(limit));
  const next = offset + limit >= count ? null : absoluteUrl(ctx, replaceQueryParam(withLimit, 'offset', String(offset + limit)));
  let previous: string | null = null;
  if (offset > 0) {
    previous = absoluteUrl(
      ctx,
      offset - limit <= 0 ? replaceQueryParam(withLimit, 'offset', null) : replaceQueryParam(withLimit, 'offset', String(offset - limit)),
    );
  }
  return { count, next, previous, results: items.slice(offset, offset + limit).map(serialize) };
}

/** DRF's replace_query_param / remove_query_param: the query comes back sorted by name. */
function replaceQueryParam(rawQuery: string, key: string, value: string | null): string {
  const grouped = new Map<string, string[]>();
  for (const [k, v] of new URLSearchParams(rawQuery)) grouped.set(k, [...(grouped.get(k) ?? []), v]);
  if (value === null) grouped.delete(key);
  else grouped.set(key, [value]);
  const entries: [string, string][] = [];
  for (const k of [...grouped.keys()].sort()) for (const v of grouped.get(k)!) entries.push([k, v]);
  return urlencode(entries);
}

/** PostHog's format_query_params_absolute_url, used by activity pages (page/limit). */
export function pageUrl(ctx: Ctx, page: number, limit: number): string {
  let url = absoluteUrl(ctx);
  const set = (name: string, value: number): void => {
    const pattern = new RegExp(`([&?]${name}=)(\\d+)`);
    url = pattern.test(url) ? url.replace(pattern, `$1${value}`) : `${url}${url.includes('?') ? '&' : '?'}${name}=${value}`;
  };
  set('page', page);
  set('limit', limit);
  return url;
}
