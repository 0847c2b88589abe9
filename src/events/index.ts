import type * as vscode from 'vscode';
import type { ConnectionManager } from '../connections';
import type { ExplorerTreeProvider } from '../tree';
import type { WorkbenchRegistry } from '../workbench/commands';
import { Disposable } from '../workbench/disposable';
import type { EnvApi, WindowApi } from '../workbench/window';
import { EventsCommands } from './eventsCommands';
import { eventsSection } from './eventsNode';

export interface EventsServices {
  readonly connections: ConnectionManager;
  readonly tree: ExplorerTreeProvider;
  readonly extensionUri: vscode.Uri;
  readonly window: WindowApi;
  readonly env: EnvApi;
  readonly registry: WorkbenchRegistry;
}

/** The Events item under each project and the events panel it opens. */
export class EventsFeature extends Disposable {
  readonly commands: EventsCommands;

  constructor(services: EventsServices) {
    super();
    this._register(services.tree.registerProjectSection(eventsSection));
    this.commands = this._register(
      new EventsCommands(services.connections, services.extensionUri, services.window, services.env).register(services.registry),
    );
  }
}

export function registerEvents(services: EventsServices): EventsFeature {
  return new EventsFeature(services);
}
