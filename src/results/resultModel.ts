// What a query's response shows as: a table, a trends chart with its table, a table of totals, or nothing
// that would be faithful (the panel then offers PostHog's own view). vscode-free; the rows stay the
// response's own arrays (no copy), turned into text only for the rows shown, copied or exported.
import { TrendsQueryResponseSchema, type TrendsResult } from '../api';

export interface ResultTable {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly unknown[])[];
}

export interface ChartSeries {
  readonly label: string;
  readonly total: number | null;
  /** One value per day of the chart's `days`; null where the series has no point. */
  readonly values: readonly (number | null)[];
}

export interface TrendsChart {
  /** The intervals, as PostHog writes them (`YYYY-MM-DD`, with a time for hours), in order. */
  readonly days: readonly string[];
  readonly series: readonly ChartSeries[];
}

export type ResultView =
  | { readonly kind: 'table'; readonly table: ResultTable; readonly hasMore: boolean }
  | { readonly kind: 'trends'; readonly table: ResultTable; readonly chart: TrendsChart }
  | { readonly kind: 'totals'; readonly table: ResultTable }
  | { readonly kind: 'unsupported' };

/** Kinds whose response is rows under `columns`, shown as they are. */
const TABLE_KINDS = new Set(['HogQLQuery', 'EventsQuery']);

export function resultView(queryKind: string, response: unknown): ResultView {
  if (queryKind === 'TrendsQuery') {
    return trendsView(response);
  }
  if (TABLE_KINDS.has(queryKind)) {
    return tableView(response);
  }
  return { kind: 'unsupported' };
}

/** Rows under `columns` (HogQLQuery, EventsQuery); checked in place, as parsing would copy every row. */
function tableView(response: unknown): ResultView {
  if (!isRecord(response) || !Array.isArray(response['results']) || !response['results'].every(Array.isArray)) {
    return { kind: 'unsupported' };
  }
  const rows = response['results'] as unknown[][];
  const columns = Array.isArray(response['columns'])
    ? response['columns'].map(cellText)
    : (rows[0]?.map((_, index) => `column ${index + 1}`) ?? []);
  return { kind: 'table', table: { columns, rows }, hasMore: response['hasMore'] === true };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function trendsView(response: unknown): ResultView {
  const parsed = TrendsQueryResponseSchema.safeParse(response);
  if (!parsed.success) {
    return { kind: 'unsupported' }; // heatmap, box plot and slope displays answer in other shapes
  }
  const results = parsed.data.results;
  if (results.length > 0 && results.every(isTotalValue)) {
    return { kind: 'totals', table: { columns: ['Series', 'Value'], rows: results.map((result) => [seriesLabel(result), result.aggregated_value]) } };
  }
  const chart = trendsChart(results);
  const rows = chart.series.map((series) => [series.label, series.total, ...series.values]);
  return { kind: 'trends', chart, table: { columns: ['Series', 'Total', ...chart.days], rows } };
}

function isTotalValue(result: TrendsResult): boolean {
  return result.data.length === 0 && typeof result.aggregated_value === 'number';
}

/** Every series on the days it has: compared periods each keep their own dates. */
export function trendsChart(results: readonly TrendsResult[]): TrendsChart {
  const days = [...new Set(results.flatMap((result) => result.days))].sort();
  const position = new Map(days.map((day, index) => [day, index]));
  const series = results.map((result) => {
    const values: (number | null)[] = new Array<number | null>(days.length).fill(null);
    result.days.forEach((day, index) => {
      values[position.get(day)!] = result.data[index] ?? null;
    });
    return { label: seriesLabel(result), total: result.count ?? null, values };
  });
  return { days, series };
}

function seriesLabel(result: TrendsResult): string {
  const label = result.label ?? '';
  return result.compare_label ? `${label} (${result.compare_label})` : label;
}

/** A cell as text: strings as they are, null as nothing, objects and lists as JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) {
    return '';
  }
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'object') {
    return JSON.stringify(value);
  }
  return String(value);
}

/** Rows `start` to `end` (exclusive) as text, one string per column. */
export function rowsText(table: ResultTable, start: number, end: number): string[][] {
  const width = table.columns.length;
  const out: string[][] = [];
  for (let index = start; index < Math.min(end, table.rows.length); index++) {
    const row = table.rows[index]!;
    const cells = new Array<string>(width);
    for (let column = 0; column < width; column++) {
      cells[column] = cellText(row[column]);
    }
    out.push(cells);
  }
  return out;
}

/** The first rows go alone, so that they paint while the rest are on their way. */
export const FIRST_CHUNK_ROWS = 500;
export const CHUNK_ROWS = 5_000;

/** The table's rows as text, in the chunks the panel posts to its webview. */
export function* rowChunks(table: ResultTable): Generator<{ start: number; rows: string[][] }> {
  for (let start = 0; start < table.rows.length; ) {
    const end = Math.min(table.rows.length, start + (start === 0 ? FIRST_CHUNK_ROWS : CHUNK_ROWS));
    yield { start, rows: rowsText(table, start, end) };
    start = end;
  }
}
