import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as vscode from 'vscode';
import { type EventFilters, type EventsApi, type ExportFormat, isAbortError } from '../api';
import { abortSignalFor, type WindowApi } from '../common/window';
import { errorText } from '../tree/explorerCommands';

export type SaveDialog = (options: vscode.SaveDialogOptions) => Thenable<vscode.Uri | undefined>;

export interface ExportRequest {
  projectId: number;
  projectName: string;
  filters: EventFilters;
  format: ExportFormat;
}

export type ExportOutcome = { kind: 'saved'; uri: vscode.Uri; bytes: number } | { kind: 'cancelled' | 'failed' | 'dismissed' };

/**
 * Streams the event list in CSV or JSON straight to a file the user chose, with a cancellable
 * progress notification; a cancelled or failed export leaves no partial file behind.
 */
export async function exportEvents(
  events: Pick<EventsApi, 'export'>,
  request: ExportRequest,
  window: WindowApi,
  saveDialog: SaveDialog,
): Promise<ExportOutcome> {
  const extension = request.format;
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
  const fileName = `events-${request.projectId}-${stamp}.${extension}`;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const uri = await saveDialog({
    title: vscode.l10n.t('Export Events of {0}', request.projectName),
    saveLabel: vscode.l10n.t('Export'),
    defaultUri: folder ? vscode.Uri.joinPath(folder, fileName) : undefined,
    filters: extension === 'csv' ? { CSV: ['csv'] } : { JSON: ['json'] },
  });
  if (!uri) {
    return { kind: 'dismissed' };
  }
  if (uri.scheme !== 'file') {
    void window.showErrorMessage(vscode.l10n.t('Events can be exported only to a file on disk.'));
    return { kind: 'failed' };
  }
  const target = uri.fsPath;
  let bytes = 0;
  try {
    await window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Exporting events of {0}', request.projectName),
        cancellable: true,
      },
      async (progress, token) => {
        const signal = abortSignalFor(token);
        const body = await events.export(request.projectId, request.filters, request.format, { signal });
        const counter = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            bytes += chunk.length;
            progress.report({ message: vscode.l10n.t('{0} KB written', Math.round(bytes / 1024).toLocaleString()) });
            done(null, chunk);
          },
        });
        await pipeline(Readable.from(body), counter, createWriteStream(target), { signal });
      },
    );
  } catch (error) {
    await rm(target, { force: true }).catch(() => undefined);
    if (isAbortError(error)) {
      void window.showInformationMessage(vscode.l10n.t('Export cancelled; no file was left behind.'));
      return { kind: 'cancelled' };
    }
    void window.showErrorMessage(vscode.l10n.t('Could not export events: {0}', errorText(error)));
    return { kind: 'failed' };
  }
  void window.showInformationMessage(vscode.l10n.t('Exported events to {0}.', vscode.workspace.asRelativePath(uri)));
  return { kind: 'saved', uri, bytes };
}
