import * as vscode from 'vscode';
import { ConflictError, PersonalApiKeyNotSupportedError, type Project, type ProjectListItem, type ProjectWritableField } from '../api';
import { type EnvApi, openEditor, type WindowApi } from '../workbench/window';
import { errorText } from '../common/errors';
import { type OrganizationSummary, projectSettingsUrl } from '../catalog';
import type { ConnectionManager, ConnectionSession } from '../connections';
import { projectDocumentPath } from '../common/documentPaths';
import { oneSafeLine } from '../common/text';
import { commandTarget, type ExplorerNode, OrganizationNode, pickProject, ProjectNode } from '../tree';
import { COMMANDS } from '../workbench/commandIds';
import { type CommandHandlers, CommandGroup } from '../workbench/commands';
import type { ActivityDocuments } from './activityDocument';
import { ProjectOperations } from './projectOperations';
import { SETTINGS_DOCUMENT_NAME, type ProjectSettingsDocument } from './projectSettingsDocument';
import { PROJECT_SWITCHES, switchIsOn } from './projectSwitches';
import { nameProblem } from './settingsDocument';

export interface ProjectTarget {
  readonly session: ConnectionSession;
  readonly organization: OrganizationSummary;
  readonly project: ProjectListItem;
}

interface OrganizationTarget {
  readonly session: ConnectionSession;
  readonly organization: OrganizationSummary;
}

/** What the commands need from the explorer and the posthog file system. */
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
type SwitchItem = vscode.QuickPickItem & { readonly field: ProjectWritableField };

/** Every project operation, from the explorer's context menus and the Command Palette. */
export class ProjectCommands extends CommandGroup {
  constructor(private readonly deps: ProjectCommandDeps) {
    super();
  }

  protected commands(): CommandHandlers {
    return {
      [COMMANDS.createProject]: (node?: ExplorerNode) => this.createProject(node),
      [COMMANDS.editProjectSettings]: (node?: ExplorerNode) => this.editProjectSettings(node),
      [COMMANDS.renameProject]: (node?: ExplorerNode) => this.renameProject(node),
      [COMMANDS.toggleProjectFeatures]: (node?: ExplorerNode) => this.toggleProjectFeatures(node),
      [COMMANDS.deleteProject]: (node?: ExplorerNode) => this.deleteProject(node),
      [COMMANDS.resetProjectToken]: (node?: ExplorerNode) => this.resetProjectToken(node),
      [COMMANDS.copyProjectToken]: (node?: ExplorerNode) => this.copyProjectToken(node),
      [COMMANDS.checkDemoData]: (node?: ExplorerNode) => this.checkDemoData(node),
      [COMMANDS.showProjectActivity]: (node?: ExplorerNode) => this.showProjectActivity(node),
      [COMMANDS.loadMoreProjectActivity]: (uri?: vscode.Uri) => this.loadMoreActivity(uri),
    };
  }

  /** Asks for a name and creates the project; returns it (revealed in the explorer) or undefined. */
  async createProject(node?: ExplorerNode): Promise<Project | undefined> {
    const target = await this.organizationTarget(node);
    if (!target) {
      return undefined;
    }
    const { session, organization } = target;
    let value = '';
    for (;;) {
      const name = await this.askName(vscode.l10n.t('New Project in {0}', organization.name), value);
      if (name === undefined) {
        return undefined;
      }
      try {
        const project = await this.progress(vscode.l10n.t('Creating "{0}"…', name), () =>
          this.operations(session, organization.id).create(name),
        );
        this.deps.tree.refreshOrganization(session, organization.id);
        await this.deps.reveal?.(session.connection.id, organization.id, project.id);
        void this.deps.window.showInformationMessage(vscode.l10n.t('Created the project "{0}".', project.name));
        return project;
      } catch (error) {
        if (!(await this.offerAnotherName(vscode.l10n.t('create the project'), error))) {
          return undefined;
        }
        value = name;
      }
    }
  }

  /** Opens the full project as a JSON document of the posthog file system. */
  async editProjectSettings(node?: ExplorerNode): Promise<vscode.TextEditor | undefined> {
    const target = await this.projectTarget(node, vscode.l10n.t('Edit Project Settings'));
    if (!target) {
      return undefined;
    }
    const uri = this.settingsUri(target);
    try {
      return await openEditor(this.deps.window, uri);
    } catch (error) {
      void this.deps.window.showErrorMessage(
        vscode.l10n.t('Could not open the settings of "{0}": {1}', target.project.name, fileErrorText(error)),
      );
      return undefined;
    }
  }

