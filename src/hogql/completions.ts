import type { CompletionSpot } from './completionSpot';
import type { ProjectSchema, SchemaTable } from './schemaCache';

export interface HogQLSuggestion {
  readonly label: string;
  readonly kind: 'table' | 'field' | 'property' | 'keyword';
  /** What it is: a table's kind, a field's type and table, "event property" (and PostHog's type of it). */
  readonly detail: string;
}

/** HogQL keywords offered with fields, where an expression or a clause may start. */
export const HOGQL_KEYWORDS = ['SELECT', 'FROM', 'WHERE', 'GROUP BY', 'ORDER BY', 'LIMIT', 'JOIN', 'LEFT JOIN', 'AS', 'AND', 'OR', 'NOT', 'IN', 'LIKE', 'ILIKE', 'DISTINCT', 'HAVING', 'OFFSET'];

/** Suggestions for the spot from the project's schema; every candidate is listed and the editor filters by prefix. */
export function suggestionsFor(spot: CompletionSpot, schema: ProjectSchema): HogQLSuggestion[] {
  switch (spot.kind) {
    case 'property': {
      const names = spot.owner === 'person' ? schema.personProperties : schema.eventProperties;
      const owner = spot.owner === 'person' ? 'person property' : 'event property';
      return names.map(({ name, type }) => ({ label: name, kind: 'property', detail: type ? `${owner} · ${type}` : owner }));
    }
    case 'table':
      return schema.tables.map((table) => ({ label: table.name, kind: 'table', detail: table.type }));
    case 'field':
      return [...fieldsOf(spot.tables, schema.tables), ...HOGQL_KEYWORDS.map((label) => ({ label, kind: 'keyword' as const, detail: 'keyword' }))];
  }
}

function fieldsOf(tableNames: readonly string[], tables: readonly SchemaTable[]): HogQLSuggestion[] {
  const named = tableNames.map((name) => tables.find((table) => table.name === name)).filter((table) => table !== undefined);
  const read = named.length > 0 ? named : tables.filter((table) => table.name === 'events');
  const seen = new Set<string>();
  return read.flatMap((table) =>
    table.fields
      .filter((field) => !seen.has(field.name) && seen.add(field.name))
      .map((field) => ({ label: field.name, kind: 'field' as const, detail: `${field.type}${field.table ? ` → ${field.table}` : ''} · ${table.name}` })),
  );
}
