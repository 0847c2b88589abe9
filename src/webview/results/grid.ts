/// <reference lib="dom" />
// A result's table: cells kept in one flat array, only the rows in view (plus a few) in the DOM. A cell is
// picked with a click or the arrow keys; Ctrl+C copies it, Ctrl+Shift+C its row.
import { el } from '../shared/dom';
import { MAX_RENDERED_ROWS, visibleRange } from '../shared/virtualRange';

export const ROW_HEIGHT = 24;
const OVERSCAN = 20;

export interface GridEvents {
  copy(text: string): void;
}

export class ResultGrid {
  readonly element: HTMLElement;
  private readonly header: HTMLElement;
  private readonly body: HTMLElement;
  private columns: readonly string[] = [];
  /** Cells of all rows, row after row (stride = columns.length). */
  private cells: string[] = [];
  private rowCount = 0;
  private active = { row: -1, column: 0 };
  private readonly rendered = new Map<number, HTMLElement>();
  private frame = 0;

  constructor(label: string, private readonly events: GridEvents) {
    this.element = el('div', { class: 'grid', role: 'grid', tabindex: 0, 'aria-label': label, 'aria-readonly': 'true', 'aria-rowcount': 1 });
    this.header = el('div', { class: 'row header', role: 'row', 'aria-rowindex': 1 });
    this.body = el('div', { class: 'body', role: 'presentation' });
    this.element.append(this.header, this.body);
    this.element.addEventListener('scroll', () => this.schedule());
    this.element.addEventListener('keydown', (event) => this.onKey(event));
    this.element.addEventListener('click', (event) => this.onClick(event));
    new ResizeObserver(() => this.schedule()).observe(this.element);
  }

  get loaded(): number {
    return this.rowCount;
  }

  get renderedRowCount(): number {
    return this.rendered.size;
  }

  reset(columns: readonly string[]): void {
    this.columns = columns;
    this.cells = [];
    this.rowCount = 0;
    this.active = { row: -1, column: 0 };
    this.header.replaceChildren(...columns.map((name) => el('div', { class: 'cell', role: 'columnheader', title: name }, name)));
    // Every row is a grid of its own: tracks that never size to their text keep the columns aligned.
    this.element.style.setProperty('--columns', `repeat(${Math.max(1, columns.length)}, minmax(0, 1fr))`);
    this.element.style.setProperty('--row-min-width', `${Math.max(1, columns.length) * 8}em`);
    this.clearRows();
    this.element.scrollTop = 0;
    this.schedule();
  }

  append(start: number, rows: readonly (readonly string[])[]): boolean {
    if (start !== this.rowCount) {
      return false; // rows arrive in order; anything else belongs to an older run
    }
    const width = this.columns.length;
    for (const row of rows) {
      for (let column = 0; column < width; column++) {
        this.cells.push(row[column] ?? '');
      }
    }
    this.rowCount += rows.length;
    if (start === 0) {
      this.render(); // the first rows at once: more chunks may be queued before the next frame
    } else {
      this.schedule();
    }
    return true;
  }

  cellText(row: number, column: number): string {
    return this.cells[row * this.columns.length + column] ?? '';
  }

  rowText(row: number): string {
    const width = this.columns.length;
    return this.cells.slice(row * width, (row + 1) * width).join('\t');
  }

  /** The picked cell, or the first one when none is picked. */
  get activeCell(): { row: number; column: number } | undefined {
    if (this.rowCount === 0) return undefined;
    return this.active.row >= 0 ? this.active : { row: 0, column: 0 };
  }

  private schedule(): void {
    if (!this.frame) {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.render();
      });
    }
  }

  private clearRows(): void {
    this.rendered.forEach((row) => row.remove());
    this.rendered.clear();
  }

  private render(): void {
    const total = this.rowCount;
    this.element.setAttribute('aria-rowcount', String(total + 1));
    this.body.style.height = `${total * ROW_HEIGHT}px`;
    const viewportHeight = Math.max(0, this.element.clientHeight - this.header.offsetHeight);
    const range = visibleRange({ scrollTop: this.element.scrollTop, viewportHeight, rowHeight: ROW_HEIGHT, total, overscan: OVERSCAN });
    for (const [index, row] of this.rendered) {
      if (index < range.start || index >= range.end) {
        row.remove();
        this.rendered.delete(index);
      }
    }
    for (let index = range.start; index < range.end && this.rendered.size < MAX_RENDERED_ROWS; index++) {
      if (!this.rendered.has(index)) {
        const row = this.createRow(index);
        this.rendered.set(index, row);
        this.body.append(row);
      }
    }
  }

  private createRow(index: number): HTMLElement {
    const row = el('div', { class: 'row data', role: 'row', 'aria-rowindex': index + 2, 'data-index': index });
    row.style.transform = `translateY(${index * ROW_HEIGHT}px)`;
    const width = this.columns.length;
    for (let column = 0; column < width; column++) {
      const text = this.cells[index * width + column] ?? '';
      const picked = index === this.active.row && column === this.active.column;
      // Text only: values come from PostHog, written by anyone who can send events.
      row.append(el('div', { class: picked ? 'cell active' : 'cell', role: 'gridcell', 'data-column': column, title: text, 'aria-selected': picked ? 'true' : undefined }, text));
    }
    return row;
  }

  private onClick(event: MouseEvent): void {
    const cell = (event.target as HTMLElement | null)?.closest<HTMLElement>('.row.data .cell');
    const row = cell?.parentElement;
    if (cell && row) {
      this.pick(Number(row.dataset['index']), Number(cell.dataset['column']));
    }
  }

  private onKey(event: KeyboardEvent): void {
    if (this.rowCount === 0) return;
    const copyKey = (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'c';
    const cell = this.activeCell!;
    if (copyKey) {
      event.preventDefault();
      this.events.copy(event.shiftKey ? this.rowText(cell.row) : this.cellText(cell.row, cell.column));
      return;
    }
    const page = Math.max(1, Math.floor(this.element.clientHeight / ROW_HEIGHT) - 2);
    const moves: Record<string, [number, number]> = {
      ArrowDown: [cell.row + 1, cell.column],
      ArrowUp: [cell.row - 1, cell.column],
      ArrowRight: [cell.row, cell.column + 1],
      ArrowLeft: [cell.row, cell.column - 1],
      PageDown: [cell.row + page, cell.column],
      PageUp: [cell.row - page, cell.column],
      Home: [0, cell.column],
      End: [this.rowCount - 1, cell.column],
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      this.pick(Math.max(0, Math.min(this.rowCount - 1, move[0])), Math.max(0, Math.min(this.columns.length - 1, move[1])));
    }
  }

  private pick(row: number, column: number): void {
    this.active = { row, column };
    const top = row * ROW_HEIGHT;
    const bodyHeight = this.element.clientHeight - this.header.offsetHeight;
    if (top < this.element.scrollTop) {
      this.element.scrollTop = top;
    } else if (top + ROW_HEIGHT > this.element.scrollTop + bodyHeight) {
      this.element.scrollTop = top + ROW_HEIGHT - bodyHeight;
    }
    this.clearRows();
    this.render();
  }
}
