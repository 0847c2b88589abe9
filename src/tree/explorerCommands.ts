import * as vscode from 'vscode';
import { isUuid, errorText } from '../api';
import type { EnvApi, WindowApi } from '../workbench/window';
import { projectUrl } from '../catalog';
import { type ConnectionManager, type ConnectionTarget, targetConnection } from '../connections';
import { COMMANDS } from '../workbench/commandIds';
import { type CommandHandlers, CommandGroup } from '../workbench/commands';
import type { ExplorerTreeProvider } from './explorerTreeProvider';
import type { ExplorerNode } from './nodes';
import { pickProject } from './pickProject';

/** The explorer's own commands: refresh, organizations and projects by id, open in the web app. */
export class ExplorerCommands extends CommandGroup {
  constructor(
    private readonly tree: ExplorerTreeProvider,
    private readonly connections: ConnectionManager,
    private readonly window: WindowApi,
    private readonly env: EnvApi,
  ) {
    super();
  }

  protected commands(): CommandHandlers {
    return {
      [COMMANDS.refresh]: (node?: ExplorerNode) => this.tree.refresh(node),
      [COMMANDS.addOrganization]: (target?: ConnectionTarget) => this.addOrganization(target),
      [COMMANDS.addProject]: (target?: ConnectionTarget) => this.addProject(target),
      [COMMANDS.openInBrowser]: (node?: ExplorerNode) => this.openInBrowser(node),
    };
  }

  /** Opens an item's page (organization, project, notebook) in the PostHog web app, or a project's picked from a list. Returns the URL. */
  async openInBrowser(node?: ExplorerNode): Promise<string | undefined> {
    const url = (await node?.webUrl()) ?? (await this.pickedProjectUrl());
    if (url) {
      await this.env.openExternal(vscode.Uri.parse(url));
    }
    return url;
  }

  private async pickedProjectUrl(): Promise<string | undefined> {
    const choice = await pickProject(this.connections, this.window, vscode.l10n.t('Open in PostHog'));
    return choice && projectUrl(choice.session.connection.baseUrl, choice.project.id);
  }

  async addOrganization(target?: ConnectionTarget): Promise<void> {
    const session = await this.targetSession(target);
    if (!session) {
      return;
    }
    const organizationId = await this.window.showInputBox({
      title: vscode.l10n.t('Add Organization by ID'),
      prompt: vscode.l10n.t('The organization id (a UUID), shown in PostHog under Settings → Organization.'),
      placeHolder: '01234567-89ab-cdef-0123-456789abcdef',
      validateInput: (value) =>
        isUuid(value.trim()) ? undefined : vscode.l10n.t('An organization id is a UUID like 01234567-89ab-cdef-0123-456789abcdef.'),
    });
    if (!organizationId) {
      return;
    }
    const id = organizationId.trim();
    try {
      await this.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking the organization…') },
        () => session.client.projects.list(id, { limit: 1 }),
      );
    } catch (error) {
      void this.window.showErrorMessage(vscode.l10n.t('Could not open organization {0}: {1}', id, errorText(error)));
      return;
    }
    await this.connections.store.addOrganization(session.connection.id, id);
    await this.tree.refresh();
  }

  /** For keys limited to some projects, which PostHog does not let list them: checks the id with one read. */
  async addProject(target?: ConnectionTarget): Promise<void> {
    const session = await this.targetSession(target);
    if (!session) {
      return;
    }
    const typed = await this.window.showInputBox({
      title: vscode.l10n.t('Add Project by ID'),
      prompt: vscode.l10n.t('The project id (a number), shown in PostHog under Settings → Project and in its web addresses (/project/<id>).'),
      placeHolder: '12345',
      validateInput: (value) => (/^\d{1,18}$/.test(value.trim()) ? undefined : vscode.l10n.t('A project id is a whole number, like 12345.')),
    });
    if (!typed) {
      return;
    }
    const id = Number(typed.trim());
    try {
      await this.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking the project…') },
        () => session.client.projects.getById(id),
      );
    } catch (error) {
      void this.window.showErrorMessage(vscode.l10n.t('Could not open project {0}: {1}', id, errorText(error)));
      return;
    }
    await this.connections.store.addProject(session.connection.id, id);
    await this.tree.refresh();
  }

  /** The session of the target's connection, or of the active one; none asks to sign in. */
  private async targetSession(target?: ConnectionTarget) {
    const connection = targetConnection(this.connections, target) ?? this.connections.store.active();
    const session = connection && (await this.connections.session(connection.id));
    if (!session) {
      void vscode.commands.executeCommand(COMMANDS.signIn);
    }
    return session;
  }

}
