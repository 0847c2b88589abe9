import { randomUUID } from 'node:crypto';
import type { Notebook } from '../../api';
import { Emitter } from '../../common/emitter';
import { projectItemKey } from '../../common/keys';
import { type LiveUpdates, PollingUpdates } from './liveUpdates';
import { NotebookSession, type SessionChange } from './notebookSession';
import type { BaseStore, EditorFacts, NotebookCalls, NotebookRef, SessionLog } from './ports';
import { StreamSlots, type StreamTarget, StreamUpdates } from './streamUpdates';

/** A session no editor shows, no watcher follows and nothing fetched lately goes after this long. */
const FORGET_IDLE_MS = 10 * 60_000;
export const DEFAULT_POLL_SECONDS = 30;
/** Open notebooks follow PostHog's stream (polling only where the server has none), or are only polled. */
export type LiveMode = 'stream' | 'poll';
/** Streams one connection keeps open at once; notebooks beyond are polled (each stream holds a connection of 16). */
export const STREAMS_PER_CONNECTION = 12;
/** How long the window may be in the background before open notebooks stop following PostHog's changes. */
export const PAUSE_AFTER_UNFOCUSED_MS = 5 * 60_000;

export interface SessionsDeps {
  /** The notebook calls of a connection's current client; rejects when it is signed out. */
  calls(connectionId: string): Promise<NotebookCalls>;
  /** The open editors of a notebook. */
  editors(ref: NotebookRef): EditorFacts;
  readonly archive: BaseStore;
  readonly log: SessionLog;
  /** How long the window may be in the background before notebooks stop following PostHog (tests shorten it). */
  readonly pauseAfterUnfocusedMs?: number;
}

export function sessionKey(ref: NotebookRef): string {
  return projectItemKey(ref.connectionId, ref.projectId, ref.shortId);
}

/**
 * The open notebooks' sessions, one per notebook: made when a notebook is first fetched, kept while editors
 * show it, forgotten a while after. One GET per notebook at a time (VS Code asks for a stat from several places
 * when it opens a file). Each session follows PostHog's changes on its collaboration stream, at most
 * STREAMS_PER_CONNECTION at once per connection; a server without the stream, and notebooks beyond those, are
 * polled every `pollSeconds` (0: not at all).
 */
export class NotebookSessions {
  private readonly sessions = new Map<string, NotebookSession>();
  private readonly fetching = new Map<string, Promise<NotebookSession>>();
  private pollSeconds = DEFAULT_POLL_SECONDS;
  private liveMode: LiveMode = 'stream';
  private readonly budgets = new Map<string, StreamSlots>();
  /** This window's client id on PostHog's collaboration endpoints: its own saves' updates carry it. */
  readonly clientId = `vscode-${randomUUID()}`;
  private pauseTimer: ReturnType<typeof setTimeout> | undefined;
  private paused = false;
  private readonly changes = new Emitter<{ readonly session: NotebookSession; readonly change: SessionChange }>();
  /** A session's notebook moved on, or a newer version was held back for an editor with unsaved changes. */
  readonly onDidChange = this.changes.event;

  constructor(private readonly deps: SessionsDeps) {}

  get(ref: NotebookRef): NotebookSession | undefined {
    return this.sessions.get(sessionKey(ref));
  }

  all(): readonly NotebookSession[] {
    return [...this.sessions.values()];
  }

  /** The notebook's session with PostHog's current version (one GET, shared by callers meanwhile). */
  fetch(ref: NotebookRef): Promise<NotebookSession> {
    const key = sessionKey(ref);
    let pending = this.fetching.get(key);
    if (!pending) {
      pending = this.deps
        .calls(ref.connectionId)
        .then((calls) => calls.get(ref.projectId, ref.shortId))
        .then((notebook) => this.accept(ref, notebook));
      this.fetching.set(key, pending);
      const forget = () => this.fetching.delete(key);
      pending.then(forget, forget);
    }
    return pending;
  }

