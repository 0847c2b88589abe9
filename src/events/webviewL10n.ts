import * as vscode from 'vscode';
import { WEBVIEW_STRINGS } from './webviewStrings';

/** The webview's words in the editor's language (the webview has no vscode.l10n of its own). */
export function localizedWebviewStrings(): Record<string, string> {
  return Object.fromEntries(WEBVIEW_STRINGS.map((text) => [text, vscode.l10n.t(text)]));
}
