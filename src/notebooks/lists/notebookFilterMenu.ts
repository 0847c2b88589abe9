import * as vscode from 'vscode';
import { isUuid } from '../../api';
import type { WindowApi } from '../../workbench/window';
import { askContains } from './notebookContainsMenu';
import { type Creator, describeFilter, isNotebookDate, type NotebookFilter } from './notebookFilter';

type FilterAction = 'contains' | 'createdBy' | 'onlyMine' | 'dateFrom' | 'dateTo' | 'apply' | 'clear';

interface ActionItem extends vscode.QuickPickItem {
  readonly action: FilterAction;
}

/** The project whose notebooks the filter lists: its name for titles, its time zone for dates. */
export interface FilteredProject {
  readonly name: string;
  readonly timezone?: string | null;
}

/**
 * A quick input that edits a project's notebook filter one field at a time, until the user
 * applies it. Escape leaves the filter as it was.
 */
export async function editNotebookFilter(
  window: WindowApi,
  project: FilteredProject,
  initial: NotebookFilter,
  creators: readonly Creator[],
): Promise<NotebookFilter | undefined> {
  let filter: NotebookFilter = { ...initial };
  for (;;) {
    const picked = await window.showQuickPick(filterMenu(filter), {
      title: vscode.l10n.t('Filter Notebooks: {0}', project.name),
      placeHolder: describeFilter(filter) || vscode.l10n.t('Choose what to filter by, then Apply'),
      ignoreFocusOut: true,
    });
    if (!picked) {
      return undefined;
    }
    switch (picked.action) {
      case 'apply':
        return filter;
      case 'clear':
        return {};
      case 'onlyMine':
        filter = { ...filter, onlyMine: !filter.onlyMine };
        break;
      case 'createdBy':
        filter = await askCreatedBy(window, filter, creators);
        break;
      case 'contains':
        filter = { ...filter, contains: (await askContains(window, filter.contains)) || undefined };
        break;
      case 'dateFrom':
      case 'dateTo':
        filter = await askText(window, filter, picked.action, {
          title: picked.action === 'dateFrom' ? vscode.l10n.t('Modified after') : vscode.l10n.t('Modified before'),
          prompt: vscode.l10n.t(
            "A date or date-time in ISO 8601 (2026-11-01, 2026-11-01T12:00Z; without an offset, in the project's time zone: {0}), or a time ago: -24h, -7d, -2w, -1m (months), -1y. Empty clears it.",
            project.timezone || 'UTC',
          ),
          placeHolder: new Date().toISOString().slice(0, 10),
          validate: (value) =>
            isNotebookDate(value)
              ? undefined
              : vscode.l10n.t('"{0}" is not a date like 2026-11-01 or 2026-11-01T12:00Z, nor a time ago like -7d.', value),
        });
        break;
    }
  }
}

function filterMenu(filter: NotebookFilter): ActionItem[] {
  const any = vscode.l10n.t('any');
  return [
    { action: 'contains', label: `$(search) ${vscode.l10n.t('Contains')}`, description: filter.contains || any },
    {
      action: 'createdBy',
      label: `$(person) ${vscode.l10n.t('Created by')}`,
      description: filter.createdBy?.name ?? any,
    },
    {
      action: 'onlyMine',
      label: `$(account) ${vscode.l10n.t('Only mine')}`,
      description: filter.onlyMine ? vscode.l10n.t('on') : vscode.l10n.t('off'),
    },
    { action: 'dateFrom', label: `$(calendar) ${vscode.l10n.t('Modified after')}`, description: filter.dateFrom || any },
    { action: 'dateTo', label: `$(calendar) ${vscode.l10n.t('Modified before')}`, description: filter.dateTo || any },
    { action: 'apply', label: `$(check) ${vscode.l10n.t('Apply')}`, alwaysShow: true },
    { action: 'clear', label: `$(clear-all) ${vscode.l10n.t('Clear All Filters')}`, alwaysShow: true },
  ];
}

async function askText(
  window: WindowApi,
  filter: NotebookFilter,
  field: 'contains' | 'dateFrom' | 'dateTo',
  options: {
    title: string;
    prompt: string;
    placeHolder: string;
    validate: (value: string) => string | undefined;
  },
): Promise<NotebookFilter> {
  const value = await window.showInputBox({
    title: options.title,
    prompt: options.prompt,
    placeHolder: options.placeHolder,
    value: filter[field] ?? '',
    ignoreFocusOut: true,
    validateInput: (input) => (input.trim() ? options.validate(input.trim()) : undefined),
  });
  if (value === undefined) {
    return filter;
  }
  return { ...filter, [field]: value.trim() || undefined };
}

async function askCreatedBy(window: WindowApi, filter: NotebookFilter, creators: readonly Creator[]): Promise<NotebookFilter> {
  type CreatorItem = vscode.QuickPickItem & { readonly creator?: Creator; readonly other?: boolean };
  const items: CreatorItem[] = [
    { label: vscode.l10n.t('Anyone') },
    ...creators.map((creator) => ({
      label: creator.isMe ? `$(account) ${creator.name}` : creator.name,
      description: [creator.email, creator.isMe ? vscode.l10n.t('you') : undefined].filter(Boolean).join(' · '),
      creator,
    })),
    { label: vscode.l10n.t("Another user's UUID…"), other: true },
  ];
  const picked = await window.showQuickPick(items, {
    title: vscode.l10n.t('Created by'),
    placeHolder: vscode.l10n.t('Choose a creator: you, or someone who created a notebook here'),
    matchOnDescription: true,
  });
  if (!picked) {
    return filter;
  }
  if (!picked.other) {
    return { ...filter, createdBy: picked.creator };
  }
  const uuid = await window.showInputBox({
    title: vscode.l10n.t('Created by (user UUID)'),
    prompt: vscode.l10n.t("The user's UUID, as in PostHog's API (the user object's uuid, not its numeric id)."),
    placeHolder: '01234567-89ab-cdef-0123-456789abcdef',
    validateInput: (value) =>
      isUuid(value.trim())
        ? undefined
        : vscode.l10n.t('"{0}" is not a UUID: PostHog filters notebooks on the creator\'s UUID, like 01234567-89ab-cdef-0123-456789abcdef.', value.trim()),
  });
  if (uuid === undefined) {
    return filter;
  }
  const typed = uuid.trim();
  const known = creators.find((creator) => creator.uuid.toLowerCase() === typed.toLowerCase());
  return { ...filter, createdBy: known ?? { uuid: typed, name: typed } };
}
