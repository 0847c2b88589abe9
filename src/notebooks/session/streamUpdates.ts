import { ClientDisposedError, type CollabCursor, type CollabEvent, isAbortError, MethodNotAllowedError, NotFoundError, realSleep, type Sleep } from '../../api';
import { FollowUps, UnreadableBurst } from './followUps';
import { checkForChanges, type LiveUpdates, type LiveUpdateTarget } from './liveUpdates';
import type { TextSpan } from './markdownDiff';
import { type Author, authorOf } from './remoteCarets';
import type { NotebookCalls, SessionLog } from './ports';

/** A change of the notebook's content that PostHog's stream told of. */
export interface RemoteUpdate {
  /** The version it made. */
  readonly version: number;
  /** A legacy notebook's ProseMirror step (never applied here: the notebook is fetched). */
  readonly step?: boolean;
  /** Turns the Markdown of version - 1 (whose CRC is baseCrc) into this version's; none: fetch the notebook. */
  readonly diff?: readonly TextSpan[];
  readonly baseCrc?: number;
  /** The client that saved it (a versioned save); none for a PATCH's update. */
  readonly clientId?: string;
  readonly author?: Author;
  readonly cursor?: CollabCursor;
}

/** Someone's caret. */
export interface RemotePresence {
  readonly clientId: string;
  readonly author?: Author;
  readonly version?: number;
  readonly cursor?: CollabCursor;
}

/** What the stream tells its session, besides what polling does. */
export interface StreamTarget extends LiveUpdateTarget {
  /** A content update, applied after the saves and updates before it. */
  applyUpdate(update: RemoteUpdate): Promise<void>;
  presence(presence: RemotePresence): void;
  /** Whether the stream is open (carets can be shown and sent only then). */
  streaming(open: boolean): void;
  /** When the session last fetched the notebook (ms since the epoch). */
  knownSince(): number;
}

/** How many streams a connection keeps open at once (each holds a connection); beyond, notebooks are polled. */
export class StreamSlots {
  private used = 0;

  constructor(readonly size: number) {}

  take(): boolean {
    if (this.used >= this.size) {
      return false;
    }
    this.used++;
    return true;
  }

  give(): void {
    this.used = Math.max(0, this.used - 1);
  }
}

export interface StreamOptions {
  /** Where the notebook is followed when the server has no stream, or no stream is left in the budget. */
  readonly fallback: () => LiveUpdates;
  readonly budget: StreamSlots;
  readonly sleep?: Sleep;
  readonly random?: () => number;
  readonly now?: () => number;
  /** The fewest milliseconds between two reads the stream asks for (default FOLLOW_UP_SPACING_MS). */
  readonly followUpSpacingMs?: number;
}

/** After a gap this long, the stream's replay is not trusted: it starts at "now" and the notebook is fetched. */
export const RESUME_WITHIN_MS = 10 * 60_000;
/** A stream that ends sooner than this after opening counts as a failure (no tight reconnect loop). */
const HEALTHY_MS = 5_000;
const FIRST_RETRY_MS = 1_000;
const CLIENT_REPLACED_MS = 200;
const LONGEST_RETRY_MS = 60_000;

/**
 * Follows a notebook through PostHog's collaboration stream (GET collab/stream): one open request, whose content
 * updates go to the session in order and whose carets show others. It opens with Last-Event-ID: the last
 * content event's id, or `<the version the session knows>-1`, so that PostHog replays every change after that
 * version, also those made before the stream opened. PostHog closes it after five minutes; it is opened again at
 * once the same way, so nothing is missed; after an error it waits (1 s, doubling up to a minute, with jitter).
 * After a gap longer than RESUME_WITHIN_MS (PostHog's stream keeps a day of changes, at most 5,000), the replay is
 * not trusted: it opens at "now" and the notebook is checked with a conditional GET. A server without the stream
 * (404 or 405: older self-hosted PostHog) is polled instead, which the log says.
 */
export class StreamUpdates implements LiveUpdates {
  private running = false;
  private loop: Promise<void> | undefined;
  private abort: AbortController | undefined;
  private lastEventId: string | undefined;
  private lastHeard = 0;
  private connectedOnce = false;
  private holdsBudget = false;
  private fallback: LiveUpdates | undefined;
  private polledForBudget = false;
  private checking: Promise<void> | undefined;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly followUps: FollowUps;
  private readonly unreadable: UnreadableBurst;

  constructor(
    private readonly target: StreamTarget,
    private readonly calls: () => Promise<NotebookCalls>,
    private readonly log: SessionLog,
    private readonly options: StreamOptions,
  ) {
    this.sleep = options.sleep ?? realSleep;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    this.followUps = new FollowUps(target, calls, log, { sleep: this.sleep, now: this.now, spacingMs: options.followUpSpacingMs });
    this.unreadable = new UnreadableBurst(`Notebook ${target.ref.shortId}`, log, this.sleep, () => this.followUps.want(undefined));
  }

  /** Whether the notebook is followed by polling (no stream on the server, or none left in the budget). */
  get polling(): boolean {
    return this.fallback !== undefined;
  }

  start(): void {
    if (this.fallback && !this.polledForBudget) {
      this.fallback.start();
      return;
    }
    if (!this.holdsBudget) {
      if (!this.options.budget.take()) {
        this.log.info(`Notebook ${this.target.ref.shortId}: ${this.options.budget.size} notebooks of this connection already follow PostHog's stream; this one is checked by polling.`);
        this.usePolling(true);
        return;
      }
      this.holdsBudget = true;
      this.dropPolling();
    }
    if (this.running) {
      return;
    }
    this.running = true;
    // A loop stopped a moment ago ends first (its request aborted); the new one follows it.
    this.loop = (this.loop ?? Promise.resolve()).then(() => this.run());
  }

