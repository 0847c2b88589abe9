import { type Notebook, PermissionDeniedError } from '../../api';
import { Emitter } from '../../common/emitter';
import type { MarkdownIssue } from '../markdown';
import {
  conflictMarkerIssues,
  editableFromMarkdown,
  MarkdownSaveError,
  markdownTextOf,
  renderMarkdown,
  snapshotOf,
} from '../markdownSave';
import { editableOf, MARKDOWN_NODE, MARKDOWN_NODE_ID, markdownOf, serializeNotebook } from '../notebookDocument';
import { NotebookHistory } from '../notebookHistory';
import { isCurrentName } from '../notebookNames';
import { type NotebookForm, notebookFormOf } from '../notebookPaths';
import { type CaretInText, Collaborators } from './collaborators';
import { isViewOnly } from '../accessLevel';
import { isServerRevision } from './changeAuthor';
import { ContentRefusedError, isContentRefusal, locateRefusedNode } from './contentRefusal';
import { describeRewrite } from './contentRewrite';
import { EditorBases } from './editorBases';
import type { LiveUpdates } from './liveUpdates';
import { isMarkdownNotebookSave, sendMarkdownSave } from './markdownSaveCall';
import { type PendingSave, planJsonWrite, planMarkdownWrite, type SendOutcome, sendSave } from './notebookSave';
import type { Author } from './presence';
import type { BaseStore, EditorFacts, NotebookCalls, NotebookRef, SessionLog } from './ports';
import { authorOfVersion, mergeIntoEditor, notebookAfterUpdate } from './remoteChanges';
import type { LineRange } from './remoteMerge';
import type { RemotePresence, RemoteUpdate, StreamTarget } from './streamUpdates';

/** A read within this long after a fetch serves what that fetch got. */
export const FRESH_MS = 5_000;
/** How long the user must pause typing before a remote change waiting for it is merged into their text. */
const TYPING_PAUSE_MS = 300;
/** Above this, a legacy notebook's Markdown is converted back only on save, not for live diagnostics. */
const LIVE_CONVERSION_MAX_CHARS = 500_000;

/** One file's text of a notebook version. */
export interface FormText {
  readonly text: string;
  readonly bytes: Uint8Array;
  /** What the Markdown of a legacy notebook cannot hold exactly: checked when first asked, after the editor shows. */
  losses(): readonly MarkdownIssue[];
}

export type SessionChange =
  /** PostHog's version moved on (by `author`, when known), and every editor with unsaved changes took it: the others reload. */
  | { readonly kind: 'changed'; readonly notebook: Notebook; readonly author?: Author }
  /**
   * PostHog's version was merged into the unsaved editor of `uri`, except its changes to the editor's lines
   * `held` (both changed them: merged when the editor saves).
   */
  | { readonly kind: 'merged'; readonly notebook: Notebook; readonly uri: string; readonly author?: Author; readonly held: readonly LineRange[] }
  /**
   * PostHog has a newer version, held back while the editor of `uri` has unsaved changes (told once per
   * version); `held`: the editor's lines its changes overlap, when known.
   */
  | {
      readonly kind: 'held';
      readonly notebook: Notebook;
      readonly uri: string;
      readonly author?: Author;
      readonly held: readonly LineRange[];
      /** PostHog made the version itself (its Markdown migration), not last_modified_by. */
      readonly byPostHog: boolean;
    }
  /** Others' carets changed. */
  | { readonly kind: 'presence' };

