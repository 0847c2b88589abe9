/**
 * The in-editor suites run in VS Code's extension host, a process apart from the test host that
 * started the local API, so they reach it over HTTP: its PostHog routes and its /_control/ routes.
 */
import type { RecordedRequest } from '../../api-server';
import type { SeededKeys } from '../../api-server/seed';

export type { RecordedRequest };

export interface Fault {
  method?: string;
  /** A regular expression's source, matched against the path. */
  path?: string;
  times?: number;
  status?: 400 | 402 | 429 | 500 | 502 | 503 | 504 | 512 | 513;
  /** PostHog's query error for the status (see test/api-server/faults.ts). */
  code?: string;
  heavyLoad?: boolean;
  /** 504 only: PostHog's JSON for a query that hit its time limit, not a gateway page. */
  queryTimeout?: boolean;
  drop?: boolean;
  throttleSeconds?: number;
  /** A 429's Retry-After header and the N of its detail, written as given (e.g. an HTTP date, "NaN"). */
  retryAfter?: string;
  throttleText?: string;
  /** Wait this long first (alone: a slow but otherwise normal answer). */
  delayMs?: number;
}

export function apiUrl(): string {
  const url = process.env.POSTHOG_HOST;
  if (!url) {
    throw new Error('POSTHOG_HOST is not set: in-editor suites run inside the test host (npm run test:editor)');
  }
  return url;
}

/** The key the test host handed to the extension: every scope. */
export function allScopesKey(): string {
  return process.env.POSTHOG_PERSONAL_API_KEY ?? '';
}

/** The local API's seeded keys, which the test host hands over in POSTHOG_EXPLORER_TEST_API_KEYS. */
export function seededKeys(): SeededKeys {
  const json = process.env.POSTHOG_EXPLORER_TEST_API_KEYS;
  if (!json) {
    throw new Error('POSTHOG_EXPLORER_TEST_API_KEYS is not set: in-editor suites run inside the test host (npm run test:editor)');
  }
  return JSON.parse(json) as SeededKeys;
}

