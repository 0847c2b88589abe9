/** Canned bodies shaped like PostHog's real answers, for schema and stub-server tests. */
import { defaultProjectSettings } from '../../api-server/defaults';

export const user = {
  id: 1,
  uuid: '0190a4b2-0000-7000-8000-000000000001',
  distinct_id: 'd1',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  is_email_verified: true,
  hedgehog_config: null,
  role_at_organization: 'engineering',
};

/** A project as PostHog answers it: the local API's defaults for a new project, and what this one has set. */
export const project = {
  ...defaultProjectSettings(),
  id: 1,
  uuid: '0190a4b2-0000-7000-8000-0000000000aa',
  organization: '0190a4b2-0000-7000-8000-0000000000bb',
  api_token: 'phc_abc',
  app_urls: ['https://example.com', null],
  name: 'Web',
  slack_incoming_webhook: null,
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-02T00:00:00Z',
  completed_snippet_onboarding: true,
  ingested_event: true,
  path_cleaning_filters: null,
  effective_membership_level: 15,
  has_group_types: false,
  recording_domains: null,
  person_on_events_querying_enabled: true,
  inject_web_apps: false,
  default_modifiers: { personsOnEventsMode: 'person_id_override_properties_on_events' },
  has_completed_onboarding_for: { product_analytics: true },
  live_events_token: 'phs_live',
  some_future_field: { anything: 1 },
};

export const projectListItem = {
  id: 1,
  uuid: project.uuid,
  organization: project.organization,
  api_token: 'phc_abc',
  name: 'Web',
  completed_snippet_onboarding: true,
  has_completed_onboarding_for: null,
  ingested_event: true,
  is_demo: false,
  timezone: 'UTC',
  access_control: false,
};

export function notebookListItem(index: number) {
  return {
    id: `0190a4b2-0000-7000-8000-${String(index).padStart(12, '0')}`,
    short_id: `nb${String(index).padStart(6, '0')}`,
    title: `Notebook ${index}`,
    deleted: false,
    created_at: '2025-01-01T00:00:00Z',
    created_by: index % 2 ? user : null,
    last_modified_at: '2025-01-02T00:00:00Z',
    last_modified_by: user,
  };
}

export const notebook = {
  ...notebookListItem(1),
  content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Hello' }] }] },
  text_content: 'Hello',
  version: 3,
};

export const eventAsStrings = {
  id: '0190a4b2-0000-7000-8000-00000000e001',
  distinct_id: 'd1',
  properties: '{"$browser": "Firefox"}',
  event: '$pageview',
  timestamp: '2025-01-01T00:00:00Z',
  person: '{"id": 1}',
  elements: '[]',
  elements_chain: '',
};

export const eventAsJson = {
  ...eventAsStrings,
  properties: { $browser: 'Firefox' },
  person: { id: 1, distinct_ids: ['d1'], properties: {} },
  elements: [{ tag_name: 'a' }],
};

export const activityPage = {
  results: [
    {
      id: '0190a4b2-0000-7000-8000-00000000a001',
      user: { first_name: 'Ada', email: 'ada@example.com' },
      activity: 'updated',
      scope: 'Notebook',
      item_id: 'nb000001',
      detail: { changes: [{ type: 'Notebook', action: 'changed', field: 'title', before: 'a', after: 'b' }], name: 'b', short_id: 'nb000001' },
      created_at: '2025-01-02T00:00:00Z',
    },
    {
      id: '0190a4b2-0000-7000-8000-00000000a002',
      user: { first_name: 'System', email: null, is_system: true },
      activity: 'created',
      scope: 'Team',
      item_id: '1',
      detail: { changes: null, name: 'Web', short_id: null },
      created_at: '2025-01-01T00:00:00Z',
    },
  ],
  next: null,
  previous: null,
  total_count: 2,
};

export const me = {
  id: 1,
  uuid: user.uuid,
  distinct_id: 'd1',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  organization: { id: project.organization, name: 'Acme', slug: 'acme', membership_level: 15 },
  organizations: [{ id: project.organization, name: 'Acme', slug: 'acme', membership_level: 15 }],
  team: { id: 1, uuid: project.uuid, organization: project.organization, api_token: 'phc_abc', name: 'Web' },
};

export const organization = {
  id: project.organization,
  name: 'Acme',
  slug: 'acme',
  membership_level: 15,
  teams: [],
  projects: [{ id: 1, organization_id: project.organization, name: 'Web' }],
  created_at: '2025-01-01T00:00:00Z',
};

export function page<T>(results: T[], count?: number, next: string | null = null) {
  return { count: count ?? results.length, next, previous: null, results };
}
