// The control surface's notebook routes for history and access (see control.ts for the others):
//
//   POST /_control/notebooks/:projectId/:shortId/access         body {level, userId?}: the user's access level
//        (none, viewer, editor, manager; default user: the main user, whom every seeded key belongs to)
//   POST /_control/notebooks/:projectId/:shortId/rejected-save  body {kind: conflict|stale, content?, by?}: a
//        collaboration save PostHog refused, logged as save_rejected_<kind> (default content: the notebook with
//        a paragraph appended; `by` {first_name, last_name?, email?} makes it a new user's)
//   POST /_control/notebooks/:projectId/:shortId/migrate        PostHog's migration of a legacy notebook to Markdown
//   POST /_control/notebooks/:projectId/:shortId/lying-save     body {kind: older-version|other-content, times?}: the
//        next `times` saves (markdown_save or PATCH; default 1) answer "saved" without storing anything, with the
//        version one below the one sent, or a newer version holding other text (lying-saves.ts)
//   POST /_control/settings                                     body {markdownOutOfResponses?, queryApi?, queryRunMs?,
//        propertyDefinitionsApi?, projectDeletion?, cancelDeletionRefusal?} (queryApi / propertyDefinitionsApi false:
//        /query/ / property_definitions answer 404 as on an older server;
//        queryRunMs: how long an async query run takes; the rest: see store.ts)
import type { Json, JsonObject } from './model';
import type { Reply } from './http';
import type { ControlContext } from './control';
import { isAccessLevel, setNotebookAccess } from './notebook-access';
import { migrateToMarkdown, recordRejectedSave } from './notebook-history';
import { notebookFull } from './serializers';
import { LYING_SAVE_KINDS, lieOnSaves } from './lying-saves';
import { markdownDoc, markdownOf, paragraph } from './content';

const json = (body: unknown, status = 200): Reply => ({ status, body });

/** The reply of a notebook history or access route, or undefined when the path is not one. */
export function notebookControl(control: ControlContext, method: string, parts: string[], input: JsonObject): Reply | undefined {
  const store = control.state.store;
  if (method === 'POST' && parts.join('/') === 'settings') {
    if (typeof input['markdownOutOfResponses'] === 'boolean') store.settings.markdownOutOfResponses = input['markdownOutOfResponses'];
    if (typeof input['queryApi'] === 'boolean') store.settings.queryApi = input['queryApi'];
    if (typeof input['propertyDefinitionsApi'] === 'boolean') store.settings.propertyDefinitionsApi = input['propertyDefinitionsApi'];
    const runMs = input['queryRunMs'];
    if (typeof runMs === 'number' && Number.isFinite(runMs) && runMs >= 0) store.settings.queryRunMs = Math.min(runMs, 2_147_483_647);
    const deletion = input['projectDeletion'];
    if (deletion === 'scheduled' || deletion === 'at-once' || deletion === 'legacy') store.settings.projectDeletion = deletion;
    const refusal = input['cancelDeletionRefusal'];
    if (refusal === 'race' || refusal === 'temporal' || refusal === null) store.settings.cancelDeletionRefusal = refusal;
    return json({ ...store.settings });
  }
  const action = parts[3];
  if (method !== 'POST' || parts.length !== 4 || parts[0] !== 'notebooks' || !['access', 'rejected-save', 'migrate', 'lying-save'].includes(action!)) return undefined;
  const notebook = store.getNotebook(Number(parts[1]), parts[2]!);
  if (!notebook) return json({ detail: 'Not found.' }, 404);
  switch (action) {
    case 'access': {
      if (!isAccessLevel(input['level'])) return json({ detail: 'level must be none, viewer, editor or manager' }, 400);
      setNotebookAccess(notebook, typeof input['userId'] === 'number' ? input['userId'] : store.mainUser.id, input['level']);
      return json(notebookFull(store, notebook, store.mainUser.id));
    }
    case 'rejected-save': {
      const kind = input['kind'] === 'stale' ? 'stale' : 'conflict';
      const content = input['content'] !== undefined ? input['content'] : appendParagraph(notebook.content, 'An edit PostHog refused.');
      const by = input['by'] && typeof input['by'] === 'object' && !Array.isArray(input['by']) ? input['by'] : undefined;
      const text = (value: Json | undefined) => (typeof value === 'string' ? value : '');
      const user = by ? store.addUser(text(by['first_name']), text(by['last_name']), text(by['email']) || `user${store.users.length + 1}@example.com`) : store.mainUser;
      recordRejectedSave(store, notebook, kind, content, user.id);
      return json({ ok: true }, 201);
    }
    case 'lying-save': {
      const kind = LYING_SAVE_KINDS.find((known) => known === input['kind']);
      const times = input['times'] ?? 1;
      if (!kind || typeof times !== 'number' || !Number.isInteger(times) || times < 1) return json({ detail: 'kind must be older-version or other-content, times a positive integer' }, 400);
      lieOnSaves(notebook, kind, times);
      return json({ ok: true }, 201);
    }
    default:
      return json({ migrated: migrateToMarkdown(store, notebook), notebook: notebookFull(store, notebook) });
  }
}

export function appendParagraph(content: Json, text: string): Json {
  const markdown = markdownOf(content);
  if (markdown !== undefined) return markdownDoc(markdown ? `${markdown}\n\n${text}` : text);
  const doc = content && typeof content === 'object' && !Array.isArray(content) ? content : { type: 'doc', content: [] };
  const nodes = Array.isArray(doc['content']) ? doc['content'] : [];
  return { ...doc, type: 'doc', content: [...nodes, paragraph(text)] };
}
