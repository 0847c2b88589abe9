// A save answered "saved" without being stored, with a version not above the one sent or with other content:
// what a client must not believe (a cache or proxy replaying an old answer, a server bug). Test-only: set by the
// control surface (`POST /_control/notebooks/:projectId/:shortId/lying-save`), never by PostHog.
import type { Json, JsonObject, Notebook } from './model';
import type { Store } from './store';
import { notebookFull } from './serializers';
import { markdownDoc, markdownOf, paragraph } from './content';

/** `older-version`: the answer's version is one below the one sent (0 when 0 was sent); `other-content`: a newer version holding other text. */
export type LyingSaveKind = 'older-version' | 'other-content';

export const LYING_SAVE_KINDS: readonly LyingSaveKind[] = ['older-version', 'other-content'];

/** The text an `other-content` answer holds. */
export const OTHER_MARKDOWN = '# Something else\n';

/** The next `times` saves of the notebook (markdown_save, or a PATCH) are answered with the lie `kind`. */
export function lieOnSaves(notebook: Notebook, kind: LyingSaveKind, times = 1): void {
  notebook.lyingSave = { kind, left: times };
}

/** The lying answer to a save sent at `sentVersion`, or undefined when the save is to be stored as usual. */
export function lyingAnswer(store: Store, notebook: Notebook, sentVersion: number, userId: number): JsonObject | undefined {
  const lie = notebook.lyingSave;
  if (!lie) return undefined;
  lie.left -= 1;
  if (lie.left <= 0) delete notebook.lyingSave;
  const real = notebookFull(store, notebook, userId) as JsonObject;
  if (lie.kind === 'older-version') return { ...real, version: Math.max(0, sentVersion - 1) };
  return { ...real, version: sentVersion + 1, content: otherContent(notebook.content), text_content: OTHER_MARKDOWN.trim() };
}

function otherContent(content: Json): Json {
  return markdownOf(content) !== undefined ? markdownDoc(OTHER_MARKDOWN) : { type: 'doc', content: [paragraph(OTHER_MARKDOWN.slice(2).trim())] };
}
