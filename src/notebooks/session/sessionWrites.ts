import { type Notebook, PermissionDeniedError } from '../../api';
import { isViewOnly } from '../model/accessLevel';
import type { MarkdownIssue } from '../markdown';
import { type BaseSnapshot, conflictMarkerIssues, editableFromMarkdown, MarkdownSaveError, snapshotOf } from '../saving/markdownSavePlan';
import { editableOf, MARKDOWN_NODE, MARKDOWN_NODE_ID, markdownOf } from '../model/notebookDocument';
import type { NotebookForm } from '../model/notebookPaths';
import { isServerRevision } from './changeAuthor';
import { ContentRefusedError, isContentRefusal, locateRefusedNode } from './contentRefusal';
import { describeRewrite } from './contentRewrite';
import type { EditorBases } from './editorBases';
import { isMarkdownNotebookSave, sendMarkdownSave } from './markdownSaveCall';
import { type PendingSave, planJsonWrite, planMarkdownWrite, type SendOutcome, sendSave } from './notebookSave';
import type { WriteOutcome } from './notebookSession';
import type { EditorFacts, NotebookCalls, NotebookRef, SessionLog } from './ports';
import type { SessionVersion } from './sessionVersion';

/** Above this, a legacy notebook's Markdown is converted back only on save, not for live diagnostics. */
const LIVE_CONVERSION_MAX_CHARS = 500_000;

/** What the writes work on: the session's own parts (every call below runs inside the session's queue). */
export interface WritesContext {
  readonly ref: NotebookRef;
  readonly version: SessionVersion;
  readonly bases: EditorBases;
  readonly editors: EditorFacts;
  readonly calls: () => Promise<NotebookCalls>;
  readonly log: SessionLog;
  readonly clientId: string;
}

/** A text VS Code handed over to be saved, with the base it was made from, both fixed at that moment. */
export interface HandedOver {
  readonly uri: string;
  readonly form: NotebookForm;
  readonly text: string;
  readonly base: BaseSnapshot | undefined;
  /** Save the text over PostHog's version, newer or not (no merge). */
  readonly overwrite: boolean;
}

/**
 * The saves of one notebook, each planned against the base its text was made from (fixed when VS Code handed the
 * text over) and sent (./notebookSave.ts, ./markdownSaveCall.ts): when PostHog's version moved on since that base,
 * merged with it before it is sent. What PostHog answers moves the session's version and the editor's base.
 */
export class SessionWrites {
  /** The server answered collab/markdown_save with 404 or 405: Markdown notebooks save with a PATCH. */
  private markdownSaveUnsupported = false;

  constructor(private readonly context: WritesContext) {}

  async write(handed: HandedOver): Promise<WriteOutcome> {
    const { version, bases, log } = this.context;
    const { uri, form, text, base, overwrite } = handed;
    const level = version.current.user_access_level;
    if (isViewOnly(level)) {
      return { kind: 'viewOnly', level: level ?? '' };
    }
    if (bases.isSuperseded(uri, text)) {
      log.info(`${uri}: this text was saved before and PostHog merged it with others' changes, which it lacks; nothing to send.`);
      return { kind: 'unchanged' };
    }
    if (base?.text === text && !overwrite) {
      return { kind: 'unchanged' };
    }
    let save: PendingSave | undefined;
    if (form === 'json') {
      save = planJsonWrite(text, version.shown, base);
    } else {
      const against = base ?? (overwrite ? snapshotOf(version.current, version.textOf('markdown').text, version.mtime) : undefined);
      if (!against) {
        log.warn(`${uri}: no base is known for this text; refusing to plan it against PostHog's current version.`);
        return { kind: 'noBase' };
      }
      save = planMarkdownWrite(text, against);
    }
    if (!save) {
      return { kind: 'unchanged' };
    }
    const sent = await this.send(save, uri, overwrite);
    if (sent.kind === 'saved') {
      // PostHog may have rewritten what it stored (query nodes normalised, Python nodes annotated): the editor
      // then takes PostHog's version as it takes a merge, and its next save merges with it.
      const rewrite = sent.own ? describeRewrite(save.body.content, sent.notebook.content) : [];
      if (rewrite.length > 0) {
        log.info(`${uri}: saved as version ${sent.notebook.version}; PostHog changed what it stored: ${rewrite.join('; ')}. The editor takes PostHog's version.`);
      }
      this.acceptWritten(uri, save, sent.notebook, sent.own && rewrite.length === 0);
      return rewrite.length > 0 ? { ...sent, own: false } : sent;
    }
    if (sent.kind === 'conflicted') {
      return this.showConflicts(uri, save, sent.server, sent.outcome);
    }
    return sent;
  }

