import type { CallOptions } from '../http';
import { collectAll, DEFAULT_PAGE_SIZE, ListAllCall, PagingOptions } from '../paging';
import { Me, MeSchema, Organization, OrganizationMember, OrganizationMemberPageSchema, OrganizationSchema, paginated, Paginated, PersonalApiKey, PersonalApiKeySchema } from '../schemas';
import { listSource, ResourceContext, segment } from './context';

const OrganizationPageSchema = paginated(OrganizationSchema);

/** GET /api/organizations/: organizations the key may see. */
export class OrganizationsApi {
  constructor(private readonly context: ResourceContext) {}

  list(paging?: PagingOptions, call?: CallOptions): Promise<Paginated<Organization>> {
    return this.source().byOffset(paging?.offset ?? 0, paging?.limit ?? DEFAULT_PAGE_SIZE, call?.signal);
  }

  listAll(call?: ListAllCall): Promise<Organization[]> {
    return collectAll(this.source(), { concurrency: this.context.pageConcurrency }, call);
  }

  /**
   * One page of the organization's members, newest first (scope organization_member:read), as one request
   * within the key's budget: when the budget has no room now it throws BudgetWaitError instead of waiting.
   */
  async members(organizationId: string, limit: number, call?: CallOptions): Promise<Paginated<OrganizationMember>> {
    await this.context.budget.acquire('standard', 'interactive', { noWait: true, ...(call?.signal ? { signal: call.signal } : {}) });
    const path = `/api/organizations/${segment(organizationId)}/members/`;
    return this.context.transport.json({ method: 'GET', path, query: { limit } }, OrganizationMemberPageSchema, call);
  }

  private source() {
    return listSource(this.context, '/api/organizations/', {}, OrganizationPageSchema);
  }
}

/** GET /api/users/@me/: the key's user with current organization, all organizations and project. */
export class UsersApi {
  constructor(private readonly context: ResourceContext) {}

  me(call?: CallOptions): Promise<Me> {
    return this.context.transport.json({ method: 'GET', path: '/api/users/@me/' }, MeSchema, call);
  }
}

/**
 * GET /api/personal_api_keys/@current/: the calling key's scopes and the projects and organizations it is
 * limited to. Older servers answer 404, newer ones may want personal_api_key:read (403).
 */
export class PersonalApiKeysApi {
  constructor(private readonly context: ResourceContext) {}

  current(call?: CallOptions): Promise<PersonalApiKey> {
    return this.context.transport.json({ method: 'GET', path: '/api/personal_api_keys/@current/' }, PersonalApiKeySchema, call);
  }
}
