import type { Notebook } from '../../api';
import { notebookFormOf } from '../model/notebookPaths';
import { isServerRevision } from './changeAuthor';
import type { EditorBases } from './editorBases';
import type { LiveUpdates } from './liveUpdates';
import type { SessionChange } from './notebookSession';
import type { Author } from './remoteCarets';
import type { EditorFacts, NotebookCalls, NotebookRef } from './ports';
import { authorOfVersion, mergeIntoEditor, notebookAfterUpdate } from './remoteChanges';
import type { SessionVersion } from './sessionVersion';
import type { RemoteUpdate } from './streamUpdates';

/** How long the user must pause typing before a remote change waiting for it is merged into their text. */
const TYPING_PAUSE_MS = 300;

/** What the follower works on: the session's own parts, and its queue (every call below runs inside it). */
export interface FollowerContext {
  readonly ref: NotebookRef;
  readonly version: SessionVersion;
  readonly bases: EditorBases;
  readonly editors: EditorFacts;
  readonly calls: () => Promise<NotebookCalls>;
  readonly clientId: string;
  readonly fire: (change: SessionChange) => void;
  /** Runs `task` in the session's queue, after the saves and updates before it. */
  readonly enqueue: (task: () => Promise<void>) => Promise<void>;
}

/**
 * How PostHog's changes reach the editors of one notebook (the session calls it inside its queue): a stream
 * update becomes the version it makes (from its diff, else one GET); unsaved Markdown editors get it merged into
 * their text where it does not overlap (./remoteMerge.ts), after the user pauses typing; with none held back, the
 * version becomes the session's and clean editors take it in place.
 */
