import * as z from 'zod/mini';
import { json } from './common';

/**
 * Fields of the full project that create / update / reset_token accept (spec 2.1, "yes"), without
 * slack_incoming_webhook: PostHog no longer has it (PATCH ignores it, answers omit it).
 */
export const PROJECT_WRITABLE_FIELDS = [
  'app_urls',
  'name',
  'anonymize_ips',
  'completed_snippet_onboarding',
  'test_account_filters',
  'test_account_filters_default_checked',
  'path_cleaning_filters',
  'is_demo',
  'timezone',
  'data_attributes',
  'person_display_name_properties',
  'correlation_config',
  'autocapture_opt_out',
  'autocapture_exceptions_opt_in',
  'autocapture_exceptions_errors_to_ignore',
  'capture_console_log_opt_in',
  'capture_performance_opt_in',
  'session_recording_opt_in',
  'session_recording_sample_rate',
  'session_recording_minimum_duration_milliseconds',
  'session_recording_linked_flag',
  'session_recording_network_payload_capture_config',
  'session_replay_config',
  'access_control',
  'week_start_day',
  'primary_dashboard',
  'live_events_columns',
  'recording_domains',
  'inject_web_apps',
  'extra_settings',
  'modifiers',
  'has_completed_onboarding_for',
  'surveys_opt_in',
  'heatmaps_opt_in',
] as const;
export type ProjectWritableField = (typeof PROJECT_WRITABLE_FIELDS)[number];

const optionalBoolean = z.nullish(z.boolean());

/**
 * A project's scheduled deletion, as a full project carries it (list entries do not): pending, when the
 * deletion runs (absent on servers that delete at once), and whether a cancel can still succeed.
 */
function deletionFields() {
  return {
    is_pending_deletion: optionalBoolean,
    deletion_scheduled_at: z.nullish(z.string()),
    can_cancel_deletion: optionalBoolean,
  };
}
const stringList = z.nullish(z.array(z.string()));

/**
 * A full project. Identity fields are required; the rest are optional because PostHog versions differ
 * in which settings they send, and nullable where PostHog's model allows null.
 */
export const ProjectSchema = z.object({
  id: z.int(),
  uuid: z.string(),
  organization: z.string(),
  api_token: z.string(),
  name: z.string(),
  app_urls: z.nullish(z.array(z.nullable(z.string()))),
  created_at: z.optional(z.string()),
  updated_at: z.optional(z.string()),
  anonymize_ips: optionalBoolean,
  completed_snippet_onboarding: optionalBoolean,
  ingested_event: optionalBoolean,
  test_account_filters: z.optional(json),
  test_account_filters_default_checked: optionalBoolean,
  path_cleaning_filters: z.optional(json),
  is_demo: optionalBoolean,
  timezone: z.optional(z.string()),
  data_attributes: z.optional(json),
  person_display_name_properties: stringList,
  correlation_config: z.optional(json),
  autocapture_opt_out: optionalBoolean,
  autocapture_exceptions_opt_in: optionalBoolean,
  autocapture_exceptions_errors_to_ignore: z.optional(json),
  capture_console_log_opt_in: optionalBoolean,
  capture_performance_opt_in: optionalBoolean,
  session_recording_opt_in: optionalBoolean,
  session_recording_sample_rate: z.nullish(z.string()),
  session_recording_minimum_duration_milliseconds: z.nullish(z.int()),
  session_recording_linked_flag: z.optional(json),
  session_recording_network_payload_capture_config: z.optional(json),
  session_replay_config: z.optional(json),
  effective_membership_level: z.nullish(z.int()),
  access_control: optionalBoolean,
  week_start_day: z.nullish(z.int()),
  has_group_types: optionalBoolean,
  primary_dashboard: z.nullish(z.int()),
  live_events_columns: stringList,
  recording_domains: z.nullish(z.array(z.nullable(z.string()))),
  person_on_events_querying_enabled: optionalBoolean,
  inject_web_apps: optionalBoolean,
  extra_settings: z.optional(json),
  modifiers: z.optional(json),
  default_modifiers: z.nullish(z.record(z.string(), json)),
  has_completed_onboarding_for: z.optional(json),
  surveys_opt_in: optionalBoolean,
  heatmaps_opt_in: optionalBoolean,
  live_events_token: z.nullish(z.string()),
  ...deletionFields(),
});
export type Project = z.infer<typeof ProjectSchema>;

/** A project in a list result (spec 2.1 subset). */
export const ProjectListItemSchema = z.object({
  id: z.int(),
  uuid: z.string(),
  organization: z.string(),
  api_token: z.string(),
  name: z.string(),
  completed_snippet_onboarding: optionalBoolean,
  has_completed_onboarding_for: z.optional(json),
  ingested_event: optionalBoolean,
  is_demo: optionalBoolean,
  timezone: z.optional(z.string()),
  access_control: optionalBoolean,
  ...deletionFields(),
});
export type ProjectListItem = z.infer<typeof ProjectListItemSchema>;

/** Body of create / update / reset_token: any subset of the writable fields. */
export type ProjectWritable = Partial<Pick<Project, ProjectWritableField>>;

/** cancel-deletion's answer: a short project body, back to normal. */
export const CancelledDeletionSchema = z.object({
  id: z.int(),
  name: z.string(),
  ...deletionFields(),
});
export type CancelledDeletion = z.infer<typeof CancelledDeletionSchema>;

/** PostHog's real answer to is_generating_demo_data (the spec says a full project; both are accepted). */
export const DemoDataStatusSchema = z.object({ is_generating_demo_data: z.boolean() });
export type DemoDataStatus = z.infer<typeof DemoDataStatusSchema>;
