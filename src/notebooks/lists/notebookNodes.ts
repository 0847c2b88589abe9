import * as vscode from 'vscode';
import type { NotebookListItem, ProjectListItem, User } from '../../api';
import { markdownCode, markdownLine } from '../../common/markdown';
import { oneSafeLine } from '../../common/text';
import { formatRelativeTime } from '../../common/time';
import { projectKey } from '../../common/keys';
import { notebookUrl } from '../../catalog';
import type { ConnectionSession } from '../../connections';
import { type ExplorerNode, type ExplorerTreeProvider, MessageNode, type ProjectNode, type ProjectSection, SessionNode } from '../../tree';
import { COMMANDS } from '../../workbench/commandIds';
import type { WorkbenchRegistry } from '../../workbench/commands';
import { displayLanguage } from '../../workbench/window';
import { isViewOnly } from '../model/accessLevel';
import type { DeletedNotebook, DeletedNotebooks } from './deletedNotebooks';
import { describeFilter, isEmptyFilter, type NotebookFilter, toNotebookQuery } from './notebookFilter';
import type { NotebookLists } from './notebookLists';

/**
 * The Notebooks item under every project, and what it shows: each project's filter (kept for the
 * session) and, when asked, the notebooks deleted from this editor.
 */
export class NotebooksSection implements ProjectSection {
  private readonly filters = new Map<string, NotebookFilter>();
  private deletedShown = false;

  constructor(
    private readonly tree: Pick<ExplorerTreeProvider, 'redraw'>,
    private readonly registry: Pick<WorkbenchRegistry, 'setContext'>,
    readonly deleted: DeletedNotebooks,
    readonly lists: NotebookLists,
  ) {}

  node(project: ProjectNode): NotebooksNode {
    return new NotebooksNode(project, project.session, project.project, this);
  }

  forget(session: ConnectionSession, projectId?: number): void {
    this.lists.forget(session.client, projectId);
  }

  get showDeleted(): boolean {
    return this.deletedShown;
  }

  setShowDeleted(show: boolean): void {
    this.deletedShown = show;
    this.registry.setContext('posthogExplorer.showDeleted', show);
    this.tree.redraw();
  }

  filter(connectionId: string, projectId: number): NotebookFilter {
    return this.filters.get(projectKey(connectionId, projectId)) ?? {};
  }

  setFilter(connectionId: string, projectId: number, filter: NotebookFilter, node?: ExplorerNode): void {
    this.filters.set(projectKey(connectionId, projectId), filter);
    this.tree.redraw(node);
  }
}

export class NotebooksNode extends SessionNode {
  readonly id: string;

  constructor(
    parent: ExplorerNode,
    session: ConnectionSession,
    readonly project: ProjectListItem,
    private readonly section: NotebooksSection,
  ) {
    super(parent, session);
    this.id = `${session.connection.id}/project:${project.id}/notebooks`;
  }

  get filter(): NotebookFilter {
    return this.section.filter(this.session.connection.id, this.project.id);
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Notebooks'), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(isEmptyFilter(this.filter) ? 'notebook' : 'filter');
    const filtered = !isEmptyFilter(this.filter);
    item.description = filtered ? describeFilter(this.filter) : undefined;
    item.tooltip = filtered
      ? vscode.l10n.t('Notebooks of {0}, filtered: {1}', oneSafeLine(this.project.name), describeFilter(this.filter))
      : vscode.l10n.t('Notebooks of {0}', oneSafeLine(this.project.name));
    item.contextValue = filtered ? 'notebooks filtered' : 'notebooks';
    return item;
  }

