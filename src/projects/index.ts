import type { ConnectionManager } from '../connections';
import type { PostHogFileSystem } from '../documents';
import type { ExplorerTreeProvider } from '../tree';
import type { WorkbenchRegistry } from '../workbench/commands';
import { Disposable } from '../workbench/disposable';
import type { EnvApi, WindowApi } from '../workbench/window';
import { ActivityDocuments } from './activityDocument';
import { ProjectCommandContext } from './projectCommandContext';
import { ProjectDeletionCommands } from './projectDeletionCommands';
import { ProjectIngestionCommands } from './projectIngestionCommands';
import { ProjectLifecycleCommands } from './projectLifecycleCommands';
import { ProjectSettingsCommands } from './projectSettingsCommands';
import { ProjectSettingsDocument, SETTINGS_DOCUMENT_NAME } from './projectSettingsDocument';

export interface ProjectsServices {
  readonly connections: ConnectionManager;
  readonly tree: ExplorerTreeProvider;
  readonly documents: PostHogFileSystem;
  readonly window: WindowApi;
  readonly env: EnvApi;
  readonly registry: WorkbenchRegistry;
}

/** Project management: the settings document in the `posthog` file system, activity pages and the commands. */
export class ProjectsFeature extends Disposable {
  readonly settings: ProjectSettingsDocument;
  readonly activity: ActivityDocuments;
  readonly lifecycleCommands: ProjectLifecycleCommands;
  readonly deletionCommands: ProjectDeletionCommands;
  readonly settingsCommands: ProjectSettingsCommands;
  readonly ingestionCommands: ProjectIngestionCommands;

  constructor(services: ProjectsServices) {
    super();
    this.settings = this._register(new ProjectSettingsDocument());
    this._register(services.documents.registerProjectDocument(SETTINGS_DOCUMENT_NAME, this.settings));
    this.activity = this._register(new ActivityDocuments(`${services.documents.scheme}-activity`).register());
    const context = new ProjectCommandContext({
      connections: services.connections,
      tree: services.tree,
      documents: services.documents,
      settings: this.settings,
      activity: this.activity,
      window: services.window,
      env: services.env,
      reveal: (connectionId, organizationId, projectId) => services.tree.revealProject(connectionId, organizationId, projectId),
    });
    this.lifecycleCommands = this._register(new ProjectLifecycleCommands(context).register(services.registry));
    this.deletionCommands = this._register(new ProjectDeletionCommands(context).register(services.registry));
    this.settingsCommands = this._register(new ProjectSettingsCommands(context).register(services.registry));
    this.ingestionCommands = this._register(new ProjectIngestionCommands(context).register(services.registry));
  }
}

export function registerProjects(services: ProjectsServices): ProjectsFeature {
  return new ProjectsFeature(services);
}
