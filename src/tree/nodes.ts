import * as vscode from 'vscode';
import type { NotebookListItem, ProjectListItem, User } from '../api';
import { formatRelativeTime } from '../common/time';
import type { ConnectionSession } from '../connections/connectionManager';
import { type Connection, connectionLabel } from '../connections/connectionStore';
import type { DeletedNotebook } from '../notebooks/deletedNotebooks';
import type { OrganizationSummary } from '../catalog/explorerModel';
import { describeFilter, isEmptyFilter, type NotebookFilter, toNotebookQuery } from './notebookFilter';

/** What the nodes read from the explorer: sessions, filters and the deleted toggle. */
export interface ExplorerState {
  session(connectionId: string): Promise<ConnectionSession | undefined>;
  notebookFilter(connectionId: string, projectId: number): NotebookFilter;
  readonly showDeleted: boolean;
  deletedNotebooks(connectionId: string, projectId: number): DeletedNotebook[];
}

export abstract class ExplorerNode {
  abstract readonly id: string;

  constructor(readonly parent: ExplorerNode | undefined) {}

  abstract treeItem(): vscode.TreeItem;

  children(): Promise<ExplorerNode[]> {
    return Promise.resolve([]);
  }

  /** Forgets what this node loaded, so that its children are fetched again. */
  async invalidate(): Promise<void> {}

  /** The connection the node belongs to. */
  connection(): Connection | undefined {
    return this.parent?.connection();
  }
}

/** A node that loads through a connection's session. */
abstract class SessionNode extends ExplorerNode {
  constructor(
    parent: ExplorerNode | undefined,
    readonly session: ConnectionSession,
  ) {
    super(parent);
  }

  override connection(): Connection {
    return this.session.connection;
  }
}

export class ConnectionNode extends ExplorerNode {
  readonly id: string;

  constructor(
    private readonly owner: Connection,
    private readonly state: ExplorerState,
  ) {
    super(undefined);
    this.id = `connection:${owner.id}`;
  }

  override connection(): Connection {
    return this.owner;
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(connectionLabel(this.owner), vscode.TreeItemCollapsibleState.Expanded);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(this.owner.fromEnvironment ? 'terminal' : 'plug');
    item.description = this.owner.fromEnvironment ? vscode.l10n.t('from environment') : undefined;
    item.tooltip = new vscode.MarkdownString(
      `**${connectionLabel(this.owner)}**\n\n${this.owner.baseUrl}` +
        (this.owner.fromEnvironment ? `\n\n${vscode.l10n.t('Set by POSTHOG_HOST and POSTHOG_PERSONAL_API_KEY.')}` : ''),
    );
    item.contextValue = this.owner.fromEnvironment ? 'connection environment' : 'connection';
    return item;
  }

  override async children(): Promise<ExplorerNode[]> {
    return organizationNodes(this, this.owner, this.state);
  }

  override async invalidate(): Promise<void> {
    (await this.state.session(this.owner.id))?.model.refreshAll();
  }
}

/** The organizations of a connection, or a "Sign in again" item when its key is gone. */
export async function organizationNodes(
  parent: ExplorerNode | undefined,
  connection: Connection,
  state: ExplorerState,
): Promise<ExplorerNode[]> {
  const session = await state.session(connection.id);
  if (!session) {
    return [signInAgainNode(parent, connection, vscode.l10n.t('The API key for this connection is missing.'))];
  }
  const { organizations, limitedToProjects } = await session.model.discovery();
  const nodes = organizations.map((organization): ExplorerNode => new OrganizationNode(parent, session, organization, state));
  if (limitedToProjects) {
    return [limitedToProjectsNode(parent, connection, organizations.length > 0), ...nodes];
  }
  if (organizations.length === 0) {
    return [
      new MessageNode(parent, `${connection.id}:no-organizations`, {
        label: vscode.l10n.t('No organizations. Add one by id…'),
        icon: 'add',
        command: { command: 'posthogExplorer.addOrganization', title: '', arguments: [{ connectionId: connection.id }] },
      }),
    ];
  }
  return nodes;
}