export type WriteOutcome =
  /** The text changes nothing (or was saved before): nothing sent. */
  | { readonly kind: 'unchanged' }
  /** A Markdown text whose base this window does not know: not planned against PostHog's current version, refused. */
  | { readonly kind: 'noBase' }
  /** The notebook is view-only for this user (user_access_level below "editor"): nothing sent. */
  | { readonly kind: 'viewOnly'; readonly level: string }
  /** PostHog holds `notebook`: exactly the text when `own`, else merged with others' changes (the editor reloads it). */
  | { readonly kind: 'saved'; readonly notebook: Notebook; readonly own: boolean }
  /**
   * Both sides changed the same places: nothing saved. `marked`: the editor now shows the merge with conflict
   * markers, based on `server`; false when the user typed meanwhile (the editor keeps its text and base).
   */
  | { readonly kind: 'conflicted'; readonly server: Notebook; readonly conflicts: number; readonly marked: boolean; readonly byPostHog: boolean }
  /** PostHog's version moved on at every attempt. */
  | { readonly kind: 'keepsChanging' };

export interface SessionDeps {
  /** The connection's notebook calls (its client may be replaced, e.g. when the network settings change). */
  readonly calls: () => Promise<NotebookCalls>;
  readonly editors: EditorFacts;
  readonly archive: BaseStore;
  readonly log: SessionLog;
  /** The session's source of PostHog's changes: its stream, or polling. */
  readonly updates: (target: StreamTarget) => LiveUpdates;
  /** This window's client id on PostHog's collaboration endpoints. */
  readonly clientId: string;
}

/**
 * One notebook while editors show it (or a moment after a fetch): PostHog's version as the editors are
 * given it, each editor's base (./editorBases.ts), the source of PostHog's changes, and the queue of saves.
 * Saves of the notebook run one at a time, each planned once the one before has moved the bases on. Knows
 * nothing of VS Code: the file system (../notebookFiles.ts) and the editors (../notebookEditors.ts) call it.
 */
export class NotebookSession implements StreamTarget {
  private current: Notebook;
  private readonly texts = new Map<NotebookForm, FormText>();
  /** A save's own Markdown, served for the version it made instead of the conversion, so the user's spelling stays. */
  private written: { readonly version: number; readonly text: string } | undefined;
  private lastMtime = 0;
  /** The modification time of the current version: above every one VS Code was told before. */
  mtime: number;
  fetchedAt = Date.now();
  /** A newer version held back while an editor has unsaved changes. */
  remote: Notebook | undefined;
  private warnedVersion: number | undefined;
  /** File system watchers of the notebook's files. */
  watchers = 0;
  /** The versions JSON editors were shown, for the read-only block check. */
  readonly shown: NotebookHistory;
  readonly bases: EditorBases;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly updates: LiveUpdates;
  private following = false;
  private paused = false;
  /** A newer version waits for the user to pause typing, to be merged into their unsaved text. */
  private mergeWhenTypingPauses: { readonly author?: Author } | undefined;
  private typingPause: ReturnType<typeof setTimeout> | undefined;
  /** The server answered collab/markdown_save with 404 or 405: Markdown notebooks save with a PATCH. */
  private markdownSaveUnsupported = false;
  readonly collaborators: Collaborators;
  private readonly changes = new Emitter<SessionChange>();
  readonly onDidChange = this.changes.event;

  constructor(
    readonly ref: NotebookRef,
    notebook: Notebook,
    private readonly deps: SessionDeps,
  ) {
    this.current = notebook;
    this.mtime = this.nextMtime(Date.parse(notebook.last_modified_at) || Date.now());
    this.shown = new NotebookHistory(ref.shortId);
    this.bases = new EditorBases(deps.editors, deps.archive, deps.log);
    this.collaborators = new Collaborators(ref, deps.clientId, deps.calls, deps.log, () => this.changes.fire({ kind: 'presence' }));
    this.updates = deps.updates(this);
    this.followIfShown();
  }

  /** PostHog's version as the editors are given it. */
  get notebook(): Notebook {
    return this.current;
  }

  get ctime(): number {
    return Date.parse(this.current.created_at) || 0;
  }

  latestKnown(): Notebook {
    return this.remote ?? this.current;
  }

  isFresh(now = Date.now()): boolean {
    return now - this.fetchedAt <= FRESH_MS;
  }

