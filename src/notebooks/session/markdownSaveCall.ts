import { MethodNotAllowedError, type Notebook, NotFoundError } from '../../api';
import type { MarkdownSaveBody } from '../../api';
import { type EditableNotebook, MARKDOWN_NODE, markdownOf } from '../model/notebookDocument';
import type { SaveMergeOutcome } from '../saving/saveMerge';
import { changeAuthor } from './changeAuthor';
import { replayUpdates } from './markdownDiff';
import { confirmed, mergeWith, newerThanBase, type PendingSave, type SendOptions, type SendOutcome, sendSave, UnconfirmedSaveError } from './notebookSave';
import type { NotebookCalls, NotebookRef } from './ports';

/** How many versioned saves a save tries while PostHog's version keeps moving on. */
const MAX_SAVE_ATTEMPTS = 3;

export interface MarkdownSendOptions extends SendOptions {
  /** This window's client id: the stream's update of the save carries it, and the session skips it. */
  readonly clientId: string;
  /** The server has no collab/markdown_save (404 or 405): the save went as a PATCH, and later ones should too. */
  readonly onUnsupported: () => void;
}

/** Whether a save goes through PostHog's versioned Markdown save: a Markdown notebook that stays one, with a known base. */
export function isMarkdownNotebookSave(save: PendingSave): boolean {
  return save.base !== undefined && markdownOf(save.base.editable.content) !== undefined && markdownOf(save.full.content) !== undefined;
}

/** The server version a body is sent against: its version and Markdown (a 409's updates replay on it). */
interface Against {
  readonly version: number;
  readonly markdown: string;
  readonly editable: EditableNotebook;
}

/**
 * A Markdown notebook's save through POST collab/markdown_save, one request when nothing else changed. A 409
 * carries the updates the save missed: they are replayed on the text it was based on (each base CRC checked),
 * merged three ways with the user's text, and the merge is saved with PostHog's version, without a GET. A 410
 * (what was missed cannot be replayed), or updates that do not replay, read PostHog's version and merge with it
 * as a PATCH save does. A text based on a save PostHog merged lacks others' changes: it merges with that
 * version first, never sent as it is.
 */
export async function sendMarkdownSave(calls: NotebookCalls, ref: NotebookRef, save: PendingSave, options: MarkdownSendOptions): Promise<SendOutcome> {
  const { overwrite, label, log } = options;
  const base = save.base!;
  let full = save.full;
  let own = true;
  let against: Against = { version: base.version, markdown: markdownOf(base.editable.content)!, editable: base.editable };
  /** Merges the save with PostHog's `server`: the outcome when that ends the save, else the merge is what is sent next. */
  const mergeOnto = (server: Notebook): SendOutcome | undefined => {
    const step = mergeStep(save, server, label, options);
    if (step.done) {
      return step.done;
    }
    ({ full } = step);
    own = false;
    against = againstOf(server);
    return undefined;
  };
  const newer = overwrite ? undefined : newerThanBase(save, options);
  if ((base.merged || newer) && !overwrite) {
    const server = newer ?? (options.known?.version === base.version ? options.known : await calls.get(ref.projectId, ref.shortId));
    const done = mergeOnto(server);
    if (done) {
      return done;
    }
  }
  for (let attempt = 1; attempt <= MAX_SAVE_ATTEMPTS; attempt++) {
    let answer;
    const body = bodyFor(save, full, against, options.clientId);
    try {
      answer = await calls.collab.markdownSave(ref.projectId, ref.shortId, body);
    } catch (error) {
      if (attempt === 1 && own && (error instanceof NotFoundError || error instanceof MethodNotAllowedError)) {
        log.info(`${label}: this PostHog has no versioned Markdown save (${error.status}); saving with a PATCH.`);
        options.onUnsupported();
        return sendSave(calls, ref, save, options);
      }
      throw error;
    }
    if (answer.kind === 'saved') {
      return { kind: 'saved', notebook: confirmedMarkdown(answer.notebook, body), own };
    }
    let server: Notebook;
    const replayed = answer.kind === 'conflict' ? replayUpdates(against.markdown, answer.updates.map((update) => ({ diff: update.diff, baseCrc: update.base_crc }))) : undefined;
    if (answer.kind === 'conflict' && replayed !== undefined) {
      log.info(`${label}: PostHog is at version ${answer.version}; the ${answer.updates.length} update(s) this save missed apply to its base.`);
      server = notebookAt(options.known, against.editable, answer.version, replayed);
    } else {
      log.info(
        answer.kind === 'stale'
          ? `${label}: PostHog cannot replay what this save missed (410); reading its version.`
          : `${label}: the updates this save missed do not apply to its base; reading PostHog's version.`,
      );
      server = await calls.get(ref.projectId, ref.shortId);
    }
    if (overwrite) {
      against = againstOf(server);
      continue;
    }
    const done = mergeOnto(server);
    if (done) {
      return done;
    }
  }
  return { kind: 'keepsChanging' };
}