  stop(): void {
    this.running = false;
    this.abort?.abort();
    this.followUps.stop();
    this.fallback?.stop();
    if (this.holdsBudget) {
      this.holdsBudget = false;
      this.options.budget.give();
    }
  }

  checkNow(): Promise<void> {
    if (this.fallback) {
      return this.fallback.checkNow();
    }
    this.checking ??= checkForChanges(this.target, this.calls, this.log).finally(() => (this.checking = undefined));
    return this.checking;
  }

  dispose(): void {
    this.stop();
    this.fallback?.dispose();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      const controller = new AbortController();
      this.abort = controller;
      const since = this.lastEventId !== undefined ? this.lastHeard : this.target.knownSince();
      const trusted = this.now() - since < RESUME_WITHIN_MS;
      const lastEventId = trusted ? (this.lastEventId ?? `${this.target.latestKnown().version}-1`) : undefined;
      const opened = this.now();
      try {
        const { projectId, shortId } = this.target.ref;
        const stream = await (await this.calls()).collab.stream(projectId, shortId, { lastEventId }, { signal: controller.signal });
        this.connectedOnce = true;
        this.target.streaming(true);
        if (!trusted) {
          void this.checkNow();
        }
        for await (const event of stream) {
          this.lastHeard = this.now();
          // Read on once the event is taken: a flood waits in the socket, not in memory.
          await this.handle(event);
        }
        this.lastHeard = this.now();
        failures = this.now() - opened < HEALTHY_MS ? failures + 1 : 0;
      } catch (error) {
        if (controller.signal.aborted || !this.running || isAbortError(error)) {
          break;
        }
        if (!this.connectedOnce && (error instanceof NotFoundError || error instanceof MethodNotAllowedError)) {
          this.log.info(
            `Notebook ${this.target.ref.shortId}: this PostHog has no collaboration stream (${error.status}, an older self-hosted version?); checking for changes by polling instead.`,
          );
          this.usePolling(false);
          break;
        }
        this.lastHeard = this.now();
        if (error instanceof ClientDisposedError) {
          // The connection's client was replaced (network settings changed) or signed out: open it again on the
          // current one, if there is one (else the next attempt fails and backs off).
          if (!(await this.wait(CLIENT_REPLACED_MS, controller.signal))) {
            break;
          }
          continue;
        }
        failures++;
        const wait = this.retryDelay(failures);
        this.log.warn(`Notebook ${this.target.ref.shortId}: PostHog's stream of changes failed (${String(error)}); trying again in ${Math.round(wait / 1000)} s.`);
        this.target.streaming(false);
        if (!(await this.wait(wait, controller.signal))) {
          break;
        }
        continue;
      }
      if (failures > 0 && !(await this.wait(this.retryDelay(failures), controller.signal))) {
        break;
      }
    }
    this.target.streaming(false);
  }

  private async handle(event: CollabEvent): Promise<void> {
    switch (event.kind) {
      case 'update':
      case 'step':
        this.lastEventId = event.id;
        await this.take(event);
        return;
      case 'presence':
        this.target.presence({ clientId: event.clientId, author: authorOf(event.clientId, event.userName), version: event.version, cursor: event.cursor });
        return;
      case 'error':
        throw new Error('PostHog ended the stream with an error');
      case 'unreadable':
        this.unreadable.add(event.reason);
        return;
    }
  }

  /**
   * A content update: one with a diff is applied (after the ones before it); one that needs the notebook read
   * (a legacy notebook's step, an update without a diff), and any arriving while such a read is running or
   * waiting, join the follow-up reads (./followUps.ts), which coalesce them.
   */
  private async take(event: Extract<CollabEvent, { kind: 'update' | 'step' }>): Promise<void> {
    const update: RemoteUpdate = {
      version: event.version,
      step: event.kind === 'step' || undefined,
      diff: event.kind === 'update' ? event.diff : undefined,
      baseCrc: event.kind === 'update' ? event.baseCrc : undefined,
      clientId: event.clientId,
      author: authorOf(event.clientId, event.userName),
      cursor: event.kind === 'update' ? event.cursor : undefined,
    };
    const apply = () =>
      this.target.applyUpdate(update).catch((error: unknown) => this.log.warn(`Notebook ${this.target.ref.shortId}: could not take version ${event.version}: ${String(error)}`));
    if (update.diff && !this.followUps.busy) {
      await apply();
    } else {
      this.followUps.want(update.version, apply);
    }
  }

  private retryDelay(failures: number): number {
    const ceiling = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(failures - 1, 10));
    return Math.round(ceiling * (0.8 + 0.4 * this.random()));
  }

  /** Waits, unless stopped meanwhile: resolves whether to go on. */
  private async wait(ms: number, signal: AbortSignal): Promise<boolean> {
    try {
      await this.sleep(ms, signal);
      return this.running;
    } catch {
      return false;
    }
  }

  private usePolling(forBudget: boolean): void {
    this.polledForBudget = forBudget;
    this.fallback ??= this.options.fallback();
    this.fallback.start();
  }

  private dropPolling(): void {
    if (this.polledForBudget && this.fallback) {
      this.fallback.dispose();
      this.fallback = undefined;
      this.polledForBudget = false;
    }
  }
}
