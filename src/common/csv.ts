// CSV cells and lines (RFC 4180), for the events export and the Results panel's export. vscode-free.

/**
 * CSV cells a spreadsheet would run as a formula: 'neutralize' starts them with a `'` (shown as text),
 * 'raw' writes them as they are (posthogExplorer.events.csvFormulaCells).
 */
export type FormulaCells = 'neutralize' | 'raw';

/**
 * What a spreadsheet takes for the start of a formula: OWASP's list for CSV injection, and the full-width
 * = + - @ that Apple Numbers reads as those (csv-stringify's finding).
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
/** A number, which a spreadsheet reads as a number (-5, +2.5e-3), not a formula. No backtracking blow-up. */
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV cell (RFC 4180 quoting). Event properties are written by whoever holds a project's public
 * token, so by default a cell that a spreadsheet would run as a formula (`=HYPERLINK(…)`, `@SUM(…)`,
 * `-2+3`) starts with a `'`, which spreadsheets show as text; a plain number such as -5 stays a number.
 */
export function csvCell(text: string, formulaCells: FormulaCells = 'neutralize'): string {
  const cell = formulaCells === 'neutralize' && FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

export function csvLine(cells: readonly string[], formulaCells: FormulaCells = 'neutralize'): string {
  return `${cells.map((text) => csvCell(text, formulaCells)).join(',')}\r\n`;
}
