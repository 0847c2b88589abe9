/// <reference lib="dom" />
// The panel's words as the extension localised them (data-l10n on #app, see src/events/html.ts).
import { formatString, type WebviewString } from '../../events/webviewStrings';

const localized: Partial<Record<string, string>> = JSON.parse(document.getElementById('app')?.dataset['l10n'] ?? '{}');

/** A word of the panel in the editor's language; English when the extension sent none. */
export function t(text: WebviewString, ...args: (string | number)[]): string {
  return formatString(localized[text] ?? text, args);
}
