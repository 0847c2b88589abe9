// Projects: /api/organizations/{org}/projects/... and the same detail routes under /api/projects/{id}/.
import type { Json, JsonObject, Project } from '../model';
import { route, type Route } from '../router';
import { noContent, ok, organizationOf, paginate, projectOf, type Ctx } from '../http';
import { conflict, notFound, permissionDenied, validation } from '../errors';
import { requireObject, validateBody } from '../validation';
import { PROJECT_SCHEMA } from '../defaults';
import { projectCancelled, projectFull, projectListItem } from '../serializers';
import { visibleOrganizations } from '../auth';
import { activityPage } from './activity';

/**
 * The settings a project member may change (PostHog's TEAM_CONFIG_MEMBER_FIELDS, posthog/api/team.py); every
 * other writable field is admin-only (TEAM_CONFIG_ADMIN_FIELDS_SET, name and is_demo included).
 */
const MEMBER_FIELDS = new Set([
  'completed_snippet_onboarding', 'has_completed_onboarding_for', 'session_recording_opt_in', 'autocapture_exceptions_opt_in',
  'surveys_opt_in', 'primary_dashboard',
]);

/**
 * PostHog's validate_team_attrs, after the fields' own validation: below admin (organization level on create,
 * the project's level on update: here the organization's), admin-only fields are refused by name, sorted.
 * Creating exempts name and is_demo.
 */
function checkAdminFields(ctx: Ctx, orgId: string, fields: JsonObject, creating: boolean): void {
  const organization = ctx.store.getOrganization(orgId)!;
  if ((ctx.store.membershipLevel(organization, ctx.user.id) ?? 0) >= ADMIN) return;
  const exempt = creating ? new Set(['name', 'is_demo']) : new Set<string>();
  const touched = Object.keys(fields).filter((field) => !MEMBER_FIELDS.has(field) && !exempt.has(field)).sort();
  if (touched.length === 0) return;
  throw permissionDenied(
    `${creating ? 'Only organization admins can set these settings on project creation: ' : 'Only project admins can modify these settings: '}${touched.join(', ')}`,
  );
}

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
  checkAdminFields(ctx, orgId, fields, !existing);
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

/** PostHog's TeamMemberLightManagementPermission: 403 below admin in the project (here, the organization level). */
function checkProjectAdmin(ctx: Ctx, project: Project): void {
  const organization = ctx.store.getOrganization(project.organizationId)!;
  if ((ctx.store.membershipLevel(organization, ctx.user.id) ?? 0) < ADMIN) {
    throw permissionDenied("You don't have sufficient permissions in the project.");
  }
}

/** The admin check, then perform_destroy's refusals in its order; the store schedules the deletion. */
function destroy(ctx: Ctx) {
  const project = projectOf(ctx);
  checkProjectAdmin(ctx, project);
  if (ctx.store.settings.projectDeletionDisabled) {
    throw validation('Project deletion is temporarily disabled during database migration. Please try again later.');
  }
  if (project.pendingDeletion) throw validation('This project is already being deleted.');
  const projects = ctx.store.projectsOf(project.organizationId);
  if (projects.length === 1 && ctx.store.getOrganization(project.organizationId)!.hasActiveSubscription) {
    throw validation('Cannot delete the last project in an organization with an active subscription. Please cancel your subscription first in the billing page.');
  }
  ctx.store.deleteProject(project, ctx.user.id);
  return noContent();
}

/**
 * POST .../cancel-deletion/ (PostHog 3baaad06 cancel_deletion): project admins only, then its 400s in order;
 * an older server (legacy deletion) has no such action (404).
 */
function cancelDeletion(ctx: Ctx) {
  const { store } = ctx;
  if (store.settings.projectDeletion === 'legacy') throw notFound();
  const project = projectOf(ctx);
  checkProjectAdmin(ctx, project);
  if (!project.pendingDeletion) throw validation('This project is not pending deletion.');
  if (store.deletionStarted(project)) throw validation('This project deletion has already started.');
  const refusal = store.settings.cancelDeletionRefusal;
  store.settings.cancelDeletionRefusal = null;
  if (refusal === 'race') throw validation('This project deletion can no longer be canceled. Refresh the page to see its current status.');
  if (refusal === 'temporal') throw validation('Project deletion could not be canceled. Please try again.');
  store.cancelProjectDeletion(project, ctx.user.id);
  return ok(projectCancelled(project));
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
  DELETE: { scope: 'project:write', handler: destroy },
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
  cancelDeletion: { POST: { scope: null, allowedScope: 'project:write', handler: cancelDeletion } },
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
    route(`${base}/cancel-deletion`, actions.cancelDeletion),
  ]),
];
