import * as vscode from 'vscode';
import type { ProjectListItem } from '../api';
import {
  mayCreateProjects,
  mayDeleteProjects,
  type OrganizationSummary,
  organizationSettingsUrl,
  type ProjectDeletion,
  projectUrl,
} from '../catalog';
import { formatRelativeTime } from '../common/time';
import { displayLanguage } from '../workbench/window';
import { type Connection, connectionLabel, type ConnectionSession } from '../connections';
import { markdownCode, markdownLine } from '../common/markdown';
import { oneSafeLine } from '../common/text';
import { COMMANDS } from '../workbench/commandIds';

/** What the nodes read from the explorer: sessions, and the sections features show under each project. */
export interface ExplorerState {
  session(connectionId: string): Promise<ConnectionSession | undefined>;
  projectSections(): readonly ProjectSection[];
}

/** A feature's item under every project (e.g. Notebooks, Events), registered with the tree provider. */
export interface ProjectSection {
  node(project: ProjectNode): ExplorerNode;
  /** Forgets what the section loaded for a project of the session (every project when none), so that it loads again. */
  forget?(session: ConnectionSession, projectId?: number): void;
}

export abstract class ExplorerNode {
  abstract readonly id: string;

  constructor(readonly parent: ExplorerNode | undefined) {}

  abstract treeItem(): vscode.TreeItem;

  /** The node's children; `signal` aborts when the tree no longer needs them (refreshed, disposed). */
  children(_signal?: AbortSignal): Promise<ExplorerNode[]> {
    return Promise.resolve([]);
  }

  /** Forgets what this node loaded, so that its children are fetched again. */
  async invalidate(): Promise<void> {}

  /** The connection the node belongs to. */
  connection(): Connection | undefined {
    return this.parent?.connection();
  }

  /** The node's page in the PostHog web app, for "Open in PostHog"; undefined when it has none. */
  webUrl(): Promise<string | undefined> {
    return Promise.resolve(undefined);
  }
}

/** A node that loads through a connection's session. */
export abstract class SessionNode extends ExplorerNode {
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

  override async children(signal?: AbortSignal): Promise<ExplorerNode[]> {
    return organizationNodes(this, this.owner, this.state, signal);
  }

  override async invalidate(): Promise<void> {
    const session = await this.state.session(this.owner.id);
    if (session) {
      session.model.refreshAll();
      for (const section of this.state.projectSections()) {
        section.forget?.(session);
      }
    }
  }
}

