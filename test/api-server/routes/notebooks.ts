// Notebooks: /api/projects/{project}/notebooks/... (products/notebooks/backend/api/notebook.py).
import type { Json, JsonObject, Notebook } from '../model';
import { route, type Route } from '../router';
import { ok, paginate, param, projectOf, queryDict, type Ctx, type Reply } from '../http';
import { notFound, serverError, validation } from '../errors';
import { requireObject, validateBody } from '../validation';
import { NOTEBOOK_SCHEMA } from '../defaults';
import { notebookFull, notebookMinimal } from '../serializers';
import { relativeDateParse } from '../relative-date';
import { activityPage } from './activity';
import { pythonInt } from '../python';
import { markdownDoc, markdownOf } from '../content';
import { toPostHogMarkdown } from '../../../src/notebooks/markdown/legacyConversion';
import { canSee, requireNotebookAccess } from '../notebook-access';
import { normalizeNotebookContent } from '../notebook-rules';
import { notebookMarkdown } from '../notebook-history';
import { lyingAnswer } from '../lying-saves';

const ORDER_FIELDS = new Set(['created_at', 'last_modified_at', 'title', 'short_id', 'version']);

function list(ctx: Ctx): Reply {
  let notebooks = ctx.store.notebooksOf(projectOf(ctx).id).filter((n) => !n.deleted && canSee(n, ctx.user.id));
  for (const [key, value] of queryDict(ctx.query)) notebooks = applyFilter(ctx, notebooks, key, value);
  return ok(paginate(ctx, sortNotebooks(notebooks, param(ctx, 'order')), (n) => notebookMinimal(ctx.store, n, ctx.user.id)));
}

function applyFilter(ctx: Ctx, notebooks: Notebook[], key: string, value: string): Notebook[] {
  const byUser = (userId: (n: Notebook) => number | null): Notebook[] => {
    const uuid = uuidLookup(value);
    return notebooks.filter((n) => ctx.store.getUser(userId(n))?.uuid === uuid);
  };
  switch (key) {
    case 'user': return notebooks.filter((n) => n.createdById === ctx.user.id);
    case 'created_by': return byUser((n) => n.createdById);
    case 'last_modified_by': return byUser((n) => n.lastModifiedById);
    case 'date_from': case 'date_to': {
      const timeZone = String(projectOf(ctx).settings['timezone'] ?? 'UTC');
      const bound = relativeDateParse(value, ctx.store.now().getTime() * 1000, timeZone);
      return notebooks.filter((n) => (key === 'date_from' ? n.last_modified_at > bound : n.last_modified_at < bound));
    }
    case 'search': {
      if (!value) return notebooks;
      const query = words(value);
      return notebooks.filter((n) => hasAllWords(n.title, query) || hasAllWords(n.text_content, query));
    }
    case 'contains': return value.replace(/,/g, ' ').split(' ').reduce(applyContainsPair, notebooks);
    default: return notebooks;
  }
}

/**
 * A `created_by__uuid` lookup: Django's UUIDField reads the value as Python's uuid.UUID(hex=...) does
 * (urn:/uuid: prefix, braces and dashes dropped, then 32 hex digits). Anything else raises a Django
 * ValidationError that DRF does not handle: a 500.
 */
function uuidLookup(value: string): string {
  const hex = value.replaceAll('urn:', '').replaceAll('uuid:', '').replace(/^[{}]+|[{}]+$/g, '').replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) throw serverError();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * PostHog's `search` is `Q(title__search=v) | Q(text_content__search=v)`: Postgres full-text search, all words
 * of the query in the title, or all in text_content. Here: lower-case runs of letters and digits, whole words
 * only (no stemming, no stop words; see the README).
 */
function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function hasAllWords(text: string | null, query: string[]): boolean {
  if (query.length === 0) return false;
  const present = new Set(words(text ?? ''));
  return query.every((word) => present.has(word));
}

