// Local, in-memory, PostHog-compatible API server (see CONTEXT.md "Local API programmatic interface").
import type { AddressInfo } from 'node:net';
import { createApiServer, trackSockets, type RecordedRequest, type TlsIdentity } from './server';
import { seedStore, type SeedName, type SeededKeys } from './seed';
import { Faults, type FaultRule } from './faults';
import { RateLimiter } from './throttle';
import type { ProjectDeletionMode, Store } from './store';
import { LiveEvents } from './live-events';
import { DemoCollaborator } from './demo-collaborator';
import type { EventListLevel } from './events-query';

export type { ProjectDeletionMode, Store } from './store';
export type { RecordedRequest, TlsIdentity } from './server';
export { throwawayCertificate } from './tls';
export type { FaultRule } from './faults';
export type { EventListLevel } from './events-query';
export type { EventRecord, NewEvent } from './events';
export type * from './model';
export { markdownDoc, markdownOf, textContentOf } from './content';
export { SAMPLE_REFS, sampleMarkdownNotebooks } from './notebook-samples';

export interface StartOptions {
  port?: number;
  host?: string;
  seed?: SeedName;
  demoEvents?: number;
  latencyMs?: number;
  refusePersonalKeyActions?: boolean;
  rateLimits?: boolean;
  now?: () => Date;
  /** Serve the unauthenticated test-control surface under /_control/ (see control.ts). Default false. */
  control?: boolean;
  /** Serve over https with this certificate (e.g. throwawayCertificate()); `url` then starts with https://. */
  tls?: TlsIdentity;
  /** Over https, build next/previous links with http:// as self-hosted PostHog does when not configured as behind a proxy. */
  httpNextLinks?: boolean;
  /** Generated events a second arriving in every project that has events (see live-events.ts). Default 0. */
  liveEventsPerSecond?: number;
  /** A demo collaborator types into a Markdown notebook of the first project (see demo-collaborator.ts). */
  liveNotebook?: boolean;
  /**
   * PostHog's PATCH_EVENT_LIST_MAX_OFFSET for the events list (events-query.ts): 0 off (self-hosted
   * default), 1 migration, 2 enabled (default here: ranges over 366 days fail, no `after` means 24 hours).
   */
  eventListLevel?: EventListLevel;
  /** Serve GET /api/personal_api_keys/@current/ (default true; false answers 404 as older servers do). */
  currentKeyEndpoint?: boolean;
  /** Serve the Query API (default true; false answers 404 under /query/ as older self-hosted servers do). */
  queryApi?: boolean;
  /** How long an async query run takes before it completes, in ms (default 0; see setQueryApi). */
  queryRunMs?: number;
  /** How DELETE deletes a project without events (store.settings.projectDeletion; default 'scheduled'). */
  projectDeletion?: ProjectDeletionMode;
}

export interface LocalApi {
  url: string;
  keys: SeededKeys;
  createKey(opts: { scopes: string[]; organizations?: string[]; projects?: number[] }): string;
  store: Store;
  requests: RecordedRequest[];
  clearRequests(): void;
  injectFault(rule: FaultRule): void;
  setLatency(ms: number): void;
  /** About `perSecond` new events a second in the project from now on (0 stops). */
  setLiveEvents(projectId: number, perSecond: number): void;
  /**
   * The Query API: `available: false` plays an older server (404 under /query/); `runMs` is how long an async
   * run takes before it completes, so a client can poll it and cancel it (control: POST /_control/settings).
   */
  setQueryApi(settings: { available?: boolean; runMs?: number }): void;
  /** With `liveNotebook`: the notebook the demo collaborator types into. */
  demoNotebook?: { projectId: number; shortId: string; title: string };
  close(): Promise<void>;
}

export async function startLocalApi(options: StartOptions = {}): Promise<LocalApi> {
  const host = options.host ?? '127.0.0.1';
  const { store, keys } = seedStore(options.seed ?? 'minimal', options.now ?? (() => new Date()), options.demoEvents);
  if (options.projectDeletion) store.settings.projectDeletion = options.projectDeletion;
  const state = {
    store,
    options: {
      refusePersonalKeyActions: options.refusePersonalKeyActions ?? true,
      rateLimits: options.rateLimits ?? false,
      linkScheme: options.tls && !options.httpNextLinks ? ('https' as const) : ('http' as const),
      eventListLevel: options.eventListLevel ?? 2,
      currentKeyEndpoint: options.currentKeyEndpoint ?? true,
    },
    latencyMs: options.latencyMs ?? 0,
    faults: new Faults(),
    limiter: new RateLimiter(),
    requests: [] as RecordedRequest[],
    control: options.control ? { keys } : undefined,
    live: new LiveEvents(store),
  };
  if (options.liveEventsPerSecond) {
    for (const project of store.visibleProjects()) {
      if (store.eventsOf(project.id).size > 0) state.live.set(project.id, options.liveEventsPerSecond);
    }
  }
  store.settings.queryApi = options.queryApi ?? true;
  store.settings.queryRunMs = options.queryRunMs ?? 0;
  const collaborator = options.liveNotebook ? new DemoCollaborator(store) : undefined;
  collaborator?.start();
  const server = createApiServer(state, options.tls);
  const sockets = trackSockets(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closed: Promise<void> | undefined;
  return {
    url: `${options.tls ? 'https' : 'http'}://${urlHost}:${port}`,
    keys,
    createKey: (opts) => store.createKey(opts),
    store,
    requests: state.requests,
    clearRequests: () => {
      state.requests.length = 0;
    },
    injectFault: (rule) => state.faults.add(rule),
    setLatency: (ms) => {
      state.latencyMs = ms;
    },
    setLiveEvents: (projectId, perSecond) => state.live.set(projectId, perSecond),
    setQueryApi: ({ available, runMs }) => {
      if (available !== undefined) store.settings.queryApi = available;
      if (runMs !== undefined) store.settings.queryRunMs = runMs;
    },
    demoNotebook: collaborator && {
      projectId: collaborator.notebook.projectId,
      shortId: collaborator.notebook.short_id,
      title: collaborator.notebook.title ?? '',
    },
    close: () => {
      state.live.stopAll();
      store.queries.stopAll();
      collaborator?.stop();
      store.collab.closeAll(false);
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closed;
    },
  };
}