  /**
   * One save sent: a Markdown notebook's through PostHog's versioned Markdown save (unless the server has none),
   * others as a PATCH; both merge first with the newest version the session knows when it is newer than the
   * save's base. PostHog's refusal of the content comes back as ContentRefusedError, at the node it concerns in
   * the editor's text; a refusal of the write (403: the user's access changed) first learns the notebook's
   * access level again, so that it opens read-only from now on.
   */
  private async send(save: PendingSave, uri: string, overwrite: boolean): Promise<SendOutcome> {
    const { ref, version, log, clientId } = this.context;
    const calls = await this.context.calls();
    const options = { overwrite, known: version.latest(), label: uri, log };
    try {
      if (this.markdownSaveUnsupported || !isMarkdownNotebookSave(save)) {
        return await sendSave(calls, ref, save, options);
      }
      return await sendMarkdownSave(calls, ref, save, { ...options, clientId, onUnsupported: () => (this.markdownSaveUnsupported = true) });
    } catch (error) {
      if (isContentRefusal(error)) {
        const detail = error.detail ?? error.userMessage;
        log.warn(`${uri}: PostHog refused the content: ${detail}`);
        throw new ContentRefusedError(detail, locateRefusedNode(save.form, save.text, save.full.content));
      }
      if (error instanceof PermissionDeniedError) {
        await calls.get(ref.projectId, ref.shortId).then((latest) => version.accept(latest), () => undefined);
      }
      throw error;
    }
  }

  /** Gives the notebook the title `title` on PostHog (a PATCH without content, which PostHog does not version-check). */
  async retitle(title: string): Promise<Notebook> {
    const { ref, version } = this.context;
    const notebook = await (await this.context.calls()).update(ref.projectId, ref.shortId, { title });
    version.accept(notebook);
    return notebook;
  }

  /**
   * Makes a legacy notebook a Markdown notebook: its content becomes one ph-markdown-notebook node holding
   * `markdown` (as PostHog's own conversion does), saved on `on`, the version the Markdown was written from.
   */
  async convertToMarkdown(markdown: string, on: number): Promise<Notebook> {
    const { ref, version } = this.context;
    if (markdownOf(version.current.content) !== undefined) {
      return version.current;
    }
    const saved = await (await this.context.calls()).update(ref.projectId, ref.shortId, {
      content: { type: 'doc', content: [{ type: MARKDOWN_NODE, attrs: { nodeId: MARKDOWN_NODE_ID, markdown } }] },
      text_content: markdown,
      version: on,
    });
    version.accept(saved);
    return saved;
  }

  /** The editor holds the text it saved until it reloads: based on the version that took it, `merged` unless PostHog holds exactly that text. */
  private acceptWritten(uri: string, save: PendingSave, notebook: Notebook, own: boolean): void {
    const { version, bases } = this.context;
    version.acceptWritten(notebook, save.form === 'markdown' && own ? save.text : undefined);
    const editable = own ? editableOf(notebook) : save.full;
    bases.written(uri, { version: notebook.version, editable, text: save.text, mtime: version.mtime, merged: !own || undefined, displayed: save.displayed });
  }

  /** The editor gets the merged text with conflict markers, if it still holds the text saved; it is then based on PostHog's version. */
  private async showConflicts(
    uri: string,
    save: PendingSave,
    server: Notebook,
    outcome: { readonly text: string; readonly base?: string; readonly conflicts: number },
  ): Promise<WriteOutcome> {
    const { version, bases, editors } = this.context;
    const knownMtime = (await bases.dirtyMtime(uri)) ?? save.base?.mtime ?? version.mtime;
    const byPostHog = isServerRevision(version.current, server);
    version.accept(server);
    version.shown.recordServed(server);
    const theirs = outcome.base ?? version.textOf(save.form).text;
    const marked = await editors.replaceText(uri, save.text, outcome.text);
    if (marked) {
      bases.edited(uri, save.text, outcome.text, snapshotOf(server, theirs, knownMtime));
    }
    return { kind: 'conflicted', server, conflicts: outcome.conflicts, marked, byPostHog };
  }
}

/** Problems of a Markdown editor's `text` based on `base`: conflict markers, and what a save of it would refuse or keep as is. */
export function markdownIssuesOf(text: string, base: BaseSnapshot | undefined, version: SessionVersion): readonly MarkdownIssue[] {
  const markers = conflictMarkerIssues(text);
  if (!base || markdownOf(base.editable.content) !== undefined) {
    return markers;
  }
  if (text === base.text) {
    return [...markers, ...(version.current.version === base.version ? version.textOf('markdown').losses() : [])];
  }
  if (text.length > LIVE_CONVERSION_MAX_CHARS) {
    return markers; // converting back takes a noticeable moment on every pause in typing; the save still checks
  }
  try {
    editableFromMarkdown(text, base.editable);
    return markers;
  } catch (error) {
    return error instanceof MarkdownSaveError ? error.issues : markers;
  }
}
