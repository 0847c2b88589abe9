import * as vscode from 'vscode';
import { PANEL_WORDS } from './panelWords';

/** The events panel's words (panelWords.ts) in the editor's language: the webview has no vscode.l10n of its own. */
export function translatePanelWords(): Record<string, string> {
  return Object.fromEntries(PANEL_WORDS.map((text) => [text, vscode.l10n.t(text)]));
}
