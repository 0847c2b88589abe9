import * as vscode from 'vscode';
import { errorText, PersonalApiKeyNotSupportedError, type ProjectListItem } from '../api';
import { mayCreateProjects, type OrganizationSummary, projectSettingsUrl } from '../catalog';
import type { ConnectionManager, ConnectionSession } from '../connections';
import { oneSafeLine } from '../common/text';
import { commandTarget, type ExplorerNode, OrganizationNode, pickProject, ProjectNode } from '../tree';
import { CommandGroup } from '../workbench/commands';
import type { EnvApi, WindowApi } from '../workbench/window';
import type { ActivityDocuments } from './activityDocument';
import { ProjectOperations } from './projectOperations';
import type { ProjectSettingsDocument } from './projectSettingsDocument';

export interface ProjectTarget {
  readonly session: ConnectionSession;
  readonly organization: OrganizationSummary;
  readonly project: ProjectListItem;
}

export interface OrganizationTarget {
  readonly session: ConnectionSession;
  readonly organization: OrganizationSummary;
}

/** What the project commands need from the explorer and the posthog file system. */
export interface ProjectCommandDeps {
  readonly connections: ConnectionManager;
  readonly tree: { refreshOrganization(session: ConnectionSession, organizationId: string): void };
  readonly documents: { uri(path: string, connectionId: string): vscode.Uri };
  readonly settings: ProjectSettingsDocument;
  readonly activity: ActivityDocuments;
  readonly window: WindowApi;
  readonly env: EnvApi;
  /** Selects the new project in the explorer; absent in tests that have no tree view. */
  readonly reveal?: (connectionId: string, organizationId: string, projectId: number) => Promise<unknown>;
}

type OrganizationItem = vscode.QuickPickItem & { readonly organization: OrganizationSummary };

/**
 * What every project command uses: its target (an explorer item, or a pick from the palette), the API's
 * operations, progress, what to say when PostHog refuses, and the refresh after a change.
 */
export class ProjectCommandContext {
  constructor(readonly deps: ProjectCommandDeps) {}

  get window(): WindowApi {
    return this.deps.window;
  }

  projectTarget(node: ExplorerNode | undefined, title: string): Promise<ProjectTarget | undefined> {
    return commandTarget<ProjectTarget>(node, {
      node: (item) => (item instanceof ProjectNode ? { session: item.session, organization: item.organization, project: item.project } : undefined),
      pick: () => pickProject(this.deps.connections, this.window, title),
    });
  }

  organizationTarget(node?: ExplorerNode): Promise<OrganizationTarget | undefined> {
    return commandTarget<OrganizationTarget>(node, {
      node: (item) => (item instanceof OrganizationNode ? { session: item.session, organization: item.organization } : undefined),
      pick: () => this.pickOrganization(),
    });
  }

  operations(target: OrganizationTarget): ProjectOperations {
    return new ProjectOperations(target.session.client, target.organization.id);
  }

  progress<T>(title: string, task: () => Promise<T>): Promise<T> {
    return Promise.resolve(this.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, () => task()));
  }

  /**
   * PostHog refuses some project actions to personal API keys whatever their scopes: say so plainly and
   * offer the project's settings page in the web app, where the action can be done.
   */
  async failed(action: string, error: unknown, target: ProjectTarget): Promise<void> {
    if (!(error instanceof PersonalApiKeyNotSupportedError)) {
      void this.window.showErrorMessage(vscode.l10n.t('Could not {0}: {1}', action, errorText(error)));
      return;
    }
    const open = vscode.l10n.t('Open in PostHog');
    const choice = await this.window.showWarningMessage(
      vscode.l10n.t('PostHog does not let personal API keys {0}. You can do it on the project settings page in PostHog.', action),
      open,
    );
    if (choice === open) {
      await this.deps.env.openExternal(vscode.Uri.parse(projectSettingsUrl(target.session.connection.baseUrl, target.project.id)));
    }
  }

  /** The project changed on PostHog: the explorer and an open settings document show it. */
  projectChanged(target: ProjectTarget): void {
    this.deps.tree.refreshOrganization(target.session, target.organization.id);
    void this.deps.settings.refresh(target.session, target.project.id);
  }

  /** An organization of the active connection, from a quick pick. */
  private async pickOrganization(): Promise<OrganizationTarget | undefined> {
    const active = this.deps.connections.store.active();
    const session = active && (await this.deps.connections.session(active.id));
    if (!session) {
      this.window.offerSignIn();
      return undefined;
    }
    const items = session.model.organizations().then((organizations) =>
      organizations.map(
        (organization): OrganizationItem => ({
          label: oneSafeLine(organization.name),
          description: mayCreateProjects(organization) === false ? vscode.l10n.t('only admins create projects here') : undefined,
          organization,
        }),
      ),
    );
    const picked = await this.window.showQuickPick(items, {
      title: vscode.l10n.t('New Project'),
      placeHolder: vscode.l10n.t('Choose the organization for the new project'),
    });
    return picked && { session, organization: picked.organization };
  }
}

/** A group of project commands, sharing the context. */
export abstract class ProjectCommandGroup extends CommandGroup {
  constructor(protected readonly context: ProjectCommandContext) {
    super();
  }

  protected get window(): WindowApi {
    return this.context.window;
  }
}
