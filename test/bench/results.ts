// What the benchmark measured, as rows of one table (printed, and written as JSON and Markdown).

export interface Figure {
  section: string;
  what: string;
  value: number;
  unit: 'ms' | 'requests' | 'requests/min' | 'connections' | 'rows' | 'KB' | 'MB' | 'events';
  /** The budget in words, e.g. "≤ 0.3 × naive" (none for context figures). */
  budget?: string;
  pass?: boolean;
  /** value / the naive client's value. */
  vsNaive?: number;
  /** value / the network's floor. */
  vsFloor?: number;
  note?: string;
}

/** CPU time of the work, least of two runs: the first run in a process also pays for compiling it. */
export function leastCpuMs(run: () => void): number {
  return leastTimes(run).cpuMs;
}

/**
 * CPU and wall time of the same two runs, the least of each. The process's CPU time counts V8's compiler and
 * collector threads too; the wall time, on a quiet machine, is how long the work blocks its own thread.
 */
export function leastTimes(run: () => void): { cpuMs: number; wallMs: number } {
  let cpuMs = Infinity;
  let wallMs = Infinity;
  for (let attempt = 0; attempt < 2; attempt++) {
    const cpuStart = process.cpuUsage();
    const wallStart = performance.now();
    run();
    wallMs = Math.min(wallMs, performance.now() - wallStart);
    const used = process.cpuUsage(cpuStart);
    cpuMs = Math.min(cpuMs, (used.user + used.system) / 1000);
  }
  return { cpuMs, wallMs };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Round trips a list needs when, after the first page, `concurrency` pages are in flight at once. */
export function waves(pages: number, concurrency: number): number {
  return pages <= 1 ? pages : 1 + Math.ceil((pages - 1) / concurrency);
}

export function formatValue(figure: Pick<Figure, 'value' | 'unit'>): string {
  const { value, unit } = figure;
  if (unit === 'ms') return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ms`;
  if (unit === 'KB' || unit === 'MB') return `${value.toFixed(unit === 'MB' ? 2 : 0)} ${unit}`;
  if (unit === 'requests/min') return `${value.toFixed(2)} requests/min`;
  return `${Math.round(value).toLocaleString('en-US')} ${unit}`;
}

function ratio(value: number | undefined): string {
  return value === undefined ? '' : `${value.toFixed(2)}×`;
}

function verdict(figure: Figure): string {
  if (figure.pass === undefined) return '';
  return figure.pass ? 'pass' : 'FAIL';
}

const HEADERS = ['what', 'figure', 'budget', 'pass/fail', 'vs naive', 'vs floor'];

function cells(figure: Figure): string[] {
  return [figure.what, formatValue(figure), figure.budget ?? '', verdict(figure), ratio(figure.vsNaive), ratio(figure.vsFloor)];
}

/** A plain-text table, one block per section. */
export function textTable(figures: readonly Figure[]): string {
  const rows = figures.map(cells);
  const widths = HEADERS.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) => row.map((cell, column) => (column === 1 || column >= 4 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join('  ');
  const out: string[] = [];
  let section = '';
  for (const [index, figure] of figures.entries()) {
    if (figure.section !== section) {
      section = figure.section;
      out.push('', section, line(HEADERS), widths.map((width) => '-'.repeat(width)).join('  '));
    }
    out.push(line(rows[index]!));
  }
  return out.join('\n');
}

/** The same table in Markdown (for the README's Performance section). */
export function markdownTable(figures: readonly Figure[]): string {
  const escape = (text: string) => text.replace(/\|/g, '\\|');
  const out: string[] = [];
  let section = '';
  for (const figure of figures) {
    if (figure.section !== section) {
      section = figure.section;
      out.push('', `**${section}**`, '', `| ${HEADERS.join(' | ')} |`, `|${HEADERS.map((_, column) => (column === 1 || column >= 4 ? '---:' : '---')).join('|')}|`);
    }
    out.push(`| ${cells(figure).map(escape).join(' | ')} |`);
  }
  return out.join('\n');
}
