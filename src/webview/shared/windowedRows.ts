/// <reference lib="dom" />
// The windowed rows of the events table and the Results grid: a scrolling grid with a sticky header and a
// body sized for every row, of which only those in range are in the DOM, placed by transform, kept while they
// stay in range and drawn on the next animation frame. Cells are kept in one flat array. What a row shows,
// the keys and the clicks are each table's own (its subclass's).
import { el } from './dom';
import { MAX_RENDERED_ROWS, type RowRange, visibleRange } from './virtualRange';

export const ROW_HEIGHT = 24;
const OVERSCAN = 20;

export abstract class WindowedRows {
  readonly element: HTMLElement;
  protected readonly header: HTMLElement;
  private readonly body: HTMLElement;
  protected readonly rendered = new Map<number, HTMLElement>();
  private frame = 0;
  /** How many rows are loaded. */
  abstract readonly loaded: number;
  /** Whether every row is there: until then aria-rowcount says -1 (unknown). */
  protected complete = true;
  protected columns: readonly string[] = [];
  /** Cells of all rows, row after row (stride = columns.length). */
  protected cells: string[] = [];

  protected constructor(label: string) {
    const element = el('div', { class: 'grid', role: 'grid', tabindex: 0, 'aria-label': label, 'aria-rowcount': 1, 'aria-readonly': 'true' });
    this.element = element;
    this.header = el('div', { class: 'row header', role: 'row', 'aria-rowindex': 1 });
    this.body = el('div', { class: 'body', role: 'presentation' });
    element.append(this.header, this.body);
    element.addEventListener('scroll', () => this.schedule());
    element.addEventListener('keydown', (event) => this.onKey(event));
    element.addEventListener('click', (event) => this.onClick(event));
    new ResizeObserver(() => this.schedule()).observe(element);
  }

  /** Row `index`'s element (`render` puts it at its place). */
  protected abstract createRow(index: number): HTMLElement;

  protected abstract onKey(event: KeyboardEvent): void;

  protected abstract onClick(event: MouseEvent): void;

  cellText(row: number, column: number): string {
    return this.cells[row * this.columns.length + column] ?? '';
  }

  protected pushRow(into: string[], row: readonly string[]): void {
    const width = this.columns.length;
    for (let column = 0; column < width; column++) {
      into.push(row[column] ?? '');
    }
  }

  private get bodyHeight(): number {
    return this.element.clientHeight - this.header.offsetHeight;
  }

  /** Once a frame, however often it is asked. */
  protected schedule(): void {
    if (!this.frame) {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.render();
      });
    }
  }

  protected clearRows(): void {
    this.rendered.forEach((row) => row.remove());
    this.rendered.clear();
  }

  protected reveal(index: number): void {
    const element = this.element;
    const top = index * ROW_HEIGHT;
    const bodyHeight = this.bodyHeight;
    if (top < element.scrollTop) {
      element.scrollTop = top;
    } else if (top + ROW_HEIGHT > element.scrollTop + bodyHeight) {
      element.scrollTop = top + ROW_HEIGHT - bodyHeight;
    }
  }

  protected render(): RowRange {
    const { element, rendered } = this;
    const total = this.loaded;
    element.setAttribute('aria-rowcount', String(this.complete ? total + 1 : -1));
    this.body.style.height = `${total * ROW_HEIGHT}px`;
    const viewportHeight = Math.max(0, this.bodyHeight);
    const range = visibleRange({ scrollTop: element.scrollTop, viewportHeight, rowHeight: ROW_HEIGHT, total, overscan: OVERSCAN });
    for (const [index, row] of rendered) {
      if (index < range.start || index >= range.end) {
        row.remove();
        rendered.delete(index);
      }
    }
    for (let index = range.start; index < range.end && rendered.size < MAX_RENDERED_ROWS; index++) {
      if (!rendered.has(index)) {
        const row = this.createRow(index);
        row.style.transform = `translateY(${index * ROW_HEIGHT}px)`;
        rendered.set(index, row);
        this.body.append(row);
      }
    }
    return range;
  }
}
