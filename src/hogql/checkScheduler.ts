/**
 * When to check a document's HogQL: once typing pauses, at most one check in flight per document. A text
 * changed while its check runs waits for that check to end, and an answer for an older text is dropped,
 * so that PostHog is asked once per pause and the diagnostics never go back to an older text. vscode-free.
 */

export interface Timers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const REAL_TIMERS: Timers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export type CheckOutcome<R> = { readonly ok: true; readonly value: R } | { readonly ok: false; readonly error: unknown };

export interface CheckSchedulerOptions<R> {
  /** Asks PostHog about a text. */
  readonly check: (key: string, text: string) => Promise<R>;
  /** The answer for the document's latest text (never for an older one). */
  readonly deliver: (key: string, version: number, outcome: CheckOutcome<R>) => void;
  /** The pause after typing before a check, read at each change (a setting). */
  readonly delayMs: () => number;
  readonly timers?: Timers;
}

interface DocumentState {
  latest: { readonly version: number; readonly text: string };
  timer: unknown;
  due: boolean;
  inFlight: boolean;
}

export class CheckScheduler<R> {
  private readonly documents = new Map<string, DocumentState>();
  private readonly timers: Timers;

  constructor(private readonly options: CheckSchedulerOptions<R>) {
    this.timers = options.timers ?? REAL_TIMERS;
  }

  /** The document's text changed (or opened): check it after the pause. */
  changed(key: string, version: number, text: string): void {
    const state = this.documents.get(key) ?? { latest: { version, text }, timer: undefined, due: false, inFlight: false };
    this.documents.set(key, state);
    state.latest = { version, text };
    state.due = false;
    if (state.timer !== undefined) {
      this.timers.clear(state.timer);
    }
    state.timer = this.timers.set(() => {
      state.timer = undefined;
      state.due = true;
      this.pump(key, state);
    }, Math.max(0, this.options.delayMs()));
  }

  /** The document closed: no check starts for it and the answer of one under way is dropped. */
  close(key: string): void {
    const state = this.documents.get(key);
    if (state?.timer !== undefined) {
      this.timers.clear(state.timer);
    }
    this.documents.delete(key);
  }

  /** Whether a check of the document is under way. */
  isChecking(key: string): boolean {
    return this.documents.get(key)?.inFlight ?? false;
  }

  dispose(): void {
    [...this.documents.keys()].forEach((key) => this.close(key));
  }

  private pump(key: string, state: DocumentState): void {
    if (state.inFlight || !state.due || this.documents.get(key) !== state) {
      return;
    }
    state.due = false;
    state.inFlight = true;
    const asked = state.latest;
    const settle = (outcome: CheckOutcome<R>) => {
      state.inFlight = false;
      if (this.documents.get(key) !== state) {
        return;
      }
      if (asked.version === state.latest.version) {
        this.options.deliver(key, asked.version, outcome);
      }
      this.pump(key, state);
    };
    this.options.check(key, asked.text).then(
      (value) => settle({ ok: true, value }),
      (error: unknown) => settle({ ok: false, error }),
    );
  }
}
