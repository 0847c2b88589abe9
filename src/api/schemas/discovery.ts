import { z } from 'zod';
import { paginated, UserBasicSchema } from './common';

export const OrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string().optional(),
  membership_level: z.number().int().nullable().optional(),
  members_can_create_projects: z.boolean().nullable().optional(),
  teams: z.array(z.unknown()).nullable().optional(),
  projects: z
    .array(z.object({ id: z.number().int(), organization_id: z.string().optional(), name: z.string() }))
    .nullable()
    .optional(),
  created_at: z.string().optional(),
});
export type Organization = z.infer<typeof OrganizationSchema>;

export const OrganizationBasicSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string().optional(),
  membership_level: z.number().int().nullable().optional(),
});
export type OrganizationBasic = z.infer<typeof OrganizationBasicSchema>;

export const CurrentTeamSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  uuid: z.string().optional(),
  organization: z.string().optional(),
  api_token: z.string().optional(),
});
export type CurrentTeam = z.infer<typeof CurrentTeamSchema>;

/** GET /api/users/@me/: the user with the current organization, all organizations and current project. */
export const MeSchema = z.object({
  id: z.number().int().optional(),
  uuid: z.string(),
  distinct_id: z.string().nullable().optional(),
  first_name: z.string(),
  last_name: z.string().nullable().optional(),
  email: z.string(),
  organization: OrganizationBasicSchema.nullable().optional(),
  organizations: z.array(OrganizationBasicSchema).optional(),
  team: CurrentTeamSchema.nullable().optional(),
});
export type Me = z.infer<typeof MeSchema>;

/**
 * GET /api/personal_api_keys/@current/. `scopes` null or [] means no access at all (older servers show a
 * NULL as ["*"]); `scoped_teams` lists the projects the key is limited to (empty or null: all).
 */
export const PersonalApiKeySchema = z.object({
  id: z.string(),
  label: z.string().nullable().optional(),
  mask_value: z.string().nullable().optional(),
  scopes: z.array(z.string()).nullable(),
  scoped_teams: z.array(z.number().int()).nullable().optional(),
  scoped_organizations: z.array(z.string()).nullable().optional(),
  user_id: z.number().int().nullable().optional(),
});
export type PersonalApiKey = z.infer<typeof PersonalApiKeySchema>;

/**
 * An organization's member (GET /api/organizations/{id}/members/, OrganizationMemberSerializer): the user
 * (`user.id` is what a notebook's mention holds) and the membership level.
 */
export const OrganizationMemberSchema = z.object({
  id: z.string(),
  user: UserBasicSchema,
  level: z.number().int().nullable().optional(),
});
export type OrganizationMember = z.infer<typeof OrganizationMemberSchema>;
export const OrganizationMemberPageSchema = paginated(OrganizationMemberSchema);
