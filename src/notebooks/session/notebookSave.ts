import { ConflictError, type Notebook } from '../../api';
import { type BaseSnapshot, conflictMarkerIssues, planMarkdownSave } from '../saving/markdownSavePlan';
import { type EditableNotebook, EMPTY_DOC, NotebookDocumentError, type SaveBody } from '../model/notebookDocument';
import type { ServedJsonVersions } from '../saving/jsonSavePlan';
import type { NotebookForm } from '../model/notebookPaths';
import { mergeJsonSave, mergeLabels, mergeMarkdownSave, type SaveMergeOutcome } from '../saving/saveMerge';
import { changeAuthor } from './changeAuthor';
import type { NotebookCalls, NotebookRef, SessionLog } from './ports';

/** How many merged PATCHes a save tries while PostHog's version keeps moving on. */
const MAX_SAVE_ATTEMPTS = 3;

/** A save on its way: what the editor's text asks for, and what it is based on (to merge with a newer version). */
export interface PendingSave {
  readonly form: NotebookForm;
  readonly text: string;
  readonly body: SaveBody;
  /** The whole notebook as the editor has it. */
  readonly full: EditableNotebook;
  /** What the text is based on; for a JSON document without a known base, nothing (every difference then conflicts). */
  readonly base: BaseSnapshot | undefined;
  /** The version a JSON document's read-only block shows. */
  readonly displayed?: number;
}

/** The Markdown file's save: nothing when the text changes nothing of `base`, else one PATCH based on it. */
export function planMarkdownWrite(text: string, base: BaseSnapshot): PendingSave | undefined {
  const plan = planMarkdownSave(text, base);
  return plan.kind === 'unchanged' ? undefined : { form: 'markdown', text, body: plan.body, full: plan.full, base };
}

/**
 * The JSON document's save, against the editor's base when the text shows the version that base shows, else
 * against the version it shows. Throws NotebookDocumentError while conflict markers remain, or when the text
 * does not read or changed a read-only field.
 */
export function planJsonWrite(text: string, shown: ServedJsonVersions, editorBase: BaseSnapshot | undefined): PendingSave | undefined {
  const markers = conflictMarkerIssues(text);
  if (markers.length > 0) {
    throw new NotebookDocumentError(markers.map((issue) => ({ message: issue.message, location: { line: issue.line + 1, column: 1, offset: 0 } })));
  }
  const displayedBy = (base: BaseSnapshot) => base.displayed ?? base.version;
  const plan = shown.planSave(text, editorBase && { version: editorBase.version, editable: editorBase.editable, displayed: displayedBy(editorBase) });
  if (plan.kind === 'unchanged') {
    return undefined;
  }
  const base =
    editorBase && displayedBy(editorBase) === plan.displayed
      ? editorBase
      : plan.base && { version: plan.body.version, editable: plan.base, text: '', mtime: 0 };
  return { form: 'json', text, body: plan.body, full: plan.full, base, displayed: plan.displayed };
}

export type SendOutcome =
  /** PostHog holds `notebook`: exactly the editor's text when `own`, else merged with others' changes. */
  | { readonly kind: 'saved'; readonly notebook: Notebook; readonly own: boolean }
  /** Both sides changed the same places: nothing was saved; `outcome.text` is the merge with conflict markers. */
  | { readonly kind: 'conflicted'; readonly server: Notebook; readonly outcome: Extract<SaveMergeOutcome, { kind: 'conflicted' }> }
  /** PostHog's version moved on at every attempt. */
  | { readonly kind: 'keepsChanging' };

export interface SendOptions {
  /** Save the text over PostHog's version, newer or not (no merge). */
  readonly overwrite: boolean;
  /**
   * PostHog's newest version as the session knows it: when it is newer than the save's base, the save merges with
   * it before anything is sent (never the text alone against a version it lacks); spares a GET when the base was
   * merged into it.
   */
  readonly known?: Notebook;
  /** What the log calls the file. */
  readonly label: string;
  readonly log: SessionLog;
}

/**
 * One PATCH based on the text's version. When PostHog has a newer one: merge with it and save the merge (or,
 * if asked, overwrite it). A text based on a save that PostHog merged with others' changes lacks those
 * changes, so it is never sent as it is: it merges with that version first.
 */