/**
 * Why a key limited to some projects shows no full organizations: PostHog refuses it their lists, so
 * the tree shows the projects it reaches. A click adds another project by id.
 */
function limitedToProjectsNode(parent: ExplorerNode | undefined, connection: Connection, found: boolean): MessageNode {
  return new MessageNode(parent, `${connection.id}:limited-to-projects`, {
    label: found
      ? vscode.l10n.t('Key limited to some projects: organizations are not listed')
      : vscode.l10n.t('Key limited to some projects: none found. Add one by id…'),
    icon: 'info',
    tooltip: vscode.l10n.t(
      'This personal API key is limited to some projects, and PostHog does not let such a key list organizations or their projects. Shown here: your current project and the projects you added by id. Click to add a project by id.',
    ),
    command: { command: 'posthogExplorer.addProject', title: '', arguments: [{ connectionId: connection.id }] },
  });
}

export class OrganizationNode extends SessionNode {
  readonly id: string;

  constructor(
    parent: ExplorerNode | undefined,
    session: ConnectionSession,
    readonly organization: OrganizationSummary,
    private readonly state: ExplorerState,
  ) {
    super(parent, session);
    this.id = `${session.connection.id}/organization:${organization.id}`;
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.organization.name, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('organization');
    item.description = this.organization.source === 'added' ? vscode.l10n.t('added by id') : undefined;
    item.tooltip = new vscode.MarkdownString(
      `**${escapeMarkdown(this.organization.name)}**\n\n${vscode.l10n.t('Organization')} \`${this.organization.id}\``,
    );
    item.contextValue = 'organization';
    return item;
  }

  override async children(): Promise<ExplorerNode[]> {
    const projects = await this.session.model.projects(this.organization.id);
    if (projects.length === 0) {
      return [
        new MessageNode(this, `${this.id}:empty`, { label: vscode.l10n.t('No projects'), icon: 'info' }),
      ];
    }
    return projects.map((project) => new ProjectNode(this, this.session, this.organization, project, this.state));
  }

  override async invalidate(): Promise<void> {
    this.session.model.refreshOrganization(this.organization.id);
  }
}

export class ProjectNode extends SessionNode {
  readonly id: string;

  constructor(
    parent: ExplorerNode,
    session: ConnectionSession,
    readonly organization: OrganizationSummary,
    readonly project: ProjectListItem,
    private readonly state: ExplorerState,
  ) {
    super(parent, session);
    this.id = `${session.connection.id}/project:${project.id}`;
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.project.name, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(this.project.is_demo ? 'beaker' : 'project');
    item.description = [`#${this.project.id}`, this.project.timezone].filter(Boolean).join(' · ');
    const lines = [
      `**${escapeMarkdown(this.project.name)}**`,
      `${vscode.l10n.t('Project')} \`${this.project.id}\` · ${vscode.l10n.t('Time zone')} ${this.project.timezone ?? 'UTC'}`,
      `${vscode.l10n.t('Organization')}: ${escapeMarkdown(this.organization.name)}`,
    ];
    if (this.project.is_demo) {
      lines.push(vscode.l10n.t('Demo project'));
    }
    item.tooltip = new vscode.MarkdownString(lines.join('\n\n'));
    item.contextValue = 'project';
    return item;
  }

  override async children(): Promise<ExplorerNode[]> {
    return [new NotebooksNode(this, this.session, this.project, this.state), new EventsNode(this, this.session, this.project)];
  }
}

/** Opens the project's events panel (posthogExplorer.browseEvents). */
export class EventsNode extends SessionNode {
  readonly id: string;

  constructor(
    parent: ExplorerNode,
    session: ConnectionSession,
    readonly project: ProjectListItem,
  ) {
    super(parent, session);
    this.id = `${session.connection.id}/project:${project.id}/events`;
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Events'), vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('pulse');
    item.tooltip = vscode.l10n.t('Browse the events of {0}', this.project.name);
    item.contextValue = 'events';
    item.command = { command: 'posthogExplorer.browseEvents', title: vscode.l10n.t('Browse Events'), arguments: [this] };
    return item;
  }
}

export class NotebooksNode extends SessionNode {
  readonly id: string;

