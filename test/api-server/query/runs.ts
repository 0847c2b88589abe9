// The Query API's runs: the result cache, the `refresh` modes, async runs with their `query_status`
// (execute_async.py: 20 minutes after the last write, polled and cancelled by id), as PostHog's query.py and
// query_runner.py answer them.
import { createHash } from 'node:crypto';
import type { Json, JsonObject } from '../model';
import { ApiError } from '../errors';
import { isoZ } from '../time';
import { runContext } from './context';
import { assertRunnable, execute, runnable } from './kinds';
import type { Store } from '../store';
import type { Project } from '../model';

/** How long a status lives after its last write (execute_async.py; older servers: 10 minutes). */
export const STATUS_TTL_MS = 20 * 60 * 1000;
/** A cached result is fresh this long (PostHog's thresholds vary by kind and interval; one value here). */
export const CACHE_FRESH_MS = 60 * 1000;
/** lazy_async recomputes a cached result only past this age. */
export const CACHE_LAZY_MS = 60 * 60 * 1000;

/** At most this many cached results are kept (the oldest go first). */
const CACHE_ENTRIES = 500;

export type RefreshMode = 'blocking' | 'async' | 'async_except_on_cache_miss' | 'lazy_async' | 'force_blocking' | 'force_async' | 'force_cache';
export const REFRESH_MODES = new Set<string>(['blocking', 'async', 'async_except_on_cache_miss', 'lazy_async', 'force_blocking', 'force_async', 'force_cache']);

interface StoredStatus {
  teamId: number;
  status: JsonObject;
  expiresAtMs: number;
  timer?: NodeJS.Timeout;
}

interface CachedResult {
  response: JsonObject;
  computedAtMs: number;
}

export interface QueryAnswer {
  status: number;
  body: JsonObject;
}

export class QueryRuns {
  private readonly statuses = new Map<string, StoredStatus>();
  private readonly cache = new Map<string, CachedResult>();

  constructor(private readonly store: Store) {}

  /** POST /query/: `query` validated already; `refresh` one of REFRESH_MODES. */
  post(project: Project, query: JsonObject, refresh: RefreshMode, clientQueryId: string | undefined): QueryAnswer {
    assertRunnable(query);
    const cacheKey = cacheKeyOf(project.id, query);
    const cached = this.cachedFor(cacheKey);
    const nowMs = this.nowMs();
    const age = cached ? nowMs - cached.computedAtMs : Infinity;
    const fresh = cached !== undefined && age < CACHE_FRESH_MS && cacheable(query);
    const id = clientQueryId ?? this.store.rng.uuid(nowMs).replace(/-/g, '');
    const withStatus = (base: JsonObject, status: JsonObject): QueryAnswer => answer({ ...base, query_status: status });
    switch (refresh) {
      case 'force_blocking':
        return answer(this.computeNow(project, query, cacheKey));
      case 'force_async':
        return withStatus({}, this.start(project, query, id, cacheKey));
      case 'blocking':
      case 'force_cache':
        return answer(fresh ? this.fromCache(cached!) : this.computeNow(project, query, cacheKey));
      case 'async_except_on_cache_miss':
        if (!cached) return answer(this.computeNow(project, query, cacheKey));
        return fresh ? answer(this.fromCache(cached)) : withStatus(this.fromCache(cached), this.start(project, query, id, cacheKey));
      case 'lazy_async':
        if (cached) return age < CACHE_LAZY_MS ? answer(this.fromCache(cached)) : withStatus(this.fromCache(cached), this.start(project, query, id, cacheKey));
        return withStatus({ cache_key: cacheKey }, this.reuseOrStart(project, query, id, cacheKey));
      case 'async':
        if (fresh) return answer(this.fromCache(cached!));
        if (cached) return withStatus(this.fromCache(cached), this.start(project, query, id, cacheKey));
        return withStatus({ cache_key: cacheKey }, this.reuseOrStart(project, query, id, cacheKey));
    }
  }

  /** GET /query/:id/: 202 running, 200 complete, 400 failed with a message, 500 failed without; 404 unknown or expired. */
  poll(project: Project, id: string, showProgress: boolean): QueryAnswer {
    const stored = this.find(project.id, id);
    if (!stored) throw notFoundQuery(id, project.id);
    const status = { ...stored.status };
    if (showProgress && !status['complete']) {
      status['query_progress'] = { bytes_read: 0, rows_read: 0, estimated_rows_total: 0, time_elapsed: (this.nowMs() - Date.parse(String(status['start_time']))) / 1000, active_cpu_time: 0 };
    }
    const code = !status['complete'] ? 202 : !status['error'] ? 200 : status['error_message'] ? 400 : 500;
    return { status: code, body: { query_status: status } };
  }

  /** DELETE /query/:id/: a run still going is cancelled and forgotten; a complete one is kept. */
  cancel(project: Project, id: string, dequeueOnly: boolean): QueryAnswer {
    const stored = this.find(project.id, id);
    if (stored?.status['complete']) return { status: 200, body: { message: 'Query already complete' } };
    if (stored) {
      clearTimeout(stored.timer);
      this.statuses.delete(statusKey(project.id, id));
    }
    return { status: 200, body: { message: dequeueOnly ? 'Only tried to dequeue, not cancelling query on clickhouse' : 'Cancelled query on clickhouse' } };
  }

  /** Stops every pending run (the server is closing). */
  stopAll(): void {
    for (const stored of this.statuses.values()) clearTimeout(stored.timer);
  }

  /** Forgets cached results (tests). */
  clearCache(): void {
    this.cache.clear();
  }

  private nowMs(): number {
    return this.store.now().getTime();
  }

