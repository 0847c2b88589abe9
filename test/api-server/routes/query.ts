// The Query API: POST /api/projects/{project}/query/ (and /query/<Kind>/), GET and DELETE /query/{id}/.
import type { JsonObject } from '../model';
import { route, type Route } from '../router';
import { param, projectOf, type Ctx, type Reply } from '../http';
import { validation } from '../errors';
import type { ThrottleBucket } from '../throttle';
import { validateNode } from '../query/kinds';
import { REFRESH_MODES, type RefreshMode } from '../query/runs';
import { parseError } from '../errors';

/** query.py get_throttles: a POST whose top-level kind is HogQLQuery counts against `query`, all else against ClickHouse. */
export function queryThrottle(method: string, body: unknown): ThrottleBucket {
  const kind = method === 'POST' && body && typeof body === 'object' ? ((body as JsonObject)['query'] as JsonObject | undefined)?.['kind'] : undefined;
  return kind === 'HogQLQuery' ? 'query' : 'clickhouse';
}

/** `refresh` as query.py reads it: absent is blocking, true force_blocking, force_cache blocking; `async: true` (deprecated) is async. */
function refreshMode(body: JsonObject): RefreshMode {
  const refresh = body['refresh'];
  if (refresh === undefined || refresh === null || refresh === false) return body['async'] === true ? 'async' : 'blocking';
  if (refresh === true) return 'force_blocking';
  if (typeof refresh !== 'string' || !REFRESH_MODES.has(refresh)) {
    throw parseError(`1 validation error for QueryRequest\nrefresh\n  Input should be 'async', 'async_except_on_cache_miss', 'blocking', 'force_async', 'force_blocking', 'force_cache' or 'lazy_async'`);
  }
  return refresh === 'force_cache' ? 'blocking' : (refresh as RefreshMode);
}

function run(ctx: Ctx, pathKind?: string): Reply {
  const body = ctx.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw parseError('1 validation error for QueryRequest\nquery\n  Field required [type=missing]');
  const request = body as JsonObject;
  if (!('query' in request)) throw parseError('1 validation error for QueryRequest\nquery\n  Field required [type=missing]');
  validateNode(request['query']);
  const query = request['query'] as JsonObject;
  if (pathKind !== undefined && pathKind !== query['kind']) {
    throw validation(`Query kind mismatch: path kind "${pathKind}" does not match body kind "${String(query['kind'])}".`);
  }
  const clientQueryId = typeof request['client_query_id'] === 'string' && request['client_query_id'] ? request['client_query_id'] : undefined;
  const answer = ctx.store.queries.post(projectOf(ctx), query, refreshMode(request), clientQueryId);
  return { status: answer.status, body: answer.body };
}

const truthyParam = (ctx: Ctx, name: string): boolean => ['true', '1'].includes((param(ctx, name) ?? '').toLowerCase());

function status(ctx: Ctx): Reply {
  const answer = ctx.store.queries.poll(projectOf(ctx), ctx.params['queryId']!, truthyParam(ctx, 'show_progress') || truthyParam(ctx, 'showProgress'));
  return { status: answer.status, body: answer.body };
}

function cancel(ctx: Ctx): Reply {
  const answer = ctx.store.queries.cancel(projectOf(ctx), ctx.params['queryId']!, truthyParam(ctx, 'dequeue_only'));
  return { status: answer.status, body: answer.body };
}

export const queryRoutes: Route[] = [
  { ...route('/api/projects/:projectId/query', { POST: { scope: 'query:read', handler: (ctx) => run(ctx) } }, queryThrottle), onlyWith: 'queryApi' },
  {
    ...route(
      '/api/projects/:projectId/query/:queryId',
      {
        POST: { scope: 'query:read', handler: (ctx) => run(ctx, ctx.params['queryId']) },
        GET: { scope: 'query:read', handler: status },
        DELETE: { scope: 'query:read', handler: cancel },
      },
      queryThrottle,
    ),
    onlyWith: 'queryApi',
  },
];
