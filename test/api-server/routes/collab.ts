// Notebook collaboration: /api/projects/{project}/notebooks/{short_id}/collab/... (products/notebooks/backend/
// presentation/views/notebook.py: collab_stream, collab_markdown_save, collab_presence; see collab.ts).
import type { ServerResponse } from 'node:http';
import type { Json, JsonObject, Notebook, User } from '../model';
import type { Store } from '../store';
import { route, type Route } from '../router';
import { ok, projectOf, type Ctx, type Reply } from '../http';
import { notFound, validation } from '../errors';
import { requireObject } from '../validation';
import { notebookFull } from '../serializers';
import { markdownOf } from '../content';
import { compareIds, entryId, markdownUpdateDiff, type MissedUpdates, parseStreamId, type StreamEntry } from '../collab';
import { requireNotebookAccess } from '../notebook-access';
import { recordRejectedSave } from '../notebook-history';
import { lyingAnswer } from '../lying-saves';

/** The notebook of the path (deleted ones answer 404: only update actions reach them), if the user has `access` to it. */
function findNotebook(ctx: Ctx, access: 'viewer' | 'editor'): Notebook {
  const notebook = ctx.store.getNotebook(projectOf(ctx).id, ctx.params['shortId']!);
  if (!notebook || notebook.deleted) throw notFound();
  requireNotebookAccess(notebook, ctx.user.id, access);
  return notebook;
}

/** PostHog's name of a collaborator on the stream: Django's get_full_name(), or "Wandering Hog". */
export function collabUserName(user: User): string {
  return `${user.first_name} ${user.last_name}`.trim() || 'Wandering Hog';
}

// ---- body validation, as DRF's serializers do it (the first failing field, in declaration order) ---------

function required(body: JsonObject, name: string, attr = name): Json {
  if (!(name in body)) throw validation('This field is required.', attr, 'required');
  const value = body[name]!;
  if (value === null) throw validation('This field may not be null.', attr, 'null');
  return value;
}

/** CharField: strings and numbers (as str() writes them), trimmed; blank refused unless allowed. */
function charField(value: Json, attr: string, options: { allowBlank?: boolean; maxLength?: number } = {}): string {
  if (typeof value !== 'string' && typeof value !== 'number') throw validation('Not a valid string.', attr, 'invalid');
  const text = String(value).trim();
  if (!text && !options.allowBlank) throw validation('This field may not be blank.', attr, 'blank');
  if (options.maxLength !== undefined && text.length > options.maxLength) {
    throw validation(`Ensure this field has no more than ${options.maxLength} characters.`, attr, 'max_length');
  }
  return text;
}

/** IntegerField: integers, integral floats and strings of digits. */
function integerField(value: Json, attr: string, min?: number): number {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*[+-]?\d+(\.0*)?\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(number)) throw validation('A valid integer is required.', attr, 'invalid');
  if (min !== undefined && number < min) throw validation(`Ensure this value is greater than or equal to ${min}.`, attr, 'min_value');
  return number;
}

const CURSOR_FIELDS = ['head', 'node_index', 'offset', 'list_item_index'] as const;

/** NotebookCollabCursorSerializer: optional non-negative integers. */
function cursorField(value: Json, attr: string): JsonObject {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw validation(`Invalid data. Expected a dictionary, but got ${Array.isArray(value) ? 'list' : typeof value === 'string' ? 'str' : typeof value}.`, attr, 'invalid');
  }
  const cursor: JsonObject = {};
  for (const field of CURSOR_FIELDS) {
    if (field in value && value[field] !== null) cursor[field] = integerField(value[field]!, `${attr}__${field}`, 0);
  }
  return cursor;
}

interface MarkdownSaveInput {
  clientId: string;
  version: number;
  content: Json;
  textContent: string;
  title?: string;
  cursor?: JsonObject;
}