  /** `notebook`, just fetched or created, becomes its session's version (a new session when there was none). */
  async accept(ref: NotebookRef, notebook: Notebook): Promise<NotebookSession> {
    const key = sessionKey(ref);
    const known = this.sessions.get(key);
    if (known) {
      await known.accept(notebook);
      return known;
    }
    this.prune();
    const session = new NotebookSession(ref, notebook, {
      calls: () => this.deps.calls(ref.connectionId),
      editors: this.deps.editors(ref),
      archive: this.deps.archive,
      log: this.deps.log,
      updates: (target) => this.updatesFor(ref, target),
      clientId: this.clientId,
    });
    if (this.paused) {
      session.pauseUpdates();
    }
    session.onDidChange((change) => this.changes.fire({ session, change }));
    this.sessions.set(key, session);
    return session;
  }

  /** The notebook was deleted: its session goes. */
  forget(ref: NotebookRef): void {
    const key = sessionKey(ref);
    this.sessions.get(key)?.dispose();
    this.sessions.delete(key);
  }

  /** How sessions made from now on follow PostHog: its stream (the default), or polling alone (tests). */
  setLiveMode(mode: LiveMode): void {
    this.liveMode = mode;
  }

  /**
   * The window gained or lost focus: after PAUSE_AFTER_UNFOCUSED_MS in the background, open notebooks stop
   * following PostHog's changes until it is focused again (when the stream replays what was missed).
   */
  setWindowFocused(focused: boolean): void {
    clearTimeout(this.pauseTimer);
    this.pauseTimer = undefined;
    if (!focused) {
      this.pauseTimer = setTimeout(() => this.pause(), this.deps.pauseAfterUnfocusedMs ?? PAUSE_AFTER_UNFOCUSED_MS);
      return;
    }
    if (this.paused) {
      this.paused = false;
      this.deps.log.info('The window is focused again: open notebooks follow PostHog\'s changes again.');
      for (const session of this.sessions.values()) {
        session.resumeUpdates();
      }
    }
  }

  /** Polls every open notebook every `seconds` (0 stops polling) where it has no stream. */
  setPollInterval(seconds: number): void {
    this.pollSeconds = seconds;
    for (const session of this.sessions.values()) {
      session.restartUpdates();
    }
  }

  /** One round of checks for PostHog's changes, for every notebook an editor shows; forgets idle sessions. */
  async checkOpenNotebooks(): Promise<void> {
    this.prune();
    await Promise.all(this.all().map((session) => (this.deps.editors(session.ref).openUris().length > 0 ? session.checkRemote() : undefined)));
  }

  dispose(): void {
    clearTimeout(this.pauseTimer);
    for (const session of this.sessions.values()) {
      session.dispose();
    }
    this.sessions.clear();
    this.changes.dispose();
  }

  private pause(): void {
    this.pauseTimer = undefined;
    this.paused = true;
    this.deps.log.info('The window has been in the background for a while: open notebooks stop following PostHog\'s changes until it is focused.');
    for (const session of this.sessions.values()) {
      session.pauseUpdates();
    }
  }

  private updatesFor(ref: NotebookRef, target: StreamTarget): LiveUpdates {
    const polling = () => new PollingUpdates(target, () => this.deps.calls(ref.connectionId), () => this.pollSeconds, this.deps.log);
    if (this.liveMode === 'poll') {
      return polling();
    }
    let budget = this.budgets.get(ref.connectionId);
    if (!budget) {
      budget = new StreamSlots(STREAMS_PER_CONNECTION);
      this.budgets.set(ref.connectionId, budget);
    }
    return new StreamUpdates(target, () => this.deps.calls(ref.connectionId), this.deps.log, { fallback: polling, budget });
  }

  /** Sessions of notebooks no editor shows any more go after a while, so memory does not grow with browsing. */
  private prune(now = Date.now()): void {
    for (const [key, session] of this.sessions) {
      if (session.isIdle(now, FORGET_IDLE_MS)) {
        session.dispose();
        this.sessions.delete(key);
      }
    }
  }
}