async function control<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${apiUrl()}/_control/${path}`, {
    method,
    headers: body === undefined ? undefined : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    throw new Error(`/_control/${path} answered ${response.status}: ${await response.text()}`);
  }
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const localApi = {
  requests: () => control<RecordedRequest[]>('GET', 'requests'),
  clearRequests: () => control<void>('POST', 'requests/clear'),
  injectFault: (fault: Fault) => control<void>('POST', 'faults', fault),
  /** false: /query/ answers 404, as on an older self-hosted PostHog. */
  setQueryApi: (available: boolean) => control<void>('POST', 'settings', { queryApi: available }),
  createKey: async (scopes: string[]) => (await control<{ key: string }>('POST', 'keys', { scopes })).key,
  addNotebooks: (projectId: number, count: number) => control<void>('POST', 'notebooks/bulk', { projectId, count }),
  /** A notebook stored as sent (a legacy one, say, which a REST create would make a Markdown notebook). */
  storeNotebook: async (projectId: number, notebook: { title: string; content: unknown; text_content?: string }) =>
    (await control<{ short_id: string }>('POST', 'notebooks/stored', { projectId, ...notebook })).short_id,
  /** A comment by someone (`by`: a new user), a thread's first comment on `item_id` or a reply to `source_comment`; returns its id. */
  storeComment: async (
    projectId: number,
    comment: { scope?: string; item_id?: string; item_context?: unknown; source_comment?: string; content: string; by?: { first_name: string; email?: string }; createdAt?: string },
  ) => (await control<{ id: string }>('POST', 'comments/stored', { projectId, ...comment })).id,
  /** `count` new projects ("Bulk project N", no events); answers their ids. */
  addProjects: async (organizationId: string, count: number) => (await control<{ ids: number[] }>('POST', 'projects/bulk', { organizationId, count })).ids,
  /**
   * Another user's save: by default a paragraph appended (to the Markdown of a Markdown notebook); or the given
   * fields; `by` names a new user who makes it (any names, as PostHog stores them).
   */
  remoteEdit: (
    projectId: number,
    shortId: string,
    edit: { title?: string; content?: unknown; deleted?: boolean; by?: { first_name: string; last_name?: string; email?: string } } = {},
  ) =>
    control<void>('POST', `notebooks/${projectId}/${shortId}/remote-edit`, edit),
  /**
   * An edit from PostHog's web app: a Markdown notebook's versioned save (by `by`, or PostHog AI with `agent: 'ai'`,
   * its author's caret on the stream), a legacy notebook's ProseMirror step. See test/api-server/collab-control.ts.
   */
  webEdit: (
    projectId: number,
    shortId: string,
    edit: {
      markdown?: string;
      append?: string;
      replace?: { find: string; with: string };
      content?: unknown;
      by?: { first_name: string; last_name?: string; email?: string };
      agent?: string;
      clientId?: string;
      cursor?: { node_index?: number; offset?: number; list_item_index?: number };
    },
  ) => control<unknown>('POST', `notebooks/${projectId}/${shortId}/web-edit`, edit),
  /** A web app user's caret on the notebook's stream. */
  webPresence: (projectId: number, shortId: string, caret: { cursor: Record<string, number>; by?: { first_name: string; last_name?: string }; clientId?: string }) =>
    control<void>('POST', `notebooks/${projectId}/${shortId}/presence`, caret),
  /** Ends every open collaboration stream (`error`: with PostHog's `event: error`). */
  closeStreams: (error = false) => control<{ closed: number }>('POST', 'collab/streams/close', { error }),
  /** The main user's access level on a notebook under PostHog's access control. */
  setNotebookAccess: (projectId: number, shortId: string, level: 'none' | 'viewer' | 'editor' | 'manager') =>
    control<void>('POST', `notebooks/${projectId}/${shortId}/access`, { level }),
  /** A collaboration save PostHog refused, in the notebook's activity (its content never stored). */
  rejectedSave: (projectId: number, shortId: string, save: { kind: 'conflict' | 'stale'; content?: unknown; by?: { first_name: string } }) =>
    control<void>('POST', `notebooks/${projectId}/${shortId}/rejected-save`, save),
  /** PostHog's migration of a legacy notebook to a Markdown notebook. */
  migrateToMarkdown: (projectId: number, shortId: string) => control<{ migrated: boolean }>('POST', `notebooks/${projectId}/${shortId}/migrate`),
  /** How long an async query run takes before it completes (0: at once); blocking runs are not slowed. */
  setQueryRunMs: (ms: number) => control<unknown>('POST', 'settings', { queryRunMs: ms }),
  /** Milliseconds every answer waits (0: none). */
  setLatency: (ms: number) => control<void>('POST', 'latency', { ms }),
  addEvents: (projectId: number, count: number, withinHours = 20) => control<void>('POST', 'events/bulk', { projectId, count, withinHours }),
  /** `count` events sharing one timestamp (now, or `timestamp`), with properties `n` (1, 2, …) and `properties`. */
  addEventsNow: (projectId: number, count: number, event: string, timestamp?: string, properties?: Record<string, unknown>) =>
    control<{ ids: string[]; timestamp: string }>('POST', 'events/now', { projectId, count, event, timestamp, properties }),
  /** A property PostHog has a definition of but no stored event carries (seen long ago), typed from `value`. */
  addPropertyDefinition: (projectId: number, type: 'event' | 'person', name: string, value: unknown) =>
    control<void>('POST', 'property-definitions', { projectId, type, name, value }),
  liveEvents: (projectId: number, perSecond: number) => control<void>('POST', 'events/live', { projectId, perSecond }),
  /**
   * `count` events a steady `perSecond` back from now, every `clusterEvery`-th instant holding `clusterSize`
   * on one timestamp; answers every event of the project in that span, [id, microseconds], newest first.
   */
  addSteadyEvents: (projectId: number, count: number, options: { perSecond?: number; clusterEvery?: number; clusterSize?: number } = {}) =>
    control<{ events: [string, number][] }>('POST', 'events/steady', { projectId, count, ...options, ids: true }),
};
