// The vscode side of an events panel's Live mode: settings, visibility and window focus go to the tail
// (liveTail.ts), and what it finds goes to the webview as rows.
import * as vscode from 'vscode';
import { type CallOptions, type Event, type EventsApi, EVENTS_MAX_PAGE, type EventsBatch, type LivePace, errorText } from '../api';
import { Disposable } from '../workbench/disposable';
import type { WindowApi } from '../workbench/window';
import type { EventQuery } from './filters';
import { DEFAULT_KEPT_EVENTS, DEFAULT_LIVE_INTERVAL_MS, type LiveBudget, type LiveState, LiveTail } from './liveTail';
import type { ExtensionMessage } from './protocol';
import { eventRow } from './rows';
import { durationText } from './waitText';

export const LIVE_INTERVAL_SETTING = 'posthogExplorer.events.liveIntervalSeconds';
export const LIVE_KEPT_SETTING = 'posthogExplorer.events.liveKeptEvents';

export function liveSettings(): { intervalMs: number; keep: number } {
  const config = vscode.workspace.getConfiguration();
  return {
    intervalMs: config.get<number>(LIVE_INTERVAL_SETTING, DEFAULT_LIVE_INTERVAL_MS / 1000) * 1000,
    keep: config.get<number>(LIVE_KEPT_SETTING, DEFAULT_KEPT_EVENTS),
  };
}

/** Why Live checks less often than the setting asks, in words. */
function slowedText(pace: LivePace): string {
  switch (pace.slowedBy) {
    case 'panels':
      return vscode.l10n.t('{0} live panels share this API key\'s PostHog limit (1,200 events requests an hour).', pace.panels);
    case 'share':
      return vscode.l10n.t('Live keeps to 720 of the 1,200 events requests an hour PostHog allows this API key.');
    case 'hour':
      return vscode.l10n.t("This API key's other requests of the last hour (exports, browsing) leave Live no room yet.");
    case 'minute':
    case undefined:
      return vscode.l10n.t("This API key's requests of the last minute leave Live no room yet.");
    case 'throttled':
      return vscode.l10n.t('PostHog asked this API key to wait ({0}).', pace.detail ?? vscode.l10n.t('rate limit'));
  }
}

function stateText(state: LiveState): string {
  switch (state.kind) {
    case 'watching': {
      const every = durationText(state.pace.intervalMs);
      return state.pace.slowedBy
        ? vscode.l10n.t('Live: new events appear at the top (checked every {0}, slowed down: {1})', every, slowedText(state.pace))
        : vscode.l10n.t('Live: new events appear at the top (checked every {0}).', every);
    }
    case 'paused':
      return state.reason === 'hidden'
        ? vscode.l10n.t('Live is paused while the panel is hidden.')
        : vscode.l10n.t('Live is paused while VS Code is in the background.');
    case 'backingOff':
      return vscode.l10n.t('Live: {0} Checking again in {1} s.', state.error, Math.round(state.retryInMs / 1000));
    case 'stopped':
      return state.error ? vscode.l10n.t('Live stopped: {0}', state.error) : '';
  }
}

export interface PanelLiveDeps {
  readonly panel: vscode.WebviewPanel;
  readonly window: Pick<WindowApi, 'state' | 'onDidChangeWindowState'>;
  readonly connectionId: string;
  readonly projectId: number;
  /** The events API of the connection's current client. */
  readonly events: () => Promise<Pick<EventsApi, 'budget'>>;
  /** The events of a query from the connection's source (eventSource.ts). */
  readonly batches: (query: EventQuery, call: CallOptions) => AsyncGenerator<EventsBatch, void, undefined>;
  readonly post: (message: ExtensionMessage) => void;
  /** Every event found (the panel learns event names from them). */
  readonly learn: (events: readonly Event[]) => void;
}

export class PanelLive extends Disposable {
  private wanted = false;
  private tail: LiveTail | undefined;
  private generation = -1;
  private query: EventQuery | undefined;
  /** The listing's first page: the events the tail starts after. */
  private shown: readonly Event[] | undefined;
  private lastState: Extract<ExtensionMessage, { type: 'liveState' }> = { type: 'liveState', on: false, text: '' };

