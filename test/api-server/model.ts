// Records held by the in-memory store. Times are integer microseconds since the epoch.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface User {
  id: number;
  uuid: string;
  distinct_id: string;
  first_name: string;
  last_name: string;
  email: string;
  is_email_verified: boolean;
  hedgehog_config: JsonObject | null;
  role_at_organization: string | null;
  date_joined: number;
}

export interface Membership {
  userId: number;
  /** 1 member, 8 admin, 15 owner (PostHog's OrganizationMembership.Level) */
  level: number;
}

export interface Organization {
  id: string;
  name: string;
  slug: string;
  created_at: number;
  updated_at: number;
  members: Membership[];
  /** PostHog's members_can_create_projects (default false): members may create projects too ... */
  membersCanCreateProjects?: boolean;
  /** ... but only with this entitlement of the plan (available_product_features keys). */
  availableFeatures?: string[];
  /** A paid subscription: its last project cannot be deleted. */
  hasActiveSubscription?: boolean;
}

/** A project, with every writable setting of spec 2.1 kept in `settings`. */
export interface Project {
  id: number;
  uuid: string;
  organizationId: string;
  name: string;
  api_token: string;
  created_at: number;
  updated_at: number;
  ingested_event: boolean;
  /**
   * DELETE marks a project pending deletion with the time its deletion runs (microseconds; see store.ts
   * deleteProject). It stays readable and listed until then, and a minute longer while the deletion runs.
   */
  pendingDeletion: boolean;
  deletionScheduledAt: number | null;
  generatingDemoData: boolean;
  settings: JsonObject;
  /** Host used in generated event URLs. */
  siteHost: string;
}

export interface Notebook {
  id: string;
  short_id: string;
  projectId: number;
  title: string | null;
  content: Json;
  text_content: string | null;
  version: number;
  deleted: boolean;
  created_at: number;
  createdById: number | null;
  last_modified_at: number;
  lastModifiedById: number | null;
  /** Access levels set under PostHog's access control, by user id (see notebook-access.ts); others are editors. */
  accessLevels?: Record<number, NotebookAccessLevel>;
  /** Test-only: the next saves are answered "saved" with a lie and not stored (lying-saves.ts). */
  lyingSave?: { kind: 'older-version' | 'other-content'; left: number };
}

/** PostHog's access levels for a notebook (posthog/rbac): below "editor", writes are refused. */
export type NotebookAccessLevel = 'none' | 'viewer' | 'editor' | 'manager';

export type ActivityChange = {
  type: string;
  action: 'changed' | 'created' | 'deleted' | 'merged' | 'split' | 'exported';
  field: string | null;
  before: Json;
  after: Json;
};

export interface ActivityEntry {
  id: string;
  organizationId: string;
  projectId: number;
  userId: number | null;
  scope: 'Team' | 'Notebook' | 'Project';
  item_id: string;
  activity: string;
  detail: {
    changes: ActivityChange[] | null;
    name: string | null;
    short_id: string | null;
  };
  created_at: number;
}

export interface Person {
  id: number;
  uuid: string;
  distinct_ids: string[];
  properties: JsonObject;
  is_identified: boolean;
  created_at: number;
}

export interface ApiKey {
  id: string;
  value: string;
  /** microseconds */
  createdAt: number;
  label: string;
  userId: number;
  /** Empty = a key without scopes (NULL in PostHog's database): it may do nothing. */
  scopes: string[];
  /** Organization ids the key is limited to (empty/undefined = all). */
  organizations?: string[];
  /** Project ids the key is limited to (empty/undefined = all). */
  projects?: number[];
}
