// Response shapes, field for field as PostHog's serializers produce them.
import type { ActivityEntry, JsonObject, Notebook, Organization, Person, Project, User } from './model';
import type { Store } from './store';
import type { EventRecord } from './events';
import { isoOffset, isoZ } from './time';
import { accessLevelOf } from './notebook-access';
import { withoutMarkdown } from './content';

export function userBasic(user: User | null): JsonObject | null {
  if (!user) return null;
  return {
    id: user.id, uuid: user.uuid, distinct_id: user.distinct_id, first_name: user.first_name, last_name: user.last_name,
    email: user.email, is_email_verified: user.is_email_verified, hedgehog_config: user.hedgehog_config,
    role_at_organization: user.role_at_organization,
  };
}

/** The list-item subset (ProjectBackwardCompatBasicSerializer). */
export function projectListItem(p: Project): JsonObject {
  return {
    id: p.id, uuid: p.uuid, organization: p.organizationId, project_id: p.id, api_token: p.api_token, name: p.name,
    completed_snippet_onboarding: p.settings['completed_snippet_onboarding'] ?? false,
    has_completed_onboarding_for: p.settings['has_completed_onboarding_for'] ?? null, ingested_event: p.ingested_event,
    is_demo: p.settings['is_demo'] ?? false, timezone: p.settings['timezone'] ?? 'UTC', access_control: p.settings['access_control'] ?? false,
  };
}

export function projectFull(store: Store, p: Project, userId: number): JsonObject {
  const org = store.getOrganization(p.organizationId);
  return {
    ...projectListItem(p),
    ...p.settings,
    created_at: isoZ(p.created_at),
    updated_at: isoZ(p.updated_at),
    effective_membership_level: org ? store.membershipLevel(org, userId) : null,
    has_group_types: false,
    group_types: [],
    live_events_token: liveEventsToken(p),
    person_on_events_querying_enabled: true,
    default_modifiers: { personsOnEventsMode: 'person_id_override_properties_on_events', personsArgMaxVersion: 'auto', inCohortVia: 'auto', sessionTableVersion: 'auto' },
    product_intents: [],
    ...deletionFields(store, p),
    user_access_level: 'admin',
  };
}

/** is_pending_deletion, and since PostHog scheduled deletions, when it runs and whether a cancel can still succeed. */
function deletionFields(store: Store, p: Project): JsonObject {
  if (store.settings.projectDeletion === 'legacy') return { is_pending_deletion: p.pendingDeletion };
  return {
    is_pending_deletion: p.pendingDeletion,
    deletion_scheduled_at: p.deletionScheduledAt === null ? null : isoZ(p.deletionScheduledAt),
    can_cancel_deletion: p.pendingDeletion && !store.deletionStarted(p),
  };
}

/** cancel-deletion's answer: PostHog's short project body. */
export function projectCancelled(p: Project): JsonObject {
  return {
    id: p.id, organization_id: p.organizationId, name: p.name, product_description: p.settings['product_description'] ?? null,
    created_at: isoZ(p.created_at), is_pending_deletion: false, deletion_scheduled_at: null, can_cancel_deletion: false, tags: [],
  };
}

function liveEventsToken(p: Project): string {
  const encode = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url');
  const header = encode({ alg: 'HS256', typ: 'JWT' });
  const payload = encode({ team_id: p.id, api_token: p.api_token, aud: 'posthog:livestream' });
  return `${header}.${payload}.${Buffer.from(p.uuid + p.api_token).toString('base64url').slice(0, 43)}`;
}

export function organizationBasic(store: Store, org: Organization, userId: number): JsonObject {
  return {
    id: org.id, name: org.name, slug: org.slug, logo_media_id: null, membership_level: store.membershipLevel(org, userId),
    members_can_use_personal_api_keys: true, is_active: true, is_not_active_reason: null, is_pending_deletion: false,
  };
}

export function organizationFull(store: Store, org: Organization, userId: number): JsonObject {
  const projects = store.projectsOf(org.id);
  return {
    id: org.id, name: org.name, slug: org.slug, logo_media_id: null, created_at: isoZ(org.created_at), updated_at: isoZ(org.updated_at),
    membership_level: store.membershipLevel(org, userId), plugins_access_level: 9,
    teams: projects.map(projectListItem),
    projects: projects.map((p) => ({ id: p.id, organization_id: p.organizationId, name: p.name })),
    available_product_features: [], is_member_join_email_enabled: true, metadata: {}, customer_id: null, enforce_2fa: null,
    members_can_invite: true, members_can_use_personal_api_keys: true, allow_publicly_shared_resources: true,
    member_count: org.members.length, is_ai_data_processing_approved: true, default_experiment_stats_method: 'bayesian',
    default_role_id: null, is_active: true, is_not_active_reason: null, is_pending_deletion: false,
    members_can_create_projects: org.membersCanCreateProjects ?? false,
    ...(org.availableFeatures ? { available_product_features: org.availableFeatures.map((key) => ({ key, name: key })) } : {}),
  };
}

