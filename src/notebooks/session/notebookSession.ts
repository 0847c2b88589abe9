import type { Notebook } from '../../api';
import { Emitter } from '../../common/emitter';
import type { MarkdownIssue } from '../markdown';
import type { BaseSnapshot } from '../saving/markdownSavePlan';
import { isCurrentName } from '../model/notebookNames';
import { type NotebookForm, notebookFormOf } from '../model/notebookPaths';
import { type CaretInText, Collaborators } from './collaborators';
import { EditorBases } from './editorBases';
import type { LiveUpdates } from './liveUpdates';
import type { Author } from './remoteCarets';
import type { BaseStore, EditorFacts, NotebookCalls, NotebookRef, SessionLog } from './ports';
import { RemoteFollower, UpdatesSwitch } from './remoteFollower';
import { authorOfVersion } from './remoteChanges';
import type { LineRange } from './remoteMerge';
import { SessionVersion, type FormText } from './sessionVersion';
import { markdownIssuesOf, SessionWrites } from './sessionWrites';
import type { RemotePresence, RemoteUpdate, StreamTarget } from './streamUpdates';

export { FRESH_MS, type FormText, notebookText } from './sessionVersion';

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
 * One notebook while editors show it (or a moment after a fetch), and the one owner of its state: PostHog's
 * version as the editors are given it (./sessionVersion.ts), each editor's base (./editorBases.ts), the source of
 * PostHog's changes (followed by ./remoteFollower.ts), the saves (./sessionWrites.ts) and others' carets. That
 * state is private: it changes only through the methods below, each run in the notebook's one queue, so that a
 * save, an update and a discard never interleave. A save's text and the base it was made from are taken together
 * when VS Code hands the text over (`write`), before the queue, and never read again later. Knows nothing of VS
 * Code: the file system (../notebookFiles.ts) and the editors (../notebookEditors.ts) call it. See
 * docs/live-notebooks.md.
 */
export class NotebookSession implements StreamTarget {
  private readonly version: SessionVersion;
  private readonly bases: EditorBases;
  private readonly follower: RemoteFollower;
  private readonly writes: SessionWrites;
  /** File system watchers of the notebook's files. */
  private watchers = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly updates: UpdatesSwitch;
  readonly collaborators: Collaborators;
  private readonly changes = new Emitter<SessionChange>();
  readonly onDidChange = this.changes.event;

  constructor(
    readonly ref: NotebookRef,
    notebook: Notebook,
    private readonly deps: SessionDeps,
  ) {
    this.version = new SessionVersion(ref.shortId, notebook);
    this.bases = new EditorBases(deps.editors, deps.archive, deps.log);
    const parts = { ref, version: this.version, bases: this.bases, editors: deps.editors, calls: deps.calls, clientId: deps.clientId };
    this.follower = new RemoteFollower({ ...parts, fire: (change) => this.changes.fire(change), enqueue: (task) => this.enqueue(task) });
    this.writes = new SessionWrites({ ...parts, log: deps.log });
    this.collaborators = new Collaborators(ref, deps.clientId, deps.calls, deps.log, () => this.changes.fire({ kind: 'presence' }));
    this.updates = new UpdatesSwitch(deps.updates(this), deps.editors);
  }

  /** PostHog's version as the editors are given it. */
  get notebook(): Notebook {
    return this.version.current;
  }

  /** A newer version held back while an editor has unsaved changes. */
  get heldVersion(): Notebook | undefined {
    return this.version.held;
  }

  /** The modification time of the current version: above every one VS Code was told before. */
  get mtime(): number {
    return this.version.mtime;
  }

  get ctime(): number {
    return Date.parse(this.version.current.created_at) || 0;
  }

  latestKnown(): Notebook {
    return this.version.latest();
  }

  isFresh(now = Date.now()): boolean {
    return this.version.isFresh(now);
  }

  /** Whether a stat may answer from the snapshot: just fetched, or shown in an editor (live updates keep it current). */
  isTrusted(): boolean {
    return this.isFresh() || this.watchers > 0 || this.deps.editors.openUris().length > 0;
  }

