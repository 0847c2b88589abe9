import { type ActivityEntry, NotFoundError, type PostHogClient, type Project, type ProjectWritable, type ProjectWritableField } from '../api';
import { deletionOf, type ProjectDeletion } from '../catalog';
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

/**
 * What PostHog did with a deleted project, read back after its 204: scheduled (readable until then), being
 * deleted now (its time has come, or a server that sets none), or gone.
 */
export type DeletionOutcome =
  | { readonly kind: 'scheduled'; readonly scheduledAt: string; readonly deletion: ProjectDeletion }
  | { readonly kind: 'deleting'; readonly deletion: ProjectDeletion }
  | { readonly kind: 'gone' }
  /** The read back failed for another reason: PostHog accepted the deletion, nothing more is known. */
  | { readonly kind: 'accepted' };

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

  /** DELETE, then the project read back to tell what PostHog did (`now` decides whether a schedule has come). */
  async delete(projectId: number, now = new Date()): Promise<DeletionOutcome> {
    await this.client.projects.delete(this.organizationId, projectId);
    let project: Project;
    try {
      project = await this.get(projectId);
    } catch (error) {
      return error instanceof NotFoundError ? { kind: 'gone' } : { kind: 'accepted' };
    }
    const deletion = deletionOf(project) ?? {};
    const at = deletion.scheduledAt ? Date.parse(deletion.scheduledAt) : Number.NaN;
    return at > now.getTime() && deletion.canCancel !== false
      ? { kind: 'scheduled', scheduledAt: deletion.scheduledAt!, deletion }
      : { kind: 'deleting', deletion };
  }

  /** POST cancel-deletion: the project is back to normal. */
  async cancelDeletion(projectId: number): Promise<void> {
    await this.client.projects.cancelDeletion(projectId);
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
