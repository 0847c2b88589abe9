import type { Me, PostHogClient, ProjectListItem } from '../api';
import { MissingScopeError, NotFoundError, PermissionDeniedError, ProjectScopedKeyError } from '../api';
import { AsyncCache } from '../common/cache';

export interface OrganizationSummary {
  readonly id: string;
  readonly name: string;
  /**
   * Where the extension learned of it: the organizations list, the user's profile, the user by hand,
   * or (for a key limited to some projects) the projects the key reaches.
   */
  readonly source: 'organizations' | 'user' | 'added' | 'projects';
  /** The user's membership level (1 member, 8 admin, 15 owner) when PostHog said it. */
  readonly membershipLevel?: number;
  /**
   * The organization lets members create projects; read from the organizations list only (a server whose
   * list lacks the setting predates it: members may not).
   */
  readonly membersCanCreateProjects?: boolean;
}

/** The organizations a connection shows, and how they were found. */
export interface Discovery {
  readonly organizations: OrganizationSummary[];
  /**
   * The key is limited to some projects (PostHog's scoped_teams), so PostHog refuses organization and
   * project lists: the organizations are those of the projects the key reaches.
   */
  readonly limitedToProjects: boolean;
}

interface CachedDiscovery extends Discovery {
  /** For a key limited to projects: the projects it reaches, by organization. */
  readonly reachable?: ReadonlyMap<string, ProjectListItem[]>;
}

/**
 * What the explorer shows for one connection: organizations and their projects, fetched on demand and
 * cached until refreshed (each feature caches what it lists under a project, e.g. src/notebooks's
 * NotebookLists). Knows nothing of VS Code. A caller may pass a signal (the tree does, for each load):
 * once every caller of a load has aborted, its requests stop.
 */
export class ExplorerModel {
  private readonly discoveryCache = new AsyncCache<CachedDiscovery>();
  /** What the last discovery found; see Discovery.limitedToProjects. */
  private limitedToProjects = false;
  private readonly projectsCache = new AsyncCache<ProjectListItem[]>();
  /** The organization of each project a list has shown (so that its members can be read without reading the project). */
  private readonly organizationOfProject = new Map<number, string>();

  constructor(
    private readonly client: PostHogClient,
    private readonly addedOrganizationIds: () => readonly string[],
    private readonly addedProjectIds: () => readonly number[] = () => [],
  ) {}

  discovery(signal?: AbortSignal): Promise<Discovery> {
    return this.discovered(signal);
  }

  async organizations(signal?: AbortSignal): Promise<OrganizationSummary[]> {
    return (await this.discovery(signal)).organizations;
  }

  /** The organization of a project the explorer has listed, if any list has shown it. */
  organizationOf(projectId: number): string | undefined {
    return this.organizationOfProject.get(projectId);
  }

  projects(organizationId: string, signal?: AbortSignal): Promise<ProjectListItem[]> {
    return this.projectsCache.get(
      organizationId,
      async (loading) => this.remember(organizationId, await this.loadProjects(organizationId, loading)),
      signal,
    );
  }

  private remember(organizationId: string, projects: ProjectListItem[]): ProjectListItem[] {
    for (const project of projects) {
      this.organizationOfProject.set(project.id, organizationId);
    }
    return projects;
  }

  private async loadProjects(organizationId: string, loading: AbortSignal): Promise<ProjectListItem[]> {
    // A key limited to projects is refused the list and finds its projects through discovery; any other key
    // costs the list alone (no discovery request first).
    if (!this.limitedToProjects) {
      try {
        return await this.client.projects.listAll(organizationId, { signal: loading });
      } catch (error) {
        if (!(error instanceof ProjectScopedKeyError)) {
          throw error;
        }
      }
    }
    return (await this.discovered(loading)).reachable?.get(organizationId) ?? [];
  }

  refreshAll(): void {
    this.discoveryCache.invalidate();
    this.projectsCache.invalidate();
  }

  refreshOrganization(organizationId: string): void {
    // A key limited to projects finds its projects during discovery: find them again.
    if (this.limitedToProjects) {
      this.discoveryCache.invalidate();
    }
    this.projectsCache.invalidate(organizationId);
  }

