import * as vscode from 'vscode';
import { errorText } from '../api';
import { oneSafeLine } from '../common/text';
import { webviewPageHtml } from '../common/webviewPage';
import { WebviewPanelHost } from '../workbench/webviewPanelHost';
import { displayLanguage, type EnvApi, type WindowApi } from '../workbench/window';
import { writeTableFile, type TableFileFormat } from './exportTable';
import { RESULTS_WORDS } from './panelWords';
import { parseResultsWebviewMessage, type ResultsExtensionMessage, type ResultsWebviewMessage, type SavedSection, type SectionView } from './protocol';
import { isTruncated, restoredSection, type RestoredSection } from './restoredResults';
import { resultView, rowChunks, type ResultView } from './resultModel';
import type { ResultSection, ResultSectionState, ResultsTarget } from './resultsView';

export const RESULTS_VIEW_TYPE = 'posthogExplorer.results';

/** The setting the events export reads too: whether CSV cells a spreadsheet would run as formulas are neutralised. */
const CSV_FORMULA_CELLS_SETTING = 'posthogExplorer.events.csvFormulaCells';

export interface ResultsPanelDeps {
  readonly extensionUri: vscode.Uri;
  readonly window: WindowApi;
  readonly env: EnvApi;
  readonly requestCancel: (sectionId: string) => void;
  /** Runs a section's query again (the Run Query command), when the panel can. */
  readonly runAgain?: (sectionId: string) => void;
}

interface SectionEntry {
  section: ResultSection;
  state: ResultSectionState;
  generation: number;
  view: ResultView | undefined;
  /** When the run ended (ms since the epoch); undefined while it runs. */
  at: number | undefined;
  /** A section brought back from the webview's state after a reload, until the card runs again. */
  restored?: RestoredSection;
}

/**
 * One notebook's or HogQL document's Results panel: a section per card, in the order of first show. The
 * extension keeps every section (the webview only shows what it is sent, and gets it all again when it
 * reloads); rows go to the webview as text, in chunks. After a window reload, the sections the webview
 * kept (restoredResults.ts) come back as restored sections, until their query runs again.
 */
export class ResultsPanel extends WebviewPanelHost {
  private readonly sections = new Map<string, SectionEntry>();
  private ready = false;
  private readonly posted = this._register(new vscode.EventEmitter<ResultsExtensionMessage>());
  /** What the panel sent to its webview (tests watch it). */
  readonly onDidPost = this.posted.event;

  constructor(
    panel: vscode.WebviewPanel,
    readonly target: ResultsTarget,
    private readonly deps: ResultsPanelDeps,
    restored: readonly SavedSection[] = [],
  ) {
    super(panel, deps.extensionUri, (asset) =>
      webviewPageHtml({
        cspSource: panel.webview.cspSource,
        scriptUri: asset('dist', 'webview', 'results.js'),
        styleUris: [asset('dist', 'webview', 'results.css'), asset('media', 'panel.css'), asset('media', 'results.css')],
        title: panel.title,
        strings: Object.fromEntries(RESULTS_WORDS.map((word) => [word, vscode.l10n.t(word)])),
      }),
    );
    for (const saved of restored) {
      this.sections.set(saved.id, restoredEntry(saved));
    }
  }

  get sectionIds(): string[] {
    return [...this.sections.keys()];
  }

  show(section: ResultSection, state: ResultSectionState): void {
    const previous = this.sections.get(section.id);
    const view = state.state === 'done' ? resultView(section.queryKind, state.response) : undefined;
    const at = state.state === 'running' ? undefined : Date.now();
    const entry = { section, state, generation: (previous?.generation ?? 0) + 1, view, at };
    this.sections.set(section.id, entry);
    this.postSection(entry);
  }

  /** Handles a message as if the webview had sent it; malformed messages are dropped. */
  override async receive(data: unknown): Promise<void> {
    const parsed = parseResultsWebviewMessage(data);
    if (!parsed.ok) {
      console.warn(`PostHog results panel: ignored a malformed message (${parsed.problem})`);
      return;
    }
    await this.handle(parsed.message);
  }

