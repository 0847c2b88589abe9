import * as vscode from 'vscode';
import { errorText, PersonalApiKeyNotSupportedError } from '../../api';
import type { ConnectionManager } from '../../connections';
import { COMMANDS } from '../../workbench/commandIds';
import { CommandGroup, type CommandHandlers } from '../../workbench/commands';
import type { WindowApi } from '../../workbench/window';
import { type HistoryEntry, HistoryPages } from './notebookActivity';
import type { NotebookFileStore } from '../files/notebookFiles';
import { parseNotebookPath } from '../model/notebookPaths';
import { describeEntry, type NotebookVersions } from './notebookVersions';
import { sessionKey, type NotebookSessions } from '../session';
import { registerTimelineProvider, type Timeline, type TimelineChangeEvent, type TimelineItem, type TimelineOptions, type TimelineProvider } from './timelineApi';

const PAGE_SIZE = 20;
/** contextValue of Timeline items the menus act on (package.json, timeline/item/context). */
const VERSION_ITEM = 'posthogNotebookVersion';
const REJECTED_ITEM = 'posthogNotebookRejectedSave';

/** What a Timeline item stands for: an entry of the history of the notebook file `uri`. */
interface ItemTarget {
  readonly uri: vscode.Uri;
  readonly entry: HistoryEntry;
}

/**
 * Each notebook's PostHog history in VS Code's Timeline view (beside the file in the Explorer), a page at a
 * time: saves as versions (click one to compare it with the current text; restore it from its context
 * menu), saves PostHog refused as such (their content can be copied to a new notebook), PostHog's own
 * migration to Markdown under PostHog's name. Its commands also serve Show Notebook Activity.
 */
export class NotebookTimeline extends CommandGroup implements TimelineProvider {
  /** One provider per file system scheme (in-editor tests register their own beside the extension's). */
  readonly id: string;
  readonly label = vscode.l10n.t('PostHog');
  readonly scheme: string;
  private readonly changed = this._register(new vscode.EventEmitter<TimelineChangeEvent | undefined>());
  readonly onDidChange = this.changed.event;
  private readonly histories = new Map<string, HistoryPages>();
  private readonly targets = new WeakMap<TimelineItem, ItemTarget>();
  /** Why VS Code's Timeline does not show it, when it does not (history stays in Show Notebook Activity). */
  readonly unavailable: string | undefined;

  constructor(
    files: NotebookFileStore,
    sessions: NotebookSessions,
    private readonly connections: Pick<ConnectionManager, 'session'>,
    readonly versions: NotebookVersions,
    private readonly window: WindowApi,
    log: vscode.LogOutputChannel,
  ) {
    super();
    this.scheme = files.scheme;
    this.id = `posthogExplorer.notebookHistory.${files.scheme}`;
    const { registration, reason } = registerTimelineProvider(this);
    this.unavailable = reason;
    if (registration) {
      this._register(registration);
    } else {
      log.info(`Notebook history is not in VS Code's Timeline view (${reason}); "Show Notebook Activity" shows it.`);
    }
    // A save, or a newer version found on PostHog, adds history.
    this._register(files.onDidChangeNotebooks(() => this.forgetAll()));
    this._register(sessions.onDidChange(({ session }) => this.forget(sessionKey(session.ref))));
  }

  protected commands(): CommandHandlers {
    return {
      [COMMANDS.compareNotebookVersion]: (item?: TimelineItem) => this.run(item, (target) => this.versions.compare(target.uri, target.entry)),
      [COMMANDS.restoreNotebookVersion]: (item?: TimelineItem) => this.run(item, (target) => this.versions.restore(target.uri, target.entry)),
      [COMMANDS.copyNotebookVersion]: (item?: TimelineItem) => this.run(item, (target) => this.versions.copyToNewNotebook(target.uri, target.entry)),
    };
  }

  async provideTimeline(uri: vscode.Uri, options: TimelineOptions, _token?: vscode.CancellationToken): Promise<Timeline> {
    const path = parseNotebookPath(uri.authority, uri.path);
    if (uri.scheme !== this.scheme || path?.kind !== 'notebook') {
      return { items: [] };
    }
    const page = Math.max(1, Number(options.cursor) || 1);
    try {
      const { entries, more, cut } = await this.history(path).page(page);
      const items = entries.map((entry) => this.item(uri, entry));
      if (cut) {
        items.push(olderHistoryItem(entries[entries.length - 1]?.at ?? 0));
      }
      return { items, paging: { cursor: more ? String(page + 1) : undefined } };
    } catch (error) {
      const reason =
        error instanceof PersonalApiKeyNotSupportedError
          ? vscode.l10n.t('PostHog does not let personal API keys read this activity. Open the notebook in PostHog to see it.')
          : errorText(error);
      this.forget(sessionKey(path));
      return { items: [{ id: 'error', timestamp: Date.now(), label: vscode.l10n.t('Could not load the history: {0}', reason), iconPath: new vscode.ThemeIcon('error') }] };
    }
  }

