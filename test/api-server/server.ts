// The HTTP pipeline (plus the opt-in /_control/ test surface described in control.ts), in Django REST framework's order: record -> latency/faults -> route (404) ->
// authenticate (401) -> method (405) -> resolve organization/project (404) -> scopes (403) ->
// throttle (429) -> handler (400/404/409/...).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { Store } from './store';
import { ApiError, methodNotAllowed, notFound, parseError, serverError, throttled, unsupportedMediaType } from './errors';
import type { Ctx, Reply, ServerOptions } from './http';
import { matchRoute, type Route } from './router';
import { authenticate, authorize, resolveTarget } from './auth';
import { RateLimiter } from './throttle';
import { Faults, faultReply } from './faults';
import { discoveryRoutes } from './routes/discovery';
import { projectRoutes } from './routes/projects';
import { notebookRoutes } from './routes/notebooks';
import { eventRoutes } from './routes/events';
import { collabRoutes } from './routes/collab';
import { commentRoutes } from './routes/comments';
import { queryRoutes } from './routes/query';
import { propertyDefinitionRoutes } from './routes/property-definitions';
import { handleControl } from './control';
import type { LiveEvents } from './live-events';
import type { SeededKeys } from './seed';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  /** 0 when the connection was dropped by an injected fault */
  status: number;
  headers: Record<string, string | undefined>;
  /** parsed JSON body, when one was sent */
  body?: unknown;
}

const ROUTES: Route[] = [...discoveryRoutes, ...projectRoutes, ...notebookRoutes, ...collabRoutes, ...eventRoutes, ...commentRoutes, ...queryRoutes, ...propertyDefinitionRoutes];
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

export interface ServerState {
  store: Store;
  options: ServerOptions;
  latencyMs: number;
  faults: Faults;
  limiter: RateLimiter;
  requests: RecordedRequest[];
  /** Set when the test-control surface (/_control/, see control.ts) is on. */
  control?: { keys: SeededKeys };
  /** Events arriving while the server runs. */
  live: LiveEvents;
}

/** A certificate and its private key (PEM) for serving over https. */
export interface TlsIdentity {
  cert: string;
  key: string;
}

export function createApiServer(state: ServerState, tls?: TlsIdentity): Server {
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    handle(state, req, res).catch((error: unknown) => {
      console.error('[local-api] unexpected failure', error);
      if (!res.headersSent) send(res, toReply(serverError()));
    });
  };
  return tls ? createTlsServer(tls, listener) : createServer(listener);
}

async function handle(state: ServerState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://local');
  const method = (req.method ?? 'GET').toUpperCase();
  const raw = await readBody(req);
  if (state.control && url.pathname.startsWith('/_control/')) {
    let body: unknown;
    try {
      body = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
    } catch {
      return send(res, { status: 400, body: { detail: 'Body is not valid JSON.' } });
    }
    return send(res, handleControl({ state, keys: state.control.keys }, method, url.pathname, body));
  }
  const record: RecordedRequest = { method, path: url.pathname, query: queryRecord(url.searchParams), status: 0, headers: headerRecord(req) };
  state.requests.push(record);
  if (state.latencyMs > 0) await sleep(state.latencyMs);

  const fault = state.faults.take(method, url.pathname);
  if (fault?.delayMs) await sleep(fault.delayMs);
  if (fault?.drop) {
    req.socket.destroy();
    return;
  }
  const injected = fault ? faultReply(fault) : undefined;
  let reply: Reply;
  if (injected) reply = injected instanceof ApiError ? toReply(injected) : injected;
  else {
    try {
      reply = await dispatch(state, req, url, method, raw, record);
    } catch (error) {
      if (!(error instanceof ApiError)) console.error('[local-api] handler failed', error);
      reply = toReply(error instanceof ApiError ? error : serverError());
    }
  }
  record.status = reply.status;
  send(res, reply);
}

async function dispatch(state: ServerState, req: IncomingMessage, url: URL, method: string, raw: Buffer, record: RecordedRequest): Promise<Reply> {
  const match = matchRoute(ROUTES, url.pathname);
  if (!match || (match.route.onlyWith && !state.store.settings[match.route.onlyWith])) throw notFound();
  const key = authenticate(state.store, req.headers);
  const action = match.route.methods[method === 'HEAD' ? 'GET' : method];
  if (!action) throw methodNotAllowed(method);
  state.store.finishDueDeletions();
  const target = resolveTarget(state.store, key, match.params);
  authorize(key, action, target, state.options.refusePersonalKeyActions);
  // A throttle that depends on the body (the Query API's, by kind) reads it first, as DRF's request.data does.
  const throttle = match.route.throttle;
  let body = typeof throttle === 'function' && BODY_METHODS.has(method) ? parseBody(req, raw) : undefined;
  if (state.options.rateLimits) {
    const bucket = typeof throttle === 'function' ? throttle(method, body) : throttle;
    const wait = state.limiter.check(key.value, bucket, state.store.now().getTime());
    if (wait !== undefined) throw throttled(wait);
  }
  if (typeof throttle !== 'function' && BODY_METHODS.has(method)) body = parseBody(req, raw);
  if (body !== undefined) record.body = body;
  const ctx: Ctx = {
    method, path: url.pathname, rawQuery: url.search.slice(1), query: url.searchParams, params: match.params,
    headers: req.headers, body, key, user: state.store.getUser(key.userId)!, store: state.store, options: state.options,
    origin: `${state.options.linkScheme}://${req.headers.host ?? 'localhost'}`, ...target,
  };
  return action.handler(ctx);
}

/** DRF's JSONParser: no body or no content type -> empty data; other media types -> 415; bad JSON -> 400. */
function parseBody(req: IncomingMessage, raw: Buffer): unknown {
  const contentType = req.headers['content-type'];
  if (raw.length === 0 || !contentType) return undefined;
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json' && !mediaType.endsWith('+json')) throw unsupportedMediaType(contentType);
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch (error) {
    throw parseError(error instanceof Error ? error.message : String(error));
  }
}

function toReply(error: ApiError): Reply {
  return { status: error.status, body: error.body ?? undefined, headers: error.headers };
}

function send(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { ...reply.headers };
  if (reply.stream) {
    res.writeHead(reply.status, headers);
    res.flushHeaders();
    reply.stream(res);
    return;
  }
  let payload: string | undefined;
  if (reply.text !== undefined) {
    payload = reply.text;
    headers['Content-Type'] = reply.contentType ?? 'text/plain; charset=utf-8';
  } else if (reply.body !== undefined && reply.status !== 204 && reply.status !== 304) {
    payload = JSON.stringify(reply.body);
    headers['Content-Type'] = 'application/json';
  }
  headers['Content-Length'] = String(payload === undefined ? 0 : Buffer.byteLength(payload));
  res.writeHead(reply.status, headers);
  res.end(payload);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function queryRecord(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of params) {
    const existing = out[key];
    out[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}

function headerRecord(req: IncomingMessage): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Tracks open sockets so close() can end keep-alive connections at once. */
export function trackSockets(server: Server): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return sockets;
}
