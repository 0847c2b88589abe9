/**
 * Test-control surface for processes that reach the local API only over HTTP (in-editor tests).
 * Off by default: startLocalApi({ control: true }) / CLI --control. No PostHog auth; not recorded in
 * `requests`; faults and latency do not apply. Everything answers JSON.
 *
 *   GET  /_control/requests                    recorded requests (same shape as api.requests)
 *   POST /_control/requests/clear              clearRequests()
 *   POST /_control/faults                      body: a fault rule, `path` as a regex source (+ optional `flags`)
 *                                              (status 400/402/429/500/502/503/504/512/513; `queryTimeout: true`
 *                                              makes a 504 PostHog's query-timeout JSON instead of a gateway page;
 *                                              `code` picks PostHog's query error, see faults.ts; a 429's
 *                                              `retryAfter` and `throttleText` are its Retry-After header and the
 *                                              N of its detail written as given, e.g. an HTTP date or "NaN")
 *   POST /_control/latency                     body {ms}
 *   POST /_control/keys                        body {scopes, organizations?, projects?} -> {key}
 *   POST /_control/notebooks/bulk              body {projectId, count} -> {short_ids}
 *   POST /_control/notebooks/stored            body {projectId, title?, content?, text_content?} -> {short_id}: a
 *                                              notebook stored as sent, as an existing one is (a REST create now
 *                                              makes a Markdown notebook; legacy notebooks still exist until
 *                                              PostHog migrates them); text_content defaults to the content's text
 *   POST /_control/projects/bulk               body {organizationId, count} -> {ids}
 *   POST /_control/events/bulk                 body {projectId, count, withinHours?} -> {count}
 *   POST /_control/events/now                  body {projectId, count?, event?, timestamp?, properties?} -> {ids, timestamp}: `count`
 *                                              events (default 1) all with the same timestamp (ISO; default now)
 *   POST /_control/events/live                 body {projectId, perSecond}: events keep arriving (0 stops)
 *   POST /_control/property-definitions        body {projectId, type: event|person, name, value?} -> the definition: a
 *                                              property seen long ago (no stored event carries it), typed from `value`
 *   POST /_control/events/steady               body {projectId, count, perSecond?, clusterEvery?, clusterSize?, ids?}
 *                                              -> {count, oldest, newest, events?}: a steady stream back from now, every
 *                                              clusterEvery-th instant holding clusterSize events on one timestamp
 *                                              (`ids: true`: `events`, every event of the project in that span as
 *                                              [id, microseconds], newest first)
 *   POST /_control/notebooks/:projectId/:shortId/remote-edit
 *        body {title?, content?, deleted?, by?} (all optional: without content a paragraph is appended; `by`
 *        {first_name, last_name?, email?} makes the edit a new user's, names as given, line breaks included,
 *        as PostHog stores them) -> the notebook
 *   GET  /_control/state                       keys, organizations, projects, notebooks per project
 *   Edits "from the web app" through the collaboration endpoints, carets, and the streams: see collab-control.ts.
 *   Floods of steps, diff-less updates, unreadable events and carets on a notebook's stream: see pressure-control.ts.
 *   (notebook access, rejected saves, PostHog's Markdown migration, settings: see control-notebooks.ts)
 */
import type { Json, JsonObject } from './model';
import type { Reply } from './http';
import { addComment, commentsOf } from './comments';
import type { ServerState } from './server';
import type { FaultRule } from './faults';
import type { SeededKeys } from './seed';
import { notebookFull } from './serializers';
import { textContentOf } from './content';
import { handleCollabControl } from './collab-control';
import { handlePressureControl } from './pressure-control';
import { appendParagraph, notebookControl } from './control-notebooks';
import { normalizeNotebookContent } from './notebook-rules';

export interface ControlContext {
  state: ServerState;
  keys: SeededKeys;
}

const okJson = (body: unknown, status = 200): Reply => ({ status, body });
const bad = (detail: string): Reply => okJson({ detail }, 400);

