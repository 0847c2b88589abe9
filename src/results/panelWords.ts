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
  'Restored from the run at {0}: the first {1} of {2} rows. Run again for all.',
  'Restored from the run at {0}: its table only, as the chart was too large to keep. Run again to draw it.',
  'Restored from the run at {0}. Run again for a fresh result.',
  'Its cells were kept as text, so it exports as CSV only: run again to export JSON with PostHog’s types.',
  'Run again',
  'Run this query again (counts against the key’s HogQL queries an hour)',
  'Export the first {0} rows as CSV…',
] as const;

export type ResultsWord = (typeof RESULTS_WORDS)[number];
