/// <reference lib="dom" />
// The events webview: a filter form (form.ts), a virtual results table (table.ts) with Live (live.ts), and
// an event's detail (detail.ts). It makes no request of its own: it asks the extension, and checks every
// message it gets back. What the page knows (the project, the listing's generation, a scroll position to
// restore, how times are written) is held by one EventsPage.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import '@vscode-elements/elements/dist/vscode-label/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import { type ExtensionMessage, type FilterState, PanelStateSchema, parseExtensionMessage, type WebviewMessage } from '../../events/protocol';
import { EventDetailView } from './detail';
import { button, debounce, el } from '../shared/dom';
import { runPanelPage, type VsCodeApi } from '../shared/page';
import { FilterForm } from './form';
import { t } from './l10n';
import { LiveControls } from './live';
import { VirtualTable } from './table';
import { TimeText } from '../shared/timeText';

type ResetMessage = Extract<ExtensionMessage, { type: 'reset' }>;
type StatusMessage = Extract<ExtensionMessage, { type: 'status' }>;

class EventsPage {
  /** The listing the rows belong to; messages of an older one are dropped. -1: none yet. */
  private generation = -1;
  private project: { connectionId: string; id: number; name: string } | undefined;
  /** A scroll position to go back to after a reload, once enough rows are loaded. */
  private pendingScrollTop = 0;
  private times = new TimeText();