  settingsUri(target: { session: ConnectionSession; project: { id: number } }): vscode.Uri {
    return this.deps.documents.uri(projectDocumentPath(target.project.id, SETTINGS_DOCUMENT_NAME), target.session.connection.id);
  }

  async renameProject(node?: ExplorerNode): Promise<Project | undefined> {
    const target = await this.projectTarget(node, vscode.l10n.t('Rename Project'));
    if (!target) {
      return undefined;
    }
    const { session, organization, project } = target;
    let value = project.name;
    for (;;) {
      const name = await this.askName(vscode.l10n.t('Rename "{0}"', project.name), value);
      if (name === undefined || name === project.name) {
        return undefined;
      }
      try {
        const renamed = await this.operations(session, organization.id).rename(project.id, name);
        this.projectChanged(target);
        void this.deps.window.showInformationMessage(vscode.l10n.t('Renamed "{0}" to "{1}".', project.name, renamed.name));
        return renamed;
      } catch (error) {
        if (!(await this.offerAnotherName(vscode.l10n.t('rename the project'), error))) {
          return undefined;
        }
        value = name;
      }
    }
  }

  /** A multi-select of the common on/off settings; sends only the switches that changed. */
  async toggleProjectFeatures(node?: ExplorerNode): Promise<void> {
    const target = await this.projectTarget(node, vscode.l10n.t('Toggle Project Features'));
    if (!target) {
      return;
    }
    const operations = this.operations(target.session, target.organization.id);
    try {
      const project = await operations.get(target.project.id);
      const items: SwitchItem[] = PROJECT_SWITCHES.map((item) => ({
        label: vscode.l10n.t(item.label),
        detail: vscode.l10n.t(item.detail),
        description: item.field,
        picked: switchIsOn(project, item),
        field: item.field,
      }));
      const chosen = await this.deps.window.showQuickPick(items, {
        title: vscode.l10n.t('Features of {0}', project.name),
        placeHolder: vscode.l10n.t('Tick the features to turn on; untick to turn off'),
        canPickMany: true,
        matchOnDescription: true,
      });
      if (!chosen) {
        return;
      }
      const { changed } = await operations.setSwitches(project, new Set(chosen.map((item) => item.field)));
      const fields = Object.keys(changed);
      if (fields.length === 0) {
        void this.deps.window.showInformationMessage(vscode.l10n.t('Nothing changed.'));
        return;
      }
      this.projectChanged(target);
      const summary = PROJECT_SWITCHES.filter((item) => item.field in changed)
        .map((item) => `${vscode.l10n.t(item.label)}: ${(changed[item.field] === true) !== !!item.inverted ? vscode.l10n.t('on') : vscode.l10n.t('off')}`)
        .join(', ');
      void this.deps.window.showInformationMessage(vscode.l10n.t('Updated {0}: {1}.', project.name, summary));
    } catch (error) {
      await this.failed(vscode.l10n.t('change the features of "{0}"', target.project.name), error, target);
    }
  }

  /** A modal warning, then the user types the project's name; on success the project leaves the tree. */
  async deleteProject(node?: ExplorerNode): Promise<boolean> {
    const target = await this.projectTarget(node, vscode.l10n.t('Delete Project'));
    if (!target) {
      return false;
    }
    const { session, organization, project } = target;
    const confirm = vscode.l10n.t('Delete Project…');
    const answer = await this.deps.window.showWarningMessage(
      vscode.l10n.t('Delete the project "{0}"?', project.name),
      {
        modal: true,
        detail: vscode.l10n.t(
          'PostHog deletes all of its data: events, persons, recordings, insights, dashboards, feature flags and notebooks. This cannot be undone.',
        ),
      },
      confirm,
    );
    if (answer !== confirm) {
      return false;
    }
    const typed = await this.deps.window.showInputBox({
      title: vscode.l10n.t('Delete "{0}"', project.name),
      prompt: vscode.l10n.t('Type the project name to confirm: {0}', project.name),
      placeHolder: project.name,
      validateInput: (value) =>
        value === project.name ? undefined : vscode.l10n.t('Type the project name exactly: {0}', project.name),
    });
    if (typed !== project.name) {
      return false;
    }
    try {
      await this.progress(vscode.l10n.t('Deleting "{0}"…', project.name), () =>
        this.operations(session, organization.id).delete(project.id),
      );
    } catch (error) {
      await this.failed(vscode.l10n.t('delete "{0}"', project.name), error, target);
      return false;
    }
    await this.closeDeletedDocuments(session.connection.id, project.id);
    this.deps.tree.refreshOrganization(session, organization.id);
    void this.deps.window.showInformationMessage(
      vscode.l10n.t('Deleted the project "{0}". PostHog removes its data in the background.', project.name),
    );
    return true;
  }