  /** Whether a stat may answer from the snapshot: just fetched, or shown in an editor (live updates keep it current). */
  isTrusted(): boolean {
    return this.isFresh() || this.watchers > 0 || this.deps.editors.openUris().length > 0;
  }

  /** A version fetched or saved becomes the one the editors are given (an older answer arriving late is ignored). */
  accept(notebook: Notebook): void {
    if (notebook.version < this.current.version) {
      return;
    }
    const same = notebook.version === this.current.version && serializeNotebook(notebook) === serializeNotebook(this.current);
    this.current = notebook;
    this.fetchedAt = Date.now();
    if (!same) {
      this.texts.clear();
      this.mtime = this.nextMtime(Date.parse(notebook.last_modified_at) || 0);
    }
  }

  /** The text of one of the notebook's files for the current version, made once per version. */
  textOf(form: NotebookForm): FormText {
    let text = this.texts.get(form);
    if (!text) {
      const own = form === 'markdown' && this.written?.version === this.current.version ? this.written.text : undefined;
      text = own !== undefined ? { text: own, bytes: new TextEncoder().encode(own), losses: () => [] } : renderForm(this.current, form);
      this.texts.set(form, text);
    }
    return text;
  }

  /** The bytes a read of `uri` gets; the editor of `uri` is based on them once it shows them. */
  read(uri: string, form: NotebookForm): Uint8Array {
    const text = this.textOf(form);
    this.shown.recordServed(this.current);
    this.bases.served(uri, snapshotOf(this.current, text.text, this.mtime));
    return text.bytes;
  }

  /**
   * The modification time a stat of `uri` reports: the current version's, except to an editor with unsaved
   * changes, which is told nothing newer than it was ever told (so its save merges instead of VS Code's "newer
   * on disk" refusal, also after a reload restored the text, and after a save from elsewhere).
   */
  async statMtime(uri: string): Promise<number> {
    return Math.min((await this.bases.dirtyMtime(uri)) ?? this.mtime, this.mtime);
  }

  /** The notebook's current file names, or one an open editor uses. */
  isNameInUse(uri: string, fileName: string): boolean {
    return isCurrentName(fileName, this.current) || this.deps.editors.isOpen(uri);
  }

  /** The editor of `uri` opened. */
  editorOpened(uri: string): void {
    this.bases.follow(uri);
    this.followIfShown();
  }

  /** The editor of `uri` changed its text, its dirty state, or was saved. */
  editorChanged(uri: string): void {
    this.bases.follow(uri);
    if (this.mergeWhenTypingPauses) {
      clearTimeout(this.typingPause);
      this.typingPause = setTimeout(() => this.mergeAfterTyping(), TYPING_PAUSE_MS);
    }
  }

  private mergeAfterTyping(): void {
    const waiting = this.mergeWhenTypingPauses;
    const latest = this.remote;
    if (waiting && latest) {
      void this.enqueue(() => (this.remote === latest ? this.takeRemote(latest, waiting.author) : Promise.resolve()));
    }
  }

  /** The editor of `uri` closed. */
  editorClosed(uri: string): void {
    this.bases.closed(uri);
    if (this.following && this.deps.editors.openUris().length === 0) {
      this.following = false;
      this.updates.stop();
    }
  }

  /** Stops following PostHog's changes for a while (the window has been in the background long). */
  pauseUpdates(): void {
    this.paused = true;
    if (this.following) {
      this.updates.stop();
    }
  }

  /** Follows PostHog's changes again after a pause (the stream replays what was missed, or the notebook is checked). */
  resumeUpdates(): void {
    this.paused = false;
    if (this.following) {
      this.updates.start();
    }
  }

  /** Whether the session can go: no editor, no watcher, no editor record left, nothing fetched lately. */
  isIdle(now: number, idleMs: number): boolean {
    return this.deps.editors.openUris().length === 0 && this.watchers <= 0 && this.bases.isIdle && now - this.fetchedAt > idleMs;
  }

