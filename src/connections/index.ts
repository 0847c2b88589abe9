import * as vscode from 'vscode';
import type { BusyTracker } from '../common/busy';
import { COMMANDS } from '../workbench/commandIds';
import { type WorkbenchRegistry, registerCommands } from '../workbench/commands';
import { Disposable } from '../workbench/disposable';
import type { EnvApi, WindowApi } from '../workbench/window';
import { ConnectionCommands } from './connectionCommands';
import type { ConnectionManager } from './connectionManager';
import { ConnectionStatusBar } from './statusBar';

export { type ConnectionTarget, targetConnection } from './connectionCommands';
export { ConnectionManager, type ConnectionSession } from './connectionManager';
export { type Connection, connectionLabel, ConnectionStore, type SecretStore, type StateStore } from './connectionStore';
export { environmentConnection } from './environment';
export { apiKeysPageUrl } from './hosts';

export interface ConnectionsServices {
  readonly log: vscode.LogOutputChannel;
  readonly connections: ConnectionManager;
  readonly busy: BusyTracker;
  readonly window: WindowApi;
  readonly env: EnvApi;
  readonly registry: WorkbenchRegistry;
}

/** Sign-in, sign-out and switching, the status bar, and the log. */
export class ConnectionsFeature extends Disposable {
  readonly commands: ConnectionCommands;

  constructor(services: ConnectionsServices) {
    super();
    const { connections } = services;
    this.commands = this._register(new ConnectionCommands(connections, services.window, services.env).register(services.registry));
    this._register(new ConnectionStatusBar(connections, services.busy, services.window));
    this._register(registerCommands(services.registry, { [COMMANDS.showLogs]: () => services.log.show() }));
    const updateContext = () => services.registry.setContext('posthogExplorer.hasConnections', connections.connections().length > 0);
    this._register(connections.onDidChange(updateContext));
    updateContext();
  }
}

export function registerConnections(services: ConnectionsServices): ConnectionsFeature {
  return new ConnectionsFeature(services);
}
