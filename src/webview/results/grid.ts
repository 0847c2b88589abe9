/// <reference lib="dom" />
// A result's table: cells kept in one flat array, only the rows in view (plus a few) in the DOM. A cell is
// picked with a click or the arrow keys; Ctrl+C copies it, Ctrl+Shift+C its row.
import { el } from '../shared/dom';
import { ROW_HEIGHT, WindowedRows } from '../shared/windowedRows';

export interface GridEvents {
  copy(text: string): void;
}

export class ResultGrid extends WindowedRows {
  loaded = 0;
  private active = { row: -1, column: 0 };

  constructor(label: string, private readonly events: GridEvents) {
    super(label);
  }

  reset(columns: readonly string[]): void {
    this.columns = columns;
    this.cells = [];
    this.loaded = 0;
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
    if (start !== this.loaded) {
      return false; // rows arrive in order; anything else belongs to an older run
    }
    for (const row of rows) {
      this.pushRow(this.cells, row);
    }
    this.loaded += rows.length;
    if (start === 0) {
      this.render(); // the first rows at once: more chunks may be queued before the next frame
    } else {
      this.schedule();
    }
    return true;
  }

  rowText(row: number): string {
    const width = this.columns.length;
    return this.cells.slice(row * width, (row + 1) * width).join('\t');
  }

  /** The picked cell, or the first one when none is picked. */
  get activeCell(): { row: number; column: number } | undefined {
    if (this.loaded === 0) return undefined;
    return this.active.row >= 0 ? this.active : { row: 0, column: 0 };
  }

  protected createRow(index: number): HTMLElement {
    const row = el('div', { class: 'row data', role: 'row', 'aria-rowindex': index + 2, 'data-index': index });
    const width = this.columns.length;
    for (let column = 0; column < width; column++) {
      const text = this.cells[index * width + column] ?? '';
      const picked = index === this.active.row && column === this.active.column;
      // Text only: values come from PostHog, written by anyone who can send events.
      row.append(el('div', { class: picked ? 'cell active' : 'cell', role: 'gridcell', 'data-column': column, title: text, 'aria-selected': picked ? 'true' : undefined }, text));
    }
    return row;
  }

  protected onClick(event: MouseEvent): void {
    const cell = (event.target as HTMLElement | null)?.closest<HTMLElement>('.row.data .cell');
    const row = cell?.parentElement;
    if (cell && row) {
      this.pick(Number(row.dataset['index']), Number(cell.dataset['column']));
    }
  }

  protected onKey(event: KeyboardEvent): void {
    if (this.loaded === 0) return;
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
      End: [this.loaded - 1, cell.column],
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      this.pick(Math.max(0, Math.min(this.loaded - 1, move[0])), Math.max(0, Math.min(this.columns.length - 1, move[1])));
    }
  }

  private pick(row: number, column: number): void {
    this.active = { row, column };
    this.reveal(row);
    this.clearRows();
    this.render();
  }
}
