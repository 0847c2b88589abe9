import type { BudgetWait, QueryNode, QueryRunOptions, RefreshMode } from '../api';
import { Emitter, type Event } from '../common/emitter';

/** A card's last run, as its lens and its Results section show it. */
export type RunState =
  | { readonly state: 'running'; readonly startedAt: number; readonly waitingUntil?: number }
  | { readonly state: 'done'; readonly response: unknown; readonly durationMs: number; readonly rows: number | undefined }
  | { readonly state: 'failed'; readonly message: string }
  | { readonly state: 'cancelled' };

/** One card of one document. */
export interface RunKey {
  readonly documentUri: string;
  readonly cardId: string;
}

export interface RunChange extends RunKey {
  readonly state: RunState;
}

/** Sends a query node (the client's `queries.run`, bound to a project and a response schema). */
export type QueryExecutor = (query: QueryNode, options: QueryRunOptions) => Promise<unknown>;

export interface RunClock {
  now(): number;
  /** A new client_query_id. */
  newId(): string;
  /** What to tell the user about a failure (PostHog's words). */
  describe(error: unknown): string;
}

export interface RunRequest {
  readonly query: QueryNode;
  readonly execute: QueryExecutor;
  readonly refresh: RefreshMode;
  /** Run All runs as 'bulk', leaving room in the budget for what the user does by hand meanwhile. */
  readonly priority: 'interactive' | 'bulk';
}

interface ActiveRun {
  readonly controller: AbortController;
  readonly clientQueryId: string;
}

/**
 * The runs of query cards, without VS Code: at most one run per card (a new run cancels the card's last one),
 * each state kept and announced. Cancel frees the card at once (its state is 'cancelled' before PostHog
 * answers); the client sends the DELETE by the run's client_query_id and polls no more.
 */
export class QueryRunController {
  private readonly active = new Map<string, ActiveRun>();
  private readonly states = new Map<string, RunState>();
  private readonly changed = new Emitter<RunChange>();
  readonly onDidChange: Event<RunChange> = this.changed.event;

  constructor(private readonly clock: RunClock) {}

  stateOf(key: RunKey): RunState | undefined {
    return this.states.get(keyOf(key));
  }

  isRunning(key: RunKey): boolean {
    return this.active.has(keyOf(key));
  }

  /** The cards of a document that are running now. */
  runningIn(documentUri: string): string[] {
    return [...this.active.keys()].filter((key) => key.startsWith(`${documentUri}\n`)).map((key) => key.slice(documentUri.length + 1));
  }

  /** Runs a card's query to its end; resolves with the state it ended in (never rejects). */
  async run(key: RunKey, request: RunRequest): Promise<RunState> {
    this.cancel(key);
    const run: ActiveRun = { controller: new AbortController(), clientQueryId: this.clock.newId() };
    this.active.set(keyOf(key), run);
    const startedAt = this.clock.now();
    this.set(key, { state: 'running', startedAt });
    const options: QueryRunOptions = {
      clientQueryId: run.clientQueryId,
      refresh: request.refresh,
      signal: run.controller.signal,
      priority: request.priority,
      // A run waits for room in the key's budget rather than fail (Run All of many cards stays under 120 an hour).
      patient: true,
      onWait: (wait: BudgetWait) => this.stillRunning(key, run) && this.set(key, { state: 'running', startedAt, waitingUntil: wait.untilMs }),
    };
    try {
      const response = await request.execute(request.query, options);
      return this.finish(key, run, { state: 'done', response, durationMs: this.clock.now() - startedAt, rows: rowCount(response) });
    } catch (error) {
      return this.finish(key, run, run.controller.signal.aborted ? { state: 'cancelled' } : { state: 'failed', message: this.clock.describe(error) });
    }
  }

  /** Cancels a card's run: its state is 'cancelled' at once. False when it was not running. */
  cancel(key: RunKey): boolean {
    const run = this.active.get(keyOf(key));
    if (!run) {
      return false;
    }
    this.active.delete(keyOf(key));
    run.controller.abort();
    this.set(key, { state: 'cancelled' });
    return true;
  }

  /** Cancels every run of a document; how many there were. */
  cancelAll(documentUri: string): number {
    return this.runningIn(documentUri).filter((cardId) => this.cancel({ documentUri, cardId })).length;
  }

  /** Forgets a closed document's states (its runs cancelled). */
  forget(documentUri: string): void {
    this.cancelAll(documentUri);
    for (const key of [...this.states.keys()].filter((stored) => stored.startsWith(`${documentUri}\n`))) {
      this.states.delete(key);
    }
  }

  dispose(): void {
    for (const run of this.active.values()) {
      run.controller.abort();
    }
    this.active.clear();
    this.changed.dispose();
  }

  /** The run's end, unless a cancel or a newer run of the card has taken its place: then it was cancelled. */
  private finish(key: RunKey, run: ActiveRun, state: RunState): RunState {
    if (!this.stillRunning(key, run)) {
      return { state: 'cancelled' };
    }
    this.active.delete(keyOf(key));
    this.set(key, state);
    return state;
  }

  private stillRunning(key: RunKey, run: ActiveRun): boolean {
    return this.active.get(keyOf(key)) === run;
  }

  private set(key: RunKey, state: RunState): void {
    this.states.set(keyOf(key), state);
    this.changed.fire({ ...key, state });
  }
}

/** The rows of a response: its `results` (rows of a table, series of trends); undefined when it has none. */
export function rowCount(response: unknown): number | undefined {
  const results = typeof response === 'object' && response !== null ? (response as { results?: unknown }).results : undefined;
  return Array.isArray(results) ? results.length : undefined;
}

function keyOf(key: RunKey): string {
  return `${key.documentUri}\n${key.cardId}`;
}
