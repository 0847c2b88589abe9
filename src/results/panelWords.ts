/**
 * The Results panel's own words, in English. The extension localises them (vscode.l10n) and puts them in
 * the page; the webview's t() takes only these. `{0}` is filled in by t().
 */
export const RESULTS_WORDS = [
  'Results',
  'Running…',
  'Cancel',
  'Cancel this query',
  'Copy cell',
  'Copy row',
  'Export CSV…',
  'Export JSON…',
  'Open in PostHog',
  'This kind of result is not drawn here: open it in PostHog to see it as PostHog shows it.',
  'No results yet: run a query card or a HogQL document.',
  'Chart of {0}',
  'Rows of {0}',
  'Series',
  'Total',
] as const;

export type ResultsWord = (typeof RESULTS_WORDS)[number];