export function userMe(store: Store, user: User, visibleOrgs: Organization[]): JsonObject {
  const team = store.currentProjectOf(user.id);
  const current = team ? store.getOrganization(team.organizationId) : visibleOrgs[0];
  return {
    date_joined: isoZ(user.date_joined), uuid: user.uuid, distinct_id: user.distinct_id, first_name: user.first_name,
    last_name: user.last_name, email: user.email, pending_email: null, is_email_verified: user.is_email_verified,
    notification_settings: { plugin_disabled: true, project_weekly_digest_disabled: {}, all_weekly_digest_disabled: false },
    anonymize_data: false, toolbar_mode: 'toolbar', has_password: true, id: user.id, is_staff: false, is_impersonated: false,
    is_impersonated_until: null, sensitive_session_expires_at: null,
    team: team ? projectListItem(team) : null,
    organization: current ? organizationFull(store, current, user.id) : null,
    organizations: store.organizations.filter((o) => store.membershipLevel(o, user.id) !== null).map((o) => organizationBasic(store, o, user.id)),
    set_current_organization: null, set_current_team: null, password: null, current_password: null, events_column_config: { active: 'DEFAULT' },
    is_2fa_enabled: false, has_social_auth: false, has_sso_enforcement: false, has_seen_product_intro_for: {},
    scene_personalisation: [], theme_mode: 'system', hedgehog_config: user.hedgehog_config, role_at_organization: user.role_at_organization,
  };
}

/** `userId`: whose `user_access_level` the answer carries (a user with no level set is an editor). */
export function notebookMinimal(store: Store, n: Notebook, userId?: number): JsonObject {
  return {
    id: n.id, short_id: n.short_id, title: n.title, deleted: n.deleted, created_at: isoZ(n.created_at),
    created_by: userBasic(store.getUser(n.createdById)), last_modified_at: isoZ(n.last_modified_at),
    last_modified_by: userBasic(store.getUser(n.lastModifiedById)), user_access_level: userId === undefined ? 'editor' : accessLevelOf(n, userId),
  };
}

/** With store.settings.markdownOutOfResponses, a Markdown notebook comes without its Markdown (content and text_content). */
export function notebookFull(store: Store, n: Notebook, userId?: number): JsonObject {
  const stripped = store.settings.markdownOutOfResponses ? withoutMarkdown(n.content) : undefined;
  return {
    id: n.id, short_id: n.short_id, title: n.title, content: stripped ?? n.content, text_content: stripped ? null : n.text_content, version: n.version,
    deleted: n.deleted, created_at: isoZ(n.created_at), created_by: userBasic(store.getUser(n.createdById)),
    last_modified_at: isoZ(n.last_modified_at), last_modified_by: userBasic(store.getUser(n.lastModifiedById)),
    user_access_level: userId === undefined ? 'editor' : accessLevelOf(n, userId),
  };
}

export function activityEntry(store: Store, a: ActivityEntry): JsonObject {
  return {
    id: a.id, user: userBasic(store.getUser(a.userId)), unread: false, organization_id: a.organizationId, was_impersonated: false,
    is_system: a.userId === null, activity: a.activity, item_id: a.item_id, scope: a.scope,
    detail: { id: null, changes: a.detail.changes, merge: null, trigger: null, name: a.detail.name, short_id: a.detail.short_id, type: null },
    created_at: isoZ(a.created_at),
  };
}

export function eventPerson(person: Person | null): JsonObject | null {
  if (!person) return null;
  const properties: JsonObject = {};
  for (const key of ['email', 'name', 'username']) if (key in person.properties) properties[key] = person.properties[key]!;
  return { is_identified: person.is_identified, distinct_ids: person.distinct_ids.slice(0, 1), properties };
}

export function eventBody(e: EventRecord, includePerson: boolean): JsonObject {
  return {
    id: e.uuid, distinct_id: e.distinct_id, properties: e.properties, event: e.event, timestamp: isoOffset(e.timestamp),
    person: includePerson ? eventPerson(e.person) : null, elements: e.elements, elements_chain: e.elements_chain,
  };
}