  /** A modal warning, then the new token with a Copy button. Returns the new token. */
  async resetProjectToken(node?: ExplorerNode): Promise<string | undefined> {
    const target = await this.projectTarget(node, vscode.l10n.t('Reset Project Token'));
    if (!target) {
      return undefined;
    }
    const { session, organization, project } = target;
    const reset = vscode.l10n.t('Reset Token');
    const answer = await this.deps.window.showWarningMessage(
      vscode.l10n.t('Reset the project token of "{0}"?', project.name),
      {
        modal: true,
        detail: vscode.l10n.t(
          'Every SDK, snippet and integration that sends events with the current token stops sending until it is given the new token.',
        ),
      },
      reset,
    );
    if (answer !== reset) {
      return undefined;
    }
    let token: string;
    try {
      token = await this.progress(vscode.l10n.t('Resetting the token…'), () =>
        this.operations(session, organization.id).resetToken(project.id),
      );
    } catch (error) {
      await this.failed(vscode.l10n.t('reset the project token'), error, target);
      return undefined;
    }
    this.projectChanged(target);
    const copy = vscode.l10n.t('Copy');
    const choice = await this.deps.window.showInformationMessage(
      vscode.l10n.t('New project token of "{0}": {1}', project.name, token),
      copy,
    );
    if (choice === copy) {
      await this.deps.env.clipboard.writeText(token);
    }
    return token;
  }

  async copyProjectToken(node?: ExplorerNode): Promise<string | undefined> {
    const target = await this.projectTarget(node, vscode.l10n.t('Copy Project Token'));
    if (!target) {
      return undefined;
    }
    let token = target.project.api_token;
    try {
      // The listed token may be stale after a reset elsewhere.
      token = (await this.operations(target.session, target.organization.id).get(target.project.id)).api_token;
    } catch {
      // Copy what the list said.
    }
    await this.deps.env.clipboard.writeText(token);
    void this.deps.window.showInformationMessage(vscode.l10n.t('Copied the project token of "{0}".', target.project.name));
    return token;
  }

  async checkDemoData(node?: ExplorerNode): Promise<boolean | undefined> {
    const target = await this.projectTarget(node, vscode.l10n.t('Check Demo Data'));
    if (!target) {
      return undefined;
    }
    try {
      const generating = await this.operations(target.session, target.organization.id).isGeneratingDemoData(target.project.id);
      void this.deps.window.showInformationMessage(
        generating
          ? vscode.l10n.t('PostHog is generating demo data for "{0}".', target.project.name)
          : vscode.l10n.t('PostHog is not generating demo data for "{0}".', target.project.name),
      );
      return generating;
    } catch (error) {
      await this.failed(vscode.l10n.t('check for demo data'), error, target);
      return undefined;
    }
  }

  /** Opens a read-only Markdown page of who changed what and when; older pages load from the editor title. */
  async showProjectActivity(node?: ExplorerNode): Promise<vscode.Uri | undefined> {
    const target = await this.projectTarget(node, vscode.l10n.t('Show Project Activity'));
    if (!target) {
      return undefined;
    }
    const { session, organization, project } = target;
    const operations = this.operations(session, organization.id);
    try {
      const first = await this.progress(vscode.l10n.t('Loading activity…'), () => operations.activity(project.id, 1));
      const uri = this.deps.activity.open(session.connection.id, project.id, project.name, operations, first);
      await openEditor(this.deps.window, uri);
      return uri;
    } catch (error) {
      await this.failed(vscode.l10n.t('read the activity of "{0}"', project.name), error, target);
      return undefined;
    }
  }

  async loadMoreActivity(uri?: vscode.Uri): Promise<void> {
    const target = uri ?? this.activeActivityUri();
    if (!target) {
      return;
    }
    if (!this.deps.activity.hasMore(target)) {
      void this.deps.window.showInformationMessage(vscode.l10n.t('All activity is shown.'));
      return;
    }
    try {
      await this.deps.activity.loadMore(target);
    } catch (error) {
      void this.deps.window.showErrorMessage(vscode.l10n.t('Could not load more activity: {0}', errorText(error)));
    }
  }

