// HogQLQuery, and the editor helpers HogQLMetadata (errors with character offsets) and DatabaseSchemaQuery.
import type { Json, JsonObject } from '../model';
import { relativeDateParse } from '../relative-date';
import { isoOffset } from '../time';
import { compileExpr } from '../hogql/compile';
import { HogQLError, parseExpr, parseSelect, queryError } from '../hogql/parse';
import { planSelect, runSelect, tableFor, type ProjectData } from '../hogql/run';
import { eventsTable, personsTable, type Field } from '../hogql/tables';
import type { RunContext } from './context';

function projectData(context: RunContext): ProjectData {
  return { events: context.store.eventsOf(context.project.id), teamId: context.project.id, nowMicros: context.nowMicros };
}

/** `{filters}` becomes the filters' date range (or true); `{name}` a constant from `values`. */
function substitute(query: string, request: JsonObject, context: RunContext): string {
  return query.replace(/\{\s*([A-Za-z_][\w.]*)\s*\}/g, (whole, name: string) => {
    if (name === 'filters') return filtersCondition((request['filters'] ?? {}) as JsonObject, context);
    const values = (request['values'] ?? {}) as JsonObject;
    if (!(name in values)) throw queryError(`Placeholder {${name}} is not allowed in this context`, query.indexOf(whole), query.indexOf(whole) + whole.length);
    return literal(values[name]!);
  });
}

function literal(value: Json): string {
  if (value === null) return 'NULL';
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `(${value.map(literal).join(', ')})`;
  return typeof value === 'object' ? literal(JSON.stringify(value)) : String(value);
}

function filtersCondition(filters: JsonObject, context: RunContext): string {
  const range = (filters['dateRange'] ?? {}) as JsonObject;
  const parts: string[] = [];
  if (typeof range['date_from'] === 'string') parts.push(`timestamp >= '${isoOffset(relativeDateParse(range['date_from'], context.nowMicros, context.timeZone))}'`);
  if (typeof range['date_to'] === 'string') parts.push(`timestamp <= '${isoOffset(relativeDateParse(range['date_to'], context.nowMicros, context.timeZone))}'`);
  return parts.length ? `(${parts.join(' AND ')})` : 'true';
}

export function runHogQLQuery(request: JsonObject, context: RunContext): JsonObject {
  const source = substitute(request['query'] as string, request, context);
  const answer = runSelect(source, parseSelect(source), projectData(context));
  return {
    results: answer.results as Json,
    columns: answer.columns,
    types: answer.types as Json,
    hogql: source,
    clickhouse: null,
    query: request['query']!,
    ...(answer.paging ?? {}),
    modifiers: {},
    timings: [],
  };
}

/** HogQLMetadata: whether the text parses and every name resolves; errors carry start/end offsets into `query`. */
export function runHogQLMetadata(request: JsonObject, context: RunContext): JsonObject {
  const text = request['query'] as string;
  const language = request['language'];
  const errors: JsonObject[] = [];
  const tables: string[] = [];
  try {
    if (language === 'hogQL') {
      const select = parseSelect(text);
      planSelect(select, tableFor(select, projectData(context)), context.nowMicros);
      if (select.from) tables.push(select.from.table);
    } else if (language === 'hogQLExpr') {
      const table = eventsTable(context.store.eventsOf(context.project.id), context.project.id);
      compileExpr(parseExpr(text), { table, names: ['events'], nowMicros: context.nowMicros, aggregates: [] });
      tables.push('events');
    } else {
      errors.push({ message: `Language "${String(language)}" is not supported by the local API (hogQL, hogQLExpr)`, start: null, end: null, fix: null });
    }
  } catch (error) {
    if (!(error instanceof HogQLError)) throw error;
    errors.push({ message: error.message, start: error.start ?? null, end: error.end ?? null, fix: null });
  }
  return { query: text, isValid: errors.length === 0, errors, warnings: [], notices: [], ...(errors.length ? {} : { table_names: tables }) };
}

function schemaFields(fields: Record<string, Field<never>>): JsonObject {
  const out: JsonObject = {};
  for (const [name, field] of Object.entries(fields)) {
    out[name] = {
      name, hogql_value: name, type: field.schemaType, schema_valid: true,
      ...(field.table ? { table: 'persons', fields: Object.keys(field.table) } : {}),
    };
  }
  return out;
}

export function runDatabaseSchema(context: RunContext): JsonObject {
  const events = context.store.eventsOf(context.project.id);
  const tables: JsonObject = {};
  for (const table of [eventsTable(events, context.project.id), personsTable(events)]) {
    tables[table.name] = { type: 'posthog', id: table.name, name: table.name, fields: schemaFields(table.fields as Record<string, Field<never>>) };
  }
  return { tables, joins: [] };
}
