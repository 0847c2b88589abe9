import { type CallOptions, type Notebook, NOT_MODIFIED } from '../../api';
import type { NotebookCalls, NotebookRef, SessionLog } from './ports';

/**
 * Where a notebook session hears of PostHog's newer versions while an editor shows the notebook: PostHog's
 * collaboration stream (./streamUpdates.ts), or polling where the server has none. One per notebook however
 * many editors show it: it starts with the first editor and stops with the last.
 */
export interface LiveUpdates {
  /** An editor shows the notebook: follow PostHog's changes. */
  start(): void;
  /** No editor shows it any more. */
  stop(): void;
  /** Looks now, e.g. for tests or when the window regains focus; resolves once the answer is taken. */
  checkNow(): Promise<void>;
  dispose(): void;
}

/** What a live-update source reads and tells of its session. */
export interface LiveUpdateTarget {
  readonly ref: NotebookRef;
  /** The newest version the session knows, shown or held back. */
  latestKnown(): Notebook;
  /** PostHog holds `notebook` (maybe nothing newer than what the session knows); resolves once the editors have it. */
  acceptRemote(notebook: Notebook): Promise<void>;
}

/** One conditional GET (If-None-Match: the version known), which costs a 304 and no body while nothing changed. */
export async function checkForChanges(target: LiveUpdateTarget, calls: () => Promise<NotebookCalls>, log: SessionLog, call?: CallOptions): Promise<void> {
  const known = target.latestKnown();
  const { projectId, shortId } = target.ref;
  try {
    const answer = await (await calls()).get(projectId, shortId, { ifNoneMatchVersion: known.version }, call);
    await target.acceptRemote(answer === NOT_MODIFIED ? known : answer);
  } catch (error) {
    log.warn(`Could not check notebook ${shortId} for changes on PostHog: ${String(error)}`);
  }
}

/**
 * Polls PostHog for the notebook every `interval()` seconds (0: no polling, only checkNow) with a
 * conditional GET (If-None-Match: the version known), which costs a 304 and no body while nothing changed.
 */
export class PollingUpdates implements LiveUpdates {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running = false;
  private checking: Promise<void> | undefined;

  constructor(
    private readonly target: LiveUpdateTarget,
    private readonly calls: () => Promise<NotebookCalls>,
    private readonly interval: () => number,
    private readonly log: SessionLog,
  ) {}

  start(): void {
    this.running = true;
    this.schedule();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  checkNow(): Promise<void> {
    this.checking ??= this.check().finally(() => (this.checking = undefined));
    return this.checking;
  }

  dispose(): void {
    this.stop();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    const seconds = this.interval();
    this.timer = this.running && seconds > 0 ? setTimeout(() => void this.checkNow().finally(() => this.schedule()), seconds * 1000) : undefined;
  }

  private check(): Promise<void> {
    return checkForChanges(this.target, this.calls, this.log, { priority: 'live' });
  }
}
