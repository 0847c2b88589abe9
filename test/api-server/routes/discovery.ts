// GET /api/organizations/, /api/organizations/{id}/, /api/users/@me/ (GET /api/projects/ is in projects.ts)
import { route, type Route } from '../router';
import { ok, paginate, organizationOf, type Ctx, type Reply } from '../http';
import { notFound, permissionDenied, PERSONAL_KEY_REFUSED } from '../errors';
import { isoZ } from '../time';
import { visibleOrganizations } from '../auth';
import { organizationFull, userMe } from '../serializers';

function listOrganizations(ctx: Ctx) {
  return ok(paginate(ctx, visibleOrganizations(ctx.store, ctx.key), (o) => organizationFull(ctx.store, o, ctx.user.id)));
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
  route('/api/personal_api_keys', { GET: { scope: null, noScope: true, handler: refusedToPersonalKeys } }),
  route('/api/personal_api_keys/:keyId', { GET: { scope: null, noScope: true, handler: currentKey } }),
  route('/api/users/@me', {
    GET: { scope: 'user:read', handler: (ctx) => ok(userMe(ctx.store, ctx.user, visibleOrganizations(ctx.store, ctx.key))) },
  }),
];
