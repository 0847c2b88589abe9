import * as vscode from 'vscode';
import { oneSafeLine } from '../common/text';
import { type BudgetWait, type EventsBatch, isAbortError, errorText } from '../api';
import { abortSignalFor, type WindowApi } from '../workbench/window';
import { CsvTooWideError, EXPORT_FILE_EXTENSIONS, type ExportFileFormat, type ExportWritten, type FormulaCells, MAX_CSV_COLUMNS, writeEventsFile } from './exportWriter';
import { type BatchSource, worthRetrying } from './pager';
import { waitNote } from './waitText';

export const CSV_FORMULA_CELLS_SETTING = 'posthogExplorer.events.csvFormulaCells';

/** How CSV cells that a spreadsheet would run as formulas are written: neutralised unless the user asked for raw values. */
export function formulaCellsSetting(): FormulaCells {
  return vscode.workspace.getConfiguration().get<string>(CSV_FORMULA_CELLS_SETTING) === 'raw' ? 'raw' : 'neutralize';
}

export type SaveDialog = (options: vscode.SaveDialogOptions) => Thenable<vscode.Uri | undefined>;

export interface ExportRequest {
  projectId: number;
  projectName: string;
  format: ExportFileFormat;
  /** Rows the user asked for (1 to 1,000,000). */
  rows: number;
}

export type ExportOutcome =
  | { kind: 'saved'; uri: vscode.Uri; rows: number; allMatching: boolean }
  | { kind: 'cancelled' | 'dismissed' }
  /** `retried`: the export run again when the user chose Retry on the error (undefined when not). */
  | { kind: 'failed'; retried?: Promise<ExportOutcome | undefined> };

const DIALOG_FILTERS: Record<ExportFileFormat, Record<string, string[]>> = {
  csv: { CSV: ['csv'] },
  json: { JSON: ['json'] },
  jsonl: { 'JSON Lines': ['jsonl'] },
};

/**
 * Exports up to `rows` events to a file the user chose: walks `source` (an EventsQuery by PostHog's
 * cursor, or the legacy list; each event once, to the real end) and writes the file as they arrive, with a cancellable
 * progress notification (rows written / asked, and any wait for PostHog's limit). A cancelled or failed
 * export writes nothing: a file it was to replace stays as it was, and nothing is left beside it. The final
 * message says how many rows were written, and whether that is every matching event or exactly the number asked.
 */
export async function exportEvents(
  source: BatchSource,
  request: ExportRequest,
  window: WindowApi,
  saveDialog: SaveDialog,
): Promise<ExportOutcome> {
  const extension = EXPORT_FILE_EXTENSIONS[request.format];
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
  const fileName = `events-${request.projectId}-${stamp}.${extension}`;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const uri = await saveDialog({
    title: vscode.l10n.t('Export Events of {0}', oneSafeLine(request.projectName)),
    saveLabel: vscode.l10n.t('Export'),
    defaultUri: folder ? vscode.Uri.joinPath(folder, fileName) : undefined,
    filters: DIALOG_FILTERS[request.format],
  });
  if (!uri) {
    return { kind: 'dismissed' };
  }
  if (uri.scheme !== 'file') {
    void window.showErrorMessage(vscode.l10n.t('Events can be exported only to a file on disk.'));
    return { kind: 'failed' };
  }
  return writeExport(source, request, window, uri);
}

/** The export's walk into `uri`, with its progress and its outcome's message (a Retry runs it again). */
async function writeExport(source: BatchSource, request: ExportRequest, window: WindowApi, uri: vscode.Uri): Promise<ExportOutcome> {
  const target = uri.fsPath;
  const asked = request.rows;
  let written = 0;
  let result: ExportWritten | undefined;
  try {
    await window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Exporting events of {0}', oneSafeLine(request.projectName)),
        cancellable: true,
      },
      async (progress, token) => {
        const signal = abortSignalFor(token);
        const rowsText = (rows: number) => vscode.l10n.t('{0} of {1} rows written', rows.toLocaleString('en-US'), asked.toLocaleString('en-US'));
        const report = (rows: number) => {
          const increment = ((rows - written) / asked) * 100;
          written = rows;
          progress.report({ message: rowsText(rows), increment });
        };
        const onWait = (wait: BudgetWait) => progress.report({ message: `${rowsText(written)}; ${waitNote(wait)}` });
        report(0);
        result = await writeEventsFile(eventsOnly(source({ signal, priority: 'bulk', onWait })), target, {
          format: request.format,
          rows: asked,
          onProgress: report,
          signal,
          formulaCells: formulaCellsSetting(),
        });
      },
    );
  } catch (error) {
    if (isAbortError(error)) {
      void window.showInformationMessage(vscode.l10n.t('Export cancelled; nothing was written to {0}.', vscode.workspace.asRelativePath(uri)));
      return { kind: 'cancelled' };
    }
    const reason =
      error instanceof CsvTooWideError
        ? vscode.l10n.t(
            'these events have more than {0} different properties (after {1} rows), more columns than a spreadsheet opens. Export them as JSON Lines, or narrow the filters.',
            MAX_CSV_COLUMNS.toLocaleString('en-US'),
            error.rowsRead.toLocaleString('en-US'),
          )
        : errorText(error);
    const message = vscode.l10n.t('Could not export events: {0} Nothing was written to {1}.', reason, vscode.workspace.asRelativePath(uri));
    const retry = vscode.l10n.t('Retry');
    if (!worthRetrying(error)) {
      void window.showErrorMessage(message);
      return { kind: 'failed' };
    }
    // Not awaited: the notification may stay for long, and the panel goes on meanwhile.
    const retried = Promise.resolve(window.showErrorMessage(message, retry)).then((choice) => (choice === retry ? writeExport(source, request, window, uri) : undefined));
    return { kind: 'failed', retried };
  }
  const where = vscode.workspace.asRelativePath(uri);
  const allMatching = result?.allMatching ?? false;
  const count = written.toLocaleString('en-US');
  const summary =
    written < asked
      ? vscode.l10n.t('Exported {0} events to {1}: every event that matches the filters (you asked for {2}).', count, where, asked.toLocaleString('en-US'))
      : allMatching
        ? vscode.l10n.t('Exported {0} events to {1}: exactly the number asked, and every event that matches the filters.', count, where)
        : vscode.l10n.t('Exported {0} events to {1}: exactly the number asked; more events match the filters.', count, where);
  const skipped = result?.skippedAt.length
    ? ` ${vscode.l10n.t('Some events at {0} are missing: more than 51,000 share that exact time, and PostHog lists no further.', result.skippedAt.join(', '))}`
    : '';
  void (skipped ? window.showWarningMessage(`${summary}${skipped}`) : window.showInformationMessage(summary));
  return { kind: 'saved', uri, rows: written, allMatching };
}

/** The events as PostHog has them, without the values of the panel's columns (an export writes whole events). */
async function* eventsOnly(batches: AsyncIterable<EventsBatch>): AsyncGenerator<EventsBatch, void, undefined> {
  for await (const batch of batches) {
    yield { ...batch, events: batch.events.map((event) => (('selected' in event) ? withoutSelected(event) : event)) };
  }
}

function withoutSelected<T extends { selected?: unknown }>(event: T): Omit<T, 'selected'> {
  const { selected: _selected, ...rest } = event;
  return rest;
}
