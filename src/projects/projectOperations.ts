import type { ActivityEntry, PostHogClient, Project, ProjectWritable, ProjectWritableField } from '../api';
import { hasMorePages } from './activityMarkdown';
import { readSettingsEdit, type SettingsProblem } from './settingsText';
import { switchChanges } from './projectSwitches';

export type SaveResult =
  | { readonly status: 'saved'; readonly project: Project; readonly changedFields: ProjectWritableField[] }
  | { readonly status: 'unchanged' }
  | { readonly status: 'refused'; readonly problems: SettingsProblem[] };

export interface ActivityChunk {
  readonly entries: ActivityEntry[];
  readonly total?: number;
  readonly more: boolean;
}

export const ACTIVITY_PAGE_SIZE = 20;

/** The project calls the commands make, with PostHog's answer shapes normalised. Knows nothing of VS Code. */
export class ProjectOperations {
  constructor(
    private readonly client: PostHogClient,
    private readonly organizationId: string,
  ) {}

  create(name: string): Promise<Project> {
    return this.client.projects.create(this.organizationId, { name: name.trim() });
  }

  get(projectId: number): Promise<Project> {
    return this.client.projects.get(this.organizationId, projectId);
  }

  rename(projectId: number, name: string): Promise<Project> {
    return this.client.projects.update(this.organizationId, projectId, { name: name.trim() });
  }

  /** Sends the edited document's changed writable fields in one PATCH; nothing when it is refused or unchanged. */
  async saveSettings(original: Project, text: string): Promise<SaveResult> {
    const edit = readSettingsEdit(text, original);
    if (!edit.ok) {
      return { status: 'refused', problems: edit.problems };
    }
    if (edit.changedFields.length === 0) {
      return { status: 'unchanged' };
    }
    const project = await this.client.projects.update(this.organizationId, original.id, edit.changes);
    return { status: 'saved', project, changedFields: edit.changedFields };
  }

  /** Turns exactly the chosen switches on; only what changed is sent, and nothing when nothing did. */
  async setSwitches(project: Project, on: ReadonlySet<ProjectWritableField>): Promise<{ project: Project; changed: ProjectWritable }> {
    const changed = switchChanges(project, on);
    if (Object.keys(changed).length === 0) {
      return { project, changed };
    }
    return { project: await this.client.projects.update(this.organizationId, project.id, changed), changed };
  }

  delete(projectId: number): Promise<void> {
    return this.client.projects.delete(this.organizationId, projectId);
  }

  /** The new api_token. */
  async resetToken(projectId: number): Promise<string> {
    return (await this.client.projects.resetToken(this.organizationId, projectId)).api_token;
  }

  /** PostHog answers {is_generating_demo_data}; the spec says a full project, which says nothing of it (false). */
  async isGeneratingDemoData(projectId: number): Promise<boolean> {
    const answer = await this.client.projects.isGeneratingDemoData(this.organizationId, projectId);
    return 'is_generating_demo_data' in answer ? answer.is_generating_demo_data : false;
  }

  /** One page of the project's activity, newest first (1-based pages). */
  async activity(projectId: number, page: number, loadedBefore = 0): Promise<ActivityChunk> {
    const answer = await this.client.projects.activity(this.organizationId, projectId, { page, limit: ACTIVITY_PAGE_SIZE });
    if (!('results' in answer)) {
      return { entries: [], more: false };
    }
    const loaded = loadedBefore + answer.results.length;
    return { entries: answer.results, total: answer.total_count, more: answer.results.length > 0 && hasMorePages(answer, loaded) };
  }
}
