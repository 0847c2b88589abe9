// Reading events the way PostHog's legacy events endpoint does: newest first, a default one-day
// window (retried without it when it yields too few rows), strict after/before bounds.
import type { Json } from './model';
import type { EventRecord, EventTable } from './events';
import type { PropertySource, PropertyTest } from './property-filter';
import { SLOW } from './event-props';

export interface EventQuery {
  event?: string;
  distinctId?: string;
  /** distinct ids of the person asked for (an unknown person matches nothing) */
  personDistinctIds?: Set<string>;
  properties?: PropertyTest;
  /** exclusive bounds, microseconds */
  after?: number;
  before: number;
  ascending?: boolean;
  extra?: (event: EventRecord) => boolean;
}

/** Events matching `query` in order, skipping `offset`, stopping after `take` (Infinity for all). */
export function scanEvents(table: EventTable, query: EventQuery, offset: number, take: number): EventRecord[] {
  const rows = table.sorted();
  const source = new RowSource(table);
  const out: EventRecord[] = [];
  let skipped = 0;
  const n = rows.length;
  for (let i = 0; i < n && out.length < take; i++) {
    const row = rows[query.ascending ? n - 1 - i : i]!;
    const ts = table.timeOf(row);
    if (ts >= query.before) {
      if (query.ascending) break;
      continue;
    }
    if (query.after !== undefined && ts <= query.after) {
      if (query.ascending) continue;
      break;
    }
    if (query.event !== undefined && table.nameOf(row) !== query.event) continue;
    if (query.personDistinctIds && !matchesPerson(table, row, query.personDistinctIds)) continue;
    if (query.distinctId !== undefined && table.distinctIdOf(row) !== query.distinctId) continue;
    source.reset(row);
    if (query.properties && !query.properties(source)) continue;
    if (query.extra && !query.extra(source.record())) continue;
    if (skipped < offset) {
      skipped++;
      continue;
    }
    out.push(source.record());
  }
  return out;
}

/** Reads one row's properties, building the full event only when a property needs it. */
class RowSource implements PropertySource {
  private row = 0;
  private built: EventRecord | undefined;

  constructor(private readonly table: EventTable) {}

  reset(row: number): void {
    this.row = row;
    this.built = undefined;
  }

  record(): EventRecord {
    return (this.built ??= this.table.record(this.row));
  }

  eventProperty(key: string): Json | undefined {
    const quick = this.table.quickProperty(this.row, key);
    return quick === SLOW ? this.record().properties[key] : quick;
  }

  personProperty(key: string): Json | undefined {
    const index = this.table.personIndexOfRow(this.row);
    return index < 0 ? undefined : this.table.persons[index]!.properties[key];
  }
}

function matchesPerson(table: EventTable, row: number, distinctIds: Set<string>): boolean {
  const personIndex = table.personIndexOfRow(row);
  if (personIndex < 0) return distinctIds.has(table.distinctIdOf(row));
  return table.persons[personIndex]!.distinct_ids.some((id) => distinctIds.has(id));
}

/**
 * PostHog's list query: without `after`, first look back one day; if that finds fewer than `limit`
 * rows, look again without the lower bound. Returns up to limit + 1 rows (the extra one means "more").
 */
export function listWithDefaultWindow(table: EventTable, query: EventQuery, hasAfter: boolean, nowMicros: number, offset: number, limit: number): EventRecord[] {
  const windowed = hasAfter ? query : { ...query, after: nowMicros - 24 * 3600 * 1_000_000 };
  let rows = scanEvents(table, windowed, offset, limit + 1);
  if (rows.length < limit && !hasAfter) rows = scanEvents(table, query, offset, limit + 1);
  return rows;
}