export async function sendSave(calls: NotebookCalls, ref: NotebookRef, save: PendingSave, options: SendOptions): Promise<SendOutcome> {
  const { overwrite, label, log } = options;
  const newer = overwrite ? undefined : newerThanBase(save, options);
  if ((!save.base?.merged && !newer) || overwrite) {
    try {
      return { kind: 'saved', notebook: confirmed(await calls.update(ref.projectId, ref.shortId, save.body), save.body.version), own: true };
    } catch (error) {
      if (!(error instanceof ConflictError)) {
        throw error;
      }
    }
  }
  let server = newer ?? (save.base?.merged && options.known?.version === save.base.version ? options.known : undefined);
  for (let attempt = 1; attempt <= MAX_SAVE_ATTEMPTS; attempt++) {
    server ??= await calls.get(ref.projectId, ref.shortId);
    const author = changeAuthor(options.known, server);
    const outcome: SaveMergeOutcome = overwrite ? { kind: 'merged', full: save.full, changes: [] } : mergeWith(save, server, author);
    const by = author ?? 'someone';
    if (outcome.kind === 'alreadySaved') {
      log.info(`${label}: PostHog already holds this text (version ${server.version}); nothing to merge.`);
      return { kind: 'saved', notebook: server, own: true };
    }
    if (outcome.kind === 'mergedOnPostHog') {
      log.info(`${label}: version ${server.version} already holds your changes (${outcome.changes.join('; ')}); nothing sent, the editor takes it.`);
      return { kind: 'saved', notebook: server, own: false };
    }
    if (outcome.kind === 'conflicted') {
      log.info(`${label}: ${outcome.conflicts} conflict(s) with version ${server.version} by ${by}; merged: ${outcome.changes.join('; ')}`);
      return { kind: 'conflicted', server, outcome };
    }
    const what = overwrite ? 'overwrote' : `merged with (${outcome.changes.join('; ')})`;
    try {
      const saved = confirmed(await calls.update(ref.projectId, ref.shortId, bodyFor(save.form, outcome.full, server)), server.version);
      log.info(`${label}: saved over version ${server.version} by ${by}, ${what}.`);
      return { kind: 'saved', notebook: saved, own: overwrite };
    } catch (error) {
      if (!(error instanceof ConflictError)) {
        throw error;
      }
      server = undefined;
    }
  }
  return { kind: 'keepsChanging' };
}

/**
 * PostHog's version the session knows, when it is newer than the one the save's text was made from (a merge
 * landed in the editor, or a change arrived, after VS Code took the text): the save merges with it first.
 */
export function newerThanBase(save: PendingSave, options: SendOptions): Notebook | undefined {
  const { known } = options;
  if (!save.base || !known || known.version <= save.base.version) {
    return undefined;
  }
  options.log.info(`${options.label}: PostHog is at version ${known.version}, newer than this text's base (version ${save.base.version}): merging before sending.`);
  return known;
}

/** PostHog's answer to a save that did not confirm it: an older or equal version than sent, or not the text sent. */
export class UnconfirmedSaveError extends Error {
  constructor(
    readonly sentVersion: number | undefined,
    readonly answeredVersion: number,
    readonly otherText: boolean,
  ) {
    super(
      otherText
        ? `PostHog answered the save with version ${answeredVersion} holding other text than was sent`
        : `PostHog answered a save sent at version ${sentVersion} with version ${answeredVersion}, not a newer one`,
    );
  }
}

/** A save's answer, believed only when it carries a version above the one sent. */
export function confirmed(answer: Notebook, sentVersion: number | undefined): Notebook {
  if (sentVersion !== undefined && !(answer.version > sentVersion)) {
    throw new UnconfirmedSaveError(sentVersion, answer.version, false);
  }
  return answer;
}

const NO_BASE: EditableNotebook = { title: null, content: EMPTY_DOC, text_content: null };

/** The three-way merge of a save with PostHog's `server` version (the save's form decides how); `author` names them in markers. */
export function mergeWith(save: PendingSave, server: Notebook, author: string | null): SaveMergeOutcome {
  const labels = mergeLabels(server, author);
  if (save.form === 'markdown' && save.base) {
    return mergeMarkdownSave(save.base, save.text, server, labels);
  }
  return mergeJsonSave(save.base?.editable ?? NO_BASE, save.full, server, labels);
}

/** The PATCH that saves `full` over PostHog's `server` version; a Markdown file has no title, so it keeps PostHog's. */
function bodyFor(form: NotebookForm, full: EditableNotebook, server: Notebook): SaveBody {
  const body: SaveBody = { content: full.content, text_content: full.text_content, version: server.version };
  if (form === 'json' && full.title !== (server.title ?? null)) {
    body.title = full.title;
  }
  return body;
}
