// GET /api/organizations/, /api/organizations/{id}/, /api/organizations/{id}/members/, /api/users/@me/ (GET /api/projects/ is in projects.ts)
import { createHash } from 'node:crypto';
import { route, type Route } from '../router';
import { ok, paginate, organizationOf, type Ctx, type Reply } from '../http';
import { notFound, permissionDenied, PERSONAL_KEY_REFUSED } from '../errors';
import { isoZ } from '../time';
import { visibleOrganizations } from '../auth';
import { organizationFull, userBasic, userMe } from '../serializers';
import type { Organization } from '../model';

function listOrganizations(ctx: Ctx) {
  return ok(paginate(ctx, visibleOrganizations(ctx.store, ctx.key), (o) => organizationFull(ctx.store, o, ctx.user.id)));
}

/**
 * GET /api/organizations/{id}/members/ (OrganizationMemberViewSet, scope organization_member:read): limit/offset
 * pages of 100, newest membership first (`-joined_at`), each `{id, user: {id, uuid, first_name, last_name,
 * email, …}, level, joined_at, updated_at, is_2fa_enabled, has_social_auth, last_login}`. The user's `id` is
 * what a notebook's mention holds.
 */
function listMembers(ctx: Ctx): Reply {
  const organization = organizationOf(ctx);
  const members = organization.members
    .map((member) => ({ member, user: ctx.store.getUser(member.userId) }))
    .filter((entry) => entry.user !== null)
    .sort((a, b) => b.user!.date_joined - a.user!.date_joined);
  return ok(
    paginate(ctx, members, ({ member, user }) => ({
      id: membershipId(organization, member.userId),
      user: userBasic(user),
      level: member.level,
      joined_at: isoZ(Math.max(user!.date_joined, organization.created_at)),
      updated_at: isoZ(Math.max(user!.date_joined, organization.created_at)),
      is_2fa_enabled: false,
      has_social_auth: false,
      last_login: null,
    })),
  );
}

/** A membership's UUID, the same on every start (not drawn from the store's seeded random numbers). */
function membershipId(organization: Organization, userId: number): string {
  const hex = createHash('sha256').update(`${organization.id}:${userId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** PostHog's mask_key_value: the first and last four characters. */
const maskKey = (value: string): string => `${value.slice(0, 4)}...${value.slice(-4)}`;

/**
 * GET /api/personal_api_keys/@current/: the calling key, as PostHog's PersonalAPIKeySerializer shows it.
 * A key with no scopes (which the local API lets do anything) shows ["*"], as older servers do. A
 * personal key may read only itself here; any other key id or action is refused.
 */
function currentKey(ctx: Ctx): Reply {
  if (!ctx.options.currentKeyEndpoint) throw notFound();
  if (ctx.params['keyId'] !== '@current') throw permissionDenied(PERSONAL_KEY_REFUSED);
  const key = ctx.key;
  return ok({
    id: key.id,
    label: key.label,
    value: null,
    mask_value: maskKey(key.value),
    created_at: isoZ(key.createdAt),
    last_used_at: isoZ(ctx.store.now().getTime() * 1000),
    user_id: key.userId,
    scopes: key.scopes.length ? key.scopes : ['*'],
    scoped_teams: key.projects ?? [],
    scoped_organizations: key.organizations ?? [],
    last_rolled_at: null,
  });
}

function refusedToPersonalKeys(ctx: Ctx): Reply {
  if (!ctx.options.currentKeyEndpoint) throw notFound();
  throw permissionDenied(PERSONAL_KEY_REFUSED);
}

export const discoveryRoutes: Route[] = [
  route('/api/organizations', { GET: { scope: 'organization:read', handler: listOrganizations } }),
  route('/api/organizations/:orgId', {
    GET: { scope: 'organization:read', handler: (ctx) => ok(organizationFull(ctx.store, organizationOf(ctx), ctx.user.id)) },
  }),
  route('/api/organizations/:orgId/members', { GET: { scope: 'organization_member:read', handler: listMembers } }),
  route('/api/personal_api_keys', { GET: { scope: null, noScope: true, handler: refusedToPersonalKeys } }),
  route('/api/personal_api_keys/:keyId', { GET: { scope: null, noScope: true, handler: currentKey } }),
  route('/api/users/@me', {
    GET: { scope: 'user:read', handler: (ctx) => ok(userMe(ctx.store, ctx.user, visibleOrganizations(ctx.store, ctx.key))) },
  }),
];
