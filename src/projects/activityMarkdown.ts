import type { ActivityEntry, ActivityPage } from '../api';

const MAX_VALUE_LENGTH = 120;

/** One readable line per change: "**field**: before → after". */
export function describeChange(change: { field?: string | null; action?: string | null; before: unknown; after: unknown }): string {
  const field = change.field ?? change.action ?? 'change';
  return `**${escape(field)}**: ${shown(change.before)} → ${shown(change.after)}`;
}

export function activityAuthor(entry: ActivityEntry): string {
  const user = entry.user;
  if (!user || user.is_system) {
    return 'PostHog';
  }
  return user.first_name?.trim() || user.email || 'Someone';
}

/** A Markdown page of activity entries, newest first, as PostHog sends them. */
export function activityMarkdown(title: string, entries: readonly ActivityEntry[], total?: number, more = false): string {
  const lines = [`# ${escape(title)}`, ''];
  if (entries.length === 0) {
    lines.push('No activity recorded yet.');
  }
  for (const entry of entries) {
    lines.push(`## ${escape(activityAuthor(entry))} ${escape(entry.activity)} · ${formatWhen(entry.created_at)}`, '');
    const changes = entry.detail?.changes ?? [];
    if (changes.length === 0 && entry.detail?.name) {
      lines.push(`- ${escape(entry.detail.name)}`);
    }
    for (const change of changes) {
      lines.push(`- ${describeChange(change)}`);
    }
    lines.push('');
  }
  const count = total === undefined ? `${entries.length}` : `${entries.length} of ${total}`;
  lines.push('---', '', `Showing ${count} entries.${more ? ' Run "Load More Activity" from the editor title for older ones.' : ''}`);
  return `${lines.join('\n')}\n`;
}

/** Whether an activity page says that older entries exist. */
export function hasMorePages(page: ActivityPage, loaded: number): boolean {
  if (page.next) {
    return true;
  }
  return page.total_count !== undefined && loaded < page.total_count;
}

function formatWhen(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC').replace(/Z$/, ' UTC');
}

function shown(value: unknown): string {
  if (value === undefined || value === null) {
    return '*(none)*';
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const cut = text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
  return `\`${cut.replace(/`/g, "'")}\``;
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]<>#|]/g, '\\$&');
}
