// Personal API key authentication and PostHog's APIScopePermission rules.
import type { IncomingHttpHeaders } from 'node:http';
import type { ApiKey, Organization, Project } from './model';
import type { Store } from './store';
import type { Action } from './router';
import { authenticationFailed, notAuthenticated, notFound, permissionDenied, PERSONAL_KEY_REFUSED } from './errors';

export function authenticate(store: Store, headers: IncomingHttpHeaders): ApiKey {
  const header = headers.authorization;
  if (!header) throw notAuthenticated();
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw notAuthenticated();
  const key = store.keys.get(match[1]!);
  if (!key) throw authenticationFailed();
  return key;
}

export interface Target {
  project?: Project;
  organization?: Organization;
}

/** Resolves the organization/project a path addresses; 404 when missing or not visible to the key's user. */
export function resolveTarget(store: Store, key: ApiKey, params: Record<string, string>): Target {
  const target: Target = {};
  const memberOf = (org: Organization | undefined): Organization => {
    if (!org || store.membershipLevel(org, key.userId) === null) throw notFound();
    return org;
  };
  if (params['orgId'] !== undefined) {
    const orgId = params['orgId'];
    const current = store.currentProjectOf(key.userId);
    target.organization = memberOf(orgId === '@current' ? (current ? store.getOrganization(current.organizationId) : undefined) : store.getOrganization(orgId));
  }
  if (params['projectId'] !== undefined) {
    const raw = params['projectId'];
    const project = raw === '@current' ? store.currentProjectOf(key.userId) : /^\d+$/.test(raw) ? store.getProject(Number(raw)) : undefined;
    if (!project || (target.organization && project.organizationId !== target.organization.id)) throw notFound();
    target.organization ??= memberOf(store.getOrganization(project.organizationId));
    target.project = project;
  }
  return target;
}

/**
 * APIScopePermission: actions without a scope are refused; then the key's project/organization limits; then
 * the scope itself (write implies read, "*" is all). A key without scopes (NULL or []) has none of them.
 */
export function authorize(key: ApiKey, action: Action, target: Target, refusePersonalKeyActions: boolean): void {
  if (action.noScope) return;
  const required = action.scope ?? (refusePersonalKeyActions ? null : (action.allowedScope ?? null));
  if (!required) throw permissionDenied(PERSONAL_KEY_REFUSED);
  if (!required.startsWith('user:')) checkKeyLimits(key, target);
  if (key.scopes.includes('*')) return;
  const alternatives = required.endsWith(':read') ? [required, required.replace(/:read$/, ':write')] : [required];
  if (!alternatives.some((scope) => key.scopes.includes(scope))) throw permissionDenied(`API key missing required scope '${required}'`);
}

function checkKeyLimits(key: ApiKey, target: Target): void {
  if (key.projects && key.projects.length > 0) {
    if (!target.project) throw permissionDenied('API keys with scoped projects are only supported on project-based endpoints.');
    if (!key.projects.includes(target.project.id)) {
      throw permissionDenied(`API key does not have access to the requested project: ID ${target.project.id}.`);
    }
  }
  if (key.organizations && key.organizations.length > 0 && target.organization) {
    if (!key.organizations.map((id) => id.toLowerCase()).includes(target.organization.id)) {
      throw permissionDenied(`API key does not have access to the requested organization: ID ${target.organization.id}.`);
    }
  }
}

/** Organizations a key may list: the user's, narrowed to the key's organizations if it has any. */
export function visibleOrganizations(store: Store, key: ApiKey): Organization[] {
  const limited = key.organizations?.length ? new Set(key.organizations.map((id) => id.toLowerCase())) : undefined;
  return store.organizations.filter((o) => store.membershipLevel(o, key.userId) !== null && (!limited || limited.has(o.id)));
}