  /** Looks for PostHog's changes now (tests, or an editor asking). */
  checkRemote(): Promise<void> {
    return this.updates.checkNow();
  }

  /** Starts or stops following PostHog's changes again (e.g. the poll interval changed). */
  restartUpdates(): void {
    if (this.following && !this.paused) {
      this.updates.stop();
      this.updates.start();
    }
  }

  /**
   * PostHog holds `latest` (a GET of the live updates): with every editor clean, the session moves on to it and
   * the editors reload; an editor with unsaved changes gets its changes merged in, or held where they overlap.
   * Runs after the saves before it.
   */
  acceptRemote(latest: Notebook): Promise<void> {
    return this.enqueue(() => this.takeRemote(latest, authorOfVersion(latest, this.latestKnown())));
  }

  /** An update from PostHog's stream: the version it made, from its diff when that applies, else fetched. */
  applyUpdate(update: RemoteUpdate): Promise<void> {
    return this.enqueue(() => this.applyUpdateNow(update));
  }

  presence(presence: RemotePresence): void {
    this.collaborators.take(presence);
  }

  streaming(open: boolean): void {
    this.collaborators.streaming(open);
  }

  knownSince(): number {
    return this.fetchedAt;
  }

  /** Others' carets in the text the editor of `uri` shows now. */
  caretsIn(uri: string): CaretInText[] {
    const text = this.deps.editors.textOf(uri);
    return text === undefined || notebookFormOf(uri) !== 'markdown' ? [] : this.collaborators.caretsIn(text, this.bases.known(uri)?.editable.content ?? this.current.content);
  }

  /** This window's caret is at `offset` of the Markdown editor of `uri`: others are told (soon, and at most once every 3 seconds). */
  publishCaret(uri: string, offset: number): void {
    const text = this.deps.editors.textOf(uri);
    const base = this.bases.known(uri);
    if (text !== undefined && notebookFormOf(uri) === 'markdown') {
      this.collaborators.publish(text, offset, base?.editable.content ?? this.current.content, base?.version ?? this.current.version);
    }
  }

  private async applyUpdateNow(update: RemoteUpdate): Promise<void> {
    // This window's own saves are known by the versions they were given, which the session holds by now (a
    // save's update is taken after the save), never by the client id: others see it, so a teammate can send it.
    if (update.clientId && update.clientId !== this.deps.clientId && update.cursor) {
      this.collaborators.take({ clientId: update.clientId, author: update.author, version: update.version, cursor: update.cursor });
    }
    const known = this.latestKnown();
    if (update.version <= known.version) {
      return; // known already: a save of this window, or a replay
    }
    // A PATCH's update names no one and the JSON document shows who saved: those are fetched instead.
    const jsonShown = this.deps.editors.openUris().some((uri) => notebookFormOf(uri) === 'json');
    const next = update.clientId && !update.step && !jsonShown ? notebookAfterUpdate(known, update, Date.now()) : undefined;
    if (next) {
      await this.takeRemote(next, update.author);
      return;
    }
    const latest = await (await this.deps.calls()).get(this.ref.projectId, this.ref.shortId);
    await this.takeRemote(latest, update.author ?? authorOfVersion(latest, known));
  }

