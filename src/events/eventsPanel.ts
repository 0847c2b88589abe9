import * as vscode from 'vscode';
import { type BudgetWait, type CallOptions, type EventsBatch, EVENTS_QUERY_MAX_PAGE, HogQLError, isAbortError, errorText, type PostHogClient } from '../api';
import { WebviewPanelHost } from '../workbench/webviewPanelHost';
import { displayLanguage, type EnvApi, type WindowApi } from '../workbench/window';
import type { ConnectionSession } from '../connections';
import { projectKey } from '../common/keys';
import { webviewPageHtml } from '../common/webviewPage';
import { exportEvents, type SaveDialog } from './exportEvents';
import type { ExportFileFormat } from './exportWriter';
import { eventBatches, locateHogQLError, type SourceChoice } from './eventSource';
import { buildExport, buildQuery, describeFilters, type EventQuery, FilterError, isDefaultRange, type LookBack, lookBackFor } from './filters';
import { translatePanelWords } from './translatePanelWords';
import { PanelLive } from './livePanel';
import { EventPager } from './pager';
import {
  defaultFilters,
  type ExtensionMessage,
  type FilterState,
  parseWebviewMessage,
  type WebviewMessage,
} from './protocol';
import { eventDetail } from './rows';
import { EventSuggestions, type SuggestNote, type SuggestRequest } from './suggestions';
import { waitNote } from './waitText';

export const EVENTS_VIEW_TYPE = 'posthogExplorer.events';

function noteText(note: SuggestNote): string {
  switch (note) {
    case 'needEventName':
      return vscode.l10n.t('Type an event name first: PostHog suggests values of one event’s properties.');
    case 'needKey':
      return vscode.l10n.t('Type a property key first.');
    case 'personProperty':
      return vscode.l10n.t('Values are suggested for event properties only.');
  }
}

function lookBackNote(after: LookBack): string {
  switch (after) {
    case '-7d':
      return vscode.l10n.t('No events in the last 24 hours; showing the last 7 days.');
    case '-30d':
      return vscode.l10n.t('No events in the last 24 hours; showing the last 30 days.');
    case '-365d':
      return vscode.l10n.t('No events in the last 24 hours; showing the last year.');
  }
}

export interface PanelProject {
  readonly id: number;
  readonly name: string;
}

export interface EventsPanelDeps {
  readonly extensionUri: vscode.Uri;
  readonly window: WindowApi;
  readonly env: Pick<EnvApi, 'clipboard'>;
  readonly saveDialog: SaveDialog;
  /** The connection's current session: clients are rebuilt on sign-in and network setting changes. */
  readonly session: (connectionId: string) => Promise<ConnectionSession | undefined>;
  /** Whether each connection reads events through the Query API or the legacy list (shared by its panels). */
  readonly sources: SourceChoice;
  readonly now?: () => Date;
}

/**
 * One project's events panel. The webview only shows what it is sent; this side makes every request
 * (the key never enters the webview) and validates every message it receives.
 */
export class EventsPanel extends WebviewPanelHost {
  private generation = 0;
  private pager: EventPager | undefined;
  private filters: FilterState;
  private suggestion: AbortController | undefined;
  /** Loading the event whose detail is open (a newer detail, closing it or the panel stops it). */
  private detailLoad: { id: string; controller: AbortController } | undefined;
  private readonly suggestions: EventSuggestions;
  private readonly posted = this._register(new vscode.EventEmitter<ExtensionMessage>());
  /** What the panel sent to its webview (tests watch it). */
  readonly onDidPost = this.posted.event;
  private readonly received = this._register(new vscode.EventEmitter<WebviewMessage>());
  readonly onDidReceive = this.received.event;
  /** Live mode: new events at the top as they arrive. */
  readonly live: PanelLive;

  constructor(
    panel: vscode.WebviewPanel,
    readonly session: ConnectionSession,
    readonly project: PanelProject,
    private readonly deps: EventsPanelDeps,
    restored?: { filters?: FilterState; scrollTop?: number },
  ) {
    super(panel, deps.extensionUri, (asset) =>
      webviewPageHtml({
        cspSource: panel.webview.cspSource,
        scriptUri: asset('dist', 'webview', 'events.js'),
        styleUris: [asset('media', 'panel.css'), asset('media', 'events.css')],
        title: vscode.l10n.t('Events of {0}', project.name),
        strings: translatePanelWords(),
      }),
    );
    this.filters = restored?.filters ?? defaultFilters();
    this.suggestions = new EventSuggestions(async (query, signal) => (await this.client()).events.values(project.id, query, { signal, noWait: true }));
    this.scrollTop = restored?.scrollTop ?? 0;
    this.live = this._register(
      new PanelLive({
        panel,
        window: deps.window,
        connectionId: session.connection.id,
        projectId: project.id,
        events: async () => (await this.client()).events,
        batches: (query, call) => this.batches(query, call),
        post: (message) => this.post(message),
        learn: (events) => this.suggestions.learn(events),
      }),
    );
  }

  private scrollTop: number;

  get key(): string {
    return projectKey(this.session.connection.id, this.project.id);
  }

