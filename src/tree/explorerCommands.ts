import * as vscode from 'vscode';
import { isUuid, errorText } from '../api';
import type { EnvApi, WindowApi } from '../workbench/window';
import { projectUrl } from '../catalog';
import { type ConnectionManager, type ConnectionSession, type ConnectionTarget, targetConnection } from '../connections';
import { COMMANDS } from '../workbench/commandIds';
import { type CommandHandlers, CommandGroup } from '../workbench/commands';
import type { ExplorerTreeProvider } from './explorerTreeProvider';
import type { ExplorerNode } from './nodes';
import { pickProject } from './pickProject';

/** How one kind of item is added by its id: the input box's words, the id's form, the check and the store. */
interface AddById<Id> {
  readonly title: string;
  readonly prompt: string;
  readonly placeHolder: string;
  /** The id in the typed text, or undefined when it is not one (the box then says `invalid`). */
  readonly parse: (value: string) => Id | undefined;
  readonly invalid: string;
  /** The progress notification's title while the id is checked. */
  readonly checking: string;
  readonly check: (session: ConnectionSession, id: Id) => Promise<unknown>;
  readonly failed: (id: Id, error: unknown) => string;
  readonly add: (connectionId: string, id: Id) => Promise<void>;
}

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

  /** Shows an organization the key may not list; checks the id with one read. */
  addOrganization(target?: ConnectionTarget): Promise<void> {
    return this.addById(target, {
      title: vscode.l10n.t('Add Organization by ID'),
      prompt: vscode.l10n.t('The organization id (a UUID), shown in PostHog under Settings → Organization.'),
      placeHolder: '01234567-89ab-cdef-0123-456789abcdef',
      parse: (value) => (isUuid(value) ? value : undefined),
      invalid: vscode.l10n.t('An organization id is a UUID like 01234567-89ab-cdef-0123-456789abcdef.'),
      checking: vscode.l10n.t('Checking the organization…'),
      check: (session, id) => session.client.projects.list(id, { limit: 1 }),
      failed: (id, error) => vscode.l10n.t('Could not open organization {0}: {1}', id, errorText(error)),
      add: (connectionId, id) => this.connections.store.addOrganization(connectionId, id),
    });
  }

  /** For keys limited to some projects, which PostHog does not let list them: checks the id with one read. */
  addProject(target?: ConnectionTarget): Promise<void> {
    return this.addById(target, {
      title: vscode.l10n.t('Add Project by ID'),
      prompt: vscode.l10n.t('The project id (a number), shown in PostHog under Settings → Project and in its web addresses (/project/<id>).'),
      placeHolder: '12345',
      parse: (value) => (/^\d{1,18}$/.test(value) ? Number(value) : undefined),
      invalid: vscode.l10n.t('A project id is a whole number, like 12345.'),
      checking: vscode.l10n.t('Checking the project…'),
      check: (session, id) => session.client.projects.getById(id),
      failed: (id, error) => vscode.l10n.t('Could not open project {0}: {1}', id, errorText(error)),
      add: (connectionId, id) => this.connections.store.addProject(connectionId, id),
    });
  }

  /** The one add-by-id flow: the id typed (checked as typed), one read to check it, then it joins the explorer. */
  private async addById<Id>(target: ConnectionTarget | undefined, flow: AddById<Id>): Promise<void> {
    const session = await this.targetSession(target);
    if (!session) {
      return;
    }
    const typed = await this.window.showInputBox({
      title: flow.title,
      prompt: flow.prompt,
      placeHolder: flow.placeHolder,
      validateInput: (value) => (flow.parse(value.trim()) === undefined ? flow.invalid : undefined),
    });
    const id = typed === undefined ? undefined : flow.parse(typed.trim());
    if (id === undefined) {
      return;
    }
    try {
      await this.window.withProgress({ location: vscode.ProgressLocation.Notification, title: flow.checking }, () => flow.check(session, id));
    } catch (error) {
      void this.window.showErrorMessage(flow.failed(id, error));
      return;
    }
    await flow.add(session.connection.id, id);
    await this.tree.refresh();
  }

  /** The session of the target's connection, or of the active one; none offers to sign in. */
  private async targetSession(target?: ConnectionTarget): Promise<ConnectionSession | undefined> {
    const connection = targetConnection(this.connections, target) ?? this.connections.store.active();
    const session = connection && (await this.connections.session(connection.id));
    if (!session) {
      this.window.offerSignIn();
    }
    return session;
  }
}
