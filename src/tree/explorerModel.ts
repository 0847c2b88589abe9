import type { NotebookListItem, PostHogClient, ProjectListItem } from '../api';
import { MissingScopeError } from '../api';
import { AsyncCache } from '../common/cache';
import { type NotebookFilter, toNotebookQuery } from './notebookFilter';

export interface OrganizationSummary {
  readonly id: string;
  readonly name: string;
  /** Where the extension learned of it: the organizations list, the user's profile, or the user by hand. */
  readonly source: 'organizations' | 'user' | 'added';
}

/**
 * What the explorer shows for one connection: organizations, their projects and each project's
 * notebooks, fetched on demand and cached until refreshed. Knows nothing of VS Code.
 */
export class ExplorerModel {
  private readonly organizationsCache = new AsyncCache<OrganizationSummary[]>();
  private readonly projectsCache = new AsyncCache<ProjectListItem[]>();
  private readonly notebooksCache = new AsyncCache<NotebookListItem[]>();

  constructor(
    private readonly client: PostHogClient,
    private readonly addedOrganizationIds: () => readonly string[],
  ) {}

  organizations(): Promise<OrganizationSummary[]> {
    return this.organizationsCache.get('', () => this.discoverOrganizations());
  }

  projects(organizationId: string): Promise<ProjectListItem[]> {
    return this.projectsCache.get(organizationId, () => this.client.projects.listAll(organizationId));
  }

  notebooks(projectId: number, filter: NotebookFilter): Promise<NotebookListItem[]> {
    const query = toNotebookQuery(filter);
    return this.notebooksCache.get(`${projectId}?${JSON.stringify(query)}`, () =>
      this.client.notebooks.listAll(projectId, query),
    );
  }

  refreshAll(): void {
    this.organizationsCache.invalidate();
    this.projectsCache.invalidate();
    this.notebooksCache.invalidate();
  }

  refreshOrganization(organizationId: string): void {
    this.projectsCache.invalidate(organizationId);
  }

  refreshProject(projectId: number): void {
    this.notebooksCache.invalidate(`${projectId}?`);
  }

  /**
   * GET /api/organizations/ needs organization:read; keys without it may still read the user's
   * profile (user:read), which names the user's organizations. Organizations added by id come last.
   */
  private async discoverOrganizations(): Promise<OrganizationSummary[]> {
    const found = await this.listedOrganizations();
    const known = new Set(found.map((organization) => organization.id));
    const added = this.addedOrganizationIds()
      .filter((id) => !known.has(id))
      .map((id): OrganizationSummary => ({ id, name: id, source: 'added' }));
    return [...found, ...added];
  }

  private async listedOrganizations(): Promise<OrganizationSummary[]> {
    try {
      const organizations = await this.client.organizations.listAll();
      return organizations.map(({ id, name }) => ({ id, name, source: 'organizations' }));
    } catch (error) {
      if (!(error instanceof MissingScopeError)) {
        throw error;
      }
    }
    try {
      const user = await this.client.users.me();
      return (user.organizations ?? []).map(({ id, name }) => ({ id, name, source: 'user' }));
    } catch (error) {
      if (error instanceof MissingScopeError && this.addedOrganizationIds().length > 0) {
        return [];
      }
      throw error;
    }
  }
}