  private async askName(title: string, value: string): Promise<string | undefined> {
    const name = await this.deps.window.showInputBox({
      title,
      prompt: vscode.l10n.t('The project name: 1 to 200 characters, unique in the organization.'),
      value,
      placeHolder: vscode.l10n.t('e.g. Marketing site'),
      validateInput: (input) => {
        const problem = nameProblem(input);
        return problem && vscode.l10n.t('The name {0}.', problem);
      },
    });
    return name?.trim();
  }

  /** A duplicate name: say so and offer to choose another. True when the user wants to try again. */
  private async offerAnotherName(action: string, error: unknown): Promise<boolean> {
    if (error instanceof ConflictError) {
      const again = vscode.l10n.t('Choose Another Name');
      return (await this.deps.window.showErrorMessage(errorText(error), again)) === again;
    }
    void this.deps.window.showErrorMessage(vscode.l10n.t('Could not {0}: {1}', action, errorText(error)));
    return false;
  }

  /**
   * PostHog refuses some project actions to personal API keys whatever their scopes: say so plainly and
   * offer the project's settings page in the web app, where the action can be done.
   */
  private async failed(action: string, error: unknown, target: ProjectTarget): Promise<void> {
    if (!(error instanceof PersonalApiKeyNotSupportedError)) {
      void this.deps.window.showErrorMessage(vscode.l10n.t('Could not {0}: {1}', action, errorText(error)));
      return;
    }
    const open = vscode.l10n.t('Open in PostHog');
    const choice = await this.deps.window.showWarningMessage(
      vscode.l10n.t('PostHog does not let personal API keys {0}. You can do it on the project settings page in PostHog.', action),
      open,
    );
    if (choice === open) {
      await this.deps.env.openExternal(vscode.Uri.parse(projectSettingsUrl(target.session.connection.baseUrl, target.project.id)));
    }
  }

  private projectChanged(target: ProjectTarget): void {
    this.deps.tree.refreshOrganization(target.session, target.organization.id);
    void this.deps.settings.refresh(target.session, target.project.id);
  }

  /** Saved settings editors of a deleted project close; ones with unsaved edits stay, read-only and unsaveable. */
  private async closeDeletedDocuments(connectionId: string, projectId: number): Promise<void> {
    const uris = new Set(this.deps.settings.markDeleted(connectionId, projectId).map((uri) => uri.toString()));
    const tabs = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter((tab) => tab.input instanceof vscode.TabInputText && uris.has(tab.input.uri.toString()) && !tab.isDirty);
    if (tabs.length > 0) {
      await vscode.window.tabGroups.close(tabs, true);
    }
  }

  private operations(session: ConnectionSession, organizationId: string): ProjectOperations {
    return new ProjectOperations(session.client, organizationId);
  }

  private activeActivityUri(): vscode.Uri | undefined {
    const uri = vscode.window.activeTextEditor?.document.uri;
    return uri?.scheme === this.deps.activity.scheme ? uri : undefined;
  }

  private progress<T>(title: string, task: () => Promise<T>): Promise<T> {
    return Promise.resolve(
      this.deps.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, () => task()),
    );
  }

  private projectTarget(node: ExplorerNode | undefined, title: string): Promise<ProjectTarget | undefined> {
    return commandTarget<ProjectTarget>(node, {
      node: (item) => (item instanceof ProjectNode ? { session: item.session, organization: item.organization, project: item.project } : undefined),
      pick: () => pickProject(this.deps.connections, this.deps.window, title),
    });
  }

  private organizationTarget(node?: ExplorerNode): Promise<OrganizationTarget | undefined> {
    return commandTarget<OrganizationTarget>(node, {
      node: (item) => (item instanceof OrganizationNode ? { session: item.session, organization: item.organization } : undefined),
      pick: () => this.pickOrganization(),
    });
  }

  /** An organization of the active connection, from a quick pick. */
  private async pickOrganization(): Promise<OrganizationTarget | undefined> {
    const active = this.deps.connections.store.active();
    const session = active && (await this.deps.connections.session(active.id));
    if (!session) {
      void vscode.commands.executeCommand(COMMANDS.signIn);
      return undefined;
    }
    const items = session.model
      .organizations()
      .then((organizations) => organizations.map((organization): OrganizationItem => ({ label: oneSafeLine(organization.name), organization })));
    const picked = await this.deps.window.showQuickPick(items, {
      title: vscode.l10n.t('New Project'),
      placeHolder: vscode.l10n.t('Choose the organization for the new project'),
    });
    return picked && { session, organization: picked.organization };
  }
}

function fileErrorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