  private async handle(message: ResultsWebviewMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.post({ type: 'init', uri: this.target.uri.toString(), title: this.target.title, locale: displayLanguage() });
        this.sections.forEach((entry) => this.postSection(entry));
        return;
      case 'cancel':
        if (this.sections.get(message.id)?.state.state === 'running') this.deps.requestCancel(message.id);
        return;
      case 'rerun':
        if (this.sections.get(message.id)?.restored) this.deps.runAgain?.(message.id);
        return;
      case 'copy':
        await this.deps.env.clipboard.writeText(message.text);
        this.deps.window.setStatusBarMessage(vscode.l10n.t('Copied to the clipboard'), 2_000);
        return;
      case 'export':
        return this.export(message.id, message.format);
      case 'open': {
        const url = this.sections.get(message.id)?.section.webUrl;
        if (url) await this.deps.env.openExternal(vscode.Uri.parse(url));
        return;
      }
    }
  }

  private postSection(entry: SectionEntry): void {
    if (!this.ready) {
      return; // sent with all the others once the webview is ready
    }
    const { section, state, generation, view, at, restored } = entry;
    const shownView = restored ? restoredSectionView(restored) : view && sectionView(view);
    this.post({
      type: 'section',
      id: section.id,
      generation,
      label: section.label,
      queryKind: section.queryKind,
      canOpen: section.webUrl !== undefined, // not a restored section's: the link is not kept
      state: state.state,
      summary: restored ? restored.saved.summary : summary(state, view),
      ...(shownView ? { view: shownView } : {}),
      ...(at !== undefined ? { at } : {}),
      ...(restored ? { restored: { rows: restored.runRows } } : {}),
    });
    if (view && view.kind !== 'unsupported') {
      this.postRows(section.id, generation, view);
    }
  }

  private postRows(id: string, generation: number, view: Exclude<ResultView, { kind: 'unsupported' }>): void {
    for (const { start, rows } of rowChunks(view.table)) {
      this.post({ type: 'rows', id, generation, start, rows });
    }
  }

  private async export(id: string, format: TableFileFormat): Promise<void> {
    const entry = this.sections.get(id);
    if (!entry?.view || entry.view.kind === 'unsupported') {
      return;
    }
    const table = entry.view.table;
    const part = entry.restored && isTruncated(entry.restored) ? { rows: table.rows.length, of: entry.restored.runRows } : undefined;
    if (entry.restored && format !== 'csv') {
      // The restored rows are text: a JSON file would say the values had other types than PostHog sent.
      void this.deps.window.showInformationMessage(vscode.l10n.t('A restored result can be exported as CSV only: run the query again to export it as JSON.'));
      return;
    }
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const fileName = `${safeFileName(entry.section.label)}${part ? ` (first ${part.rows} of ${part.of} rows)` : ''}.${format}`;
    const uri = await this.deps.window.showSaveDialog({
      title: part
        ? vscode.l10n.t('Export the First {0} of {1} Rows of {2}', count(part.rows), count(part.of), oneSafeLine(entry.section.label))
        : vscode.l10n.t('Export Results of {0}', oneSafeLine(entry.section.label)),
      saveLabel: vscode.l10n.t('Export'),
      defaultUri: folder ? vscode.Uri.joinPath(folder, fileName) : undefined,
      filters: format === 'csv' ? { CSV: ['csv'] } : { JSON: ['json'] },
    });
    if (!uri) {
      return;
    }
    if (uri.scheme !== 'file') {
      void this.deps.window.showErrorMessage(vscode.l10n.t('Results can be exported only to a file on disk.'));
      return;
    }
    const formulaCells = vscode.workspace.getConfiguration().get<string>(CSV_FORMULA_CELLS_SETTING) === 'raw' ? 'raw' : 'neutralize';
    try {
      const rows = await this.deps.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Exporting results of {0}', oneSafeLine(entry.section.label)) },
        () => writeTableFile(table, uri.fsPath, format, formulaCells),
      );
      const where = vscode.workspace.asRelativePath(uri);
      void this.deps.window.showInformationMessage(
        part
          ? vscode.l10n.t('Exported the first {0} of {1} rows to {2}: run the query again to export all.', count(rows), count(part.of), where)
          : vscode.l10n.t('Exported {0} rows to {1}.', count(rows), where),
      );
    } catch (error) {
      void this.deps.window.showErrorMessage(vscode.l10n.t('Could not export the results: {0}', errorText(error)));
    }
  }

  private post(message: ResultsExtensionMessage): void {
    if (this.isDisposed) {
      return;
    }
    this.posted.fire(message);
    void this.panel.webview.postMessage(message);
  }

}

function sectionView(view: ResultView): SectionView {
  if (view.kind === 'unsupported') {
    return { kind: 'unsupported', columns: [], rowCount: 0 };
  }
  const base = { kind: view.kind, columns: [...view.table.columns], rowCount: view.table.rows.length };
  return view.kind === 'trends' ? { ...base, chart: { days: [...view.chart.days], series: view.chart.series.map((series) => ({ ...series, values: [...series.values] })) } } : base;
}

/** A restored section's view as saved, its row count the rows it holds (the webview gets those). */
function restoredSectionView(restored: RestoredSection): SectionView | undefined {
  const view = restored.saved.view;
  return view && { ...view, rowCount: restored.saved.rows.length };
}

function restoredEntry(saved: SavedSection): SectionEntry {
  const restored = restoredSection(saved);
  const section = { id: saved.id, label: saved.label, queryKind: saved.queryKind };
  const state: ResultSectionState = saved.state === 'failed' ? { state: 'failed', message: saved.summary } : saved.state === 'cancelled' ? { state: 'cancelled' } : { state: 'done', response: undefined, durationMs: 0 };
  return { section, state, generation: 1, view: restored.view, at: saved.at, restored };
}

function count(rows: number): string {
  return rows.toLocaleString('en-US');
}

function summary(state: ResultSectionState, view: ResultView | undefined): string {
  switch (state.state) {
    case 'running':
      return vscode.l10n.t('Running…');
    case 'failed':
      return state.message;
    case 'cancelled':
      return vscode.l10n.t('Cancelled');
    case 'done':
      return doneSummary(view, (state.durationMs / 1000).toFixed(1));
  }
}

function doneSummary(view: ResultView | undefined, seconds: string): string {
  if (!view || view.kind === 'unsupported') {
    return vscode.l10n.t('Done in {0} s', seconds);
  }
  const rows = count(view.table.rows.length);
  if (view.kind === 'table') {
    return view.hasMore
      ? vscode.l10n.t('{0} rows in {1} s; PostHog has more: add a LIMIT to the query to get more', rows, seconds)
      : vscode.l10n.t('{0} rows in {1} s', rows, seconds);
  }
  return vscode.l10n.t('{0} series in {1} s', rows, seconds);
}

function safeFileName(label: string): string {
  return oneSafeLine(label).replace(/[\\/:*?"<>|]+/g, '-').slice(0, 80) || 'results';
}