  constructor(
    parent: ExplorerNode,
    session: ConnectionSession,
    readonly project: ProjectListItem,
    private readonly state: ExplorerState,
  ) {
    super(parent, session);
    this.id = `${session.connection.id}/project:${project.id}/notebooks`;
  }

  get filter(): NotebookFilter {
    return this.state.notebookFilter(this.session.connection.id, this.project.id);
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Notebooks'), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(isEmptyFilter(this.filter) ? 'notebook' : 'filter');
    const filtered = !isEmptyFilter(this.filter);
    item.description = filtered ? describeFilter(this.filter) : undefined;
    item.tooltip = filtered
      ? vscode.l10n.t('Notebooks of {0}, filtered: {1}', this.project.name, describeFilter(this.filter))
      : vscode.l10n.t('Notebooks of {0}', this.project.name);
    item.contextValue = filtered ? 'notebooks filtered' : 'notebooks';
    return item;
  }

  override async children(): Promise<ExplorerNode[]> {
    const notebooks = await this.session.model.notebooks(this.project.id, toNotebookQuery(this.filter));
    const nodes: ExplorerNode[] = notebooks.map((notebook) => new NotebookNode(this, this.session, this.project, notebook));
    if (this.state.showDeleted) {
      const listed = new Set(notebooks.map((notebook) => notebook.short_id));
      for (const deleted of this.state.deletedNotebooks(this.session.connection.id, this.project.id)) {
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
    this.session.model.refreshProject(this.project.id);
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
    item.iconPath = new vscode.ThemeIcon('notebook');
    const when = this.notebook.last_modified_at
      ? formatRelativeTime(this.notebook.last_modified_at, new Date(), vscode.env.language)
      : undefined;
    item.description = [userName(this.notebook.last_modified_by), when].filter(Boolean).join(' · ');
    item.tooltip = new vscode.MarkdownString(
      [
        `**${escapeMarkdown(title)}**`,
        `\`${this.notebook.short_id}\``,
        vscode.l10n.t('Created by {0} on {1}', userName(this.notebook.created_by) ?? '—', this.notebook.created_at ?? '—'),
        vscode.l10n.t(
          'Last modified by {0} on {1}',
          userName(this.notebook.last_modified_by) ?? '—',
          this.notebook.last_modified_at ?? '—',
        ),
      ].join('\n\n'),
    );
    item.contextValue = 'notebook';
    item.command = { command: 'posthogExplorer.openNotebook', title: vscode.l10n.t('Open Notebook'), arguments: [this] };
    return item;
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
    item.description = vscode.l10n.t('deleted {0}', formatRelativeTime(this.notebook.deletedAt, new Date(), vscode.env.language));
    item.tooltip = vscode.l10n.t('Deleted. Restore it from the context menu.');
    item.contextValue = 'notebook deleted';
    return item;
  }
}

export interface MessageOptions {
  readonly label: string;
  readonly icon: string;
  readonly tooltip?: string;
  readonly command?: vscode.Command;
}

/** A leaf that tells the user something (an empty list, an error) and may offer an action. */
export class MessageNode extends ExplorerNode {
  constructor(
    parent: ExplorerNode | undefined,
    readonly id: string,
    readonly options: MessageOptions,
  ) {
    super(parent);
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.options.label, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(this.options.icon);
    item.tooltip = this.options.tooltip;
    item.command = this.options.command;
    item.contextValue = 'message';
    return item;
  }
}

export function signInAgainNode(parent: ExplorerNode | undefined, connection: Connection, reason: string): MessageNode {
  return new MessageNode(parent, `${connection.id}:sign-in-again`, {
    label: vscode.l10n.t('Sign in again'),
    icon: 'key',
    tooltip: reason,
    command: {
      command: 'posthogExplorer.signIn',
      title: vscode.l10n.t('Sign In…'),
      arguments: [{ connectionId: connection.id }],
    },
  });
}

export function notebookTitle(title: string | null | undefined): string {
  return title?.trim() ? title : vscode.l10n.t('Untitled notebook');
}

function userName(user: User | null | undefined): string | undefined {
  if (!user) {
    return undefined;
  }
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
  return name || user.email;
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