  /** A version just fetched or created becomes the one the editors are given (in the queue, after the saves before it). */
  accept(notebook: Notebook): Promise<void> {
    return this.enqueue(async () => this.version.accept(notebook));
  }

  /** The text of one of the notebook's files for the current version, made once per version. */
  textOf(form: NotebookForm): FormText {
    return this.version.textOf(form);
  }

  /** The bytes a read of `uri` gets; the editor of `uri` is based on them once it shows them. */
  read(uri: string, form: NotebookForm): Uint8Array {
    const bytes = this.version.textOf(form).bytes;
    this.bases.served(uri, this.version.served(form));
    return bytes;
  }

  /**
   * The modification time a stat of `uri` reports: the current version's, except to an editor with unsaved
   * changes, which is told nothing newer than it was ever told (so its save merges instead of VS Code's "newer
   * on disk" refusal, also after a reload restored the text, and after a save from elsewhere).
   */
  async statMtime(uri: string): Promise<number> {
    return Math.min((await this.bases.dirtyMtime(uri)) ?? this.version.mtime, this.version.mtime);
  }

  /** The notebook's current file names, or one an open editor uses. */
  isNameInUse(uri: string, fileName: string): boolean {
    return isCurrentName(fileName, this.version.current) || this.deps.editors.isOpen(uri);
  }

  /** The editor of `uri` opened. */
  editorOpened(uri: string): void {
    this.bases.follow(uri);
    this.updates.editorsChanged();
  }

  /** The editor of `uri` changed its text, its dirty state, or was saved. */
  editorChanged(uri: string): void {
    this.bases.follow(uri);
    this.follower.typed();
  }

  /** The editor of `uri` closed. */
  editorClosed(uri: string): void {
    this.bases.closed(uri);
    this.updates.editorsChanged();
  }

  /** The file `from` was renamed to `to` (its editor follows): what the session knows of its editor moves with it. */
  renamed(from: string, to: string): Promise<void> {
    return this.enqueue(async () => this.bases.move(from, to));
  }

  /** A file system watcher of the notebook's files starts; the returned function ends it. */
  watch(): () => void {
    void this.enqueue(async () => void this.watchers++);
    let ended = false;
    return () => {
      if (!ended) {
        ended = true;
        void this.enqueue(async () => void this.watchers--);
      }
    };
  }

  /** What the editor of `uri` is based on now (after the saves and updates before this call). */
  baseOf(uri: string): Promise<BaseSnapshot | undefined> {
    return this.enqueue(() => this.bases.baseOf(uri));
  }

  /**
   * The editor of `uri` was given a text to save against `base` (a restore: the version the user saw when they
   * chose it), so that what PostHog changed since merges in. Its save is then handed over against that base.
   */
  planAgainst(uri: string, base: BaseSnapshot): Promise<void> {
    return this.enqueue(async () => {
      if (this.bases.known(uri)?.version !== base.version) {
        this.bases.rebase(uri, base);
      }
    });
  }

  /** Stops following PostHog's changes for a while (the window has been in the background long). */
  pauseUpdates(): void {
    this.updates.pause(true);
  }

  /** Follows PostHog's changes again after a pause (the stream replays what was missed, or the notebook is checked). */
  resumeUpdates(): void {
    this.updates.pause(false);
  }

  /** Whether the session can go: no editor, no watcher, no editor record left, nothing fetched lately. */
  isIdle(now: number, idleMs: number): boolean {
    return this.deps.editors.openUris().length === 0 && this.watchers <= 0 && this.bases.isIdle && now - this.version.knownSince > idleMs;
  }

  /** Looks for PostHog's changes now (tests, or an editor asking). */
  checkRemote(): Promise<void> {
    return this.updates.live.checkNow();
  }

  /** Starts or stops following PostHog's changes again (e.g. the poll interval changed). */
  restartUpdates(): void {
    this.updates.restart();
  }

  /**
   * PostHog holds `latest` (a GET of the live updates): with every editor clean, the session moves on to it and
   * the editors reload; an editor with unsaved changes gets its changes merged in, or held where they overlap.
   * Runs after the saves before it.
   */
  acceptRemote(latest: Notebook): Promise<void> {
    return this.enqueue(() => this.follower.take(latest, authorOfVersion(latest, this.version.latest())));
  }

