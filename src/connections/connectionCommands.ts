import * as vscode from 'vscode';
import { COMMANDS } from '../workbench/commandIds';
import { type CommandHandlers, CommandGroup } from '../workbench/commands';
import type { EnvApi, WindowApi } from '../workbench/window';
import type { ConnectionManager } from './connectionManager';
import { type Connection, connectionLabel } from './connectionStore';
import { SignInFlow } from './signIn';

/** A tree node or a command argument that names a connection. */
export interface ConnectionTarget {
  readonly connectionId?: string;
  connection?(): Connection | undefined;
}

/** The connection a command argument names: by id (from a message item) or as a tree node's. */
export function targetConnection(connections: ConnectionManager, target?: ConnectionTarget): Connection | undefined {
  return target?.connectionId ? connections.store.get(target.connectionId) : target?.connection?.();
}

/** Sign in, sign out and switch between connections. */
export class ConnectionCommands extends CommandGroup {
  constructor(
    private readonly connections: ConnectionManager,
    private readonly window: WindowApi,
    private readonly env: EnvApi,
  ) {
    super();
  }

  protected commands(): CommandHandlers {
    return {
      [COMMANDS.signIn]: (target?: ConnectionTarget) => this.signIn(target),
      [COMMANDS.signOut]: (target?: ConnectionTarget) => this.signOut(target),
      [COMMANDS.switchConnection]: () => this.switchConnection(),
    };
  }

  async signIn(target?: ConnectionTarget): Promise<Connection | undefined> {
    const existing = this.resolve(target);
    return new SignInFlow(this.connections, this.window, this.env).run(existing);
  }

  async signOut(target?: ConnectionTarget): Promise<void> {
    const connection = this.resolve(target) ?? (await this.pick(vscode.l10n.t('Sign Out of PostHog')));
    if (!connection) {
      return;
    }
    if (connection.fromEnvironment) {
      void this.window.showInformationMessage(
        vscode.l10n.t('This connection comes from POSTHOG_HOST and POSTHOG_PERSONAL_API_KEY. Unset them to remove it.'),
      );
      return;
    }
    await this.connections.signOut(connection.id);
    void this.window.showInformationMessage(vscode.l10n.t('Signed out of {0}.', connectionLabel(connection)));
  }

  async switchConnection(): Promise<void> {
    const connection = await this.pick(vscode.l10n.t('Switch PostHog Connection'));
    if (connection) {
      await this.connections.store.setActive(connection.id);
    }
  }

  private resolve(target?: ConnectionTarget): Connection | undefined {
    return targetConnection(this.connections, target);
  }

  private async pick(title: string): Promise<Connection | undefined> {
    const connections = this.connections.connections();
    if (connections.length === 0) {
      this.window.offerSignIn();
      return undefined;
    }
    const active = this.connections.store.active();
    const picked = await this.window.showQuickPick(
      connections.map((connection) => ({
        label: connectionLabel(connection),
        description: connection.id === active?.id ? vscode.l10n.t('active') : undefined,
        detail: connection.baseUrl,
        iconPath: new vscode.ThemeIcon(connection.id === active?.id ? 'check' : 'plug'),
        connection,
      })),
      { title, placeHolder: vscode.l10n.t('Choose a connection') },
    );
    return picked?.connection;
  }
}
