// CSV the way rest_framework_csv renders a list: nested objects and lists flattened into dotted
// column names (properties.$browser, elements.0.tag_name), columns sorted, Python's text for values.
import type { Json } from './model';

export function flatten(value: Json, prefix = '', out: Map<string, string> = new Map()): Map<string, string> {
  if (value !== null && typeof value === 'object') {
    const entries: [string, Json][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
    for (const [key, child] of entries) flatten(child, prefix ? `${prefix}.${key}` : key, out);
    return out;
  }
  out.set(prefix, cell(value));
  return out;
}

function cell(value: Json): string {
  if (value === null) return '';
  if (value === true) return 'True';
  if (value === false) return 'False';
  return String(value);
}

function quote(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(rows: Json[]): string {
  const flat = rows.map((row) => flatten(row));
  const headers = [...new Set(flat.flatMap((row) => [...row.keys()]))].sort();
  const lines = [headers.map(quote).join(',')];
  for (const row of flat) lines.push(headers.map((h) => quote(row.get(h) ?? '')).join(','));
  return lines.join('\r\n') + '\r\n';
}
