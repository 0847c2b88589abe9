/**
 * The events panel's own words, in English. The extension localises them (vscode.l10n, see
 * localizedWebviewStrings) and puts them in the page; the webview's t() takes only these, so a new
 * word that is not listed here does not compile. `{0}` is filled in by t().
 */
export const WEBVIEW_STRINGS = [
  'Events',
  'Events: {0}',
  'Event filters',
  'Event',
  'Event {0}',
  'e.g. $pageview',
  'Distinct ID',
  'Person ID',
  'After',
  '-24h, -7d or 2024-05-01',
  'Before',
  'e.g. -1h',
  'Page size (at most 1,000)',
  'Property filters',
  'Property filter {0}',
  'Add property filter',
  'More: raw properties JSON, columns, rows to export',
  'Properties JSON (a list of {key, value, operator, type}, or an AND/OR group)',
  'Property columns (comma-separated keys)',
  'Rows to export (1 to 1,000,000)',
  'Apply',
  'Reset',
  'Stop loading',
  'Export CSV…',
  'Export JSON…',
  'Export JSON Lines…',
  'Close',
  'Results',
  '{0} suggestions',
  'No suggestions',
  'Key',
  'e.g. $browser',
  'Operator',
  'Type',
  'Value',
  'Remove',
  'Remove this property filter',
  'Loading…',
  'The event could not be loaded.',
  'ID',
  'Time',
  'Person',
  'Copy ID',
  'Copy properties',
  'Copy event JSON',
  'Properties',
  'Elements',
  'Elements chain',
  '{0} events, all loaded',
  '{0} events loaded; more load as you scroll',
  'Loading events…',
  'No events match these filters.',
  'Live',
  'Show new events at the top as they arrive',
  '{0} new events',
  '1 new event',
  'Search properties',
  'Copy path',
  'Copy value',
  'No property matches.',
] as const;

export type WebviewString = (typeof WEBVIEW_STRINGS)[number];

/** Fills `{0}`, `{1}`… with the arguments, as vscode.l10n.t does. */
export function formatString(text: string, args: readonly (string | number)[]): string {
  return text.replace(/\{(\d+)\}/g, (match, index: string) => (Number(index) < args.length ? String(args[Number(index)]) : match));
}
