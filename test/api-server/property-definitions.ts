// A project's property definitions, as PostHog's ingestion keeps them: one per (kind, name), made when a
// property is first seen and kept after its events are gone. Read from the project's events and persons as
// they arrive (one event of each generated shape, every explicit event and person), plus definitions added
// by tests (`add`: a property seen long ago, which no stored event carries). See README.md.
import type { Json, JsonObject } from './model';
import type { EventTable } from './events';
import { hashString, mix, uuidFromParts } from './random';
import { guessPropertyType, type PropertyType } from './property-types';

export type DefinitionKind = 'event' | 'person';

export interface PropertyDefinition {
  id: string;
  name: string;
  kind: DefinitionKind;
  property_type: PropertyType | null;
}

/** Event keys PostHog's ingestion never makes definitions of: they carry person and group updates. */
const SKIPPED_EVENT_KEYS = new Set(['$set', '$set_once', '$unset', '$groups', '$group_0', '$group_1', '$group_2', '$group_3', '$group_4']);

export class PropertyDefinitions {
  private readonly byKind: Record<DefinitionKind, Map<string, PropertyDefinition>> = { event: new Map(), person: new Map() };
  private readonly seenShapes = new Set<number>();
  private rowsRead = 0;
  private personsRead = 0;

  constructor(
    private readonly table: EventTable,
    private readonly projectId: number,
    private readonly nowMs: () => number,
  ) {}

  /** Every definition of the kind, in no particular order; reads the events and persons added since the last call. */
  list(kind: DefinitionKind): PropertyDefinition[] {
    this.catchUp();
    return [...this.byKind[kind].values()];
  }

  /** A definition as if its property had been seen (long ago) with this value's type; an existing one keeps its own. */
  add(kind: DefinitionKind, name: string, value: Json): PropertyDefinition {
    const definitions = this.byKind[kind];
    const existing = definitions.get(name);
    if (existing) {
      // The local API's choice: a type is set once, by the first value that has one.
      existing.property_type ??= guessPropertyType(name, value, this.nowMs());
      return existing;
    }
    const definition = { id: this.idOf(kind, name), name, kind, property_type: guessPropertyType(name, value, this.nowMs()) };
    definitions.set(name, definition);
    return definition;
  }

  private catchUp(): void {
    for (; this.personsRead < this.table.persons.length; this.personsRead++) this.addAll('person', this.table.persons[this.personsRead]!.properties);
    for (; this.rowsRead < this.table.size; this.rowsRead++) this.readRow(this.rowsRead);
  }

  private readRow(row: number): void {
    const shape = this.table.shapeOf(row);
    if (shape !== undefined) {
      if (this.seenShapes.has(shape)) return;
      this.seenShapes.add(shape);
    }
    const { properties } = this.table.record(row);
    for (const [name, value] of Object.entries(properties)) if (!SKIPPED_EVENT_KEYS.has(name)) this.add('event', name, value);
    this.addAll('person', objectOf(properties['$set']));
    this.addAll('person', objectOf(properties['$set_once']));
  }

  private addAll(kind: DefinitionKind, properties: JsonObject | undefined): void {
    for (const [name, value] of Object.entries(properties ?? {})) this.add(kind, name, value);
  }

  /** A stable id per project, kind and name (PostHog's are UUIDs). */
  private idOf(kind: DefinitionKind, name: string): string {
    const nameHash = hashString(name);
    return uuidFromParts(0, mix(this.projectId, nameHash), mix(nameHash, kind === 'event' ? 1 : 2), hashString(`${kind}:${name}`));
  }
}

function objectOf(value: Json | undefined): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}