  private find(teamId: number, id: string): StoredStatus | undefined {
    const stored = this.statuses.get(statusKey(teamId, id));
    if (stored && stored.expiresAtMs <= this.nowMs()) {
      clearTimeout(stored.timer);
      this.statuses.delete(statusKey(teamId, id));
      return undefined;
    }
    return stored;
  }

  /** Drops expired statuses, so a long-running server holds only the last 20 minutes' runs. */
  private forgetExpired(nowMs: number): void {
    for (const [key, stored] of this.statuses) {
      if (stored.expiresAtMs > nowMs) continue;
      clearTimeout(stored.timer);
      this.statuses.delete(key);
    }
  }

  private cachedFor(cacheKey: string): CachedResult | undefined {
    return this.cache.get(cacheKey);
  }

  private computeNow(project: Project, query: JsonObject, cacheKey: string): JsonObject {
    const response = execute(query, runContext(this.store, project));
    const nowMs = this.nowMs();
    if (!cached(query)) return response;
    const full = { ...response, ...cacheFields(cacheKey, nowMs, project, false) };
    if (cacheable(query)) {
      this.cache.delete(cacheKey);
      this.cache.set(cacheKey, { response: full, computedAtMs: nowMs });
      if (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    }
    return full;
  }

  private fromCache(cached: CachedResult): JsonObject {
    return { ...cached.response, is_cached: true };
  }

  /** async on a cache miss: a stored status under this id comes back instead of a new run. */
  private reuseOrStart(project: Project, query: JsonObject, id: string, cacheKey: string): JsonObject {
    return this.find(project.id, id)?.status ?? this.start(project, query, id, cacheKey);
  }

  /** A new run under `id` (replacing a stored status, whose run goes on unseen), completing after runMs. */
  private start(project: Project, query: JsonObject, id: string, cacheKey: string): JsonObject {
    const key = statusKey(project.id, id);
    const nowMs = this.nowMs();
    const status: JsonObject = {
      id, query_async: true, team_id: project.id, insight_id: null, dashboard_id: null, error: false, complete: false, error_message: null,
      results: null, pickup_time: isoZ(nowMs * 1000), start_time: isoZ(nowMs * 1000), end_time: null,
      expiration_time: isoZ((nowMs + STATUS_TTL_MS) * 1000), task_id: this.store.rng.uuid(nowMs), query_progress: null, labels: null,
    };
    const stored: StoredStatus = { teamId: project.id, status, expiresAtMs: nowMs + STATUS_TTL_MS };
    this.forgetExpired(nowMs);
    const previous = this.statuses.get(key);
    if (previous) clearTimeout(previous.timer);
    this.statuses.set(key, stored);
    stored.timer = setTimeout(() => this.finish(stored, project, query, cacheKey), Math.min(this.store.settings.queryRunMs, 2_147_483_647));
    stored.timer.unref?.();
    return status;
  }

  private finish(stored: StoredStatus, project: Project, query: JsonObject, cacheKey: string): void {
    const nowMs = this.nowMs();
    const done: JsonObject = { ...stored.status, complete: true, end_time: isoZ(nowMs * 1000), expiration_time: isoZ((nowMs + STATUS_TTL_MS) * 1000) };
    try {
      done['results'] = this.computeNow(project, query, cacheKey);
    } catch (error) {
      done['error'] = true;
      done['error_message'] = error instanceof ApiError && error.status < 500 && error.body && 'detail' in error.body ? (error.body['detail'] as Json) : null;
    }
    stored.status = done;
    stored.expiresAtMs = nowMs + STATUS_TTL_MS;
    stored.timer = undefined;
  }
}

function answer(body: JsonObject): QueryAnswer {
  const status = body['query_status'] as JsonObject | undefined;
  return { status: status && !status['complete'] ? 202 : 200, body };
}

function statusKey(teamId: number, id: string): string {
  return `${teamId}:${id}`;
}

export function notFoundQuery(id: string, teamId: number): ApiError {
  return new ApiError(404, { type: 'invalid_request', code: 'not_found', detail: `Query ${id} not found for team ${teamId}`, attr: null });
}

/** The editor helpers answer without the cache fields (services/query.py runs them directly). */
function cached(query: JsonObject): boolean {
  const kind = runnable(query)['kind'];
  return kind !== 'HogQLMetadata' && kind !== 'DatabaseSchemaQuery';
}

/** The editor helpers are not cached; an EventsQuery only when both bounds are fixed instants (events_query_runner.py `_is_stale`). */
function cacheable(query: JsonObject): boolean {
  const node = runnable(query);
  const kind = node['kind'];
  if (kind === 'HogQLMetadata' || kind === 'DatabaseSchemaQuery') return false;
  if (kind === 'EventsQuery') return [node['before'], node['after']].every((bound) => typeof bound === 'string' && /^\d{4}-\d\d-\d\d/.test(bound));
  return true;
}

function cacheKeyOf(teamId: number, query: JsonObject): string {
  return `cache_${createHash('sha256').update(`${teamId}:${stableJson(query)}`).digest('hex').slice(0, 32)}`;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${stableJson((value as JsonObject)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function cacheFields(cacheKey: string, nowMs: number, project: Project, isCached: boolean): JsonObject {
  return {
    is_cached: isCached,
    last_refresh: isoZ(nowMs * 1000),
    next_allowed_client_refresh: isoZ((nowMs + CACHE_FRESH_MS) * 1000),
    cache_key: cacheKey,
    timezone: String(project.settings['timezone'] ?? 'UTC'),
    cache_target_age: isoZ((nowMs + CACHE_FRESH_MS) * 1000),
    calculation_trigger: null,
    query_metadata: null,
  };
}
