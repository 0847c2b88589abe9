// The two HogQL tables the local API serves, `events` and `persons`, over the store's event table, with the
// fields PostHog's database schema names for them (a subset). Field reads are lazy: a generated event is only
// built in full when a field needs it (see events.ts).
import type { EventRecord, EventTable } from '../events';
import { SLOW } from '../event-props';
import type { Json, JsonObject, Person } from '../model';
import { queryError } from './parse';
import { Instant, type Value } from './values';

/** One event row being read: its row number and, once built, its full record. */
export interface EventRow {
  row: number;
  rec?: EventRecord;
}

export interface Field<R> {
  /** ClickHouse type of the column (EventsQuery/HogQLQuery `types`) */
  type: string;
  /** DatabaseSchemaQuery's field type */
  schemaType: 'string' | 'datetime' | 'integer' | 'boolean' | 'json' | 'lazy_table';
  get: (row: R) => Value;
  /** JSON fields: one key read (properties.$browser) */
  key?: (name: string) => (row: R) => Value;
  /** lazy tables (events.person): its fields, read through this row */
  table?: Record<string, Field<R>>;
}

export interface TableDef<R> {
  name: string;
  fields: Record<string, Field<R>>;
  /** Every row, in storage order. */
  rows: () => Iterable<R>;
}

const DATETIME = "DateTime64(6, 'UTC')";

function jsonKey(value: Json | undefined): Value {
  return value === undefined ? null : (value as Value);
}

function personFields<R>(personOf: (row: R) => Person | null): Record<string, Field<R>> {
  return {
    id: { type: 'UUID', schemaType: 'string', get: (r) => personOf(r)?.uuid ?? null },
    created_at: { type: DATETIME, schemaType: 'datetime', get: (r) => { const p = personOf(r); return p ? new Instant(p.created_at) : null; } },
    is_identified: { type: 'Bool', schemaType: 'boolean', get: (r) => personOf(r)?.is_identified ?? null },
    properties: {
      type: 'String', schemaType: 'json',
      get: (r) => { const p = personOf(r); return p ? JSON.stringify(p.properties) : null; },
      key: (name) => (r) => jsonKey(personOf(r)?.properties[name]),
    },
  };
}

/** The `events` table of a project. */
export function eventsTable(table: EventTable, teamId: number): TableDef<EventRow> {
  const record = (r: EventRow): EventRecord => (r.rec ??= table.record(r.row));
  const personOf = (r: EventRow): Person | null => {
    const index = table.personIndexOfRow(r.row);
    return index < 0 ? null : table.persons[index]!;
  };
  const property = (name: string) => (r: EventRow): Value => {
    if (r.rec) return jsonKey(r.rec.properties[name]);
    const quick = table.quickProperty(r.row, name);
    return quick === SLOW ? jsonKey(record(r).properties[name]) : jsonKey(quick);
  };
  const fields: Record<string, Field<EventRow>> = {
    uuid: { type: 'UUID', schemaType: 'string', get: (r) => table.uuidOf(r.row) },
    event: { type: 'String', schemaType: 'string', get: (r) => table.nameOf(r.row) },
    properties: { type: 'String', schemaType: 'json', get: (r) => JSON.stringify(record(r).properties), key: property },
    timestamp: { type: DATETIME, schemaType: 'datetime', get: (r) => new Instant(table.timeOf(r.row)) },
    distinct_id: { type: 'String', schemaType: 'string', get: (r) => table.distinctIdOf(r.row) },
    elements_chain: { type: 'String', schemaType: 'string', get: (r) => record(r).elements_chain },
    created_at: { type: DATETIME, schemaType: 'datetime', get: (r) => new Instant(table.timeOf(r.row)) },
    $session_id: { type: 'String', schemaType: 'string', get: property('$session_id') },
    team_id: { type: 'Int64', schemaType: 'integer', get: () => teamId },
    person_id: { type: 'UUID', schemaType: 'string', get: (r) => personOf(r)?.uuid ?? null },
    person: { type: 'String', schemaType: 'lazy_table', get: () => null, table: personFields(personOf) },
  };
  return {
    name: 'events',
    fields,
    rows: function* () {
      const sorted = table.sorted();
      for (let i = 0; i < sorted.length; i++) yield { row: sorted[i]! };
    },
  };
}

/** The `persons` table of a project. */
export function personsTable(table: EventTable): TableDef<Person> {
  return { name: 'persons', fields: personFields((p: Person) => p), rows: () => table.persons };
}

export type Getter<R> = (row: R) => Value;

/** Resolves `a.b.c` against a table (a leading table name or alias is dropped). */
export function resolveField<R>(table: TableDef<R>, names: readonly string[], chain: string[], start: number, end: number): Field<R> | Getter<R> {
  const parts = chain.length > 1 && names.includes(chain[0]!) ? chain.slice(1) : chain;
  let fields = table.fields;
  for (let i = 0; i < parts.length; i++) {
    const field = fields[parts[i]!];
    if (!field) throw queryError(`Unable to resolve field: ${parts[i]}`, start, end);
    if (i === parts.length - 1) {
      if (field.table) throw queryError(`Field "${parts[i]}" is a table: select one of its fields (${Object.keys(field.table).join(', ')})`, start, end);
      return field;
    }
    if (field.key) return nested(field.key(parts[i + 1]!), parts.slice(i + 2));
    if (!field.table) throw queryError(`Unable to resolve field: ${parts.slice(0, i + 2).join('.')}`, start, end);
    fields = field.table;
  }
  throw queryError('Empty field', start, end);
}

/** properties.a.b: keys into a JSON value held by a property. */
function nested<R>(get: Getter<R>, path: string[]): Getter<R> {
  if (path.length === 0) return get;
  return (row) => {
    let value: unknown = get(row);
    for (const key of path) {
      if (typeof value === 'string') {
        try {
          value = JSON.parse(value);
        } catch {
          return null;
        }
      }
      value = value && typeof value === 'object' ? ((value as JsonObject)[key] ?? null) : null;
    }
    return value as Value;
  };
}
