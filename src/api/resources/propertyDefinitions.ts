import type { CallOptions } from '../http';
import { type PropertyDefinitionPage, PropertyDefinitionPageSchema } from '../schemas';
import { type ResourceContext, segment } from './context';

/** Which definitions: of event or person properties, their names holding every word of `search`. */
export interface PropertyDefinitionQuery {
  type: 'event' | 'person';
  /** Space-separated words, each matched anywhere in the name, case-insensitively (`%` and `_` are wildcards). */
  search?: string;
  /** Default 100; PostHog sets no maximum. */
  limit?: number;
  offset?: number;
}

/**
 * The property definitions PostHog keeps per project (/api/projects/{project}/property_definitions/, scope
 * `property_definition:read`, throttled with the default class): every property ever seen, typed when first
 * seen, in PostHog's order (by name, verified ones first where the organization has the taxonomy feature).
 */
export class PropertyDefinitionsApi {
  constructor(private readonly context: ResourceContext) {}

  /** One page of definitions. */
  list(projectId: number | string, query: PropertyDefinitionQuery, call?: CallOptions): Promise<PropertyDefinitionPage> {
    const path = `/api/projects/${segment(projectId)}/property_definitions/`;
    return this.context.transport.json({ method: 'GET', path, query: { ...query } }, PropertyDefinitionPageSchema, call);
  }
}
