/**
 * Edits "from PostHog's web app" for tests and the demo: what a browser tab (or PostHog AI in it) does through
 * the collaboration endpoints, without HTTP. Reached over /_control/ (see control.ts) and by the demo
 * collaborator (demo-collaborator.ts).
 *
 *   POST /_control/notebooks/:projectId/:shortId/web-edit
 *        body {markdown? | append? | replace? {find, with} | insertAt? {offset, text}, content?, by?, clientId?, agent?, cursor?}
 *        A Markdown notebook: a versioned save (markdown_save) at the current version, so it always lands, with
 *        the author's name and caret on the stream. `markdown` replaces the whole text, `append` adds a
 *        paragraph, `replace` changes the first occurrence of `find`, `insertAt` inserts at a UTF-16 offset.
 *        A legacy notebook: `content` (or a paragraph appended) saved as one ProseMirror step (`event: step`).
 *        `by` {first_name, last_name?, email?}: the user (made once per email; default the seed's second user);
 *        `agent` "ai": the edit is PostHog AI's (client id notebook-agent:ai). -> the notebook
 *   POST /_control/notebooks/:projectId/:shortId/presence   body {cursor, by?, clientId?, version?}: a caret
 *   POST /_control/collab/streams/close                   body {error?}: ends every open stream -> {closed}
 *   POST /_control/collab/timing                          body {keepaliveMs?, lifetimeMs?}
 */
import type { Json, JsonObject, Notebook, User } from './model';
import type { Store } from './store';
import type { Reply } from './http';
import { markdownDoc, markdownOf, paragraph, textContentOf } from './content';
import { collabUserName, presenceData, saveMarkdown } from './routes/collab';
import { notebookFull } from './serializers';

const okJson = (body: unknown, status = 200): Reply => ({ status, body });
const bad = (detail: string): Reply => okJson({ detail }, 400);

export interface WebEdit {
  markdown?: string;
  append?: string;
  replace?: { find: string; with: string };
  insertAt?: { offset: number; text: string };
  content?: Json;
  by?: { first_name: string; last_name?: string; email?: string };
  clientId?: string;
  agent?: string;
  cursor?: JsonObject;
}

/** The notebook after a web app's edit; throws with what was wrong with the edit. */
export function webEdit(store: Store, notebook: Notebook, edit: WebEdit): Notebook {
  const user = editor(store, edit.by);
  const clientId = edit.agent ? `notebook-agent:${edit.agent}` : (edit.clientId ?? `web-${user.id}`);
  const markdown = markdownOf(notebook.content);
  if (markdown === undefined) {
    const content = edit.content ?? appendParagraph(notebook.content, edit.append ?? `Edited in the web app (version ${notebook.version + 1}).`);
    const submitted = store.collab.submit(notebook, notebook.version, 'step', {
      step: { stepType: 'replace', from: 0, to: 0 },
      client_id: clientId,
      user_id: user.id,
      user_name: collabUserName(user),
    });
    if (!submitted.accepted) throw new Error(`the stream refused the step (${submitted.missed.status})`);
    notebook.content = content;
    notebook.text_content = textContentOf(content);
    notebook.version = submitted.version;
    notebook.last_modified_at = store.nowMicros();
    notebook.lastModifiedById = user.id;
    return notebook;
  }
  const next = nextMarkdown(markdown, edit);
  const result = saveMarkdown(
    store,
    notebook,
    { clientId, version: notebook.version, content: markdownDoc(next), textContent: next, ...(edit.cursor ? { cursor: edit.cursor } : {}) },
    user,
  );
  if (result.status !== 'accepted') throw new Error(`the save was refused (${result.status})`);
  return result.notebook;
}

function nextMarkdown(markdown: string, edit: WebEdit): string {
  if (edit.markdown !== undefined) return edit.markdown;
  if (edit.replace) {
    const at = markdown.indexOf(edit.replace.find);
    if (at < 0) throw new Error(`"${edit.replace.find}" is not in the notebook`);
    return markdown.slice(0, at) + edit.replace.with + markdown.slice(at + edit.replace.find.length);
  }
  if (edit.insertAt) {
    const offset = Math.max(0, Math.min(markdown.length, edit.insertAt.offset));
    return markdown.slice(0, offset) + edit.insertAt.text + markdown.slice(offset);
  }
  const text = edit.append ?? 'Edited in the web app.';
  return markdown ? `${markdown.replace(/\n*$/, '')}\n\n${text}\n` : `${text}\n`;
}

function appendParagraph(content: Json, text: string): Json {
  const doc = content && typeof content === 'object' && !Array.isArray(content) ? content : { type: 'doc', content: [] };
  const nodes = Array.isArray(doc['content']) ? doc['content'] : [];
  return { ...doc, type: 'doc', content: [...nodes, paragraph(text)] };
}

/** The user named by `by` (made once per email), else the seed's second user. */
export function editor(store: Store, by: WebEdit['by']): User {
  if (!by) return store.users[1] ?? store.mainUser;
  const email = by.email || `${by.first_name.toLowerCase().replace(/[^a-z0-9]+/g, '.') || 'user'}@example.com`;
  return store.users.find((user) => user.email === email) ?? store.addUser(by.first_name, by.last_name ?? '', email);
}

/** The /_control/ routes of this file, or undefined when `parts` is none of them. */
export function handleCollabControl(store: Store, method: string, parts: readonly string[], input: JsonObject): Reply | undefined {
  if (method !== 'POST') return undefined;
  if (parts.join('/') === 'collab/streams/close') return okJson({ closed: store.collab.closeAll(input['error'] === true) });
  if (parts.join('/') === 'collab/timing') {
    for (const key of ['keepaliveMs', 'lifetimeMs'] as const) {
      const value = input[key];
      if (value === undefined) continue;
      if (typeof value !== 'number' || !(value > 0)) return bad(`${key} must be a positive number`);
      store.collab.timing[key] = value;
    }
    return okJson({ ...store.collab.timing });
  }
  if (parts.length !== 4 || parts[0] !== 'notebooks' || (parts[3] !== 'web-edit' && parts[3] !== 'presence')) return undefined;
  const notebook = store.getNotebook(Number(parts[1]), parts[2]!);
  if (!notebook || notebook.deleted) return okJson({ detail: 'Not found.' }, 404);
  const by = input['by'] && typeof input['by'] === 'object' && !Array.isArray(input['by']) ? (input['by'] as unknown as WebEdit['by']) : undefined;
  if (parts[3] === 'presence') {
    const cursor = input['cursor'];
    if (!cursor || typeof cursor !== 'object' || Array.isArray(cursor)) return bad('cursor must be an object');
    const user = editor(store, by);
    const clientId = typeof input['clientId'] === 'string' ? input['clientId'] : `web-${user.id}`;
    const version = typeof input['version'] === 'number' ? input['version'] : notebook.version;
    store.collab.publishPresence(notebook, presenceData(clientId, user, version, cursor));
    return okJson({ ok: true });
  }
  try {
    return okJson(notebookFull(store, webEdit(store, notebook, { ...(input as unknown as WebEdit), by })));
  } catch (error) {
    return bad(error instanceof Error ? error.message : String(error));
  }
}