  private async takeRemote(latest: Notebook, author: Author | undefined): Promise<void> {
    const current = this.current;
    if (latest.version < current.version) {
      return;
    }
    if (latest.version === current.version && latest.last_modified_at === current.last_modified_at) {
      this.remote = undefined;
      return;
    }
    let held = false;
    let typing = false;
    for (const uri of this.deps.editors.openUris().filter((open) => this.deps.editors.isDirty(open))) {
      const merge = notebookFormOf(uri) === 'markdown' ? await mergeIntoEditor(this.deps.editors, this.bases, uri, latest, this.mtime) : undefined;
      if (merge?.kind === 'merged') {
        this.changes.fire({ kind: 'merged', notebook: latest, uri, author, held: merge.held });
        continue;
      }
      if (merge?.kind === 'typing') {
        typing = true;
        continue;
      }
      held = true;
      if (this.warnedVersion !== latest.version) {
        this.warnedVersion = latest.version;
        this.changes.fire({ kind: 'held', notebook: latest, uri, author, held: merge?.held ?? [], byPostHog: isServerRevision(current, latest) });
      }
    }
    this.mergeWhenTypingPauses = typing ? { author } : undefined;
    if (typing) {
      clearTimeout(this.typingPause);
      this.typingPause = setTimeout(() => this.mergeAfterTyping(), TYPING_PAUSE_MS);
    }
    if (held || typing) {
      this.remote = latest;
      return;
    }
    this.remote = undefined;
    this.accept(latest);
    const typedMeanwhile = await this.showInCleanEditors();
    this.changes.fire({ kind: 'changed', notebook: latest, author });
    for (const uri of typedMeanwhile) {
      await this.mergeIntoTypedEditor(uri, current, latest, author);
    }
  }

  /**
   * The user typed into the clean editor of `uri` while it was taking `latest` in place: its base is still
   * the text it was served, so the change merges into its text as into any unsaved one, or is held for its save.
   */
  private async mergeIntoTypedEditor(uri: string, known: Notebook, latest: Notebook, author: Author | undefined): Promise<void> {
    const merge = notebookFormOf(uri) === 'markdown' ? await mergeIntoEditor(this.deps.editors, this.bases, uri, latest, this.mtime) : undefined;
    if (merge?.kind === 'merged') {
      this.changes.fire({ kind: 'merged', notebook: latest, uri, author, held: merge.held });
    } else {
      this.changes.fire({ kind: 'held', notebook: latest, uri, author, held: merge?.kind === 'held' ? merge.held : [], byPostHog: isServerRevision(known, latest) });
    }
  }

  /**
   * Clean editors take the current version in place, as the smallest edits (a reload of the file, which VS Code
   * does a while after it is told, replaces every changed line and moves a cursor on one), then are saved as
   * they are, which sends nothing: their text is the version's. Where a save would change the text (formatters
   * on save), or the user typed meanwhile, the 'changed' event reloads them instead.
   */
  private async showInCleanEditors(): Promise<string[]> {
    const { editors } = this.deps;
    const typedMeanwhile: string[] = [];
    for (const uri of editors.openUris().filter((open) => !editors.isDirty(open) && editors.savesAsIs(open))) {
      const form = notebookFormOf(uri) ?? 'json';
      const shown = editors.textOf(uri);
      const text = this.textOf(form).text;
      if (shown === undefined || shown === text) {
        continue;
      }
      if (!(await editors.replaceText(uri, shown, text))) {
        // Keystrokes reached the editor first: it keeps the base it was served until the change merges in.
        typedMeanwhile.push(uri);
        continue;
      }
      const snapshot = snapshotOf(this.current, text, this.mtime);
      this.bases.served(uri, snapshot);
      if (form === 'json') {
        this.shown.recordServed(this.current);
      }
      this.bases.rebase(uri, snapshot);
      // Not awaited: the save's write waits for this update to finish (saves and updates run one at a time).
      void editors.save(uri);
    }
    return typedMeanwhile;
  }

  /**
   * Saves the text written to `uri` (in `form`), after the saves before it. It is planned against the base
   * the editor's text derives from: a text saved before sends nothing (PostHog may have merged others' changes
   * into it, which it lacks), and a Markdown text with no known base is refused rather than planned against
   * PostHog's current version (unless `overwrite`, which saves it over whatever PostHog has).
   */
  write(uri: string, form: NotebookForm, text: string, options: { overwrite: boolean }): Promise<WriteOutcome> {
    return this.enqueue(() => this.writeNow(uri, form, text, options.overwrite));
  }

