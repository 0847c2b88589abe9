import type { ConnectionManager } from '../connections';
import type { QueryTarget } from './hogqlTargets';
import { propertyNamesOf } from './propertyNames';
import { type ProjectSchema, schemaTables } from './schemaCache';

/** How many recent events property names are read from, and how far back they are looked for. */
const SAMPLED_EVENTS = 100;
const SAMPLE_DAYS = 30;

/**
 * A project's tables and fields (DatabaseSchemaQuery) and the property names of its recent events, for
 * completion. Two requests, in the background; without the events (a key lacking event:read) the tables
 * still come.
 */
export async function loadProjectSchema(connections: ConnectionManager, target: QueryTarget, now = Date.now()): Promise<ProjectSchema> {
  const session = await connections.session(target.connectionId);
  if (!session) {
    return { tables: [], eventProperties: [], personProperties: [] };
  }
  const { client } = session;
  const after = new Date(now - SAMPLE_DAYS * 86_400_000).toISOString();
  const [schema, events] = await Promise.all([
    client.queries.databaseSchema(target.projectId, { priority: 'bulk' }),
    client.events.list(target.projectId, { after, limit: SAMPLED_EVENTS, include_person: true }, { priority: 'bulk' }).catch(() => undefined),
  ]);
  const names = propertyNamesOf(events?.results ?? []);
  return { tables: schemaTables(schema), eventProperties: names.event, personProperties: names.person };
}