type MergeStep = { readonly done: SendOutcome; readonly full?: undefined } | { readonly done?: undefined; readonly full: EditableNotebook };

/** The merge of the save with PostHog's `server`: an outcome that ends the save, or the merged notebook to send. */
function mergeStep(save: PendingSave, server: Notebook, label: string, options: SendOptions): MergeStep {
  const author = changeAuthor(options.known, server);
  const outcome: SaveMergeOutcome = mergeWith(save, server, author);
  const by = author ?? 'someone';
  switch (outcome.kind) {
    case 'alreadySaved':
      options.log.info(`${label}: PostHog already holds this text (version ${server.version}); nothing to merge.`);
      return { done: { kind: 'saved', notebook: server, own: true } };
    case 'mergedOnPostHog':
      options.log.info(`${label}: version ${server.version} already holds your changes (${outcome.changes.join('; ')}); nothing sent, the editor takes it.`);
      return { done: { kind: 'saved', notebook: server, own: false } };
    case 'conflicted':
      options.log.info(`${label}: ${outcome.conflicts} conflict(s) with version ${server.version} by ${by}; merged: ${outcome.changes.join('; ')}`);
      return { done: { kind: 'conflicted', server, outcome } };
    case 'merged':
      options.log.info(`${label}: merging with version ${server.version} by ${by} (${outcome.changes.join('; ')}).`);
      return { full: outcome.full };
  }
}

function againstOf(server: Notebook): Against {
  return { version: server.version, markdown: markdownOf(server.content) ?? '', editable: { title: server.title, content: server.content, text_content: server.text_content ?? null } };
}

/** The notebook at `version` holding `markdown`, as replayed from updates (its other fields as last known). */
function notebookAt(known: Notebook | undefined, editable: EditableNotebook, version: number, markdown: string): Notebook {
  const template = known ?? ({ id: '', short_id: '', created_at: '', created_by: null, last_modified_at: '' } as unknown as Notebook);
  // A 409 names neither who made the missed updates nor when: a last_modified_at kept from `known` would read as
  // PostHog's own revision (changeAuthor), so the version is dated now, by nobody known.
  const lastModifiedAt = new Date().toISOString();
  return { ...template, title: editable.title, version, content: withMarkdown(editable.content, markdown), text_content: markdown, last_modified_by: null, last_modified_at: lastModifiedAt };
}

/** A Markdown notebook's content holding `markdown`, its node's other attrs kept. */
export function withMarkdown(content: unknown, markdown: string): unknown {
  const doc = content as { content?: { attrs?: Record<string, unknown> }[] } | undefined;
  const node = doc?.content?.[0];
  return { ...doc, type: 'doc', content: [{ ...node, type: MARKDOWN_NODE, attrs: { ...node?.attrs, markdown } }] };
}

/**
 * A versioned save's answer, believed only with a version above the one sent and the Markdown sent (an answer that
 * leaves the Markdown out, as PostHog plans, holds what was sent).
 */
function confirmedMarkdown(answer: Notebook, body: MarkdownSaveBody): Notebook {
  confirmed(answer, body.version);
  const stored = markdownOf(answer.content);
  if (stored === '' && (answer.text_content ?? null) === null) {
    return { ...answer, content: body.content, text_content: body.text_content }; // the Markdown left out of the answer
  }
  if (stored !== markdownOf(body.content)) {
    throw new UnconfirmedSaveError(body.version, answer.version, true);
  }
  return answer;
}

function bodyFor(save: PendingSave, full: EditableNotebook, against: Against, clientId: string): MarkdownSaveBody {
  const markdown = markdownOf(full.content) ?? '';
  const body: MarkdownSaveBody = { client_id: clientId, version: against.version, content: full.content, text_content: markdown };
  // The Markdown file has no title; the JSON document's goes only when changed (titles carry no version).
  if (save.form === 'json' && full.title !== against.editable.title) {
    body.title = full.title ?? '';
  }
  return body;
}