  /** Handles a message as if the webview had sent it; malformed messages are dropped (and logged). */
  override async receive(data: unknown): Promise<void> {
    const parsed = parseWebviewMessage(data);
    if (!parsed.ok) {
      console.warn(`PostHog events panel: ignored a malformed message (${parsed.problem})`);
      return;
    }
    this.received.fire(parsed.message);
    await this.handle(parsed.message);
  }

  private async handle(message: WebviewMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.filters = message.filters ?? this.filters;
        this.scrollTop = message.scrollTop ?? this.scrollTop;
        this.post({
          type: 'init',
          project: { id: this.project.id, name: this.project.name },
          connectionId: this.session.connection.id,
          filters: this.filters,
          scrollTop: this.scrollTop,
          locale: displayLanguage(),
        });
        this.live.announce();
        return this.query(this.filters);
      case 'query':
        return this.query(message.filters);
      case 'need':
        if (message.generation === this.generation) {
          await this.pager?.need(message.upTo);
        }
        return;
      case 'suggest': {
        const { requestId, type: _type, ...request } = message;
        return this.suggest(requestId, request);
      }
      case 'open':
        return this.open(message.id);
      case 'closeDetail':
        if (this.detailLoad?.id === message.id) this.detailLoad.controller.abort();
        return;
      case 'export':
        return this.export(message.format, message.filters);
      case 'copy':
        await this.deps.env.clipboard.writeText(message.text);
        this.deps.window.setStatusBarMessage(vscode.l10n.t('Copied to the clipboard'), 2_000);
        return;
      case 'cancel':
        this.pager?.cancel();
        this.post({ type: 'status', generation: this.generation, loading: false });
        return;
      case 'live':
        return this.live.set(message.on);
      case 'loadGap':
        return this.query(this.filters);
    }
  }

  /**
   * Starts a new listing with these filters; the previous one stops where it is. `note` is shown above the
   * rows (the look-back says why the range is wider than asked).
   */
  async query(filters: FilterState, note?: string): Promise<void> {
    this.filters = filters;
    this.pager?.cancel();
    this.pager = undefined;
    const generation = ++this.generation;
    let query: EventQuery;
    try {
      query = buildQuery(filters, this.now());
    } catch (error) {
      this.live.restart(generation, undefined);
      this.post({ type: 'reset', generation, columns: [] });
      this.post({ type: 'status', generation, loading: false, error: error instanceof FilterError ? error.message : String(error) });
      return;
    }
    try {
      await this.client();
    } catch (error) {
      this.post({ type: 'reset', generation, columns: [] });
      this.post({ type: 'status', generation, loading: false, error: errorText(error) });
      return;
    }
    if (generation !== this.generation) {
      return;
    }
    let failed = false;
    let placing: Promise<void> | undefined;
    const onLegacy = (unshown: string[]) => {
      if (unshown.length) this.post({ type: 'status', generation, loading: true, note: this.legacyNote(unshown) });
    };
    const pager = new EventPager((call) => this.batches(query, call, onLegacy), query, {
      rows: (start, rows, done) => this.post({ type: 'rows', generation, start, rows, done }),
      status: (loading, error, retry) => this.post({ type: 'status', generation, loading, error, ...(retry ? { retry } : {}) }),
      events: (events) => {
        this.suggestions.learn(events);
        this.live.firstPage(generation, events);
      },
      failed: (error) => {
        failed = true;
        if (error instanceof HogQLError) placing = this.placeHogQLError(generation, query);
      },
      waiting: (wait) => this.post({ type: 'status', generation, loading: true, waiting: wait ? waitNote(wait) : '' }),
      skipped: (timestamp) =>
        this.post({
          type: 'status',
          generation,
          loading: true,
          note: vscode.l10n.t('Some events at {0} are not listed: more than 51,000 share that exact time, and PostHog lists no further.', timestamp),
        }),
    });
    this.pager = pager;
    this.live.restart(generation, query);
    this.post({ type: 'reset', generation, columns: pager.columns, range: { after: query.filters.after, before: query.filters.before } });
    if (note) this.post({ type: 'status', generation, loading: true, note });
    await pager.need(0);
    await placing;
    this.live.firstPage(generation, []);
    if (!failed && !note && generation === this.generation && pager.done && pager.loaded === 0) {
      await this.nothingFound(generation, filters);
    }
  }

  /**
   * The listing is empty. With filters the user set, the message names them; with only the default range
   * (the last 24 hours), one request for the newest event of the last year says how far back to look, and
   * the listing runs again over that range.
   */
  private async nothingFound(generation: number, filters: FilterState): Promise<void> {
    const named = describeFilters(filters);
    if (named.length || !isDefaultRange(filters)) {
      const note = named.length ? vscode.l10n.t('No events match {0}.', named.join(', ')) : vscode.l10n.t('No events in this time range.');
      this.post({ type: 'status', generation, loading: false, note });
      return;
    }
    let newest: string | undefined;
    try {
      newest = await this.newestEventTime();
    } catch (error) {
      if (!isAbortError(error)) this.post({ type: 'status', generation, loading: false, error: errorText(error) });
      return;
    }
    if (generation !== this.generation) return;
    if (!newest) {
      this.post({ type: 'status', generation, loading: false, note: vscode.l10n.t('No events in the last year.') });
      return;
    }
    const after = lookBackFor(newest, this.now());
    this.post({ type: 'after', after });
    await this.query({ ...filters, after }, lookBackNote(after));
  }

  /** The time of the project's newest event of the last year: one request of one row, within the key's budget. */
  private async newestEventTime(): Promise<string | undefined> {
    const probe = buildQuery({ ...this.filters, after: '-365d', limit: '1', columns: '', where: '' }, this.now());
    const batches = this.batches({ ...probe, columns: [], filters: { ...probe.filters, include_person: false } }, { priority: 'interactive' });
    try {
      for await (const batch of batches) {
        if (batch.events[0] || batch.last) return batch.events[0]?.timestamp;
      }
    } finally {
      await batches.return(undefined);
    }
    return undefined;
  }

  /** PostHog's HogQL error, under the field it comes from: one HogQLMetadata check says which and where. */
  private async placeHogQLError(generation: number, query: EventQuery): Promise<void> {
    try {
      const client = await this.client();
      const located = await locateHogQLError(client.queries, this.project.id, query);
      if (located && generation === this.generation) this.post({ type: 'fieldError', generation, ...located });
    } catch {
      // The status line already shows PostHog's message; the position is a help, not a need.
    }
  }

  private legacyNote(unshown: string[]): string {
    return vscode.l10n.t(
      "This PostHog server has no Query API (or the setting posthogExplorer.events.useLegacyEventsApi is on): the legacy events list shows property columns only, so these columns stay empty: {0}. They need PostHog's Query API.",
      unshown.join(', '),
    );
  }

  /** The events of `query`, newest first, each once, from the connection's source (eventSource.ts). */
  private async *batches(query: EventQuery, call: CallOptions, onLegacy?: (unshown: string[]) => void): AsyncGenerator<EventsBatch, void, undefined> {
    const client = await this.client();
    yield* eventBatches(client, this.deps.sources, this.session.connection.id, this.project.id, query, call, onLegacy);
  }

  /** Answers the newest suggestion request only; a failure is shown by the field, not swallowed. */
  private async suggest(requestId: number, request: SuggestRequest): Promise<void> {
    this.suggestion?.abort();
    const controller = new AbortController();
    this.suggestion = controller;
    try {
      const answer = await this.suggestions.suggest(request, controller.signal);
      this.post({
        type: 'suggestions',
        requestId,
        values: answer.values,
        ...(answer.note ? { note: noteText(answer.note) } : {}),
        ...(answer.error === undefined ? {} : { error: vscode.l10n.t('No suggestions: {0}', errorText(answer.error)) }),
      });
    } catch (error) {
      if (!isAbortError(error)) {
        this.post({ type: 'suggestions', requestId, values: [], error: vscode.l10n.t('No suggestions: {0}', errorText(error)) });
      }
    }
  }

  /** Loads an event's detail; a wait for PostHog's limit shows in the detail, as it does above the table. */
  private async open(id: string): Promise<void> {
    this.detailLoad?.controller.abort();
    const controller = new AbortController();
    this.detailLoad = { id, controller };
    try {
      const { events } = await this.client();
      const onWait = (wait: BudgetWait) => this.post({ type: 'detail', id, waiting: waitNote(wait) });
      const event = await events.get(this.project.id, id, { include_person: true }, { signal: controller.signal, onWait });
      this.post({ type: 'detail', id, detail: eventDetail(event) });
    } catch (error) {
      if (!isAbortError(error)) {
        this.post({ type: 'detail', id, error: errorText(error) });
      }
    } finally {
      if (this.detailLoad?.controller === controller) this.detailLoad = undefined;
    }
  }

  private async export(format: ExportFileFormat, filters: FilterState): Promise<void> {
    let planned;
    try {
      planned = buildExport(filters, this.now());
    } catch (error) {
      void this.deps.window.showErrorMessage(errorText(error));
      return;
    }
    const query = { ...planned.query, columns: [], filters: { ...planned.query.filters, limit: EVENTS_QUERY_MAX_PAGE } };
    await exportEvents(
      (call) => this.batches(query, call),
      { projectId: this.project.id, projectName: this.project.name, rows: planned.rows, format },
      this.deps.window,
      this.deps.saveDialog,
    );
  }

  /** The connection's current client (the session the panel opened with may be closed). */
  private async client(): Promise<PostHogClient> {
    const session = await this.deps.session(this.session.connection.id);
    if (!session) {
      throw new Error(vscode.l10n.t('Not signed in to this PostHog connection any more. Sign in, then browse the events again.'));
    }
    return session.client;
  }

  private post(message: ExtensionMessage): void {
    if (this.isDisposed) {
      return;
    }
    this.posted.fire(message);
    void this.panel.webview.postMessage(message);
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  override dispose(): void {
    this.pager?.cancel();
    this.suggestion?.abort();
    this.detailLoad?.controller.abort();
    super.dispose();
  }
}
