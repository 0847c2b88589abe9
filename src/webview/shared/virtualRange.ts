// Which rows a fixed-row-height list renders at a scroll position. DOM-free.

export interface RangeInput {
  scrollTop: number;
  viewportHeight: number;
  rowHeight: number;
  total: number;
  overscan: number;
}

export interface RowRange {
  /** First row rendered (inclusive). */
  start: number;
  /** One past the last row rendered. */
  end: number;
  /** First and last row the user actually sees. */
  firstVisible: number;
  lastVisible: number;
}

/** Never more rows in the DOM than this, whatever the viewport. */
export const MAX_RENDERED_ROWS = 200;

export function visibleRange({ scrollTop, viewportHeight, rowHeight, total, overscan }: RangeInput): RowRange {
  if (total <= 0 || rowHeight <= 0) {
    return { start: 0, end: 0, firstVisible: 0, lastVisible: -1 };
  }
  const firstVisible = Math.min(total - 1, Math.max(0, Math.floor(scrollTop / rowHeight)));
  const shown = Math.max(1, Math.ceil(viewportHeight / rowHeight));
  const lastVisible = Math.min(total - 1, firstVisible + shown);
  let start = Math.max(0, firstVisible - overscan);
  let end = Math.min(total, lastVisible + 1 + overscan);
  if (end - start > MAX_RENDERED_ROWS) {
    const spare = Math.max(0, MAX_RENDERED_ROWS - (lastVisible - firstVisible + 1));
    start = Math.max(0, firstVisible - Math.floor(spare / 2));
    end = Math.min(total, start + MAX_RENDERED_ROWS);
  }
  return { start, end, firstVisible, lastVisible };
}

/** Whether to ask for more rows: the user is within `ahead` rows of the end of what is loaded. */
export function shouldLoadMore(lastVisible: number, loaded: number, done: boolean, ahead: number): boolean {
  return !done && lastVisible + ahead >= loaded;
}