/** The organizations of a connection, or a "Sign in again" item when its key is gone. */
export async function organizationNodes(
  parent: ExplorerNode | undefined,
  connection: Connection,
  state: ExplorerState,
  signal?: AbortSignal,
): Promise<ExplorerNode[]> {
  const session = await state.session(connection.id);
  if (!session) {
    return [signInAgainNode(parent, connection, vscode.l10n.t('The API key for this connection is missing.'))];
  }
  const { organizations, limitedToProjects } = await session.model.discovery(signal);
  const nodes = organizations.map((organization): ExplorerNode => new OrganizationNode(parent, session, organization, state));
  if (limitedToProjects) {
    return [limitedToProjectsNode(parent, connection, organizations.length > 0), ...nodes];
  }
  if (organizations.length === 0) {
    return [
      new MessageNode(parent, `${connection.id}:no-organizations`, {
        label: vscode.l10n.t('No organizations. Add one by id…'),
        icon: 'add',
        command: { command: COMMANDS.addOrganization, title: '', arguments: [{ connectionId: connection.id }] },
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
    command: { command: COMMANDS.addProject, title: '', arguments: [{ connectionId: connection.id }] },
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
    const item = new vscode.TreeItem(oneSafeLine(this.organization.name), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('organization');
    item.description = this.organization.source === 'added' ? vscode.l10n.t('added by id') : undefined;
    item.tooltip = new vscode.MarkdownString(
      `**${markdownLine(this.organization.name)}**\n\n${vscode.l10n.t('Organization')} ${markdownCode(this.organization.id)}`,
    );
    // Create Project is hidden where PostHog would refuse it (the palette explains why).
    item.contextValue = mayCreateProjects(this.organization) === false ? 'organization cannotCreateProjects' : 'organization';
    return item;
  }

  override async children(signal?: AbortSignal): Promise<ExplorerNode[]> {
    const projects = await this.session.model.projects(this.organization.id, signal);
    if (projects.length === 0) {
      return [
        new MessageNode(this, `${this.id}:empty`, { label: vscode.l10n.t('No projects'), icon: 'info' }),
      ];
    }
    const deletions = await this.session.model.deletions(this.organization.id, signal);
    return projects.map((project) => new ProjectNode(this, this.session, this.organization, project, this.state, deletions.get(project.id)));
  }

  override async invalidate(): Promise<void> {
    this.session.model.refreshOrganization(this.organization.id);
  }

  /** PostHog has no organization page by id: its settings page, through one of its projects. */
  override async webUrl(): Promise<string> {
    const projects = await this.session.model.projects(this.organization.id).catch(() => []);
    return organizationSettingsUrl(this.session.connection.baseUrl, projects[0]?.id);
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
    /** Set when PostHog has scheduled the project for deletion; it stays browsable until then. */
    readonly deletion?: ProjectDeletion,
  ) {
    super(parent, session);
    this.id = `${session.connection.id}/project:${project.id}`;
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(oneSafeLine(this.project.name), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = this.deletion
      ? new vscode.ThemeIcon('trash', new vscode.ThemeColor('list.warningForeground'))
      : new vscode.ThemeIcon(this.project.is_demo ? 'beaker' : 'project');
    item.description = this.deletion
      ? [`#${this.project.id}`, deletionWhen(this.deletion, new Date())].join(' · ')
      : [`#${this.project.id}`, this.project.timezone && oneSafeLine(this.project.timezone)].filter(Boolean).join(' · ');
    const lines = [
      `**${markdownLine(this.project.name)}**`,
      `${vscode.l10n.t('Project')} \`${this.project.id}\` · ${vscode.l10n.t('Time zone')} ${markdownLine(this.project.timezone ?? 'UTC')}`,
      `${vscode.l10n.t('Organization')}: ${markdownLine(this.organization.name)}`,
    ];
    if (this.project.is_demo) {
      lines.push(vscode.l10n.t('Demo project'));
    }
    if (this.deletion) {
      lines.push(deletionTooltip(this.deletion));
    }
    item.tooltip = new vscode.MarkdownString(lines.join('\n\n'));
    // Delete Project is hidden where the organization says PostHog would refuse it, and on a project already
    // pending deletion, which offers Cancel Project Deletion instead.
    item.contextValue = ['project', mayDeleteProjects(this.organization.membershipLevel) === false && 'cannotDelete', this.deletion && 'pendingDeletion']
      .filter(Boolean)
      .join(' ');
    return item;
  }

  override async children(): Promise<ExplorerNode[]> {
    return this.state.projectSections().map((section) => section.node(this));
  }

  override webUrl(): Promise<string> {
    return Promise.resolve(projectUrl(this.session.connection.baseUrl, this.project.id));
  }
}

/** "deleted in 2 days", or "being deleted" once the time has come or when PostHog set none. */
export function deletionWhen(deletion: ProjectDeletion, now: Date): string {
  const at = deletion.scheduledAt ? Date.parse(deletion.scheduledAt) : Number.NaN;
  if (Number.isNaN(at) || at <= now.getTime() || deletion.canCancel === false) {
    return vscode.l10n.t('being deleted');
  }
  return vscode.l10n.t('deleted {0}', formatRelativeTime(deletion.scheduledAt!, now, displayLanguage()));
}

/** The scheduled time in full, and who may cancel until then. */
function deletionTooltip(deletion: ProjectDeletion): string {
  const at = deletion.scheduledAt ? Date.parse(deletion.scheduledAt) : Number.NaN;
  if (Number.isNaN(at)) {
    return vscode.l10n.t('PostHog is deleting this project.');
  }
  const when = new Date(at).toLocaleString(displayLanguage(), { dateStyle: 'medium', timeStyle: 'short' });
  return deletion.canCancel === false
    ? vscode.l10n.t('PostHog scheduled this project for deletion at {0}; the deletion has started and can no longer be cancelled.', when)
    : vscode.l10n.t('PostHog deletes this project at {0}. Until then a project admin can cancel: Cancel Project Deletion.', when);
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
      command: COMMANDS.signIn,
      title: vscode.l10n.t('Sign In…'),
      arguments: [{ connectionId: connection.id }],
    },
  });
}