  /** The history of a notebook, loaded as the Timeline pages through it. */
  history(ref: { connectionId: string; projectId: number; shortId: string }): HistoryPages {
    const key = sessionKey(ref);
    let pages = this.histories.get(key);
    if (!pages) {
      pages = new HistoryPages(async (page, limit) => {
        const connection = await this.connections.session(ref.connectionId);
        if (!connection) {
          throw new Error(vscode.l10n.t('Not signed in to this PostHog connection ({0}).', ref.connectionId));
        }
        const answer = await connection.client.notebooks.activity(ref.projectId, ref.shortId, { page, limit });
        return 'results' in answer ? { entries: answer.results, more: Boolean(answer.next) } : { entries: [], more: false };
      }, PAGE_SIZE);
      this.histories.set(key, pages);
    }
    return pages;
  }

  /** The Timeline item of a history entry of the notebook file `uri`; a click on one with content compares it. */
  item(uri: vscode.Uri, entry: HistoryEntry): TimelineItem {
    const hasContent = entry.content !== undefined;
    const item: { -readonly [K in keyof TimelineItem]: TimelineItem[K] } = {
      id: entry.id,
      timestamp: entry.at,
      label: labelOf(entry),
      description: entry.author,
      iconPath: new vscode.ThemeIcon(ICONS[entry.kind]),
      tooltip: tooltipOf(entry),
      contextValue: !hasContent ? undefined : entry.kind === 'rejected' ? REJECTED_ITEM : VERSION_ITEM,
    };
    if (hasContent) {
      item.command = { title: vscode.l10n.t('Compare with Current'), command: COMMANDS.compareNotebookVersion, arguments: [item] };
    }
    this.targets.set(item, { uri, entry });
    return item;
  }

  private async run(item: TimelineItem | undefined, action: (target: ItemTarget) => Promise<unknown>): Promise<unknown> {
    const target = item && this.targets.get(item);
    if (!target) {
      return undefined;
    }
    try {
      return await action(target);
    } catch (error) {
      void this.window.showErrorMessage(vscode.l10n.t('Could not use the version of {0}: {1}', describeEntry(target.entry), errorText(error)));
      return undefined;
    }
  }

  private forget(key: string): void {
    if (this.histories.delete(key)) {
      this.changed.fire(undefined);
    }
  }

  private forgetAll(): void {
    this.histories.clear();
    this.changed.fire(undefined);
  }
}

/** The last item of a history cut short: what is older only PostHog's own history shows. */
function olderHistoryItem(before: number): TimelineItem {
  return {
    id: 'older-history',
    timestamp: Math.max(0, before - 1),
    label: vscode.l10n.t('Older history is in PostHog'),
    description: vscode.l10n.t('not loaded here'),
    iconPath: new vscode.ThemeIcon('info'),
    tooltip: vscode.l10n.t("This notebook's history goes further back than the Timeline shows: open the notebook in PostHog to see older versions."),
  };
}

const ICONS: Record<HistoryEntry['kind'], string> = {
  edit: 'edit',
  migration: 'server-process',
  rejected: 'warning',
  created: 'add',
  deleted: 'trash',
  restored: 'history',
  other: 'circle-outline',
};

/** What the entry is, as the Timeline's label (who is its description). */
export function labelOf(entry: HistoryEntry): string {
  switch (entry.kind) {
    case 'edit':
      return vscode.l10n.t('Saved');
    case 'migration':
      return vscode.l10n.t('Converted to Markdown by PostHog');
    case 'rejected':
      return entry.rejection === 'stale' ? vscode.l10n.t('Save rejected (stale, not stored)') : vscode.l10n.t('Save rejected (conflict, not stored)');
    case 'created':
      return vscode.l10n.t('Created');
    case 'deleted':
      return vscode.l10n.t('Deleted');
    case 'restored':
      return vscode.l10n.t('Restored from the trash');
    case 'other':
      return entry.activity;
  }
}

function tooltipOf(entry: HistoryEntry): vscode.MarkdownString {
  const lines = [`**${escape(labelOf(entry))}**`, escape(describeEntry(entry))];
  if (entry.kind === 'rejected') {
    lines.push(
      vscode.l10n.t('PostHog refused this save, so its content was never stored. Compare it with the current text, or copy it to a new notebook to recover it.'),
    );
  } else if (entry.kind === 'migration') {
    lines.push(vscode.l10n.t('PostHog converted this notebook to a Markdown notebook itself; nobody edited it. (Its activity names the previous editor.)'));
  }
  lines.push(...entry.changes.map(escape));
  const tooltip = new vscode.MarkdownString(lines.join('\n\n'));
  tooltip.isTrusted = false;
  return tooltip;
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!<>|]/g, '\\$&');
}