function markdownSaveInput(body: JsonObject): MarkdownSaveInput {
  const clientId = charField(required(body, 'client_id'), 'client_id');
  const version = integerField(required(body, 'version'), 'version');
  if (!('content' in body)) throw validation('This field is required.', 'content', 'required');
  const content = body['content']!;
  if (markdownOf(content) === undefined) throw validation('Content must be a markdown notebook document.', 'content', 'invalid');
  const textContent = 'text_content' in body && body['text_content'] !== null ? charField(body['text_content']!, 'text_content', { allowBlank: true }) : '';
  const input: MarkdownSaveInput = { clientId, version, content, textContent };
  if ('title' in body) input.title = charField(required(body, 'title'), 'title', { allowBlank: true });
  if ('cursor' in body && body['cursor'] !== null) input.cursor = cursorField(body['cursor']!, 'cursor');
  return input;
}

// ---- the versioned save ------------------------------------------------------------------------------------

export type MarkdownSaveResult = { readonly status: 'accepted'; readonly notebook: Notebook } | MissedUpdates;

/**
 * PostHog's collab_markdown_save with the row locked: a save based on another version gets the updates it
 * missed (or stale); else the diff from the stored Markdown is appended to the stream as `N-0` and the notebook
 * takes the content (activity "updated"). A refused save is logged as save_rejected_conflict / _stale.
 */
export function saveMarkdown(store: Store, notebook: Notebook, input: MarkdownSaveInput, user: User): MarkdownSaveResult {
  let result: MarkdownSaveResult;
  if (notebook.version !== input.version) {
    result = store.collab.missed(notebook, input.version, notebook.version);
  } else {
    const diff = markdownUpdateDiff(notebook.content, input.content);
    const data: JsonObject = { type: 'update', client_id: input.clientId };
    if (diff) {
      data['diff'] = diff.changes as unknown as Json;
      data['base_crc'] = diff.baseCrc;
    }
    data['user_id'] = user.id;
    data['user_name'] = collabUserName(user);
    if (input.cursor) data['cursor'] = input.cursor;
    const submitted = store.collab.submit(notebook, notebook.version, 'update', data);
    if (submitted.accepted) {
      const before = { title: notebook.title, content: notebook.content };
      notebook.content = input.content;
      notebook.text_content = input.textContent;
      if (input.title !== undefined) notebook.title = input.title;
      notebook.version = submitted.version;
      notebook.last_modified_at = store.nowMicros();
      notebook.lastModifiedById = user.id;
      logNotebookActivity(store, notebook, user, 'updated', [
        ...(before.title !== notebook.title ? [changed('title', before.title, notebook.title)] : []),
        ...(JSON.stringify(before.content) !== JSON.stringify(notebook.content) ? [changed('content', before.content, notebook.content)] : []),
      ]);
      return { status: 'accepted', notebook };
    }
    result = submitted.missed;
  }
  recordRejectedSave(store, notebook, result.status, input.content, user.id);
  return result;
}

function changed(field: string, before: Json, after: Json): { type: string; action: 'changed'; field: string; before: Json; after: Json } {
  return { type: 'Notebook', action: 'changed', field, before, after };
}

function logNotebookActivity(store: Store, notebook: Notebook, user: User, activity: string, changes: ReturnType<typeof changed>[]): void {
  const project = store.projects.find((p) => p.id === notebook.projectId)!;
  store.logActivity(project, user.id, 'Notebook', notebook.short_id, activity, { name: notebook.title, short_id: notebook.short_id, changes });
}

function markdownSave(ctx: Ctx): Reply {
  const input = markdownSaveInput(requireObject(ctx.body));
  const notebook = findNotebook(ctx, 'editor');
  const lie = lyingAnswer(ctx.store, notebook, input.version, ctx.user.id);
  if (lie) return ok(lie);
  const result = saveMarkdown(ctx.store, notebook, input, ctx.user);
  if (result.status === 'accepted') return ok(notebookFull(ctx.store, result.notebook));
  if (result.status === 'stale') return ok({ code: 'conflict_stale' }, 410);
  return ok({ code: 'conflict', updates: result.updates, version: result.version }, 409);
}

// ---- presence ------------------------------------------------------------------------------------------------

