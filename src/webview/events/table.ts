/// <reference lib="dom" />
// The results table: rows kept in flat arrays, only the rows in view (plus a few) in the DOM.
import { el } from '../shared/dom';
import { t } from './l10n';
import { TimeText } from '../shared/timeText';
import { type RowRange, shouldLoadMore } from '../shared/virtualRange';
import { ROW_HEIGHT, WindowedRows } from '../shared/windowedRows';

/** Ask for more when the user is this many rows from the end of what is loaded. */
const LOAD_AHEAD = 150;
/** How long rows that Live added stay highlighted. */
const FRESH_MS = 2_000;
/** The Time column's ages ("12s ago") are brought up to date this often. */
const AGE_REFRESH_MS = 1_000;

export interface TableEvents {
  /** The user is near the end of the loaded rows. */
  needMore(lastVisible: number): void;
  open(index: number, id: string): void;
  scrolled(scrollTop: number): void;
}

export class VirtualTable extends WindowedRows {
  private ids: (string | null)[] = [];
  protected override complete = false;
  private loading = false;
  private active = -1;
  /** Rows Live put in front of the listing: the listing's pages arrive at their start plus this. */
  private prepended = 0;
  /** The first `freshRows` rows were added by Live at `freshAt` and are highlighted for a moment. */
  private freshRows = 0;
  private freshAt = 0;
  private freshTimer: ReturnType<typeof setTimeout> | undefined;
  private times = new TimeText();

  constructor(private readonly events: TableEvents) {
    super(t('Events'));
    setInterval(() => this.refreshAges(), AGE_REFRESH_MS);
  }

  /** Times are shown in this language (VS Code's). */
  setLocale(locale: string | undefined): void {
    this.times = new TimeText(locale);
    this.clearRows();
    this.schedule();
  }

  /**
   * Live: puts rows (newest first) at the top and drops the oldest past `keep`. When the user is reading
   * further down, the rows they see stay where they are; returns whether they were.
   */
  prepend(rows: { id: string | null; cells: string[] }[], keep: number): boolean {
    const width = this.columns.length;
    const ids: (string | null)[] = [];
    const cells: string[] = [];
    for (const row of rows) {
      ids.push(row.id);
      this.pushRow(cells, row.cells);
    }
    this.ids = ids.concat(this.ids);
    this.cells = cells.concat(this.cells);
    this.prepended += rows.length;
    if (this.ids.length > keep) {
      this.ids.length = keep;
      this.cells.length = keep * width;
      this.complete = true; // the listing's older pages are not loaded any more
    }
    this.active = this.active >= 0 && this.active + rows.length < this.ids.length ? this.active + rows.length : -1;
    this.freshRows = rows.length;
    this.freshAt = performance.now();
    // A still highlight, taken off once: an animation would repaint every frame while it runs.
    clearTimeout(this.freshTimer);
    this.freshTimer = setTimeout(() => this.rendered.forEach((row) => row.classList.remove('fresh')), FRESH_MS);
    const reading = this.element.scrollTop > 0;
    const scrollTop = this.element.scrollTop + rows.length * ROW_HEIGHT;
    this.clearRows();
    if (reading) {
      this.scrollTo(scrollTop);
    } else {
      this.render();
    }
    return reading;
  }

  get isAtTop(): boolean {
    return this.element.scrollTop === 0;
  }

  get loaded(): number {
    return this.ids.length;
  }

  reset(columns: string[]): void {
    this.columns = columns;
    this.ids = [];
    this.cells = [];
    this.complete = false;
    this.active = -1;
    this.prepended = 0;
    this.freshRows = 0;
    this.element.removeAttribute('aria-activedescendant');
    this.header.replaceChildren(...columns.map((name) => el('div', { class: 'cell', role: 'columnheader' }, name)));
    this.element.style.setProperty('--columns', columnTemplate(columns.length));
    this.clearRows();
    this.element.scrollTop = 0;
    this.schedule();
  }

  append(start: number, rows: { id: string | null; cells: string[] }[], done: boolean): void {
    if (start + this.prepended !== this.ids.length) {
      return; // pages arrive in order; anything else belongs to an old query (or was dropped by Live)
    }
    for (const row of rows) {
      this.ids.push(row.id);
      this.pushRow(this.cells, row.cells);
    }
    this.complete = done;
    this.schedule();
  }