  /** An update from PostHog's stream: the version it made, from its diff when that applies, else fetched. */
  applyUpdate(update: RemoteUpdate): Promise<void> {
    return this.enqueue(() =>
      this.follower.applyUpdate(update, (caret) =>
        this.collaborators.take({ clientId: caret.clientId!, author: caret.author, version: caret.version, cursor: caret.cursor! }),
      ),
    );
  }

  presence(presence: RemotePresence): void {
    this.collaborators.take(presence);
  }

  streaming(open: boolean): void {
    this.collaborators.streaming(open);
  }

  knownSince(): number {
    return this.version.knownSince;
  }

  /** Others' carets in the text the editor of `uri` shows now. */
  caretsIn(uri: string): CaretInText[] {
    const text = this.deps.editors.textOf(uri);
    return text === undefined || notebookFormOf(uri) !== 'markdown' ? [] : this.collaborators.caretsIn(text, this.bases.known(uri)?.editable.content ?? this.version.current.content);
  }

  /** This window's caret is at `offset` of the Markdown editor of `uri`: others are told (soon, and at most once every 3 seconds). */
  publishCaret(uri: string, offset: number): void {
    const text = this.deps.editors.textOf(uri);
    const base = this.bases.known(uri);
    if (text !== undefined && notebookFormOf(uri) === 'markdown') {
      this.collaborators.publish(text, offset, base?.editable.content ?? this.version.current.content, base?.version ?? this.version.current.version);
    }
  }

  /**
   * Saves `text`, which VS Code hands over to be written to `uri` (in `form`), after the saves before it. The base
   * the text was made from is taken now, with the text: a merge or an update that moves the editor on before the
   * save runs never makes the text look newer than it is; when PostHog's version moved on since that base, the
   * save merges with it before anything is sent. A text saved before sends nothing (PostHog may have merged
   * others' changes into it, which it lacks), and a Markdown text with no known base is refused rather than
   * planned against PostHog's current version (unless `overwrite`, which saves it over whatever PostHog has).
   */
  write(uri: string, form: NotebookForm, text: string, options: { overwrite: boolean }): Promise<WriteOutcome> {
    const base = this.bases.handOver(uri, text);
    return this.enqueue(async () => this.writes.write({ uri, form, text, base: await base, overwrite: options.overwrite }));
  }

  /** Problems of the Markdown editor text of `uri`: conflict markers, and what a save of it would refuse or keep as is. */
  markdownIssues(uri: string, text: string): readonly MarkdownIssue[] {
    return markdownIssuesOf(text, this.bases.known(uri), this.version);
  }

  /** PostHog's current text of the file `uri` (one GET), which the editor of `uri` is about to take (discarding its own). */
  takeLatest(uri: string, form: NotebookForm): Promise<string> {
    return this.enqueue(async () => {
      const calls = await this.deps.calls();
      this.version.accept(await calls.get(this.ref.projectId, this.ref.shortId));
      this.version.hold(undefined);
      const snapshot = this.version.served(form);
      this.bases.served(uri, snapshot);
      this.bases.rebase(uri, snapshot);
      return snapshot.text;
    });
  }

  /** Gives the notebook the title `title` on PostHog (a PATCH without content, which PostHog does not version-check). */
  retitle(title: string): Promise<Notebook> {
    return this.enqueue(() => this.writes.retitle(title));
  }

  /**
   * Makes a legacy notebook a Markdown notebook holding `markdown`, saved on `version`, the version the Markdown
   * was written from (PostHog refuses it if the notebook changed since). Returns the saved notebook.
   */
  convertToMarkdown(markdown: string, version: number): Promise<Notebook> {
    return this.enqueue(async () => {
      const saved = await this.writes.convertToMarkdown(markdown, version);
      this.changes.fire({ kind: 'changed', notebook: saved });
      return saved;
    });
  }

  dispose(): void {
    this.follower.dispose();
    this.updates.live.dispose();
    this.collaborators.dispose();
    this.bases.dispose();
    this.changes.dispose();
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
