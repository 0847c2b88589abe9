/// <reference lib="dom" />
// One card's section: its label and state (a spinner and Cancel while it runs, "N rows in T s", PostHog's
// error), then what its result shows as: a table, a trends chart beside its series and totals, or a link
// to PostHog for kinds not drawn here.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import type { ResultsExtensionMessage, ResultsWebviewMessage } from '../../results/protocol';
import { button, el } from '../shared/dom';
import { TrendsChartView } from './chart';
import { ResultGrid } from './grid';
import { t } from './l10n';

type SectionMessage = Extract<ResultsExtensionMessage, { type: 'section' }>;
type RowsMessage = Extract<ResultsExtensionMessage, { type: 'rows' }>;

export class ResultSectionView {
  readonly element: HTMLElement;
  private generation = -1;
  private readonly heading = el('h2');
  private readonly kind = el('span', { class: 'kind' });
  private readonly ring = el('vscode-progress-ring', { class: 'ring', hidden: true, 'aria-hidden': 'true' });
  private readonly summary = el('span', { class: 'summary', role: 'status', 'aria-live': 'polite' });
  private readonly cancel = button(t('Cancel'), { secondary: true, title: t('Cancel this query'), hidden: true });
  private readonly tools = el('div', { class: 'tools' });
  private readonly content = el('div', { class: 'content' });
  private grid: ResultGrid | undefined;

  constructor(
    private readonly id: string,
    private readonly send: (message: ResultsWebviewMessage) => void,
  ) {
    this.element = el('section', { class: 'result', 'data-section': id });
    const header = el('header');
    header.append(this.heading, this.kind, this.ring, this.summary, this.cancel, this.tools);
    this.element.append(header, this.content);
    this.cancel.addEventListener('click', () => {
      this.cancel.setAttribute('disabled', '');
      this.send({ type: 'cancel', id: this.id });
    });
  }

  update(message: SectionMessage): void {
    this.generation = message.generation;
    this.element.dataset['state'] = message.state;
    this.heading.textContent = message.label;
    this.kind.textContent = message.queryKind;
    this.summary.textContent = message.summary;
    this.summary.classList.toggle('error', message.state === 'failed');
    const running = message.state === 'running';
    this.ring.hidden = !running;
    this.cancel.hidden = !running;
    this.cancel.removeAttribute('disabled');
    this.element.setAttribute('aria-busy', String(running));
    this.grid = undefined;
    this.tools.replaceChildren(...this.openButton(message));
    if (message.state !== 'done') {
      // A new run replaces the old result only once it is done: keep showing the last one meanwhile.
      if (!running) this.content.replaceChildren();
      return;
    }
    this.content.replaceChildren();
    const view = message.view;
    if (!view || view.kind === 'unsupported') {
      this.content.append(el('p', { class: 'note' }, t('This kind of result is not drawn here: open it in PostHog to see it as PostHog shows it.')));
      return;
    }
    if (view.kind === 'trends' && view.chart) {
      const chart = new TrendsChartView(view.chart, message.label);
      this.content.append(chart.element);
      requestAnimationFrame(() => chart.draw());
    }
    this.grid = new ResultGrid(t('Rows of {0}', message.label), { copy: (text) => this.send({ type: 'copy', text }) });
    this.grid.reset(view.columns);
    this.content.append(this.grid.element);
    this.tools.prepend(...this.tableButtons());
  }

  rows(message: RowsMessage): void {
    if (message.generation === this.generation) {
      this.grid?.append(message.start, message.rows);
    }
  }

  private tableButtons(): HTMLElement[] {
    const copyCell = button(t('Copy cell'), { secondary: true });
    copyCell.addEventListener('click', () => {
      const cell = this.grid?.activeCell;
      if (cell) this.send({ type: 'copy', text: this.grid!.cellText(cell.row, cell.column) });
    });
    const copyRow = button(t('Copy row'), { secondary: true });
    copyRow.addEventListener('click', () => {
      const cell = this.grid?.activeCell;
      if (cell) this.send({ type: 'copy', text: this.grid!.rowText(cell.row) });
    });
    const csv = button(t('Export CSV…'), { secondary: true });
    csv.addEventListener('click', () => this.send({ type: 'export', id: this.id, format: 'csv' }));
    const json = button(t('Export JSON…'), { secondary: true });
    json.addEventListener('click', () => this.send({ type: 'export', id: this.id, format: 'json' }));
    return [copyCell, copyRow, csv, json];
  }

  private openButton(message: SectionMessage): HTMLElement[] {
    if (!message.canOpen) {
      return [];
    }
    const open = button(t('Open in PostHog'), { secondary: message.view?.kind !== 'unsupported' });
    open.addEventListener('click', () => this.send({ type: 'open', id: this.id }));
    return [open];
  }
}
