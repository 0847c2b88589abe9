import { PROJECT_WRITABLE_FIELDS, type ProjectWritableField } from '../api';

/**
 * What a writable project field accepts, as PostHog's Team serializer checks it (spec 2.1 types,
 * nullability and limits from posthog-behaviour.md / PostHog's model). Used for the settings
 * document's own checks and for its JSON schema.
 */
export type FieldKind =
  | { kind: 'name' }
  | { kind: 'string'; nullable: boolean }
  | { kind: 'boolean'; nullable: boolean }
  | { kind: 'integer'; nullable: boolean; minimum?: number; maximum?: number }
  | { kind: 'weekStartDay' }
  | { kind: 'stringList'; nullable: boolean; nullItems: boolean }
  | { kind: 'json' };

export const NAME_MAX_LENGTH = 200;

const bool = (nullable: boolean): FieldKind => ({ kind: 'boolean', nullable });

export const WRITABLE_FIELD_KINDS: Record<ProjectWritableField, FieldKind> = {
  name: { kind: 'name' },
  app_urls: { kind: 'stringList', nullable: false, nullItems: true },
  anonymize_ips: bool(false),
  completed_snippet_onboarding: bool(false),
  test_account_filters: { kind: 'json' },
  test_account_filters_default_checked: bool(true),
  path_cleaning_filters: { kind: 'json' },
  is_demo: bool(false),
  timezone: { kind: 'string', nullable: false },
  data_attributes: { kind: 'json' },
  person_display_name_properties: { kind: 'stringList', nullable: true, nullItems: false },
  correlation_config: { kind: 'json' },
  autocapture_opt_out: bool(true),
  autocapture_exceptions_opt_in: bool(true),
  autocapture_exceptions_errors_to_ignore: { kind: 'json' },
  capture_console_log_opt_in: bool(true),
  capture_performance_opt_in: bool(true),
  session_recording_opt_in: bool(false),
  session_recording_sample_rate: { kind: 'string', nullable: true },
  session_recording_minimum_duration_milliseconds: { kind: 'integer', nullable: true, minimum: 0, maximum: 30000 },
  session_recording_linked_flag: { kind: 'json' },
  session_recording_network_payload_capture_config: { kind: 'json' },
  session_replay_config: { kind: 'json' },
  access_control: bool(false),
  week_start_day: { kind: 'weekStartDay' },
  primary_dashboard: { kind: 'integer', nullable: true, minimum: 1 },
  live_events_columns: { kind: 'stringList', nullable: true, nullItems: false },
  recording_domains: { kind: 'stringList', nullable: true, nullItems: true },
  inject_web_apps: bool(true),
  extra_settings: { kind: 'json' },
  modifiers: { kind: 'json' },
  has_completed_onboarding_for: { kind: 'json' },
  surveys_opt_in: bool(true),
  heatmaps_opt_in: bool(true),
};

/** Fields of a full project that requests may not carry (spec 2.1 "no"), in the spec's order. */
export const PROJECT_READ_ONLY_FIELDS = [
  'id',
  'uuid',
  'organization',
  'api_token',
  'created_at',
  'updated_at',
  'ingested_event',
  'effective_membership_level',
  'has_group_types',
  'person_on_events_querying_enabled',
  'default_modifiers',
  'live_events_token',
  'is_pending_deletion',
  'deletion_scheduled_at',
  'can_cancel_deletion',
] as const;

const WRITABLE = new Set<string>(PROJECT_WRITABLE_FIELDS);

export function isWritableField(field: string): field is ProjectWritableField {
  return WRITABLE.has(field);
}

/** The writable fields in the settings document's order: the name first, then alphabetical. */
export function writableFieldOrder(): ProjectWritableField[] {
  return ['name', ...PROJECT_WRITABLE_FIELDS.filter((field) => field !== 'name').sort()];
}

/** Short descriptions for completion hovers (the spec does not describe the fields; these are PostHog's meanings). */
export const FIELD_DESCRIPTIONS: Partial<Record<ProjectWritableField, string>> = {
  name: 'The project name: 1-200 characters, unique in the organization (ignoring case).',
  app_urls: 'URLs of the sites or apps that send events; used by the toolbar and heatmaps.',
  anonymize_ips: 'Discard client IP addresses of incoming events.',
  timezone: 'IANA time zone name used for dates in insights, e.g. "Europe/Berlin". Default "UTC".',
  week_start_day: 'First day of the week: 0 = Sunday, 1 = Monday, null = by locale.',
  autocapture_opt_out: 'Turn autocapture of clicks, changes and submits off.',
  autocapture_exceptions_opt_in: 'Capture JavaScript exceptions automatically.',
  capture_console_log_opt_in: 'Record browser console logs with session recordings.',
  capture_performance_opt_in: 'Capture network timing and web vitals.',
  session_recording_opt_in: 'Record user sessions.',
  session_recording_sample_rate: 'Share of sessions to record, as a decimal string from "0.00" to "1.00".',
  session_recording_minimum_duration_milliseconds: 'Drop recordings shorter than this (0 to 30000 ms).',
  heatmaps_opt_in: 'Collect heatmap data.',
  surveys_opt_in: 'Enable surveys for this project.',
  is_demo: 'Marks the project as a demo project.',
  access_control: 'Restrict access to this project to invited members.',
  recording_domains: 'Only record sessions on these domains.',
  inject_web_apps: 'Allow site apps to be injected into your site.',
  primary_dashboard: 'Id of the dashboard shown on the project home page.',
};
