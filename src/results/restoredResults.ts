// What a Results webview keeps of its sections for after a window reload (vscode.setState), and how the
// extension reads it back. Bounded: the first SAVED_ROWS_PER_SECTION rows of a section, SAVED_STATE_CHARS of
// JSON in all, a chart only up to SAVED_CHART_POINTS values. Linear: a row is measured once, as it arrives.
// vscode-free and DOM-free (the webview's bundle and the extension both use it).
import type { ChartMessage, ResultsPanelState, RowsMessage, SavedSection, SectionMessage, SectionView } from './protocol';
import type { ResultView } from './resultModel';

/**
 * A screenful many times over, and what people glance at after a reload; a 10-column row of short values is
 * about 200 characters, so 1,000 of them are about 200 KB.
 */
export const SAVED_ROWS_PER_SECTION = 1_000;
/**
 * All the sections' JSON: VS Code serialises the state on each setState and keeps it in the workbench's
 * memory and storage; about 2 MB (2 million UTF-16 characters) stays a few milliseconds to serialise
 * (docs/performance.md) and is ten 1,000-row sections of short values.
 */
export const SAVED_STATE_CHARS = 2_000_000;
/** A chart is kept when it has at most this many values (series × intervals); else its table alone. */
export const SAVED_CHART_POINTS = 5_000;
/** More sections than a notebook has cards; beyond it, the first ones are kept. */
export const SAVED_SECTIONS = 1_000;
export const SAVED_TITLE_CHARS = 1_000;
/** A label or state line (PostHog's error) is kept up to this many characters. */
export const SAVED_TEXT_CHARS = 10_000;

interface Kept {
  /** The section without its rows, and its JSON length. */
  readonly meta: Omit<SavedSection, 'rows'>;
  readonly metaChars: number;
  readonly generation: number;
  readonly rows: string[][];
  /** The JSON length of each kept row (with its comma). */
  readonly rowChars: number[];
}

/** The finished sections of a Results webview, in the order they were first shown, bounded for its state. */
export class SavedResults {
  /** In the order of first show; undefined: running, with no finished copy yet. */
  private readonly sections = new Map<string, Kept | undefined>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * A section's new state. A running section keeps its last finished copy (the page still shows it); a
   * finished one replaces it.
   */
  section(message: SectionMessage): void {
    if (message.state === 'running') {
      if (!this.sections.has(message.id)) this.sections.set(message.id, undefined);
      return;
    }
    const view = message.view && savedView(message.view, message.restored?.rows);
    const meta: Omit<SavedSection, 'rows'> = {
      id: message.id,
      label: message.label.slice(0, SAVED_TEXT_CHARS),
      queryKind: message.queryKind.slice(0, 200),
      state: message.state,
      summary: message.summary.slice(0, SAVED_TEXT_CHARS),
      at: message.at ?? this.now(),
      ...(view ? { view } : {}),
    };
    this.sections.set(message.id, { meta, metaChars: JSON.stringify(meta).length, generation: message.generation, rows: [], rowChars: [] });
  }

  /** Rows of a finished section; false when none of them is kept (past the cap, or of another run). */
  rows(message: RowsMessage): boolean {
    const kept = this.sections.get(message.id);
    if (!kept || kept.generation !== message.generation || message.start !== kept.rows.length) {
      return false;
    }
    const room = SAVED_ROWS_PER_SECTION - kept.rows.length;
    const taken = message.rows.slice(0, Math.max(0, room));
    for (const row of taken) {
      kept.rows.push(row);
      kept.rowChars.push(JSON.stringify(row).length + 1);
    }
    return taken.length > 0;
  }

  /** The state to save: the kept sections, in order, and the first rows of each while the total stays in SAVED_STATE_CHARS. */
  state(uri: string, title: string): ResultsPanelState {
    let chars = JSON.stringify({ uri, title: title.slice(0, SAVED_TITLE_CHARS) }).length;
    const sections: SavedSection[] = [];
    for (const kept of this.sections.values()) {
      if (!kept || chars + kept.metaChars > SAVED_STATE_CHARS || sections.length === SAVED_SECTIONS) continue;
      chars += kept.metaChars;
      let count = 0;
      while (count < kept.rows.length && chars + kept.rowChars[count]! <= SAVED_STATE_CHARS) {
        chars += kept.rowChars[count]!;
        count++;
      }
      sections.push({ ...kept.meta, rows: kept.rows.slice(0, count) });
    }
    return { uri, title: title.slice(0, SAVED_TITLE_CHARS), sections };
  }
}

/** What is saved of a section's view: its row count is the run's, its chart only when small. */
function savedView(view: SectionView, runRows: number | undefined): SectionView {
  const rowCount = runRows ?? view.rowCount;
  const { chart, ...rest } = view;
  return chart && chartPoints(chart) <= SAVED_CHART_POINTS ? { ...rest, rowCount, chart } : { ...rest, rowCount };
}

function chartPoints(chart: ChartMessage): number {
  return chart.series.length * Math.max(1, chart.days.length);
}

/** A restored section as the extension holds it: its rows are text, `runRows` what the run had. */
export interface RestoredSection {
  readonly saved: SavedSection;
  readonly view: ResultView | undefined;
  readonly runRows: number;
}

/** A saved section read back: its kept rows as the section's table (what export and copy can offer). */
export function restoredSection(saved: SavedSection): RestoredSection {
  return { saved, view: restoredView(saved), runRows: saved.view?.rowCount ?? 0 };
}

function restoredView(saved: SavedSection): ResultView | undefined {
  const view = saved.view;
  if (!view) {
    return undefined;
  }
  if (view.kind === 'unsupported') {
    return { kind: 'unsupported' };
  }
  const table = { columns: view.columns, rows: saved.rows };
  if (view.kind === 'trends' && view.chart) {
    return { kind: 'trends', table, chart: view.chart };
  }
  return view.kind === 'table' || view.kind === 'trends' ? { kind: 'table', table, hasMore: false } : { kind: 'totals', table };
}

/** Whether a restored section holds fewer rows than its run had. */
export function isTruncated(restored: RestoredSection): boolean {
  return restored.view !== undefined && restored.view.kind !== 'unsupported' && restored.view.table.rows.length < restored.runRows;
}