/**
 * One `target:match` pair, as PostHog's JSONB containment filters read it: the target depluralised and
 * prefixed `ph-`, looked for among the top-level nodes (replay-timestamp: one level down); "true" or no match
 * (has one), "false" (has none), anything else (has one, and some node has that id; a number when Python's
 * int() reads it). Only the part before a second colon counts.
 */
function applyContainsPair(notebooks: Notebook[], pair: string): Notebook[] {
  const parts = pair.split(':');
  const target = depluralize(parts[0]!);
  if (!target) return notebooks;
  const raw = parts.length > 1 ? parts[1]! : undefined;
  const match: string | number | undefined = raw === undefined ? undefined : (pythonInt(raw) ?? raw);
  const type = `ph-${target}`;
  const present = (n: Notebook): boolean =>
    topNodes(n).some((node) => (target === 'replay-timestamp' ? childNodes(node).some((c) => c['type'] === type) : node['type'] === type));
  if (match === 'true' || match === undefined) return notebooks.filter(present);
  if (match === 'false') return notebooks.filter((n) => keptByExclude(n) && !present(n));
  return notebooks.filter((n) => present(n) && topNodes(n).some((node) => nodeHasId(node, target, match)));
}

/**
 * Django's exclude() on `content__content__contains` is `NOT (content->'content' @> … AND content IS NOT NULL)`:
 * a notebook without content (SQL NULL) is kept, but one whose content has no "content" key (or is not an
 * object) makes the condition NULL, and SQL drops it.
 */
function keptByExclude(n: Notebook): boolean {
  return n.content === null || (isObject(n.content) && 'content' in n.content);
}


function nodeHasId(node: JsonObject, target: string, match: string | number): boolean {
  if (target === 'replay-timestamp') return childNodes(node).some((c) => attrsOf(c)['sessionRecordingId'] === match);
  const attrs = attrsOf(node);
  if (target === 'query') {
    const query = attrs['query'];
    return isObject(query) && query['kind'] === 'SavedInsightNode' && query['shortId'] === match;
  }
  return attrs['id'] === match;
}

function depluralize(word: string): string | undefined {
  if (!word) return undefined;
  if (word.endsWith('ies')) return word.slice(0, -3) + 'y';
  return word.endsWith('s') ? word.slice(0, -1) : word;
}

const isObject = (v: Json | undefined): v is JsonObject => !!v && typeof v === 'object' && !Array.isArray(v);
const topNodes = (n: Notebook): JsonObject[] => (isObject(n.content) && Array.isArray(n.content['content']) ? n.content['content'].filter(isObject) : []);
const childNodes = (node: JsonObject): JsonObject[] => (Array.isArray(node['content']) ? node['content'].filter(isObject) : []);
const attrsOf = (node: JsonObject): JsonObject => (isObject(node['attrs']) ? node['attrs'] : {});

function sortNotebooks(notebooks: Notebook[], order: string | undefined): Notebook[] {
  const spec = order ?? '-last_modified_at';
  const field = spec.replace(/^-/, '');
  if (!ORDER_FIELDS.has(field)) throw validation(`Cannot order notebooks by "${spec}".`, 'order');
  const sign = spec.startsWith('-') ? -1 : 1;
  return [...notebooks].sort((a, b) => {
    const x = (a as unknown as JsonObject)[field] ?? '';
    const y = (b as unknown as JsonObject)[field] ?? '';
    return (x < y ? -1 : x > y ? 1 : 0) * sign;
  });
}

/** The notebook of the URL, if the user has `access` to it (PostHog's get_object: 404, then access control's 403). */
function findNotebook(ctx: Ctx, includeDeleted: boolean, access: 'viewer' | 'editor' = 'viewer'): Notebook {
  const notebook = ctx.store.getNotebook(projectOf(ctx).id, ctx.params['shortId']!);
  if (!notebook || (notebook.deleted && !includeDeleted)) throw notFound();
  requireNotebookAccess(notebook, ctx.user.id, access);
  return notebook;
}