  private readonly heading = el('h1', {}, t('Events'));
  private readonly status = el('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  /** The time range asked: never unbounded, so always said. */
  private readonly rangeLine = el('p', { class: 'range' });
  /** What loading waits for (PostHog's limit for the key), and notes about the rows. */
  private readonly waitLine = el('p', { class: 'waiting', role: 'status', 'aria-live': 'polite', hidden: true });
  private readonly noteLine = el('p', { class: 'note', role: 'status', hidden: true });
  private readonly alertBox = el('p', { class: 'error list-alert', role: 'alert' });
  private readonly ring = el('vscode-progress-ring', { class: 'ring', hidden: true, 'aria-hidden': 'true' });
  private readonly form: FilterForm;
  private readonly table: VirtualTable;
  private readonly live: LiveControls;
  private readonly detail: EventDetailView;

  constructor(private readonly vscode: VsCodeApi) {
    this.form = new FilterForm({ send: (message) => this.send(message), query: (filters) => this.query(filters) });
    this.table = new VirtualTable({
      needMore: (lastVisible) => {
        if (this.generation >= 0) this.send({ type: 'need', generation: this.generation, upTo: lastVisible });
      },
      open: (index, id) => this.detail.open(index, id),
      scrolled: debounce((scrollTop: number) => this.saveState({ scrollTop }), 200),
    });
    this.live = new LiveControls(this.table, (message) => this.send(message), (iso) => this.times.at(iso));
    this.detail = new EventDetailView(this.table, (message) => this.send(message));
  }

  /** Puts the page together and tells the extension it is ready (with the filters a reload kept). */
  start(app: HTMLElement): void {
    const results = el('section', { class: 'results', 'aria-label': t('Results') });
    const statusLine = el('div', { class: 'status-line' });
    statusLine.append(this.ring, this.status, this.live.element);
    results.append(this.rangeLine, statusLine, this.waitLine, this.noteLine, this.live.gapElement, this.alertBox, this.table.element);
    const header = el('header');
    header.append(this.heading);
    app.append(header, this.form.element, this.form.suggestionStatus, results, this.detail.element);
    app.removeAttribute('aria-busy');
    const saved = PanelStateSchema.safeParse(this.vscode.getState());
    this.send(saved.success ? { type: 'ready', filters: saved.data.filters, scrollTop: saved.data.scrollTop } : { type: 'ready' });
  }

  receive(message: ExtensionMessage): void {
    switch (message.type) {
      case 'init':
        this.project = { connectionId: message.connectionId, id: message.project.id, name: message.project.name };
        this.heading.textContent = t('Events: {0}', message.project.name);
        document.title = this.heading.textContent;
        this.form.fill(message.filters);
        this.table.setLocale(message.locale);
        this.times = new TimeText(message.locale);
        this.pendingScrollTop = message.scrollTop;
        this.saveState({ filters: message.filters, scrollTop: message.scrollTop });
        return;
      case 'reset':
        return this.reset(message);
      case 'rows':
        if (message.generation !== this.generation) return;
        this.table.append(message.start, message.rows, message.done);
        this.restoreScroll();
        this.status.textContent = message.done
          ? t('{0} events, all loaded', this.table.loaded.toLocaleString())
          : t('{0} events loaded; more load as you scroll', this.table.loaded.toLocaleString());
        return;
      case 'status':
        if (message.generation === this.generation) this.showStatus(message);
        return;
      case 'suggestions':
        this.form.showSuggestions(message);
        return;
      case 'detail':
        this.detail.show(message);
        return;
      case 'liveRows':
        if (message.generation !== this.generation) return;
        this.live.rows(message);
        this.status.textContent = `${this.table.loaded.toLocaleString()} events`;
        return;
      case 'liveState':
        this.live.state(message);
        return;
      case 'fieldError':
        if (message.generation === this.generation) this.form.showFieldError(message);
        return;
      case 'after':
        this.form.setAfter(message.after);
        this.saveState({ filters: this.form.read() });
        return;
      case 'liveGap':
        if (message.generation === this.generation) this.live.gap(message);
        return;
    }
  }

  private send(message: WebviewMessage): void {
    this.vscode.postMessage(message);
  }

  private query(filters: FilterState): void {
    this.saveState({ filters, scrollTop: 0 });
    this.send({ type: 'query', filters });
  }

  private reset(message: ResetMessage): void {
    this.generation = message.generation;
    this.table.reset(message.columns);
    this.live.reset();
    this.alertBox.textContent = '';
    this.form.clearFieldErrors();
    showLine(this.waitLine, '');
    showLine(this.noteLine, '');
    this.rangeLine.textContent = this.rangeText(message.range);
  }

  private showStatus(message: StatusMessage): void {
    this.table.setLoading(message.loading);
    this.ring.hidden = !message.loading;
    this.form.setLoading(message.loading);
    if (message.loading && this.table.loaded === 0) this.status.textContent = t('Loading events…');
    if (message.error) this.showError(message.error, message.retry === true);
    if (message.waiting !== undefined) showLine(this.waitLine, message.waiting);
    if (!message.loading) showLine(this.waitLine, '');
    if (message.note) showLine(this.noteLine, message.note);
    if (!message.loading && !message.error && this.table.loaded === 0 && this.table.isDone) this.status.textContent = t('No events match these filters.');
  }

  /** The error as literal text, with a Retry that runs the form's query again when it may pass. */
  private showError(text: string, retry: boolean): void {
    this.alertBox.replaceChildren(text);
    if (retry) {
      const again = button(t('Retry'), { secondary: true, class: 'retry' });
      again.addEventListener('click', () => this.query(this.form.read()));
      this.alertBox.append(' ', again);
    }
  }

  /** "Events after Nov 22, 2026, 07:01:02" or "between … and …": the lower bound is always there. */
  private rangeText(range: ResetMessage['range']): string {
    if (!range?.after) {
      return '';
    }
    return range.before
      ? t('Events between {0} and {1}', this.times.at(range.after), this.times.at(range.before))
      : t('Events after {0}', this.times.at(range.after));
  }

  /** After a reload: load down to the row the user was at, then scroll back there. */
  private restoreScroll(): void {
    if (this.pendingScrollTop <= 0) {
      return;
    }
    const needed = this.table.rowsFor(this.pendingScrollTop);
    if (this.table.loaded >= needed || this.table.isDone) {
      this.table.scrollTo(this.pendingScrollTop);
      this.pendingScrollTop = 0;
    } else {
      this.send({ type: 'need', generation: this.generation, upTo: needed });
    }
  }

  /** Keeps the project, filters and scroll position for the panel serializer (a reload brings them back). */
  private saveState(change: { filters?: FilterState; scrollTop?: number }): void {
    if (!this.project) {
      return;
    }
    const previous = PanelStateSchema.safeParse(this.vscode.getState());
    this.vscode.setState({
      connectionId: this.project.connectionId,
      projectId: this.project.id,
      projectName: this.project.name,
      filters: change.filters ?? (previous.success ? previous.data.filters : this.form.read()),
      scrollTop: change.scrollTop ?? (previous.success ? previous.data.scrollTop : 0),
    });
  }
}

function showLine(line: HTMLElement, text: string): void {
  line.textContent = text;
  line.hidden = !text;
}

runPanelPage((vscode) => new EventsPage(vscode), parseExtensionMessage);
