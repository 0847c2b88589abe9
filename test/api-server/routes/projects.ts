// Projects: /api/organizations/{org}/projects/... and the same detail routes under /api/projects/{id}/.
import type { Json, JsonObject, Project } from '../model';
import { route, type Route } from '../router';
import { noContent, ok, organizationOf, paginate, projectOf, type Ctx } from '../http';
import { conflict, permissionDenied, validation } from '../errors';
import { requireObject, validateBody } from '../validation';
import { PROJECT_SCHEMA } from '../defaults';
import { projectFull, projectListItem } from '../serializers';
import { visibleOrganizations } from '../auth';
import { activityPage } from './activity';

/** Validates a create/update body; the name is checked first, and for uniqueness (409), as PostHog does. */
function validProjectFields(ctx: Ctx, orgId: string, existing?: Project): JsonObject {
  const body = requireObject(ctx.body);
  const { name } = validateBody(body, { name: PROJECT_SCHEMA['name']! });
  if (typeof name === 'string' && !(existing && existing.name === name)) {
    const taken = ctx.store
      .projectsOf(orgId)
      .some((p) => p !== existing && p.name.trim().toLowerCase() === name.toLowerCase());
    if (taken) throw conflict(`There is already a project called "${name}" in this organization. Choose a different name.`);
  }
  const fields = validateBody(body, PROJECT_SCHEMA);
  // PostHog drops empty entries from these lists (validate_app_urls / validate_recording_domains).
  for (const list of ['app_urls', 'recording_domains']) {
    const value = fields[list];
    if (Array.isArray(value)) fields[list] = value.filter((item) => !!item);
  }
  return fields;
}

function list(ctx: Ctx) {
  return ok(paginate(ctx, ctx.store.projectsOf(organizationOf(ctx).id), projectListItem));
}

const ADMIN = 8;

/**
 * PostHog's UserCanCreateProjectPermission, checked before the plan's limit: admins and owners may create
 * projects; members only where the organization allows it (members_can_create_projects) and its plan has the
 * invite-settings entitlement. A demo project needs membership only.
 */
function checkMayCreate(ctx: Ctx, orgId: string, demo: boolean): void {
  const organization = ctx.store.getOrganization(orgId)!;
  const level = ctx.store.membershipLevel(organization, ctx.user.id) ?? 0;
  const membersMay = !!organization.membersCanCreateProjects && !!organization.availableFeatures?.includes('organization_invite_settings');
  if (!demo && level < ADMIN && !membersMay) throw permissionDenied('You need to be an organization admin or above to create new projects.');
}

function create(ctx: Ctx, orgId: string) {
  // PostHog reads request.data.get("is_demo") for its truth, so the string "false" counts as a demo request.
  const demo = isPythonTruthy(isObject(ctx.body) ? ctx.body['is_demo'] : undefined);
  checkMayCreate(ctx, orgId, demo);
  ctx.store.checkProjectLimit(orgId, demo);
  const project = ctx.store.createProject(orgId, validProjectFields(ctx, orgId), ctx.user.id);
  return ok(projectFull(ctx.store, project, ctx.user.id), 201);
}

function listAccessible(ctx: Ctx) {
  const orgIds = new Set(visibleOrganizations(ctx.store, ctx.key).map((o) => o.id));
  return ok(paginate(ctx, ctx.store.visibleProjects().filter((p) => orgIds.has(p.organizationId)), projectListItem));
}

function createInCurrentOrganization(ctx: Ctx) {
  const current = ctx.store.currentProjectOf(ctx.user.id);
  const orgId = current?.organizationId ?? visibleOrganizations(ctx.store, ctx.key)[0]?.id;
  if (!orgId) throw validation('You need to belong to an organization.');
  return create(ctx, orgId);
}

function retrieve(ctx: Ctx) {
  return ok(projectFull(ctx.store, projectOf(ctx), ctx.user.id));
}

function update(ctx: Ctx) {
  const project = projectOf(ctx);
  ctx.store.updateProject(project, validProjectFields(ctx, project.organizationId, project), ctx.user.id);
  return ok(projectFull(ctx.store, project, ctx.user.id));
}

/**
 * PostHog's TeamMemberLightManagementPermission (403 below admin in the project: here, the organization level),
 * then perform_destroy's refusals in its order.
 */
function destroy(ctx: Ctx) {
  const project = projectOf(ctx);
  const organization = ctx.store.getOrganization(project.organizationId)!;
  if ((ctx.store.membershipLevel(organization, ctx.user.id) ?? 0) < ADMIN) {
    throw permissionDenied("You don't have sufficient permissions in the project.");
  }
  if (ctx.store.settings.projectDeletionDisabled) {
    throw validation('Project deletion is temporarily disabled during database migration. Please try again later.');
  }
  if (project.pendingDeletion) throw validation('This project is already being deleted.');
  const projects = ctx.store.projects.filter((p) => p.organizationId === organization.id);
  if (projects.length === 1 && organization.hasActiveSubscription) {
    throw validation('Cannot delete the last project in an organization with an active subscription. Please cancel your subscription first in the billing page.');
  }
  ctx.store.deleteProject(project, ctx.user.id);
  return noContent();
}

function isObject(value: unknown): value is JsonObject {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** Python's truth of a JSON value: null, false, 0, "", [] and {} are false. */
function isPythonTruthy(value: Json | undefined): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  return typeof value !== 'object' || Object.keys(value).length > 0;
}

function resetToken(ctx: Ctx) {
  const project = projectOf(ctx);
  ctx.store.resetProjectToken(project, ctx.user.id);
  return ok(projectFull(ctx.store, project, ctx.user.id));
}

const detail = {
  GET: { scope: 'project:read', handler: retrieve },
  PATCH: { scope: 'project:write', handler: update },
  PUT: { scope: 'project:write', handler: update },
  DELETE: { scope: 'project:write', handler: destroy, reachesPendingProject: true },
};

/** Custom actions declare no scope: refused to personal API keys unless refusePersonalKeyActions is off. */
const actions = {
  activity: {
    GET: { scope: null, allowedScope: 'project:read', handler: (ctx: Ctx) => activityPage(ctx, ctx.store.activityFor('Team', projectOf(ctx).id, [String(projectOf(ctx).id)])) },
  },
  isGeneratingDemoData: {
    GET: { scope: null, allowedScope: 'project:read', handler: (ctx: Ctx) => ok({ is_generating_demo_data: projectOf(ctx).generatingDemoData }) },
  },
  resetToken: { PATCH: { scope: null, allowedScope: 'project:write', handler: resetToken } },
};

export const projectRoutes: Route[] = [
  route('/api/organizations/:orgId/projects', {
    GET: { scope: 'project:read', handler: list },
    POST: { scope: 'project:write', handler: (ctx) => create(ctx, organizationOf(ctx).id) },
  }),
  route('/api/projects', {
    GET: { scope: 'project:read', handler: listAccessible },
    POST: { scope: 'project:write', handler: createInCurrentOrganization },
  }),
  ...['/api/organizations/:orgId/projects/:projectId', '/api/projects/:projectId'].flatMap((base) => [
    route(base, detail),
    route(`${base}/activity`, actions.activity),
    route(`${base}/is_generating_demo_data`, actions.isGeneratingDemoData),
    route(`${base}/reset_token`, actions.resetToken),
  ]),
];
