import type { Me, NotebookListFilters, NotebookListItem, UserBasic } from '../../api';

/** A PostHog user the filter can name: PostHog filters notebooks on the creator's UUID. */
export interface Creator {
  readonly uuid: string;
  readonly name: string;
  readonly email?: string;
  /** The key's own user. */
  readonly isMe?: boolean;
}

/** The notebook list filters of the API (spec 4.2), as the user sets them in the explorer. */
export interface NotebookFilter {
  /** Match pairs `target:match`, separated by commas or spaces, e.g. `recording:true feature-flag:false`. */
  readonly contains?: string;
  /** The creator; its UUID is what is sent. */
  readonly createdBy?: Creator;
  /** Only notebooks created by the key's user. */
  readonly onlyMine?: boolean;
  readonly dateFrom?: string;
  readonly dateTo?: string;
}

export type NotebookListQuery = Pick<NotebookListFilters, 'contains' | 'created_by' | 'user' | 'date_from' | 'date_to'>;

export function isEmptyFilter(filter: NotebookFilter): boolean {
  return Object.keys(toNotebookQuery(filter)).length === 0;
}

/** The query parameters of the spec's notebook list, named as the spec names them. */
export function toNotebookQuery(filter: NotebookFilter): NotebookListQuery {
  const query: NotebookListQuery = {};
  if (filter.contains?.trim()) {
    query.contains = filter.contains.trim();
  }
  if (filter.createdBy !== undefined) {
    query.created_by = filter.createdBy.uuid;
  }
  if (filter.onlyMine) {
    query.user = 'true';
  }
  if (filter.dateFrom) {
    query.date_from = filter.dateFrom;
  }
  if (filter.dateTo) {
    query.date_to = filter.dateTo;
  }
  return query;
}

/** A short summary for the Notebooks item, e.g. "contains recording:true · mine · after 2026-01-01". */
export function describeFilter(filter: NotebookFilter): string {
  const parts: string[] = [];
  if (filter.contains?.trim()) {
    parts.push(`contains ${filter.contains.trim()}`);
  }
  if (filter.createdBy !== undefined) {
    parts.push(`created by ${filter.createdBy.name}`);
  }
  if (filter.onlyMine) {
    parts.push('mine');
  }
  if (filter.dateFrom) {
    parts.push(`after ${filter.dateFrom}`);
  }
  if (filter.dateTo) {
    parts.push(`before ${filter.dateTo}`);
  }
  return parts.join(' · ');
}

/**
 * The people a "created by" filter can name, from what the extension already knows: the key's user
 * (GET /api/users/@me/, when the key may read it) first, then the creators seen in the notebook list, by
 * name; each once, by UUID. The current choice stays offered even when no listed notebook has it.
 */
export function knownCreators(me: Me | undefined, notebooks: readonly NotebookListItem[], current?: Creator): Creator[] {
  const byUuid = new Map<string, Creator>();
  for (const notebook of notebooks) {
    const user = notebook.created_by;
    if (user && !byUuid.has(user.uuid.toLowerCase())) {
      byUuid.set(user.uuid.toLowerCase(), creatorOf(user));
    }
  }
  if (current && !byUuid.has(current.uuid.toLowerCase())) {
    byUuid.set(current.uuid.toLowerCase(), { ...current, isMe: undefined });
  }
  const others = [...byUuid.values()].sort((a, b) => a.name.localeCompare(b.name));
  if (!me) {
    return others;
  }
  return [{ ...creatorOf(me), isMe: true }, ...others.filter((creator) => creator.uuid.toLowerCase() !== me.uuid.toLowerCase())];
}

function creatorOf(user: Pick<UserBasic, 'uuid' | 'first_name' | 'last_name' | 'email'>): Creator {
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email || user.uuid;
  return { uuid: user.uuid, name, email: user.email || undefined };
}

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const RELATIVE = /^-\d+[hdwmy]$/;

/** True for the ISO 8601 dates and date-times the server parses (2026-11-01, 2026-11-01T12:30Z). */
export function isIsoDate(value: string): boolean {
  return DATE.test(value) && !Number.isNaN(Date.parse(value));
}

/**
 * A date PostHog reads as meant: ISO 8601 as above, or a time ago: -24h, -7d, -2w, -1m (months), -1y.
 * PostHog reads anything else too, but not as meant ("yesterday" is now), so the filter refuses it.
 */
export function isNotebookDate(value: string): boolean {
  return isIsoDate(value) || RELATIVE.test(value);
}
