// GET /api/organizations/, /api/organizations/{id}/, /api/users/@me/ (GET /api/projects/ is in projects.ts)
import { route, type Route } from '../router';
import { ok, paginate, organizationOf, type Ctx } from '../http';
import { visibleOrganizations } from '../auth';
import { organizationFull, userMe } from '../serializers';

function listOrganizations(ctx: Ctx) {
  return ok(paginate(ctx, visibleOrganizations(ctx.store, ctx.key), (o) => organizationFull(ctx.store, o, ctx.user.id)));
}

export const discoveryRoutes: Route[] = [
  route('/api/organizations', { GET: { scope: 'organization:read', handler: listOrganizations } }),
  route('/api/organizations/:orgId', {
    GET: { scope: 'organization:read', handler: (ctx) => ok(organizationFull(ctx.store, organizationOf(ctx), ctx.user.id)) },
  }),
  route('/api/users/@me', {
    GET: { scope: 'user:read', handler: (ctx) => ok(userMe(ctx.store, ctx.user, visibleOrganizations(ctx.store, ctx.key))) },
  }),
];
