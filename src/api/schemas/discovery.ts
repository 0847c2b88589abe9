import * as z from 'zod/mini';
import { paginated, UserBasicSchema } from './common';

export const OrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.optional(z.string()),
  membership_level: z.nullish(z.int()),
  members_can_create_projects: z.nullish(z.boolean()),
  teams: z.nullish(z.array(z.unknown())),
  projects: z.nullish(z.array(z.object({ id: z.int(), organization_id: z.optional(z.string()), name: z.string() }))),
  created_at: z.optional(z.string()),
});
export type Organization = z.infer<typeof OrganizationSchema>;

export const OrganizationBasicSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.optional(z.string()),
  membership_level: z.nullish(z.int()),
});
export type OrganizationBasic = z.infer<typeof OrganizationBasicSchema>;

export const CurrentTeamSchema = z.object({
  id: z.int(),
  name: z.string(),
  uuid: z.optional(z.string()),
  organization: z.optional(z.string()),
  api_token: z.optional(z.string()),
});
export type CurrentTeam = z.infer<typeof CurrentTeamSchema>;

/** GET /api/users/@me/: the user with the current organization, all organizations and current project. */
export const MeSchema = z.object({
  id: z.optional(z.int()),
  uuid: z.string(),
  distinct_id: z.nullish(z.string()),
  first_name: z.string(),
  last_name: z.nullish(z.string()),
  email: z.string(),
  organization: z.nullish(OrganizationBasicSchema),
  organizations: z.optional(z.array(OrganizationBasicSchema)),
  team: z.nullish(CurrentTeamSchema),
});
export type Me = z.infer<typeof MeSchema>;

/**
 * GET /api/personal_api_keys/@current/. `scopes` null or [] means no access at all (older servers show a
 * NULL as ["*"]); `scoped_teams` lists the projects the key is limited to (empty or null: all).
 */
export const PersonalApiKeySchema = z.object({
  id: z.string(),
  label: z.nullish(z.string()),
  mask_value: z.nullish(z.string()),
  scopes: z.nullable(z.array(z.string())),
  scoped_teams: z.nullish(z.array(z.int())),
  scoped_organizations: z.nullish(z.array(z.string())),
  user_id: z.nullish(z.int()),
});
export type PersonalApiKey = z.infer<typeof PersonalApiKeySchema>;

/**
 * An organization's member (GET /api/organizations/{id}/members/, OrganizationMemberSerializer): the user
 * (`user.id` is what a notebook's mention holds) and the membership level.
 */
export const OrganizationMemberSchema = z.object({
  id: z.string(),
  user: UserBasicSchema,
  level: z.nullish(z.int()),
});
export type OrganizationMember = z.infer<typeof OrganizationMemberSchema>;
export const OrganizationMemberPageSchema = paginated(OrganizationMemberSchema);