  override async children(signal?: AbortSignal): Promise<ExplorerNode[]> {
    const notebooks = await this.section.lists.list(this.session.client, this.project.id, toNotebookQuery(this.filter), signal);
    const nodes: ExplorerNode[] = notebooks.map((notebook) => new NotebookNode(this, this.session, this.project, notebook));
    if (this.section.showDeleted) {
      const listed = new Set(notebooks.map((notebook) => notebook.short_id));
      for (const deleted of this.section.deleted.list(this.session.connection.id, this.project.id)) {
        if (!listed.has(deleted.shortId)) {
          nodes.push(new DeletedNotebookNode(this, this.session, this.project, deleted));
        }
      }
    }
    if (nodes.length === 0) {
      const label = isEmptyFilter(this.filter)
        ? vscode.l10n.t('No notebooks')
        : vscode.l10n.t('No notebooks match the filter');
      return [new MessageNode(this, `${this.id}:empty`, { label, icon: 'info' })];
    }
    return nodes;
  }

  override async invalidate(): Promise<void> {
    this.section.forget(this.session, this.project.id);
  }
}

export class NotebookNode extends SessionNode {
  readonly id: string;

  constructor(
    parent: ExplorerNode,
    session: ConnectionSession,
    readonly project: ProjectListItem,
    readonly notebook: NotebookListItem,
  ) {
    super(parent, session);
    this.id = `${session.connection.id}/project:${project.id}/notebook:${notebook.short_id}`;
  }

  treeItem(): vscode.TreeItem {
    const title = notebookTitle(this.notebook.title);
    const item = new vscode.TreeItem(title, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    const viewOnly = isViewOnly(this.notebook.user_access_level);
    item.iconPath = new vscode.ThemeIcon(viewOnly ? 'lock' : 'notebook');
    const when = this.notebook.last_modified_at
      ? formatRelativeTime(this.notebook.last_modified_at, new Date(), displayLanguage())
      : undefined;
    item.description = [viewOnly ? vscode.l10n.t('view only') : undefined, userName(this.notebook.last_modified_by), when].filter(Boolean).join(' · ');
    item.tooltip = new vscode.MarkdownString(
      [
        `**${markdownLine(title)}**`,
        markdownCode(this.notebook.short_id),
        vscode.l10n.t('Created by {0} on {1}', markdownLine(userName(this.notebook.created_by) ?? '—'), markdownLine(this.notebook.created_at ?? '—')),
        vscode.l10n.t(
          'Last modified by {0} on {1}',
          markdownLine(userName(this.notebook.last_modified_by) ?? '—'),
          markdownLine(this.notebook.last_modified_at ?? '—'),
        ),
        ...(viewOnly
          ? [vscode.l10n.t('View only: you have {0} access on PostHog, so it opens read-only.', markdownLine(this.notebook.user_access_level ?? ''))]
          : []),
      ].join('\n\n'),
    );
    item.contextValue = viewOnly ? 'notebook viewOnly' : 'notebook';
    item.command = { command: COMMANDS.openNotebook, title: vscode.l10n.t('Open Notebook'), arguments: [this] };
    return item;
  }

  override webUrl(): Promise<string> {
    return Promise.resolve(notebookUrl(this.session.connection.baseUrl, this.project.id, this.notebook.short_id));
  }
}

export class DeletedNotebookNode extends SessionNode {
  readonly id: string;

  constructor(
    parent: ExplorerNode,
    session: ConnectionSession,
    readonly project: ProjectListItem,
    readonly notebook: DeletedNotebook,
  ) {
    super(parent, session);
    this.id = `${session.connection.id}/project:${project.id}/deleted-notebook:${notebook.shortId}`;
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(notebookTitle(this.notebook.title), vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('trash', new vscode.ThemeColor('disabledForeground'));
    item.description = vscode.l10n.t('deleted {0}', formatRelativeTime(this.notebook.deletedAt, new Date(), displayLanguage()));
    item.tooltip = vscode.l10n.t('Deleted. Restore it from the context menu.');
    item.contextValue = 'notebook deleted';
    return item;
  }
}

/** A notebook's title as one safe line (labels, tabs), or "Untitled notebook". */
export function notebookTitle(title: string | null | undefined): string {
  const line = oneSafeLine(title ?? '');
  return line || vscode.l10n.t('Untitled notebook');
}

function userName(user: User | null | undefined): string | undefined {
  if (!user) {
    return undefined;
  }
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
  return oneSafeLine(name || user.email) || undefined;
}
