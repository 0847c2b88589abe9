import type { ActivityEntry, Notebook } from '../../api';
import { oneSafeLine } from '../../common/text';
import { showValue } from './activityFormat';
import { markdownTextOf } from '../saving/markdownSavePlan';
import { isObject, markdownOf, readonlyOf, type ReadonlyBlock, READONLY_KEY, serializeDocument, textContentOf } from '../model/notebookDocument';
import type { NotebookForm } from '../model/notebookPaths';

/**
 * A notebook's history as PostHog's activity log holds it, read the way PostHog's web app shows it: each
 * save is a version (the content it stored is the `after` of its `content` change), saves PostHog refused
 * (save_rejected_conflict / save_rejected_stale) carry content that was never stored, and PostHog's own
 * migration of legacy notebooks to Markdown is logged under the previous editor although nobody edited.
 */
export type HistoryKind = 'edit' | 'migration' | 'rejected' | 'created' | 'deleted' | 'restored' | 'other';

export interface HistoryEntry {
  readonly id: string;
  readonly kind: HistoryKind;
  /** PostHog's name of the activity ("updated", "save_rejected_conflict", …), as one safe line. */
  readonly activity: string;
  /** For rejected saves: PostHog's reason (a newer version had been saved meanwhile, or PostHog could not tell). */
  readonly rejection?: 'conflict' | 'stale';
  /** Milliseconds since the epoch (0 when PostHog's date does not read). */
  readonly at: number;
  /** Who, as one safe line: "PostHog" for its migration and its system user. */
  readonly author: string;
  /** The content this entry stored (an edit, the migration), or tried to (a rejected save). */
  readonly content?: unknown;
  /** Other fields it changed, "field: before → after". */
  readonly changes: readonly string[];
}

const MAX_NAME_LENGTH = 100;
/** PostHog dates its migration's entry one second after the notebook's last modification. */
const MIGRATION_DELAY_MS = 1000;

/**
 * `entries` (newest first, as PostHog pages them) read as history; `older` are the entries after them (the
 * next page), which tell whether one of the last is PostHog's migration.
 */
export function readHistory(entries: readonly ActivityEntry[], older: readonly ActivityEntry[] = []): HistoryEntry[] {
  // From the oldest: the entry before each that changed the notebook (a refused save changed nothing), in one pass.
  let previous = older.find((entry) => !isRejected(entry));
  const read: HistoryEntry[] = new Array<HistoryEntry>(entries.length);
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!;
    read[index] = historyEntry(entry, previous);
    if (!isRejected(entry)) {
      previous = entry;
    }
  }
  return read;
}

function isRejected(entry: ActivityEntry): boolean {
  return entry.activity === 'save_rejected_conflict' || entry.activity === 'save_rejected_stale';
}

/** Whether the entry could be PostHog's migration, which only the entry before it (`older`) decides. */
export function mayBeMigration(entry: ActivityEntry): boolean {
  const content = contentChange(entry);
  return entry.activity === 'updated' && content !== undefined && markdownOf(content.before) === undefined && markdownOf(content.after) !== undefined;
}

function historyEntry(entry: ActivityEntry, older: ActivityEntry | undefined): HistoryEntry {
  const at = Date.parse(entry.created_at) || 0;
  const content = contentChange(entry);
  const others = (entry.detail?.changes ?? []).filter((change) => change.field !== 'content' && change.field !== 'text_content' && change.field !== 'version');
  const base = {
    id: entry.id,
    activity: oneSafeLine(entry.activity, MAX_NAME_LENGTH),
    at,
    author: authorOf(entry),
    content: content?.after,
    changes: others.map((change) => oneSafeLine(`${change.field ?? change.type ?? 'change'}: ${showValue(change.before)} → ${showValue(change.after)}`, 300)),
  };
  if (isRejected(entry)) {
    return { ...base, kind: 'rejected', rejection: entry.activity === 'save_rejected_stale' ? 'stale' : 'conflict' };
  }
  if (mayBeMigration(entry) && older && isMigrationAfter(entry, at, older)) {
    return { ...base, kind: 'migration', author: 'PostHog' };
  }
  switch (entry.activity) {
    case 'created':
    case 'deleted':
    case 'restored':
      return { ...base, kind: entry.activity };
    case 'updated':
      return { ...base, kind: content ? 'edit' : 'other' };
    default:
      return { ...base, kind: 'other' };
  }
}

/** The migration is logged under the previous editor, dated a second after the notebook's last modification (logged just after it). */
function isMigrationAfter(entry: ActivityEntry, at: number, older: ActivityEntry): boolean {
  const gap = at - (Date.parse(older.created_at) || 0);
  return gap > 0 && gap <= MIGRATION_DELAY_MS && authorOf(older) === authorOf(entry);
}

