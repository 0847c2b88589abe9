/// <reference lib="dom" />
// The panel's words as the extension localised them (data-l10n on #app, see src/common/webviewPage.ts).
import { fillPlaceholders } from '../../events/panelWords';
import type { ResultsWord } from '../../results/panelWords';

const localized: Partial<Record<string, string>> = JSON.parse(document.getElementById('app')?.dataset['l10n'] ?? '{}');

/** A word of the panel in the editor's language; English when the extension sent none. */
export function t(text: ResultsWord, ...args: (string | number)[]): string {
  return fillPlaceholders(localized[text] ?? text, args);
}
