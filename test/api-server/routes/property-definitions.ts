// Property definitions: GET /api/projects/{project}/property_definitions/ (PostHog's PropertyDefinitionViewSet
// list; facts in README.md, "Property definitions"). Groups and sessions have none here.
import { route, type Route } from '../router';
import { paginate, param, projectOf, type Ctx, type Reply } from '../http';
import { serverError, validation } from '../errors';
import type { PropertyDefinition } from '../property-definitions';

const TYPES = ['event', 'person', 'group', 'session'];
/** Event properties PostHog's list always leaves out (ingestion's helpers, group analytics, session entries). */
const HIDDEN_EVENT_PROPERTIES = new Set([
  'distinct_id', '$set', '$set_once', '$initial_referrer', '$initial_referring_domain',
  '$groups', '$group_type', '$group_key', '$group_set', '$group_0', '$group_1', '$group_2', '$group_3', '$group_4',
]);
/** DRF's BooleanField's words for true. */
const TRUE_WORDS = new Set(['true', 'True', 'TRUE', 'on', 'On', 'ON', 'yes', 'Yes', 'YES', 'y', 'Y', '1']);

function list(ctx: Ctx): Reply {
  const type = param(ctx, 'type') ?? 'event';
  if (!TYPES.includes(type)) throw validation(`"${type}" is not a valid choice.`, 'type', 'invalid_choice');
  if (type === 'group' && param(ctx, 'group_type_index') === undefined) throw validation('`group_type_index` must be set for `group` type');
  const all = type === 'event' || type === 'person' ? ctx.store.propertyDefinitionsOf(projectOf(ctx).id).list(type) : [];
  const kept = all.filter(keeps(ctx, type)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { status: 200, body: paginate(ctx, kept, serialize) };
}

/** The filters of the request: search terms, listed names, numbers only, exclusions. */
function keeps(ctx: Ctx, type: string): (definition: PropertyDefinition) => boolean {
  const terms = (param(ctx, 'search') ?? '').replace(/\0/g, '').split(' ').filter(Boolean).map(likePattern);
  const names = param(ctx, 'properties')?.split(',');
  const numerical = TRUE_WORDS.has(param(ctx, 'is_numerical') ?? '');
  const excluded = new Set([...excludedNames(ctx), ...(type === 'event' ? HIDDEN_EVENT_PROPERTIES : [])]);
  return ({ name, property_type }) =>
    !excluded.has(name) &&
    !(type === 'event' && name.startsWith('$session_entry_')) &&
    terms.every((term) => term.test(name)) &&
    (!names || names.includes(name)) &&
    (!numerical || (property_type === 'Numeric' && name !== 'distinct_id' && name !== 'timestamp'));
}

/** `excluded_properties`, a JSON list; PostHog's json.loads of anything else fails as a 500. */
function excludedNames(ctx: Ctx): string[] {
  const raw = param(ctx, 'excluded_properties');
  if (!raw) return [];
  try {
    const names: unknown = JSON.parse(raw);
    return Array.isArray(names) ? names.map(String) : [];
  } catch {
    throw serverError();
  }
}

/** Postgres' `name ILIKE '%term%'`: the term's own `%` and `_` stay wildcards, as PostHog leaves them unescaped. */
function likePattern(term: string): RegExp {
  let source = '';
  for (let i = 0; i < term.length; i++) {
    const char = term[i]!;
    if (char === '\\' && i + 1 < term.length) source += escapeRegExp(term[++i]!);
    else source += char === '%' ? '.*' : char === '_' ? '.' : escapeRegExp(char);
  }
  return new RegExp(source, 'is');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function serialize(definition: PropertyDefinition): Record<string, unknown> {
  const { id, name, property_type } = definition;
  return { id, name, is_numerical: property_type === 'Numeric', property_type, tags: [], is_seen_on_filtered_events: null };
}

export const propertyDefinitionRoutes: Route[] = [
  { ...route('/api/projects/:projectId/property_definitions', { GET: { scope: 'property_definition:read', handler: list } }), onlyWith: 'propertyDefinitionsApi' },
];
