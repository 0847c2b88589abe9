import type { Notebook, User } from '../../api';
import { snapshotOf } from '../saving/markdownSavePlan';
import { markdownOf } from '../model/notebookDocument';
import { serverMarkdown } from '../saving/saveMerge';
import { changeAuthor } from './changeAuthor';
import type { EditorBases } from './editorBases';
import { applySpans, markdownCrc } from './markdownDiff';
import { withMarkdown } from './markdownSaveCall';
import type { Author } from './remoteCarets';
import type { EditorFacts } from './ports';
import { type LineRange, planRemoteMerge } from './remoteMerge';
import type { RemoteUpdate } from './streamUpdates';

/**
 * Others' changes reaching a session: a stream update turned into the version it made (without a GET, when its
 * diff applies to the version before it), who made a version, and the merge of a version into an editor with
 * unsaved changes (./remoteMerge.ts), through the editor and its base.
 */

/**
 * The notebook as `update` makes it from `known` (its version - 1): only a Markdown notebook, only when the
 * diff's base CRC is the CRC of known's Markdown and the diff fits it; else undefined (the caller fetches it).
 */
export function notebookAfterUpdate(known: Notebook, update: RemoteUpdate, now: number): Notebook | undefined {
  const markdown = markdownOf(known.content);
  if (markdown === undefined || update.version !== known.version + 1 || !update.diff || update.baseCrc === undefined || markdownCrc(markdown) !== update.baseCrc) {
    return undefined;
  }
  const next = applySpans(markdown, update.diff);
  if (next === undefined) {
    return undefined;
  }
  return {
    ...known,
    version: update.version,
    content: withMarkdown(known.content, next),
    text_content: next,
    last_modified_at: new Date(now).toISOString(),
    last_modified_by: update.author && !update.author.agent ? userNamed(update.author.name) : null,
  };
}

/** A user object for a name the stream gave (PostHog's stream carries no e-mail or uuid). */
function userNamed(name: string): User {
  return { id: 0, uuid: '', first_name: name, last_name: '', email: '' };
}

/**
 * Who made `latest`, fetched after `previous`: its last modifier, or PostHog itself when last_modified_at did not
 * move (its migration of legacy notebooks bumps the version under the previous editor's name).
 */
export function authorOfVersion(latest: Notebook, previous: Notebook): Author | undefined {
  const name = changeAuthor(previous, latest);
  return name ? { name, agent: false } : undefined;
}

export type EditorMerge =
  /** The editor took every change of `latest` that did not overlap the user's (`held`: the lines of those that did). */
  | { readonly kind: 'merged'; readonly held: readonly LineRange[] }
  /** Nothing merged: the changes overlap the user's (`held`, the editor's lines there). */
  | { readonly kind: 'held'; readonly held: readonly LineRange[] }
  /** The user kept typing while the merge was being made: try again when they pause. */
  | { readonly kind: 'typing' };

/** How often a merge is tried again when the user typed between reading the editor's text and the edit. */
const TYPED_MEANWHILE_TRIES = 3;

/**
 * Merges PostHog's `latest` into the unsaved Markdown editor of `uri`: its text gets theirs where the user did
 * not edit (the smallest edits, so cursor, selection and undo stay), and its base moves to `latest` (or to
 * latest without the held changes, marked as such: a save merges those, with markers where both changed them).
 */
export async function mergeIntoEditor(editors: EditorFacts, bases: EditorBases, uri: string, latest: Notebook, mtime: number): Promise<EditorMerge> {
  const base = await bases.baseOf(uri);
  if (!base) {
    return { kind: 'held', held: [] };
  }
  const theirs = serverMarkdown(latest, base.text);
  for (let attempt = 0; attempt < TYPED_MEANWHILE_TRIES; attempt++) {
    const ours = editors.textOf(uri);
    if (ours === undefined) {
      return { kind: 'held', held: [] };
    }
    const plan = planRemoteMerge(base.text, ours, theirs);
    if (plan.kind === 'held') {
      return plan;
    }
    const text = plan.kind === 'unchanged' ? ours : plan.text;
    if (text !== ours && !(await editors.replaceText(uri, ours, text))) {
      continue;
    }
    const knownMtime = (await bases.dirtyMtime(uri)) ?? mtime;
    const partial = plan.kind === 'partial';
    bases.edited(uri, ours, text, { ...snapshotOf(latest, plan.base, knownMtime), ...(partial ? { merged: true } : {}) });
    return { kind: 'merged', held: partial ? plan.held : [] };
  }
  return { kind: 'typing' };
}