  constructor(private readonly deps: PanelLiveDeps) {
    super();
    this._register(deps.panel.onDidChangeViewState(() => this.tail?.setVisible(deps.panel.visible)));
    this._register(deps.window.onDidChangeWindowState((state) => this.tail?.setFocused(state.focused)));
    this._register(
      vscode.workspace.onDidChangeConfiguration((change) => {
        if (change.affectsConfiguration(LIVE_INTERVAL_SETTING) || change.affectsConfiguration(LIVE_KEPT_SETTING)) {
          this.tail?.configure(liveSettings());
        }
      }),
    );
    this._register({ dispose: () => this.halt() });
  }

  get on(): boolean {
    return this.wanted;
  }

  /** The running tail (tests read its requests). */
  get running(): LiveTail | undefined {
    return this.tail;
  }

  set(on: boolean): void {
    this.wanted = on;
    if (on) {
      this.show({ type: 'liveState', on: true, text: vscode.l10n.t('Live: starting…') });
      this.start();
    } else {
      this.halt();
      this.show({ type: 'liveState', on: false, text: '' });
    }
  }

  /** Tells the (re)loaded webview whether Live is on. */
  announce(): void {
    this.deps.post(this.lastState);
  }

  /** A new listing began (`query` undefined: its filters are invalid); Live restarts after its first page. */
  restart(generation: number, query: EventQuery | undefined): void {
    this.halt();
    this.generation = generation;
    this.query = query;
    this.shown = undefined;
  }

  /** The listing's first page arrived (or the listing ended without one: `events` empty). */
  firstPage(generation: number, events: readonly Event[]): void {
    if (generation === this.generation && this.shown === undefined) {
      this.shown = [...events];
      this.start();
    }
  }

  /** The key's budget, from the connection's current client (one per host and key, so it stays the same). */
  private budget: LiveBudget | undefined;

  private start(): void {
    if (!this.wanted || this.tail || !this.query || !this.shown) {
      return;
    }
    if (!this.budget) {
      this.deps.events().then(
        (events) => {
          this.budget = events.budget;
          this.start();
        },
        (error: unknown) => this.show({ type: 'liveState', on: false, text: vscode.l10n.t('Live stopped: {0}', errorText(error)), error: true }),
      );
      return;
    }
    const query = this.query;
    const generation = this.generation;
    const settings = liveSettings();
    const tail: LiveTail = new LiveTail(
      (after, signal) => this.pages(query, after, signal),
      {
        events: (events) => {
          if (this.tail !== tail) return;
          this.deps.learn(events);
          this.deps.post({ type: 'liveRows', generation, rows: events.map((event) => eventRow(event, query.columns)), keep: settings.keep });
        },
        state: (state) => {
          if (this.tail === tail) this.show({ type: 'liveState', on: state.kind !== 'stopped', text: stateText(state), error: 'error' in state && Boolean(state.error) });
          if (state.kind === 'stopped' && this.tail === tail) {
            this.tail = undefined;
            this.wanted = false;
          }
        },
        gap: (gap) => {
          if (this.tail === tail) this.deps.post({ type: 'liveGap', generation, after: gap.after, before: gap.before });
        },
      },
      { ...settings, budget: this.budget },
      this.shown,
    );
    this.tail = tail;
    tail.setVisible(this.deps.panel.visible);
    tail.setFocused(this.deps.window.state.focused);
    tail.start();
  }

  /** Live never waits for the budget: a poll that finds no room is tried later (liveTail.ts). */
  private async *pages(query: EventQuery, after: string | undefined, signal: AbortSignal): AsyncGenerator<EventsBatch, void, undefined> {
    const filters = { ...query.filters, before: undefined, after: after ?? query.filters.after, limit: EVENTS_MAX_PAGE };
    yield* this.deps.batches({ ...query, filters }, { signal, priority: 'live', noWait: true });
  }

  private halt(): void {
    const tail = this.tail;
    this.tail = undefined;
    tail?.stop();
  }

  private show(message: Extract<ExtensionMessage, { type: 'liveState' }>): void {
    this.lastState = message;
    this.deps.post(message);
  }
}