function contentChange(entry: ActivityEntry): { before: unknown; after: unknown } | undefined {
  const change = (entry.detail?.changes ?? []).find((candidate) => candidate.field === 'content');
  return change && isObject(change.after) ? { before: change.before, after: change.after } : undefined;
}

function authorOf(entry: ActivityEntry): string {
  if (entry.user?.is_system) {
    return 'PostHog';
  }
  return oneSafeLine(entry.user?.first_name || entry.user?.email || '', MAX_NAME_LENGTH) || 'Someone';
}

/**
 * The text of a version's `content` in the file's form, as the editor would show it: the Markdown, or the
 * JSON document with the read-only block and title of `shown` (the editor's JSON text), so that a diff
 * against the editor shows only what the version changes, and a save of it is planned against the
 * version the editor shows. `current` stands in when `shown` does not read.
 */
export function versionText(content: unknown, form: NotebookForm, current: Notebook, shown?: string): string {
  if (form === 'markdown') {
    return markdownTextOf(content);
  }
  const editorFields = readShown(shown);
  const readonly = editorFields?.readonly ?? readonlyOf(current);
  const title = editorFields ? editorFields.title : (current.title ?? null);
  return serializeDocument(readonly, { title, content, text_content: markdownOf(content) ?? textContentOf(content) });
}

function readShown(text: string | undefined): { readonly: ReadonlyBlock; title: string | null } | undefined {
  if (text === undefined) {
    return undefined;
  }
  try {
    const json: unknown = JSON.parse(text);
    if (isObject(json) && isObject(json[READONLY_KEY]) && (typeof json['title'] === 'string' || json['title'] === null)) {
      return { readonly: json[READONLY_KEY] as unknown as ReadonlyBlock, title: json['title'] };
    }
  } catch {
    // not JSON (yet): the current version's block
  }
  return undefined;
}

/** The most entries a page of history holds, and the most pages read: what is older is left to PostHog's own history. */
export const MAX_PAGE_ENTRIES = 100;
export const MAX_HISTORY_PAGES = 50;

/** A page of history; `cut`: older entries exist that are not shown here (a page over the limit, or too many pages). */
export interface HistoryPage {
  readonly entries: HistoryEntry[];
  readonly more: boolean;
  readonly cut: boolean;
}

/** One page of a notebook's activity, newest first, and whether older pages exist. */
export type ActivityLoader = (page: number, limit: number) => Promise<{ readonly entries: readonly ActivityEntry[]; readonly more: boolean }>;

/**
 * A notebook's activity, a page at a time, read as history. A page whose last entry may be PostHog's
 * migration loads the next page too, since the entry before it decides.
 */
export class HistoryPages {
  private readonly pages: (readonly ActivityEntry[])[] = [];
  private more = true;
  private cut = false;
  private readonly limit: number;

  constructor(
    private readonly load: ActivityLoader,
    limit: number,
  ) {
    this.limit = Math.min(limit, MAX_PAGE_ENTRIES);
  }

  /** Page `page` (from 1) as history. */
  async page(page: number): Promise<HistoryPage> {
    await this.loadUpTo(page);
    const entries = this.pages[page - 1] ?? [];
    // The last candidate needs a change after it: on a later page when none follows on this one.
    const candidates = entries.map((entry, index) => (mayBeMigration(entry) ? index : -1)).filter((index) => index >= 0);
    const undecided = candidates[candidates.length - 1];
    if (undecided !== undefined && entries.slice(undecided + 1).every(isRejected)) {
      await this.loadUpTo(page + 1);
    }
    const more = this.pages.length > page || this.more;
    return { entries: readHistory(entries, this.pages.slice(page).flat()), more, cut: !more && this.cut && page === this.pages.length };
  }

  /**
   * Loads pages up to `page`. A page over the limit asked for (a server that ignores it) is cut to the limit
   * and ends the history here, as does the last page read: older entries are PostHog's to show.
   */
  private async loadUpTo(page: number): Promise<void> {
    while (this.pages.length < page && this.more) {
      const answer = await this.load(this.pages.length + 1, this.limit);
      const over = answer.entries.length > this.limit;
      this.pages.push(over ? answer.entries.slice(0, this.limit) : answer.entries);
      this.more = answer.more && answer.entries.length > 0 && !over && this.pages.length < MAX_HISTORY_PAGES;
      this.cut = over || (answer.more && this.pages.length >= MAX_HISTORY_PAGES);
    }
  }
}