function presence(ctx: Ctx): Reply {
  const body = requireObject(ctx.body);
  const clientId = charField(required(body, 'client_id'), 'client_id', { maxLength: 200 });
  const version = integerField(required(body, 'version'), 'version', 0);
  const cursor = cursorField(required(body, 'cursor'), 'cursor');
  const notebook = findNotebook(ctx, 'editor');
  ctx.store.collab.publishPresence(notebook, presenceData(clientId, ctx.user, version, cursor));
  return { status: 204 };
}

export function presenceData(clientId: string, user: User, version: number, cursor: JsonObject): JsonObject {
  return { type: 'presence', client_id: clientId, user_id: user.id, user_name: collabUserName(user), version, cursor };
}

// ---- the stream ----------------------------------------------------------------------------------------------

function stream(ctx: Ctx): Reply {
  const notebook = findNotebook(ctx, 'viewer');
  const lastEventId = ctx.headers['last-event-id'];
  const headers = { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' };
  return { status: 200, headers, stream: (res) => serveStream(ctx.store, notebook, typeof lastEventId === 'string' ? lastEventId : undefined, res) };
}

/**
 * PostHog's stream_collab_sse: content entries after Last-Event-ID (else from the newest one), the last 10
 * seconds of presence, then both as they come; a keepalive comment after each idle 15 seconds; closed after
 * five minutes. An id Redis cannot read ends it with `event: error`, as a Redis error does.
 */
function serveStream(store: Store, notebook: Notebook, lastEventId: string | undefined, res: ServerResponse): void {
  const { collab } = store;
  const entries = collab.entries(notebook);
  const newest = entries[entries.length - 1];
  const from = lastEventId === undefined ? (newest ? ([newest.version, newest.sequence] as [number, number]) : ([0, 0] as [number, number])) : parseStreamId(lastEventId);
  let keepalive: ReturnType<typeof setTimeout> | undefined;
  let stop = (): void => undefined;
  const write = (frame: string): void => {
    if (res.writableEnded) return;
    res.write(frame);
    clearTimeout(keepalive);
    keepalive = setTimeout(() => write(': keepalive\n\n'), collab.timing.keepaliveMs);
  };
  const end = (error: boolean): void => {
    if (error) write('event: error\ndata: {"error":"stream error"}\n\n');
    stop();
    res.end();
  };
  if (!from) {
    end(true);
    return;
  }
  let cursor = from;
  const content = (entry: StreamEntry): void => {
    if (compareIds([entry.version, entry.sequence], cursor) <= 0) return;
    cursor = [entry.version, entry.sequence];
    write(`id: ${entryId(entry)}\nevent: ${entry.event}\ndata: ${pythonJson(entry.data)}\n\n`);
  };
  for (const entry of entries) content(entry);
  for (const data of collab.recentPresence(notebook)) write(`event: presence\ndata: ${pythonJson(data)}\n\n`);
  const unlisten = collab.listen(notebook, {
    content,
    presence: (data) => write(`event: presence\ndata: ${pythonJson(data)}\n\n`),
    close: end,
  });
  const lifetime = setTimeout(() => end(false), collab.timing.lifetimeMs);
  stop = () => {
    unlisten();
    clearTimeout(lifetime);
    clearTimeout(keepalive);
  };
  if (!keepalive) keepalive = setTimeout(() => write(': keepalive\n\n'), collab.timing.keepaliveMs);
  res.on('close', stop);
}

/** Python's json.dumps(separators=(',', ':')): every non-ASCII character escaped (ensure_ascii). */
export function pythonJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export const collabRoutes: Route[] = [
  route('/api/projects/:projectId/notebooks/:shortId/collab/stream', { GET: { scope: 'notebook:read', handler: stream } }),
  route('/api/projects/:projectId/notebooks/:shortId/collab/markdown_save', { POST: { scope: 'notebook:write', handler: markdownSave } }),
  route('/api/projects/:projectId/notebooks/:shortId/collab/presence', { POST: { scope: 'notebook:write', handler: presence } }),
];
