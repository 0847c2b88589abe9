/// <reference lib="dom" />
// A trends result as a line chart (uPlot on a canvas): one series per result entry over its intervals, in
// the theme's chart colours, with each series' label and total in a legend beside it (text only).
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ChartMessage } from '../../results/protocol';
import { el } from '../shared/dom';
import { t } from './l10n';

const SERIES_COLOURS = ['blue', 'orange', 'green', 'purple', 'red', 'yellow'];
const HEIGHT = 240;

function themeColour(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

function seriesColour(index: number): string {
  return themeColour(`--vscode-charts-${SERIES_COLOURS[index % SERIES_COLOURS.length]}`, '#3794ff');
}

export class TrendsChartView {
  readonly element: HTMLElement;
  private readonly canvasBox: HTMLElement;
  private readonly legend: HTMLElement;
  private plot: uPlot | undefined;

  constructor(
    private readonly chart: ChartMessage,
    label: string,
  ) {
    this.canvasBox = el('div', { class: 'chart-canvas', role: 'img', 'aria-label': t('Chart of {0}', label) });
    this.legend = el('table', { class: 'legend' });
    this.element = el('div', { class: 'chart' });
    this.element.append(this.canvasBox, this.legend);
    this.fillLegend();
    new ResizeObserver(() => this.fit()).observe(this.canvasBox);
    // A theme change recolours the chart: VS Code changes the body's class.
    new MutationObserver(() => this.draw()).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  }

  /** Draws once the box has a width (the section is in the page). */
  draw(): void {
    this.plot?.destroy();
    this.fillLegend();
    const width = this.canvasBox.clientWidth;
    if (width <= 0) {
      this.plot = undefined;
      return;
    }
    const days = this.chart.days;
    const foreground = themeColour('--vscode-foreground', '#cccccc');
    const lines = themeColour('--vscode-charts-lines', 'rgba(128,128,128,0.3)');
    const axis = { stroke: foreground, grid: { stroke: lines, width: 1 }, ticks: { stroke: lines, width: 1 } };
    const data: uPlot.AlignedData = [days.map((_, index) => index), ...this.chart.series.map((series) => series.values)];
    this.plot = new uPlot(
      {
        width,
        height: HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        // Half an interval of room at each end, so that the first and last days' labels are not cut.
        scales: { x: { time: false, range: (_plot, min, max) => [min - 0.5, max + 0.5] } },
        axes: [
          { ...axis, values: (_plot, splits) => splits.map((split) => (Number.isInteger(split) ? (days[split] ?? '') : '')) },
          { ...axis },
        ],
        series: [{}, ...this.chart.series.map((series, index) => ({ label: series.label, stroke: seriesColour(index), width: 2, spanGaps: false }))],
      },
      data,
      this.canvasBox,
    );
  }

  private fit(): void {
    const width = this.canvasBox.clientWidth;
    if (!this.plot) {
      this.draw();
    } else if (width > 0 && width !== this.plot.width) {
      this.plot.setSize({ width, height: HEIGHT });
    }
  }

  private fillLegend(): void {
    const head = el('tr');
    head.append(el('th', { scope: 'col' }, t('Series')), el('th', { scope: 'col', class: 'number' }, t('Total')));
    const rows = this.chart.series.map((series, index) => {
      const swatch = el('span', { class: 'swatch', 'aria-hidden': 'true' });
      swatch.style.background = seriesColour(index);
      const name = el('td', { class: 'series-label' });
      name.append(swatch, document.createTextNode(series.label));
      const row = el('tr');
      row.append(name, el('td', { class: 'number' }, series.total === null ? '' : series.total.toLocaleString()));
      return row;
    });
    this.legend.replaceChildren(head, ...rows);
  }
}
