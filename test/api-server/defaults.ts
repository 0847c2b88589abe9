// Default settings of a new project (PostHog's Team model defaults) and the writable-field schemas.
import type { JsonObject } from './model';
import type { Schema } from './validation';

export function defaultProjectSettings(): JsonObject {
  return {
    app_urls: [],
    anonymize_ips: false,
    completed_snippet_onboarding: false,
    test_account_filters: [],
    test_account_filters_default_checked: null,
    path_cleaning_filters: [],
    is_demo: false,
    timezone: 'UTC',
    data_attributes: ['data-attr'],
    person_display_name_properties: null,
    correlation_config: {},
    autocapture_opt_out: null,
    autocapture_exceptions_opt_in: null,
    autocapture_exceptions_errors_to_ignore: null,
    capture_console_log_opt_in: true,
    capture_performance_opt_in: true,
    session_recording_opt_in: false,
    session_recording_sample_rate: null,
    session_recording_minimum_duration_milliseconds: null,
    session_recording_linked_flag: null,
    session_recording_network_payload_capture_config: null,
    session_replay_config: null,
    access_control: false,
    week_start_day: null,
    primary_dashboard: null,
    live_events_columns: null,
    recording_domains: [],
    inject_web_apps: null,
    extra_settings: null,
    modifiers: null,
    has_completed_onboarding_for: null,
    surveys_opt_in: null,
    heatmaps_opt_in: null,
    product_description: null,
  };
}

/**
 * Writable project fields (spec 2.1, plus product_description). `name` is validated separately.
 * slack_incoming_webhook is no longer a PostHog field: a body carrying it is accepted and the field ignored.
 */
export const PROJECT_SCHEMA: Schema = {
  name: { kind: 'string', minLength: 1, maxLength: 200 },
  product_description: { kind: 'string', allowNull: true, allowBlank: true, maxLength: 1000 },
  app_urls: { kind: 'stringList', allowNullItems: true, itemMaxLength: 200 },
  anonymize_ips: { kind: 'boolean' },
  completed_snippet_onboarding: { kind: 'boolean' },
  test_account_filters: { kind: 'json' },
  test_account_filters_default_checked: { kind: 'boolean', allowNull: true },
  path_cleaning_filters: { kind: 'json' },
  is_demo: { kind: 'boolean' },
  timezone: { kind: 'timezone' },
  data_attributes: { kind: 'json' },
  person_display_name_properties: { kind: 'stringList', allowNull: true, itemMaxLength: 400 },
  correlation_config: { kind: 'json' },
  autocapture_opt_out: { kind: 'boolean', allowNull: true },
  autocapture_exceptions_opt_in: { kind: 'boolean', allowNull: true },
  autocapture_exceptions_errors_to_ignore: { kind: 'json' },
  capture_console_log_opt_in: { kind: 'boolean', allowNull: true },
  capture_performance_opt_in: { kind: 'boolean', allowNull: true },
  session_recording_opt_in: { kind: 'boolean' },
  session_recording_sample_rate: { kind: 'decimal', maxDigits: 3, decimalPlaces: 2, allowNull: true },
  session_recording_minimum_duration_milliseconds: { kind: 'integer', allowNull: true, min: 0, max: 30000 },
  session_recording_linked_flag: { kind: 'json' },
  session_recording_network_payload_capture_config: { kind: 'json' },
  session_replay_config: { kind: 'json' },
  access_control: { kind: 'boolean' },
  week_start_day: { kind: 'choice', choices: [0, 1], allowNull: true },
  primary_dashboard: { kind: 'integer', allowNull: true, min: 1 },
  live_events_columns: { kind: 'stringList', allowNull: true },
  recording_domains: { kind: 'stringList', allowNull: true, allowNullItems: true, itemMaxLength: 200 },
  inject_web_apps: { kind: 'boolean', allowNull: true },
  extra_settings: { kind: 'json' },
  modifiers: { kind: 'json' },
  has_completed_onboarding_for: { kind: 'json' },
  surveys_opt_in: { kind: 'boolean', allowNull: true },
  heatmaps_opt_in: { kind: 'boolean', allowNull: true },
};

export const NOTEBOOK_SCHEMA: Schema = {
  title: { kind: 'string', allowNull: true, allowBlank: true, maxLength: 256 },
  content: { kind: 'object', allowNull: true },
  text_content: { kind: 'string', allowNull: true, allowBlank: true },
  version: { kind: 'integer' },
  deleted: { kind: 'boolean' },
};
