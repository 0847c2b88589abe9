import type { ConnectionManager } from '../connections';
import type { QueryTarget } from './hogqlTargets';
import { type ProjectSchema, schemaTables } from './schemaCache';

/** A project's tables and fields (DatabaseSchemaQuery) and its property names, for completion. */
export async function loadProjectSchema(connections: ConnectionManager, target: QueryTarget): Promise<ProjectSchema> {
  const session = await connections.session(target.connectionId);
  if (!session) {
    return { tables: [], eventProperties: [], personProperties: [] };
  }
  const response = await session.client.queries.databaseSchema(target.projectId, { priority: 'bulk' });
  return { tables: schemaTables(response), eventProperties: [], personProperties: [] };
}
