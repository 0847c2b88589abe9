import type { OrganizationSummary } from './explorerModel';

/** PostHog's organization membership levels (OrganizationMembership.Level). */
export const MEMBERSHIP_LEVEL = { member: 1, admin: 8, owner: 15 } as const;

/**
 * Whether PostHog lets the user create projects in the organization, as its web app decides: admins and
 * owners may; members only where the organization allows it (members_can_create_projects; PostHog also
 * needs a plan entitlement it does not show, so the server may still refuse). Undefined when it is not
 * known (an organization added by id, a key limited to projects, a member whose organization's setting was
 * not read): the server decides.
 */
export function mayCreateProjects(organization: Pick<OrganizationSummary, 'membershipLevel' | 'membersCanCreateProjects'>): boolean | undefined {
  const level = organization.membershipLevel;
  if (level === undefined) {
    return undefined;
  }
  return level >= MEMBERSHIP_LEVEL.admin || organization.membersCanCreateProjects;
}

/**
 * Whether PostHog lets the user delete a project: it needs admin rights in the project. An organization
 * admin or owner has them; a member has them only if made the project's admin (PostHog's access control),
 * which only the project itself tells (effective_membership_level): false here means "not as far as the
 * organization says". Undefined when the level is not known.
 */
export function mayDeleteProjects(level: number | null | undefined): boolean | undefined {
  if (level === undefined || level === null) {
    return undefined;
  }
  return level >= MEMBERSHIP_LEVEL.admin;
}
