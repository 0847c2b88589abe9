import type { ActivityEntry } from '../api';
import { oneSafeLine } from '../common/text';
import { formatRelativeTime } from '../common/time';

/** One activity entry as a reader takes it in: "who · what · when", then each change "field: before → after". */
export interface ActivityLine {
  readonly label: string;
  readonly changes: string[];
}

const MAX_VALUE_LENGTH = 80;
const MAX_NAME_LENGTH = 100;

export function describeActivity(entry: ActivityEntry, now: Date, locale = 'en'): ActivityLine {
  const who = entry.user?.is_system ? 'PostHog' : oneSafeLine(entry.user?.first_name || entry.user?.email || '', MAX_NAME_LENGTH) || 'Someone';
  const when = formatRelativeTime(entry.created_at, now, locale);
  const changes = (entry.detail?.changes ?? []).map((change) => {
    const field = change.field ?? change.type ?? 'change';
    return `${field}: ${showValue(change.before)} → ${showValue(change.after)}`;
  });
  return { label: `${who} · ${oneSafeLine(entry.activity, MAX_NAME_LENGTH)} · ${when}`, changes };
}

export function showValue(value: unknown): string {
  if (value === undefined || value === null) {
    return '∅';
  }
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > MAX_VALUE_LENGTH ? `${oneLine.slice(0, MAX_VALUE_LENGTH - 1)}…` : oneLine;
}