  private discovered(signal?: AbortSignal): Promise<CachedDiscovery> {
    return this.discoveryCache.get(
      '',
      async (loading) => {
        const found = await this.discover(loading);
        this.limitedToProjects = found.limitedToProjects;
        return found;
      },
      signal,
    );
  }

  /**
   * GET /api/organizations/ needs organization:read; keys without it may still read the user's
   * profile (user:read), which names the user's organizations. Organizations added by id come last.
   */
  private async discover(signal: AbortSignal): Promise<CachedDiscovery> {
    let found: OrganizationSummary[];
    try {
      found = await this.listedOrganizations(signal);
    } catch (error) {
      if (error instanceof ProjectScopedKeyError) {
        return this.discoverThroughProjects(signal);
      }
      throw error;
    }
    const known = new Set(found.map((organization) => organization.id));
    const added = this.addedOrganizationIds()
      .filter((id) => !known.has(id))
      .map((id): OrganizationSummary => ({ id, name: id, source: 'added' }));
    return { organizations: [...found, ...added], limitedToProjects: false };
  }

  /**
   * A key limited to some projects may not list organizations or projects, but may read each of its
   * projects: the user's current project (from /api/users/@me/), any /api/projects/ still lists, and
   * the ids the user added. Projects the key may not read are left out.
   */
  private async discoverThroughProjects(signal: AbortSignal): Promise<CachedDiscovery> {
    const user = await orUndefined(this.client.users.me({ signal }), MissingScopeError);
    const listed = (await orUndefined(this.client.projects.listAllAccessible({ signal }), ProjectScopedKeyError, MissingScopeError)) ?? [];
    const listedIds = new Set(listed.map((project) => project.id));
    const ids = [...new Set([user?.team?.id, ...this.addedProjectIds()])].filter(
      (id): id is number => id !== undefined && !listedIds.has(id),
    );
    const read = await Promise.all(
      ids.map((id) => orUndefined(this.client.projects.getById(id, { signal }), PermissionDeniedError, NotFoundError, MissingScopeError)),
    );
    const reachable = new Map<string, ProjectListItem[]>();
    for (const project of [...listed, ...read]) {
      if (project) {
        reachable.set(project.organization, [...(reachable.get(project.organization) ?? []), project]);
      }
    }
    const organizations = [...reachable.keys()].map(
      (id): OrganizationSummary => ({ id, name: organizationName(user, id), source: 'projects' }),
    );
    return { organizations, limitedToProjects: true, reachable };
  }

  private async listedOrganizations(signal: AbortSignal): Promise<OrganizationSummary[]> {
    try {
      const organizations = await this.client.organizations.listAll({ signal });
      return organizations.map((organization) => ({
        id: organization.id,
        name: organization.name,
        source: 'organizations',
        membershipLevel: organization.membership_level ?? undefined,
        membersCanCreateProjects: organization.members_can_create_projects ?? false,
      }));
    } catch (error) {
      if (!(error instanceof MissingScopeError)) {
        throw error;
      }
    }
    try {
      const user = await this.client.users.me({ signal });
      return (user.organizations ?? []).map(({ id, name, membership_level }) => ({
        id,
        name,
        source: 'user',
        membershipLevel: membership_level ?? undefined,
      }));
    } catch (error) {
      if (error instanceof MissingScopeError && this.addedOrganizationIds().length > 0) {
        return [];
      }
      throw error;
    }
  }
}

type ErrorClass = abstract new (...args: never[]) => Error;

/** The call's result, or undefined when it fails with one of the given (expected) errors. */
async function orUndefined<T>(call: Promise<T>, ...expected: ErrorClass[]): Promise<T | undefined> {
  try {
    return await call;
  } catch (error) {
    if (expected.some((type) => error instanceof type)) {
      return undefined;
    }
    throw error;
  }
}

function organizationName(user: Me | undefined, organizationId: string): string {
  const known = [user?.organization, ...(user?.organizations ?? [])].find((organization) => organization?.id === organizationId);
  return known?.name ?? organizationId;
}
