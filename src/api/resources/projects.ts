import type { CallOptions } from '../http';
import { collectAll, DEFAULT_PAGE_SIZE, iteratePages, ListAllCall, PagingOptions } from '../paging';
import {
  activityOr,
  ActivityPage,
  CancelledDeletion,
  CancelledDeletionSchema,
  DemoDataStatus,
  demoDataStatusOr,
  paginated,
  Paginated,
  Project,
  ProjectListItem,
  ProjectListItemSchema,
  ProjectSchema,
  ProjectWritable,
} from '../schemas';
import { listSource, ResourceContext, segment } from './context';

const ProjectPageSchema = paginated(ProjectListItemSchema);

export interface ActivityPaging {
  /** 1-based page of the activity list (PostHog default 1). */
  page?: number;
  /** Entries per page (PostHog default 10). */
  limit?: number;
}

/** Projects of an organization (/api/organizations/{org}/projects/) and the cross-organization list. */
export class ProjectsApi {
  constructor(private readonly context: ResourceContext) {}

  /** GET /api/projects/: projects across every organization the key may see. */
  listAccessible(paging?: PagingOptions, call?: CallOptions): Promise<Paginated<ProjectListItem>> {
    return this.accessibleSource().byOffset(paging?.offset ?? 0, paging?.limit ?? DEFAULT_PAGE_SIZE, call?.signal);
  }

  listAllAccessible(call?: ListAllCall): Promise<ProjectListItem[]> {
    return collectAll(this.accessibleSource(), { concurrency: this.context.pageConcurrency }, call);
  }

  list(orgId: string, paging?: PagingOptions, call?: CallOptions): Promise<Paginated<ProjectListItem>> {
    return this.source(orgId).byOffset(paging?.offset ?? 0, paging?.limit ?? DEFAULT_PAGE_SIZE, call?.signal);
  }

  listAll(orgId: string, call?: ListAllCall): Promise<ProjectListItem[]> {
    return collectAll(this.source(orgId), { concurrency: this.context.pageConcurrency }, call);
  }

  pages(orgId: string, paging?: PagingOptions, call?: CallOptions): AsyncGenerator<Paginated<ProjectListItem>, void, undefined> {
    return iteratePages(this.source(orgId), paging ?? {}, call?.signal);
  }

  create(orgId: string, body: ProjectWritable, call?: CallOptions): Promise<Project> {
    return this.context.transport.json({ method: 'POST', path: this.collectionPath(orgId), body }, ProjectSchema, call);
  }

  get(orgId: string, id: number, call?: CallOptions): Promise<Project> {
    return this.context.transport.json({ method: 'GET', path: this.itemPath(orgId, id) }, ProjectSchema, call);
  }

  /**
   * A project read in the background (the explorer learning which projects are pending deletion): counted in
   * the key's budget for PostHog's default throttles as bulk work, and refused (BudgetWaitError) rather than
   * kept waiting when the key is near them, so that what the user does keeps its room.
   */
  getInBackground(orgId: string, id: number, call?: CallOptions): Promise<Project> {
    return this.get(orgId, id, { ...call, priority: 'bulk', noWait: true });
  }

  /** GET /api/projects/{id}/: a project by id alone, the one project read a key limited to projects may make. */
  getById(id: number, call?: CallOptions): Promise<Project> {
    return this.context.transport.json({ method: 'GET', path: `/api/projects/${segment(id)}/` }, ProjectSchema, call);
  }

  update(orgId: string, id: number, body: ProjectWritable, call?: CallOptions): Promise<Project> {
    return this.context.transport.json({ method: 'PATCH', path: this.itemPath(orgId, id), body }, ProjectSchema, call);
  }

  /**
   * 204. PostHog schedules the deletion (the project then reads as is_pending_deletion with its
   * deletion_scheduled_at) or, on older servers or for a project without events, deletes it at once.
   */
  delete(orgId: string, id: number, call?: CallOptions): Promise<void> {
    return this.context.transport.noContent({ method: 'DELETE', path: this.itemPath(orgId, id) }, call);
  }

  /** POST /api/projects/{id}/cancel-deletion/: a project admin stops a scheduled deletion before it starts. */
  cancelDeletion(id: number, call?: CallOptions): Promise<CancelledDeletion> {
    return this.context.transport.json({ method: 'POST', path: `/api/projects/${segment(id)}/cancel-deletion/` }, CancelledDeletionSchema, call);
  }

  /** PostHog answers an activity page (and refuses personal API keys); the spec says a full project. */
  activity(orgId: string, id: number, paging?: ActivityPaging, call?: CallOptions): Promise<ActivityPage | Project> {
    return this.context.transport.jsonOneOf(
      { method: 'GET', path: `${this.itemPath(orgId, id)}activity/`, query: { ...paging } },
      activityOr(ProjectSchema),
      call,
    );
  }

  isGeneratingDemoData(orgId: string, id: number, call?: CallOptions): Promise<DemoDataStatus | Project> {
    return this.context.transport.jsonOneOf(
      { method: 'GET', path: `${this.itemPath(orgId, id)}is_generating_demo_data/` },
      demoDataStatusOr(ProjectSchema),
      call,
    );
  }

  /** Rotates the project's api_token; the old token stops working. */
  resetToken(orgId: string, id: number, body: ProjectWritable = {}, call?: CallOptions): Promise<Project> {
    return this.context.transport.json(
      { method: 'PATCH', path: `${this.itemPath(orgId, id)}reset_token/`, body },
      ProjectSchema,
      call,
    );
  }

  private collectionPath(orgId: string): string {
    return `/api/organizations/${segment(orgId)}/projects/`;
  }

  private itemPath(orgId: string, id: number): string {
    return `${this.collectionPath(orgId)}${segment(id)}/`;
  }

  private source(orgId: string) {
    return listSource(this.context, this.collectionPath(orgId), {}, ProjectPageSchema);
  }

  private accessibleSource() {
    return listSource(this.context, '/api/projects/', {}, ProjectPageSchema);
  }
}
