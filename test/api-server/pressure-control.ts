/**
 * Pressure on a notebook's collaboration stream, for tests of the client's discipline (issue 30):
 *
 *   POST /_control/notebooks/:projectId/:shortId/flood   body {kind, count}
 *        kind "step": `count` ProseMirror steps of a teammate typing in a legacy notebook (a paragraph each, one
 *        version each, `event: step`); "patch": `count` PATCHes of its content (updates without a diff);
 *        "unreadable": `count` events the client cannot read (presence without a client id);
 *        "presence": a burst of `count` carets of as many clients. -> {version}
 *
 * The same functions are exported for tests in this process.
 */
import type { JsonObject, Notebook } from './model';
import type { Store } from './store';
import type { Reply } from './http';
import { collabUserName, presenceData } from './routes/collab';
import { editor } from './collab-control';

export type FloodKind = 'step' | 'patch' | 'unreadable' | 'presence';

const FLOOD_KINDS: readonly FloodKind[] = ['step', 'patch', 'unreadable', 'presence'];
const MAX_FLOOD = 100_000;

/** Sends `count` events of `kind` on the notebook's stream (see the top of this file); the notebook's version after. */
export function flood(store: Store, notebook: Notebook, kind: FloodKind, count: number): number {
  const user = editor(store, { first_name: 'Flood' });
  for (let index = 0; index < count; index++) {
    if (kind === 'unreadable') {
      store.collab.publishPresence(notebook, { type: 'presence', cursor: { head: index } });
    } else if (kind === 'presence') {
      store.collab.publishPresence(notebook, presenceData(`burst-${index}`, user, notebook.version, { head: index }));
    } else {
      typeOneVersion(store, notebook, kind, user.id, collabUserName(user), index);
    }
  }
  return notebook.version;
}

function typeOneVersion(store: Store, notebook: Notebook, kind: 'step' | 'patch', userId: number, userName: string, index: number): void {
  const previous = notebook.content;
  notebook.content = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: `Typed ${index + 1}.` }] }] };
  notebook.text_content = `Typed ${index + 1}.`;
  notebook.last_modified_at = store.nowMicros();
  notebook.lastModifiedById = userId;
  if (kind === 'patch') {
    notebook.version += 1;
    store.collab.publishPatch(notebook, previous);
    return;
  }
  const submitted = store.collab.submit(notebook, notebook.version, 'step', { step: { stepType: 'replace' }, client_id: `web-${userId}`, user_id: userId, user_name: userName });
  if (!submitted.accepted) throw new Error('the stream refused the step');
  notebook.version = submitted.version;
}

/** The /_control/ route of this file, or undefined when `parts` is not it. */
export function handlePressureControl(store: Store, method: string, parts: readonly string[], input: JsonObject): Reply | undefined {
  if (method !== 'POST' || parts.length !== 4 || parts[0] !== 'notebooks' || parts[3] !== 'flood') return undefined;
  const notebook = store.getNotebook(Number(parts[1]), parts[2]!);
  if (!notebook || notebook.deleted) return { status: 404, body: { detail: 'Not found.' } };
  const kind = input['kind'] as FloodKind;
  const count = input['count'];
  if (!FLOOD_KINDS.includes(kind)) return { status: 400, body: { detail: `kind must be one of ${FLOOD_KINDS.join(', ')}` } };
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_FLOOD) return { status: 400, body: { detail: `count must be a whole number from 1 to ${MAX_FLOOD}` } };
  return { status: 200, body: { version: flood(store, notebook, kind, count) } };
}
