// Query-string filters of the events list (event, distinct_id, person_id, after, before, properties, orderBy).
import type { EventTable } from '../events';
import { param, type Ctx } from '../http';
import { validation } from '../errors';
import { parsePropertyFilter } from '../property-filter';
import type { EventQuery } from '../events-query';
import { parseDateParam } from '../time';

/** The list's filters from the query string. */
export function eventQueryFrom(ctx: Ctx, table: EventTable): { query: EventQuery; hasAfter: boolean; hasBefore: boolean } {
  const nowMicros = ctx.store.now().getTime() * 1000;
  const dateParam = (name: string): number | undefined => {
    const raw = param(ctx, name);
    if (!raw) return undefined; // PostHog reads an empty value as absent
    const value = parseDateParam(raw, nowMicros);
    if (value === undefined) throw validation(`Invalid date: "${raw}"`, name);
    return value;
  };
  const query: EventQuery = { before: dateParam('before') ?? nowMicros + 5_000_000, after: dateParam('after') };
  const event = param(ctx, 'event');
  if (event !== undefined) query.event = event;
  const distinctId = param(ctx, 'distinct_id');
  if (distinctId !== undefined) query.distinctId = distinctId;
  const personId = param(ctx, 'person_id');
  if (personId !== undefined) query.personDistinctIds = new Set(table.findPerson(personId)?.distinct_ids ?? []);
  const properties = param(ctx, 'properties');
  if (properties !== undefined && properties !== '') query.properties = parsePropertyFilter(properties);
  const orderBy = param(ctx, 'orderBy');
  if (orderBy !== undefined) query.ascending = parseOrderBy(orderBy) === 'timestamp';
  if (param(ctx, 'action_id') !== undefined) query.extra = () => false; // no actions exist locally
  return { query, hasAfter: Boolean(param(ctx, 'after')), hasBefore: Boolean(param(ctx, 'before')) };
}

function parseOrderBy(raw: string): string {
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (Array.isArray(parsed) && (parsed[0] === 'timestamp' || parsed[0] === '-timestamp')) return parsed[0];
  } catch {
    // fall through
  }
  throw validation('orderBy must be ["timestamp"] or ["-timestamp"] for the events list.', 'orderBy');
}

