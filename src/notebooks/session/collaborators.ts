import { BudgetWaitError, type CollabCursor, MethodNotAllowedError, NotFoundError } from '../../api';
import { markdownOf } from '../model/notebookDocument';
import {
  type Author,
  cursorAtOffset,
  headAtOffset,
  offsetOfCursor,
  offsetOfHead,
  type RemoteCaret,
  RemoteCarets,
} from './remoteCarets';
import type { NotebookCalls, NotebookRef, SessionLog } from './ports';
import type { RemotePresence } from './streamUpdates';

/**
 * The fewest milliseconds between two carets this window sends for a notebook (the last one always goes): a
 * caret moving all the time costs at most 1,200 of the key's 4,800 requests an hour.
 */
export const PRESENCE_INTERVAL_MS = 3_000;

/** Another client's caret in an editor's text. */
export interface CaretInText {
  readonly clientId: string;
  readonly author: Author;
  readonly offset: number;
}

/**
 * Who else has a notebook open, by their carets on PostHog's stream, and this window's own caret sent to them
 * (collab/presence, at most one every 3 seconds, the latest always, none while the key's budget runs low; lossy by design). Carets are shown only while the
 * stream is open; one without a new ping for a minute goes.
 */
export class Collaborators {
  private readonly carets = new RemoteCarets();
  private open = false;
  private unsupported = false;
  /** The caret to send, mapped to PostHog's coordinates only when it goes (a keystroke moves it; mapping reads the whole text). */
  private pending: { text: string; offset: number; content: unknown; version: number } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastSent = 0;
  private warned = false;

  constructor(
    private readonly ref: NotebookRef,
    private readonly clientId: string,
    private readonly calls: () => Promise<NotebookCalls>,
    private readonly log: SessionLog,
    /** The carets shown changed. */
    private readonly changed: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** A caret from the stream (or the caret an update carries). Own carets are skipped. */
  take(presence: RemotePresence): void {
    if (presence.clientId === this.clientId || !presence.cursor) {
      return;
    }
    const author = presence.author ?? { name: 'Someone', agent: false };
    const caret: RemoteCaret = { clientId: presence.clientId, author, cursor: presence.cursor, version: presence.version, at: this.now() };
    if (this.carets.update(caret) && this.open) {
      this.changed();
    }
  }

  /** The stream opened or closed: without it there is no one to show or tell. */
  streaming(open: boolean): void {
    if (this.open === open) {
      return;
    }
    this.open = open;
    if (!open && this.carets.clear()) {
      this.changed();
    }
  }

  /** Others' carets in the text of an editor of the notebook (`content`: PostHog's content the text shows). */
  caretsIn(text: string, content: unknown): CaretInText[] {
    if (!this.open) {
      return [];
    }
    const { carets, expired } = this.carets.current(this.now());
    if (expired) {
      queueMicrotask(this.changed);
    }
    const legacy = markdownOf(content) === undefined;
    return carets.flatMap((caret) => {
      const offset = caret.cursor.head !== undefined && legacy ? offsetOfHead(text, content, caret.cursor.head) : offsetOfCursor(text, caret.cursor);
      return offset === undefined ? [] : [{ clientId: caret.clientId, author: caret.author, offset }];
    });
  }

  /** Names of the others in the notebook now. */
  names(): string[] {
    return this.open ? this.carets.current(this.now()).carets.map((caret) => caret.author.name) : [];
  }

  /** This window's caret is at `offset` of an editor's `text` (of PostHog's `content` at `version`): sent soon. */
  publish(text: string, offset: number, content: unknown, version: number): void {
    if (!this.open || this.unsupported) {
      return;
    }
    this.pending = { text, offset, content, version };
    if (this.timer === undefined) {
      this.timer = setTimeout(() => void this.send(), Math.max(0, this.lastSent + PRESENCE_INTERVAL_MS - this.now()));
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
  }

  private async send(): Promise<void> {
    this.timer = undefined;
    const pending = this.pending;
    this.pending = undefined;
    if (!pending || !this.open) {
      return;
    }
    this.lastSent = this.now();
    const { text, offset, content, version } = pending;
    const cursor: CollabCursor = markdownOf(content) === undefined ? headAtOffset(text, content, offset) : cursorAtOffset(text, offset);
    try {
      await (await this.calls()).collab.presence(this.ref.projectId, this.ref.shortId, { client_id: this.clientId, version, cursor });
    } catch (error) {
      if (error instanceof BudgetWaitError) {
        return; // the key's budget is running low: carets yield to saves and opens (lossy by design)
      }
      if (error instanceof NotFoundError || error instanceof MethodNotAllowedError) {
        this.unsupported = true;
      }
      if (!this.warned) {
        this.warned = true;
        this.log.warn(`Notebook ${this.ref.shortId}: could not show your caret to others (${String(error)}).`);
      }
    }
  }
}