export function handleControl(control: ControlContext, method: string, path: string, body: unknown): Reply {
  const { state } = control;
  const store = state.store;
  const parts = path.split('/').filter(Boolean).slice(1);
  const input = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as JsonObject;
  const route = `${method} ${parts.join('/')}`;
  switch (route) {
    case 'GET requests': return okJson(state.requests);
    case 'POST requests/clear': state.requests.length = 0; return okJson({ ok: true });
    case 'POST latency': state.latencyMs = Number(input['ms'] ?? 0); return okJson({ ok: true });
    case 'POST faults': return addFault(control, input);
    case 'POST keys': {
      if (!Array.isArray(input['scopes'])) return bad('scopes must be a list');
      const key = store.createKey({
        scopes: input['scopes'] as string[],
        organizations: input['organizations'] as string[] | undefined,
        projects: input['projects'] as number[] | undefined,
      });
      return okJson({ key }, 201);
    }
    case 'POST notebooks/bulk': {
      const notebooks = store.addNotebooks(Number(input['projectId']), Number(input['count'] ?? 1));
      return okJson({ short_ids: notebooks.map((n) => n.short_id) }, 201);
    }
    case 'POST notebooks/stored': {
      const projectId = Number(input['projectId']);
      if (!store.getProject(projectId)) return okJson({ detail: 'Not found.' }, 404);
      const content = input['content'] ?? null;
      const text = typeof input['text_content'] === 'string' ? input['text_content'] : textContentOf(content);
      const notebook = store.createNotebook(projectId, { title: input['title'] ?? null, content, text_content: text });
      return okJson({ short_id: notebook.short_id }, 201);
    }
    case 'POST projects/bulk': {
      const projects = store.addProjects(String(input['organizationId']), Number(input['count'] ?? 1));
      return okJson({ ids: projects.map((p) => p.id) }, 201);
    }
    case 'POST events/bulk': {
      const count = Number(input['count'] ?? 1);
      store.addEvents(Number(input['projectId']), count, { withinHours: Number(input['withinHours'] ?? 24) });
      return okJson({ count }, 201);
    }
    case 'POST events/now': return addEventsNow(control, input);
    case 'POST events/steady': {
      const count = Number(input['count'] ?? 0);
      if (!Number.isInteger(count) || count < 1 || count > 1_000_000) return bad('count must be a whole number from 1 to 1000000');
      const span = store.addSteadyEvents(Number(input['projectId']), count, {
        perSecond: Number(input['perSecond'] ?? 1),
        clusterEvery: Number(input['clusterEvery'] ?? 0),
        clusterSize: Number(input['clusterSize'] ?? 1),
      });
      const answer: JsonObject = { count, oldest: new Date(span.oldestMicros / 1000).toISOString(), newest: new Date(span.newestMicros / 1000).toISOString() };
      if (input['ids'] === true) {
        const table = store.eventsOf(Number(input['projectId']));
        const rows = [...table.sorted()].filter((row) => table.timeOf(row) >= span.oldestMicros && table.timeOf(row) <= span.newestMicros);
        answer['events'] = rows.map((row) => [table.record(row).uuid, table.timeOf(row)]);
      }
      return okJson(answer, 201);
    }
    case 'POST events/live': {
      const perSecond = Number(input['perSecond'] ?? 0);
      if (!Number.isFinite(perSecond) || perSecond < 0 || perSecond > 10_000) return bad('perSecond must be a number from 0 to 10000');
      state.live.set(Number(input['projectId']), perSecond);
      return okJson({ perSecond });
    }
    case 'POST property-definitions': return addPropertyDefinition(control, input);
    case 'GET state': return okJson(stateSummary(control));
    case 'POST comments/stored': return storeComment(control, input);
  }
  if (method === 'POST' && parts.length === 4 && parts[0] === 'notebooks' && parts[3] === 'remote-edit') {
    return remoteEdit(control, Number(parts[1]), parts[2]!, input);
  }
  const collab = handleCollabControl(store, method, parts, input) ?? handlePressureControl(store, method, parts, input);
  if (collab) return collab;
  const notebookReply = notebookControl(control, method, parts, input);
  if (notebookReply) return notebookReply;
  return okJson({ detail: `No control route ${method} ${path}` }, 404);
}

function addFault(control: ControlContext, input: JsonObject): Reply {
  const rule: FaultRule = { ...(input as unknown as FaultRule) };
  if (typeof input['path'] === 'string') {
    try {
      rule.path = new RegExp(input['path'], typeof input['flags'] === 'string' ? input['flags'] : '');
    } catch {
      return bad('path must be a valid regular expression source');
    }
  } else delete rule.path;
  try {
    control.state.faults.add(rule);
  } catch (error) {
    return bad(error instanceof Error ? error.message : String(error));
  }
  return okJson({ ok: true }, 201);
}

