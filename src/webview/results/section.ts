/// <reference lib="dom" />
// One card's section: its label and state (a spinner and Cancel while it runs, "N rows in T s", PostHog's
// error), then what its result shows as: a table, a trends chart beside its series and totals, or a link
// to PostHog for kinds not drawn here. A section restored after a window reload says what it holds, offers
// Run again, and exports only what it holds, as CSV (its rows are text).
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import type { ResultsWebviewMessage, RowsMessage, SectionMessage } from '../../results/protocol';
import { button, el } from '../shared/dom';
import { TrendsChartView } from './chart';
import { ResultGrid } from './grid';
import { t } from './l10n';

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
    /** A time (ms since the epoch) as the editor's language writes it. */
    private readonly timeText: (ms: number) => string,
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
    this.tools.replaceChildren(...this.restoredButtons(message), ...this.openButton(message));
    if (running) {
      return; // a new run replaces the old result only once it has ended: keep showing the last one meanwhile
    }
    this.content.replaceChildren();
    if (message.state === 'done') this.showResult(message);
    if (message.restored) this.content.prepend(el('p', { class: 'note restored' }, this.restoredText(message, message.restored.rows) + this.restoredExportText(message)));
  }

  private showResult(message: SectionMessage): void {
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
    this.tools.prepend(...this.tableButtons(message));
  }

  /** What a restored section holds, and from when. */
  private restoredText(message: SectionMessage, runRows: number): string {
    const at = message.at === undefined ? '' : this.timeText(message.at);
    const view = message.view;
    if (view && view.kind !== 'unsupported' && view.rowCount < runRows) {
      return t('Restored from the run at {0}: the first {1} of {2} rows. Run again for all.', at, count(view.rowCount), count(runRows));
    }
    if (view?.kind === 'trends' && !view.chart) {
      return t('Restored from the run at {0}: its table only, as the chart was too large to keep. Run again to draw it.', at);
    }
    return t('Restored from the run at {0}. Run again for a fresh result.', at);
  }

  /**
   * Why a restored table offers no JSON: the webview is sent (and keeps) each cell as text, so JSON would give
   * PostHog's numbers, booleans and nulls as strings; keeping the values too would about halve the rows the state's 2 MB holds.
   */
  private restoredExportText(message: SectionMessage): string {
    const hasTable = message.state === 'done' && message.view !== undefined && message.view.kind !== 'unsupported';
    return hasTable ? ` ${t('Its cells were kept as text, so it exports as CSV only: run again to export JSON with PostHog’s types.')}` : '';
  }

  rows(message: RowsMessage): void {
    if (message.generation === this.generation) {
      this.grid?.append(message.start, message.rows);
    }
  }

  private tableButtons(message: SectionMessage): HTMLElement[] {
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
    const held = message.view?.rowCount ?? 0;
    const truncated = message.restored !== undefined && held < message.restored.rows;
    const csv = button(truncated ? t('Export the first {0} rows as CSV…', count(held)) : t('Export CSV…'), { secondary: true });
    csv.addEventListener('click', () => this.send({ type: 'export', id: this.id, format: 'csv' }));
    if (message.restored) {
      return [copyCell, copyRow, csv]; // its rows are text now: JSON would misstate PostHog's types
    }
    const json = button(t('Export JSON…'), { secondary: true });
    json.addEventListener('click', () => this.send({ type: 'export', id: this.id, format: 'json' }));
    return [copyCell, copyRow, csv, json];
  }

  private restoredButtons(message: SectionMessage): HTMLElement[] {
    if (!message.restored) {
      return [];
    }
    const again = button(t('Run again'), { title: t('Run this query again (counts against the key’s HogQL queries an hour)') });
    again.addEventListener('click', () => {
      again.setAttribute('disabled', '');
      this.send({ type: 'rerun', id: this.id });
    });
    return [again];
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

function count(rows: number): string {
  return rows.toLocaleString('en-US');
}
