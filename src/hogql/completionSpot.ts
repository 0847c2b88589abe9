/**
 * What the caret is asking for in HogQL text: a property name after `properties.`, a table after FROM or
 * JOIN, else a field of the tables the query reads. Reads only a bounded stretch before the caret and a
 * bounded part of the query, so that it stays fast on any text. vscode-free.
 */
export type CompletionSpot =
  | { readonly kind: 'property'; readonly owner: 'event' | 'person'; readonly prefix: string }
  | { readonly kind: 'table'; readonly prefix: string }
  | { readonly kind: 'field'; readonly prefix: string; readonly tables: readonly string[] };

/** How far back from the caret the spot is read. */
const LOOK_BEHIND = 400;
/** How much of the query is read for the tables it names. */
const TABLE_SCAN_LIMIT = 20_000;

const PROPERTY_ACCESS = /(?:^|[^\w$.])((?:person\.)?)properties\.([\w$]*)$/;
const AFTER_TABLE_KEYWORD = /\b(?:from|join)\s+([\w$]*)$/i;
const WORD_BEFORE = /[\w$]*$/;
const TABLE_AFTER_KEYWORD = /\b(?:from|join)\s+([A-Za-z_$][\w$.]*)/gi;

export function completionSpot(text: string, caret: number): CompletionSpot {
  const before = text.slice(Math.max(0, caret - LOOK_BEHIND), caret);
  const property = PROPERTY_ACCESS.exec(before);
  if (property) {
    return { kind: 'property', owner: property[1] ? 'person' : 'event', prefix: property[2]! };
  }
  const table = AFTER_TABLE_KEYWORD.exec(before);
  if (table) {
    return { kind: 'table', prefix: table[1]! };
  }
  return { kind: 'field', prefix: WORD_BEFORE.exec(before)![0], tables: tablesNamed(text) };
}

/** The tables the query reads (after FROM and JOIN), `events` when it names none. */
export function tablesNamed(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.slice(0, TABLE_SCAN_LIMIT).matchAll(TABLE_AFTER_KEYWORD)) {
    names.add(match[1]!);
  }
  return names.size > 0 ? [...names] : ['events'];
}