/** The body's writable fields, validated; `content` as PostHog stores it (checked, normalised, annotated). */
function notebookFields(ctx: Ctx): JsonObject {
  const fields = validateBody(requireObject(ctx.body), NOTEBOOK_SCHEMA);
  if ('content' in fields) fields['content'] = normalizeNotebookContent(fields['content']!);
  return fields;
}

function create(ctx: Ctx): Reply {
  const fields = notebookFields(ctx);
  const stored = ctx.store.settings.newNotebooksAsMarkdown ? asMarkdownNotebook(fields) : fields;
  return ok(notebookFull(ctx.store, ctx.store.createNotebook(projectOf(ctx).id, stored, ctx.user.id), ctx.user.id), 201);
}

/**
 * PostHog now creates every notebook as a Markdown notebook (PR #100471): rich-text content goes through its
 * converter, no content gives an empty Markdown notebook, text_content becomes the Markdown, and content the
 * converter cannot read is a 400 on `content` (nothing is created). The converter here is the extension's
 * (src/notebooks/markdown, PostHog's migration with its reader's faults corrected).
 */
function asMarkdownNotebook(fields: JsonObject): JsonObject {
  const content = fields['content'];
  const markdown = content === undefined || content === null ? '' : (markdownOf(content) ?? convertedMarkdown(content));
  return { ...fields, content: markdownDoc(markdown), text_content: markdown };
}

function convertedMarkdown(content: Json): string {
  const readable = typeof content === 'string' || Array.isArray(content) || (typeof content === 'object' && content !== null);
  if (!readable) throw validation('Notebook content could not be converted to Markdown: send a document, a list of nodes or null.', 'content');
  return toPostHogMarkdown(content).markdown;
}

function retrieve(ctx: Ctx): Reply {
  const notebook = findNotebook(ctx, false);
  const ifNoneMatch = ctx.headers['if-none-match'];
  if (ifNoneMatch !== undefined && String(ifNoneMatch) === String(notebook.version)) return { status: 304 };
  return ok(notebookFull(ctx.store, notebook, ctx.user.id));
}

function update(ctx: Ctx): Reply {
  const notebook = findNotebook(ctx, true, 'editor');
  const sent = ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body) ? (ctx.body as Record<string, unknown>)['version'] : undefined;
  const lie = lyingAnswer(ctx.store, notebook, typeof sent === 'number' ? sent : notebook.version, ctx.user.id);
  if (lie) return ok(lie);
  ctx.store.updateNotebook(notebook, notebookFields(ctx), ctx.user.id);
  return ok(notebookFull(ctx.store, notebook, ctx.user.id));
}

function markdown(ctx: Ctx): Reply {
  return ok({ markdown: notebookMarkdown(findNotebook(ctx, false).content) });
}

function notebookActivity(ctx: Ctx): Reply {
  const notebook = findNotebook(ctx, false);
  return activityPage(ctx, ctx.store.activityFor('Notebook', notebook.projectId, [notebook.id, notebook.short_id]));
}

export const notebookRoutes: Route[] = [
  route('/api/projects/:projectId/notebooks', {
    GET: { scope: 'notebook:read', handler: list },
    POST: { scope: 'notebook:write', handler: create },
  }),
  route('/api/projects/:projectId/notebooks/activity', {
    GET: { scope: null, allowedScope: 'activity_log:read', handler: (ctx) => activityPage(ctx, ctx.store.activityFor('Notebook', projectOf(ctx).id)) },
  }),
  route('/api/projects/:projectId/notebooks/:shortId', {
    GET: { scope: 'notebook:read', handler: retrieve },
    PATCH: { scope: 'notebook:write', handler: update },
    PUT: { scope: 'notebook:write', handler: update },
    // Hard delete is forbidden: 405 with an empty body (PostHog's ForbidDestroyModel).
    DELETE: { scope: 'notebook:write', handler: () => ({ status: 405 }) },
  }),
  route('/api/projects/:projectId/notebooks/:shortId/activity', { GET: { scope: 'activity_log:read', handler: notebookActivity } }),
  route('/api/projects/:projectId/notebooks/:shortId/markdown', { GET: { scope: 'notebook:read', handler: markdown } }),
];
