/** The notebook list filters of the API (spec 4.2), as the user sets them in the explorer. */
export interface NotebookFilter {
  /** Match pairs `target:match`, separated by commas or spaces, e.g. `recording:true insight:false`. */
  readonly contains?: string;
  /** The creator's user id. */
  readonly createdBy?: number;
  /** Only notebooks created by the key's user. */
  readonly onlyMine?: boolean;
  readonly dateFrom?: string;
  readonly dateTo?: string;
}

export interface NotebookListQuery {
  contains?: string;
  created_by?: number;
  user?: string;
  date_from?: string;
  date_to?: string;
}

export function isEmptyFilter(filter: NotebookFilter): boolean {
  return Object.keys(toNotebookQuery(filter)).length === 0;
}

/** The query parameters of the spec's notebook list, named as the spec names them. */
export function toNotebookQuery(filter: NotebookFilter): NotebookListQuery {
  const query: NotebookListQuery = {};
  if (filter.contains?.trim()) {
    query.contains = filter.contains.trim();
  }
  if (filter.createdBy !== undefined) {
    query.created_by = filter.createdBy;
  }
  if (filter.onlyMine) {
    query.user = 'true';
  }
  if (filter.dateFrom) {
    query.date_from = filter.dateFrom;
  }
  if (filter.dateTo) {
    query.date_to = filter.dateTo;
  }
  return query;
}

/** A short summary for the Notebooks item, e.g. "contains recording:true · mine · after 2026-01-01". */
export function describeFilter(filter: NotebookFilter): string {
  const parts: string[] = [];
  if (filter.contains?.trim()) {
    parts.push(`contains ${filter.contains.trim()}`);
  }
  if (filter.createdBy !== undefined) {
    parts.push(`created by #${filter.createdBy}`);
  }
  if (filter.onlyMine) {
    parts.push('mine');
  }
  if (filter.dateFrom) {
    parts.push(`after ${filter.dateFrom}`);
  }
  if (filter.dateTo) {
    parts.push(`before ${filter.dateTo}`);
  }
  return parts.join(' · ');
}

const CONTAINS_PAIR = /^[a-z_]+(:[^\s,:]*)?$/i;

/** Why a `contains` value would not be understood, or undefined when it is fine. */
export function containsProblem(value: string): string | undefined {
  const pairs = splitContains(value);
  const bad = pairs.find((pair) => !CONTAINS_PAIR.test(pair));
  return bad === undefined ? undefined : bad;
}

export function splitContains(value: string): string[] {
  return value.split(/[\s,]+/).filter((pair) => pair.length > 0);
}

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** True for the ISO 8601 dates and date-times the server parses (2026-11-01, 2026-11-01T12:30Z). */
export function isIsoDate(value: string): boolean {
  return DATE.test(value) && !Number.isNaN(Date.parse(value));
}
