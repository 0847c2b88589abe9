import { type CallOptions, errorText, MissingScopeError, NotFoundError, PermissionDeniedError, type PostHogClient } from '../api';
import type { QueryTarget } from './hogqlTargets';
import { definitionNames, MAX_NAMES, type PropertyNames, propertyNamesOf } from './propertyNames';
import { type ProjectSchema, schemaTables } from './schemaCache';

/** How many recent events property names are read from when the definitions cannot be, and how far back. */
const SAMPLED_EVENTS = 100;
const SAMPLE_DAYS = 30;
const BACKGROUND: CallOptions = { priority: 'bulk' };
const EMPTY: ProjectSchema = { tables: [], eventProperties: [], personProperties: [] };

export interface ProjectSchemaLoaderOptions {
  /** The signed-in client of a connection, or undefined when it has none. */
  readonly clientOf: (connectionId: string) => Promise<PostHogClient | undefined>;
  /** Where a fallback to recent events is said (once per project where the definitions cannot be read). */
  readonly log: (message: string) => void;
  readonly now?: () => number;
}

/**
 * A project's tables and fields (DatabaseSchemaQuery) and its event and person property names, for
 * completion: PostHog's property definitions (the first MAX_NAMES of each kind, in PostHog's order, with their
 * types), three requests at once in the background. Where the definitions are missing (404, an older server) or
 * refused (403, a key without `property_definition:read`), the names come from recent events instead, and that
 * project is not asked for definitions again. vscode-free.
 */
export class ProjectSchemaLoader {
  /** Projects (`connection/project`) whose definitions cannot be read: their names come from recent events. */
  private readonly withoutDefinitions = new Set<string>();
  private readonly now: () => number;

  constructor(private readonly options: ProjectSchemaLoaderOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Asks every project for its definitions again (a new key may have the scope, the server may have been updated). */
  forget(): void {
    this.withoutDefinitions.clear();
  }

  async load(target: QueryTarget): Promise<ProjectSchema> {
    const client = await this.options.clientOf(target.connectionId);
    if (!client) {
      return EMPTY;
    }
    const [schema, names] = await Promise.all([client.queries.databaseSchema(target.projectId, BACKGROUND), this.propertyNames(client, target)]);
    return { tables: schemaTables(schema), eventProperties: names.event, personProperties: names.person };
  }

  private async propertyNames(client: PostHogClient, target: QueryTarget): Promise<PropertyNames> {
    const key = `${target.connectionId}/${target.projectId}`;
    if (!this.withoutDefinitions.has(key)) {
      try {
        return await definitionsOf(client, target.projectId);
      } catch (error) {
        this.fallingBack(key, target.projectId, error);
      }
    }
    return recentPropertyNames(client, target.projectId, this.now());
  }

  private fallingBack(key: string, projectId: number, error: unknown): void {
    const unavailable = error instanceof NotFoundError || error instanceof MissingScopeError || error instanceof PermissionDeniedError;
    if (unavailable) {
      this.withoutDefinitions.add(key);
    }
    const until = unavailable ? 'from now on' : 'this time';
    this.options.log(`PostHog's property definitions of project ${projectId} could not be read (${errorText(error)}): HogQL completion takes property names from recent events ${until}.`);
  }
}

/** The first MAX_NAMES definitions of each kind: one request each. */
async function definitionsOf(client: PostHogClient, projectId: number): Promise<PropertyNames> {
  const page = (type: 'event' | 'person') => client.propertyDefinitions.list(projectId, { type, limit: MAX_NAMES }, BACKGROUND);
  const [event, person] = await Promise.all([page('event'), page('person')]);
  return { event: definitionNames(event.results), person: definitionNames(person.results) };
}

/** Names from the last SAMPLED_EVENTS events of SAMPLE_DAYS; none when they cannot be read (a key without query:read). */
async function recentPropertyNames(client: PostHogClient, projectId: number, now: number): Promise<PropertyNames> {
  const after = new Date(now - SAMPLE_DAYS * 86_400_000).toISOString();
  const events = await client.events.list(projectId, { after, limit: SAMPLED_EVENTS, include_person: true }, BACKGROUND).catch(() => undefined);
  return propertyNamesOf(events?.results ?? []);
}