  setLoading(loading: boolean): void {
    this.loading = loading;
    if (!loading) {
      this.schedule();
    }
  }

  get isDone(): boolean {
    return this.complete;
  }

  scrollTo(scrollTop: number): void {
    this.render(); // sizes the body first, or the browser clamps the position
    this.element.scrollTop = scrollTop;
    this.render();
  }

  /** Rows needed in the list to show this scroll position. */
  rowsFor(scrollTop: number): number {
    return Math.ceil((scrollTop + this.element.clientHeight) / ROW_HEIGHT) + 1;
  }

  focus(): void {
    this.element.focus();
  }

  protected override render(): RowRange {
    const range = super.render();
    this.events.scrolled(this.element.scrollTop);
    if (!this.loading && shouldLoadMore(range.lastVisible, this.ids.length, this.complete, LOAD_AHEAD)) {
      this.events.needMore(Math.max(range.lastVisible - this.prepended, 0));
    }
    return range;
  }

  protected createRow(index: number): HTMLElement {
    const fresh = index < this.freshRows && performance.now() - this.freshAt < FRESH_MS;
    const row = el('div', {
      class: `row data${index === this.active ? ' active' : ''}${fresh ? ' fresh' : ''}`,
      role: 'row',
      id: `event-row-${index}`,
      'aria-rowindex': index + 2,
      'aria-selected': index === this.active ? 'true' : 'false',
      'data-index': index,
    });
    const width = this.columns.length;
    const now = Date.now();
    for (let column = 0; column < width; column++) {
      const text = this.cells[index * width + column] ?? '';
      // Text only: values come from the public internet. The Time column shows local time and age.
      row.append(
        column === 0
          ? el('div', { class: 'cell time', role: 'gridcell', title: text }, this.times.cell(text, now))
          : el('div', { class: 'cell', role: 'gridcell', title: text }, text),
      );
    }
    return row;
  }

  private refreshAges(): void {
    const now = Date.now();
    const width = this.columns.length;
    for (const [index, row] of this.rendered) {
      const cell = row.firstElementChild;
      const text = this.times.cell(this.cells[index * width] ?? '', now);
      if (cell && cell.textContent !== text) {
        cell.textContent = text;
      }
    }
  }

  protected onClick(event: MouseEvent): void {
    const row = (event.target as HTMLElement | null)?.closest<HTMLElement>('.row.data');
    if (row) {
      this.activate(Number(row.dataset['index']));
      this.openActive();
    }
  }

  protected onKey(event: KeyboardEvent): void {
    const total = this.ids.length;
    if (total === 0) {
      return;
    }
    const page = Math.max(1, Math.floor(this.element.clientHeight / ROW_HEIGHT) - 2);
    const moves: Record<string, number> = {
      ArrowDown: this.active + 1,
      ArrowUp: this.active - 1,
      PageDown: this.active + page,
      PageUp: this.active - page,
      Home: 0,
      End: total - 1,
    };
    if (event.key in moves) {
      event.preventDefault();
      this.activate(Math.max(0, Math.min(total - 1, moves[event.key]!)));
    } else if ((event.key === 'Enter' || event.key === ' ') && this.active >= 0) {
      event.preventDefault();
      this.openActive();
    }
  }

  private activate(index: number): void {
    this.rendered.get(this.active)?.classList.remove('active');
    this.rendered.get(this.active)?.setAttribute('aria-selected', 'false');
    this.active = index;
    this.reveal(index);
    this.render();
    const row = this.rendered.get(index);
    row?.classList.add('active');
    row?.setAttribute('aria-selected', 'true');
    this.element.setAttribute('aria-activedescendant', `event-row-${index}`);
  }

  private openActive(): void {
    const id = this.ids[this.active];
    if (id) {
      this.events.open(this.active, id);
    }
  }
}

function columnTemplate(count: number): string {
  const fixed = ['minmax(15em, 17em)', 'minmax(8em, 12em)', 'minmax(8em, 14em)', 'minmax(8em, 14em)'];
  return Array.from({ length: count }, (_, index) => fixed[index] ?? 'minmax(8em, 1fr)').join(' ');
}