function addEventsNow(control: ControlContext, input: JsonObject): Reply {
  const store = control.state.store;
  const projectId = Number(input['projectId']);
  if (!store.getProject(projectId)) return okJson({ detail: 'Not found.' }, 404);
  const count = Math.min(1_000, Math.max(1, Number(input['count'] ?? 1)));
  const given = typeof input['timestamp'] === 'string' ? Date.parse(input['timestamp']) : Number.NaN;
  const timestamp = (Number.isNaN(given) ? store.now().getTime() : given) * 1000;
  const event = typeof input['event'] === 'string' ? input['event'] : 'live test';
  const properties = typeof input['properties'] === 'object' && input['properties'] !== null && !Array.isArray(input['properties']) ? input['properties'] : {};
  const ids = Array.from({ length: count }, (_, i) => store.addEvent(projectId, { event, properties: { n: i + 1, ...properties }, timestamp: new Date(timestamp / 1000) }).uuid);
  return okJson({ ids, timestamp: new Date(timestamp / 1000).toISOString() }, 201);
}

function addPropertyDefinition(control: ControlContext, input: JsonObject): Reply {
  const store = control.state.store;
  const projectId = Number(input['projectId']);
  if (!store.getProject(projectId)) return okJson({ detail: 'Not found.' }, 404);
  const type = input['type'] ?? 'event';
  if (type !== 'event' && type !== 'person') return bad('type must be event or person');
  if (typeof input['name'] !== 'string' || !input['name']) return bad('name must be a non-empty string');
  return okJson(store.propertyDefinitionsOf(projectId).add(type, input['name'], input['value'] ?? null), 201);
}

function remoteEdit(control: ControlContext, projectId: number, shortId: string, input: JsonObject): Reply {
  const store = control.state.store;
  const notebook = store.getNotebook(projectId, shortId);
  if (!notebook) return okJson({ detail: 'Not found.' }, 404);
  const edit: { title?: string; content?: Json; deleted?: boolean } = {};
  if (typeof input['title'] === 'string') edit.title = input['title'];
  if (typeof input['deleted'] === 'boolean') edit.deleted = input['deleted'];
  if (input['content'] !== undefined) edit.content = normalizeNotebookContent(input['content']);
  else if (edit.title === undefined && edit.deleted === undefined) edit.content = appendParagraph(notebook.content, `Edited remotely (version ${notebook.version + 1}).`);
  const by = input['by'] && typeof input['by'] === 'object' && !Array.isArray(input['by']) ? input['by'] : undefined;
  const text = (value: Json | undefined) => (typeof value === 'string' ? value : '');
  const user = by ? store.addUser(text(by['first_name']), text(by['last_name']), text(by['email']) || `user${store.users.length + 1}@example.com`) : undefined;
  store.editNotebookRemotely(projectId, shortId, edit, user?.id);
  return okJson(notebookFull(store, notebook));
}

function stateSummary(control: ControlContext): JsonObject {
  const store = control.state.store;
  const notebooks: JsonObject = {};
  for (const project of store.visibleProjects()) {
    notebooks[String(project.id)] = store.notebooksOf(project.id).map((n) => ({ short_id: n.short_id, title: n.title, version: n.version, deleted: n.deleted }));
  }
  return {
    keys: { ...control.keys },
    organizations: store.organizations.map((o) => ({ id: o.id, name: o.name })),
    projects: store.visibleProjects().map((p) => ({ id: p.id, name: p.name, organizationId: p.organizationId })),
    notebooks,
  };
}

/**
 * A comment written by someone (a new user named `by`, or the main user) at `createdAt` (ISO, default now): a
 * thread's first comment on `scope`/`item_id` with `item_context`, or a reply to `source_comment` (its thread's).
 */
function storeComment(control: ControlContext, input: JsonObject): Reply {
  const store = control.state.store;
  const projectId = Number(input['projectId']);
  if (!store.getProject(projectId)) return okJson({ detail: 'Not found.' }, 404);
  const by = input['by'] as { first_name?: string; email?: string } | undefined;
  const author = by ? store.addUser(by.first_name ?? '', '', by.email ?? `user${store.users.length + 1}@example.com`) : store.mainUser;
  const source = typeof input['source_comment'] === 'string' ? commentsOf(store).find((comment) => comment.id === input['source_comment']) : undefined;
  const comment = addComment(store, {
    teamId: projectId,
    createdBy: author,
    content: typeof input['content'] === 'string' ? input['content'] : '',
    scope: source?.scope ?? String(input['scope'] ?? 'Notebook'),
    itemId: source?.itemId ?? (typeof input['item_id'] === 'string' ? input['item_id'] : null),
    itemContext: (source ? { ...((source.itemContext ?? {}) as JsonObject), ...((input['item_context'] ?? {}) as JsonObject) } : (input['item_context'] ?? null)) as Json,
    sourceCommentId: source?.id ?? null,
    ...(typeof input['createdAt'] === 'string' ? { createdAt: Date.parse(input['createdAt']) * 1000 } : {}),
  });
  if (input['deleted'] === true) comment.deleted = true;
  return okJson({ id: comment.id }, 201);
}
