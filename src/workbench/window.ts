import * as vscode from 'vscode';

/**
 * The vscode.window calls that interactive flows make. Flows take it as a parameter, so that
 * in-editor tests can answer the prompts while everything else stays real.
 */
export type WindowApi = Pick<
  typeof vscode.window,
  | 'showQuickPick'
  | 'showInputBox'
  | 'showInformationMessage'
  | 'showWarningMessage'
  | 'showErrorMessage'
  | 'withProgress'
  | 'createTreeView'
  | 'showSaveDialog'
  | 'createQuickPick'
  | 'showTextDocument'
>;

/** Opens a document in a (non-preview) editor through the window seam. */
export async function openEditor(window: Pick<WindowApi, 'showTextDocument'>, uri: vscode.Uri): Promise<vscode.TextEditor> {
  return window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
}

/** The vscode.env calls commands make (the browser, the clipboard); tests pass a recorder. */
export interface EnvApi {
  openExternal(uri: vscode.Uri): Thenable<boolean>;
  readonly clipboard: Pick<vscode.Clipboard, 'writeText'>;
}

/** An AbortSignal that aborts when VS Code cancels the token. */
export function abortSignalFor(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) {
    controller.abort();
  } else {
    token.onCancellationRequested(() => controller.abort());
  }
  return controller.signal;
}