  /** Problems of the Markdown editor text of `uri`: conflict markers, and what a save of it would refuse or keep as is. */
  markdownIssues(uri: string, text: string): readonly MarkdownIssue[] {
    const markers = conflictMarkerIssues(text);
    const base = this.bases.known(uri);
    if (!base || markdownOf(base.editable.content) !== undefined) {
      return markers;
    }
    if (text === base.text) {
      return [...markers, ...(this.current.version === base.version ? this.textOf('markdown').losses() : [])];
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

  /** PostHog's current text of the file `uri` (one GET), which the editor of `uri` is about to take (discarding its own). */
  takeLatest(uri: string, form: NotebookForm): Promise<string> {
    return this.enqueue(async () => {
      const calls = await this.deps.calls();
      this.accept(await calls.get(this.ref.projectId, this.ref.shortId));
      this.remote = undefined;
      const text = this.textOf(form).text;
      this.shown.recordServed(this.current);
      const snapshot = snapshotOf(this.current, text, this.mtime);
      this.bases.served(uri, snapshot);
      this.bases.rebase(uri, snapshot);
      return text;
    });
  }

  /** Gives the notebook the title `title` on PostHog (a PATCH without content, which PostHog does not version-check). */
  retitle(title: string): Promise<Notebook> {
    return this.enqueue(async () => {
      const notebook = await (await this.deps.calls()).update(this.ref.projectId, this.ref.shortId, { title });
      this.accept(notebook);
      return notebook;
    });
  }

  /**
   * Makes a legacy notebook a Markdown notebook: its content becomes one ph-markdown-notebook node holding
   * `markdown` (as PostHog's own conversion does), saved on `version`, the version the Markdown was written
   * from (PostHog refuses it if the notebook changed since). Returns the saved notebook.
   */
  convertToMarkdown(markdown: string, version: number): Promise<Notebook> {
    return this.enqueue(async () => {
      if (markdownOf(this.current.content) !== undefined) {
        return this.current;
      }
      const saved = await (await this.deps.calls()).update(this.ref.projectId, this.ref.shortId, {
        content: { type: 'doc', content: [{ type: MARKDOWN_NODE, attrs: { nodeId: MARKDOWN_NODE_ID, markdown } }] },
        text_content: markdown,
        version,
      });
      this.accept(saved);
      this.changes.fire({ kind: 'changed', notebook: saved });
      return saved;
    });
  }

  dispose(): void {
    clearTimeout(this.typingPause);
    this.updates.dispose();
    this.collaborators.dispose();
    this.bases.dispose();
    this.changes.dispose();
  }

  private async writeNow(uri: string, form: NotebookForm, text: string, overwrite: boolean): Promise<WriteOutcome> {
    const level = this.current.user_access_level;
    if (isViewOnly(level)) {
      return { kind: 'viewOnly', level: level ?? '' };
    }
    const base = await this.bases.baseOf(uri);
    if (this.bases.isSuperseded(uri, text)) {
      this.deps.log.info(`${uri}: this text was saved before and PostHog merged it with others' changes, which it lacks; nothing to send.`);
      return { kind: 'unchanged' };
    }
    if (base?.text === text && !overwrite) {
      return { kind: 'unchanged' };
    }
    let save: PendingSave | undefined;
    if (form === 'json') {
      save = planJsonWrite(text, this.shown, base);
    } else {
      const against = base ?? (overwrite ? snapshotOf(this.current, this.textOf('markdown').text, this.mtime) : undefined);
      if (!against) {
        this.deps.log.warn(`${uri}: no base is known for this text; refusing to plan it against PostHog's current version.`);
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
        this.deps.log.info(`${uri}: saved as version ${sent.notebook.version}; PostHog changed what it stored: ${rewrite.join('; ')}. The editor takes PostHog's version.`);
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
   * others as a PATCH. PostHog's refusal of the content comes back as ContentRefusedError, at the node it
   * concerns in the editor's text; a refusal of the write (403: the user's access changed) first learns the
   * notebook's access level again, so that it opens read-only from now on.
   */
  private async send(save: PendingSave, uri: string, overwrite: boolean): Promise<SendOutcome> {
    const calls = await this.deps.calls();
    const options = { overwrite, known: this.current, label: uri, log: this.deps.log };
    try {
      if (this.markdownSaveUnsupported || !isMarkdownNotebookSave(save)) {
        return await sendSave(calls, this.ref, save, options);
      }
      return await sendMarkdownSave(calls, this.ref, save, { ...options, clientId: this.deps.clientId, onUnsupported: () => (this.markdownSaveUnsupported = true) });
    } catch (error) {
      if (isContentRefusal(error)) {
        const detail = error.detail ?? error.userMessage;
        this.deps.log.warn(`${uri}: PostHog refused the content: ${detail}`);
        throw new ContentRefusedError(detail, locateRefusedNode(save.form, save.text, save.full.content));
      }
      if (error instanceof PermissionDeniedError) {
        await calls.get(this.ref.projectId, this.ref.shortId).then((latest) => this.accept(latest), () => undefined);
      }
      throw error;
    }
  }

  /** The editor holds the text it saved until it reloads: based on the version that took it, `merged` unless PostHog holds exactly that text. */
  private acceptWritten(uri: string, save: PendingSave, notebook: Notebook, own: boolean): void {
    this.accept(notebook);
    this.remote = undefined;
    this.shown.recordServed(notebook);
    if (save.form === 'markdown' && own) {
      this.written = { version: notebook.version, text: save.text };
      this.texts.delete('markdown');
    }
    this.mtime = this.nextMtime(this.mtime + 1);
    const editable = own ? editableOf(notebook) : save.full;
    this.bases.written(uri, { version: notebook.version, editable, text: save.text, mtime: this.mtime, merged: !own || undefined, displayed: save.displayed });
  }

  /** The editor gets the merged text with conflict markers, if it still holds the text saved; it is then based on PostHog's version. */
  private async showConflicts(
    uri: string,
    save: PendingSave,
    server: Notebook,
    outcome: { readonly text: string; readonly base?: string; readonly conflicts: number },
  ): Promise<WriteOutcome> {
    const knownMtime = (await this.bases.dirtyMtime(uri)) ?? save.base?.mtime ?? this.mtime;
    const byPostHog = isServerRevision(this.current, server);
    this.accept(server);
    this.shown.recordServed(server);
    const theirs = outcome.base ?? this.textOf(save.form).text;
    const marked = await this.deps.editors.replaceText(uri, save.text, outcome.text);
    if (marked) {
      this.bases.rebase(uri, snapshotOf(server, theirs, knownMtime));
    }
    return { kind: 'conflicted', server, conflicts: outcome.conflicts, marked, byPostHog };
  }

  private followIfShown(): void {
    if (!this.following && this.deps.editors.openUris().length > 0) {
      this.following = true;
      if (!this.paused) {
        this.updates.start();
      }
    }
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Strictly increasing modification times, each at least `floor`. */
  private nextMtime(floor: number): number {
    this.lastMtime = Math.max(this.lastMtime + 1, floor);
    return this.lastMtime;
  }
}

function renderForm(notebook: Notebook, form: NotebookForm): FormText {
  const text = form === 'json' ? serializeNotebook(notebook) : markdownTextOf(notebook.content);
  let losses: readonly MarkdownIssue[] | undefined;
  return {
    text,
    bytes: new TextEncoder().encode(text),
    losses: () => (losses ??= form === 'json' || markdownOf(notebook.content) !== undefined ? [] : renderMarkdown(notebook.content).losses),
  };
}

/** PostHog's text of `notebook` in `form` (e.g. for a diff against the editor). */
export function notebookText(notebook: Notebook, form: NotebookForm): string {
  return renderForm(notebook, form).text;
}