export class RemoteFollower {
  private warnedVersion: number | undefined;
  /** A newer version waits for the user to pause typing, to be merged into their unsaved text. */
  private mergeWhenTypingPauses: { readonly author?: Author } | undefined;
  private typingPause: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly context: FollowerContext) {}

  /** An update from PostHog's stream: the version it made, from its diff when that applies, else fetched. */
  async applyUpdate(update: RemoteUpdate, onCaret: (update: RemoteUpdate) => void): Promise<void> {
    const { version, editors, ref } = this.context;
    // This window's own saves are known by the versions they were given, which the session holds by now (a
    // save's update is taken after the save), never by the client id: others see it, so a teammate can send it.
    if (update.clientId && update.clientId !== this.context.clientId && update.cursor) {
      onCaret(update);
    }
    const known = version.latest();
    if (update.version <= known.version) {
      return; // known already: a save of this window, or a replay
    }
    // A PATCH's update names no one and the JSON document shows who saved: those are fetched instead.
    const jsonShown = editors.openUris().some((uri) => notebookFormOf(uri) === 'json');
    const next = update.clientId && !update.step && !jsonShown ? notebookAfterUpdate(known, update, Date.now()) : undefined;
    if (next) {
      await this.take(next, update.author);
      return;
    }
    const latest = await (await this.context.calls()).get(ref.projectId, ref.shortId);
    await this.take(latest, update.author ?? authorOfVersion(latest, known));
  }

  /**
   * PostHog holds `latest`: with every editor clean, the session moves on to it and the editors reload; an editor
   * with unsaved changes gets its changes merged in, or held where they overlap.
   */
  async take(latest: Notebook, author: Author | undefined): Promise<void> {
    const { version, editors } = this.context;
    const current = version.current;
    if (latest.version < current.version) {
      return;
    }
    if (latest.version === current.version && latest.last_modified_at === current.last_modified_at) {
      version.hold(undefined);
      return;
    }
    let held = false;
    let typing = false;
    for (const uri of editors.openUris().filter((open) => editors.isDirty(open))) {
      const merge = await this.mergeInto(uri, latest);
      if (merge?.kind === 'merged') {
        this.context.fire({ kind: 'merged', notebook: latest, uri, author, held: merge.held });
        continue;
      }
      if (merge?.kind === 'typing') {
        typing = true;
        continue;
      }
      held = true;
      if (this.warnedVersion !== latest.version) {
        this.warnedVersion = latest.version;
        this.context.fire({ kind: 'held', notebook: latest, uri, author, held: merge?.held ?? [], byPostHog: isServerRevision(current, latest) });
      }
    }
    this.mergeWhenTypingPauses = typing ? { author } : undefined;
    if (typing) {
      this.waitForTypingPause();
    }
    if (held || typing) {
      version.hold(latest);
      return;
    }
    version.hold(undefined);
    version.accept(latest);
    const typedMeanwhile = await this.showInCleanEditors();
    this.context.fire({ kind: 'changed', notebook: latest, author });
    for (const uri of typedMeanwhile) {
      await this.mergeIntoTypedEditor(uri, current, latest, author);
    }
  }

  /** The editor of `uri` changed: a change waiting for a pause in typing waits a little longer. */
  typed(): void {
    if (this.mergeWhenTypingPauses) {
      this.waitForTypingPause();
    }
  }

  dispose(): void {
    clearTimeout(this.typingPause);
  }

  private waitForTypingPause(): void {
    clearTimeout(this.typingPause);
    this.typingPause = setTimeout(() => this.mergeAfterTyping(), TYPING_PAUSE_MS);
  }

  private mergeAfterTyping(): void {
    const waiting = this.mergeWhenTypingPauses;
    const latest = this.context.version.held;
    if (waiting && latest) {
      void this.context.enqueue(() => (this.context.version.held === latest ? this.take(latest, waiting.author) : Promise.resolve()));
    }
  }

  private mergeInto(uri: string, latest: Notebook) {
    const { editors, bases, version } = this.context;
    return notebookFormOf(uri) === 'markdown' ? mergeIntoEditor(editors, bases, uri, latest, version.mtime) : Promise.resolve(undefined);
  }

  /**
   * The user typed into the clean editor of `uri` while it was taking `latest` in place: its base is still
   * the text it was served, so the change merges into its text as into any unsaved one, or is held for its save.
   */
  private async mergeIntoTypedEditor(uri: string, known: Notebook, latest: Notebook, author: Author | undefined): Promise<void> {
    const merge = await this.mergeInto(uri, latest);
    if (merge?.kind === 'merged') {
      this.context.fire({ kind: 'merged', notebook: latest, uri, author, held: merge.held });
    } else {
      this.context.fire({ kind: 'held', notebook: latest, uri, author, held: merge?.kind === 'held' ? merge.held : [], byPostHog: isServerRevision(known, latest) });
    }
  }

  /**
   * Clean editors take the current version in place, as the smallest edits (a reload of the file, which VS Code
   * does a while after it is told, replaces every changed line and moves a cursor on one), then are saved as
   * they are, which sends nothing: their text is the version's. Where a save would change the text (formatters
   * on save), or the user typed meanwhile, the 'changed' event reloads them instead.
   */
  private async showInCleanEditors(): Promise<string[]> {
    const { editors, version, bases } = this.context;
    const typedMeanwhile: string[] = [];
    for (const uri of editors.openUris().filter((open) => !editors.isDirty(open) && editors.savesAsIs(open))) {
      const form = notebookFormOf(uri) ?? 'json';
      const shown = editors.textOf(uri);
      const text = version.textOf(form).text;
      if (shown === undefined || shown === text) {
        continue;
      }
      if (!(await editors.replaceText(uri, shown, text))) {
        // Keystrokes reached the editor first: it keeps the base it was served until the change merges in.
        typedMeanwhile.push(uri);
        continue;
      }
      const snapshot = version.served(form);
      bases.served(uri, snapshot);
      bases.edited(uri, shown, text, snapshot);
      // Not awaited: the save's write waits for this update to finish (saves and updates run one at a time).
      void editors.save(uri);
    }
    return typedMeanwhile;
  }
}

/** Follows PostHog's changes while an editor shows the notebook and the window has not been in the background long. */
export class UpdatesSwitch {
  private following = false;
  private paused = false;

  constructor(
    readonly live: LiveUpdates,
    private readonly editors: EditorFacts,
  ) {
    this.editorsChanged();
  }

  /** An editor opened or closed: follow while any is open. */
  editorsChanged(): void {
    const shown = this.editors.openUris().length > 0;
    if (shown !== this.following) {
      this.following = shown;
      if (!this.paused) {
        this.switch(shown);
      }
    }
  }

  pause(paused: boolean): void {
    this.paused = paused;
    if (this.following) {
      this.switch(!paused);
    }
  }

  restart(): void {
    if (this.following && !this.paused) {
      this.live.stop();
      this.live.start();
    }
  }

  private switch(on: boolean): void {
    if (on) {
      this.live.start();
    } else {
      this.live.stop();
    }
  }
}
