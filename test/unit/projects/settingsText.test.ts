import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { PROJECT_WRITABLE_FIELDS, type Project, ProjectSchema } from '../../../src/api';
import { PROJECT_READ_ONLY_FIELDS, writableFieldOrder } from '../../../src/projects/projectFields';
import { describeProblems, readSettingsEdit, READ_ONLY_KEY, refusedFieldProblems, serializeSettings } from '../../../src/projects/settingsText';
import { SETTINGS_SCHEMA_PATH, settingsJsonSchema, settingsJsonSchemaText } from '../../../src/projects/settingsSchema';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');

function project(overrides: Partial<Project> = {}): Project {
  return {
    id: 7,
    uuid: '0190a3c4-0000-7000-8000-000000000007',
    organization: '0190a3c4-0000-7000-8000-0000000000aa',
    api_token: 'phc_abc',
    name: 'Hedgebox',
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-02T00:00:00Z',
    anonymize_ips: false,
    session_recording_opt_in: true,
    timezone: 'UTC',
    week_start_day: null,
    app_urls: ['https://hedgebox.net'],
    test_account_filters: [{ key: 'email', value: '@hedgebox.net', operator: 'not_icontains' }],
    ingested_event: true,
    default_modifiers: { personsOnEventsMode: 'person_id_override_properties_on_events' },
    ...overrides,
  };
}

/** Edits the document as a user would: parse, change, print again. */
function edit(original: Project, change: (document: Record<string, any>) => void): string {
  const document = JSON.parse(serializeSettings(original));
  change(document);
  return JSON.stringify(document, null, 2);
}

describe('settings document', () => {
  test('puts the name first, the other writable fields alphabetically, and read-only fields apart', () => {
    const text = serializeSettings(project());
    const document = JSON.parse(text);
    const keys = Object.keys(document);
    assert.equal(keys[0], 'name');
    assert.equal(keys.at(-1), READ_ONLY_KEY);
    const writable = keys.slice(0, -1);
    assert.deepEqual(writable, writableFieldOrder().filter((field) => writable.includes(field)));
    assert.deepEqual(Object.keys(document[READ_ONLY_KEY]), ['id', 'uuid', 'organization', 'api_token', 'created_at', 'updated_at', 'ingested_event', 'default_modifiers']);
    assert.ok(writable.every((field) => (PROJECT_WRITABLE_FIELDS as readonly string[]).includes(field)));
  });

  test('is stable: the same project gives the same text whatever the order of its fields', () => {
    const a = project();
    const b = Object.fromEntries(Object.entries(a).reverse()) as Project;
    assert.equal(serializeSettings(a), serializeSettings(b));
  });

  test('an untouched document has no changes', () => {
    const original = project();
    const result = readSettingsEdit(serializeSettings(original), original);
    assert.deepEqual(result, { ok: true, changes: {}, changedFields: [] });
  });

  test('only the writable fields that changed are sent, with the name trimmed', () => {
    const original = project();
    const text = edit(original, (document) => {
      document.name = '  Hedgebox EU  ';
      document.anonymize_ips = true;
      document.test_account_filters = [{ operator: 'not_icontains', value: '@hedgebox.net', key: 'email' }]; // same, reordered
      document.week_start_day = 1;
    });
    const result = readSettingsEdit(text, original);
    assert.ok(result.ok, JSON.stringify(result));
    assert.deepEqual(result.changes, { name: 'Hedgebox EU', anonymize_ips: true, week_start_day: 1 });
    assert.deepEqual(result.changedFields, ['name', 'anonymize_ips', 'week_start_day']);
  });

  test('a writable field PostHog did not send may be added', () => {
    const original = project();
    const result = readSettingsEdit(edit(original, (document) => (document.heatmaps_opt_in = true)), original);
    assert.ok(result.ok);
    assert.deepEqual(result.changes, { heatmaps_opt_in: true });
  });

  test('invalid JSON is refused with its line and column', () => {
    const original = project();
    const text = serializeSettings(original).replace('"anonymize_ips": false,', '"anonymize_ips": false,,');
    const result = readSettingsEdit(text, original);
    assert.equal(result.ok, false);
    if (result.ok) return;
    const line = text.split('\n').findIndex((row) => row.includes('"anonymize_ips"')) + 1;
    assert.equal(result.problems.length, 1);
    assert.match(result.problems[0].message, /^Invalid JSON/);
    assert.equal(result.problems[0].location.line, line);
    assert.equal(result.problems[0].location.column, text.split('\n')[line - 1].indexOf(',,') + 2);
  });

  test('wrong types, unknown fields and an empty name are each refused at their line', () => {
    const original = project();
    const text = edit(original, (document) => {
      document.anonymize_ips = 'yes';
      document.week_start_day = 3;
      document.app_urls = 'https://hedgebox.net';
      document.favourite_colour = 'teal';
      document.name = '   ';
    });
    const result = readSettingsEdit(text, original);
    assert.equal(result.ok, false);
    if (result.ok) return;
    const byField = new Map(result.problems.map((problem) => [problem.field, problem]));
    assert.match(byField.get('anonymize_ips')!.message, /must be true or false, not "yes"/);
    assert.match(byField.get('week_start_day')!.message, /0 \(Sunday\), 1 \(Monday\) or null/);
    assert.match(byField.get('app_urls')!.message, /list of strings/);
    assert.match(byField.get('favourite_colour')!.message, /not a project setting/);
    assert.match(byField.get('name')!.message, /must not be empty/);
    const lines = text.split('\n');
    for (const problem of result.problems) {
      assert.ok(lines[problem.location.line - 1].includes(`"${problem.field}"`), `${problem.field} points at its line`);
    }
    assert.match(describeProblems(result.problems), /^Line \d+, column 3: "/m);
  });

  test('slack_incoming_webhook is no longer a setting: not shown even when an older server sends it, refused when typed in', () => {
    const fromOlderServer = ProjectSchema.parse({ ...project(), slack_incoming_webhook: 'https://hooks.slack.com/services/x' });
    const text = serializeSettings(fromOlderServer);
    assert.doesNotMatch(text, /slack_incoming_webhook/);
    const result = readSettingsEdit(edit(fromOlderServer, (document) => (document.slack_incoming_webhook = null)), fromOlderServer);
    assert.equal(result.ok, false);
    assert.match(JSON.stringify(result), /"slack_incoming_webhook\\" is not a project setting PostHog accepts/);
  });

  test('the name is sent trimmed; spaces alone or 201 characters after trimming are refused with the line', () => {
    const original = project();
    const trimmed = readSettingsEdit(edit(original, (document) => (document.name = `  ${'z'.repeat(200)}  `)), original);
    assert.ok(trimmed.ok);
    assert.equal(trimmed.changes.name, 'z'.repeat(200));
    for (const name of ['  \t ', ` ${'z'.repeat(201)} `]) {
      const refused = readSettingsEdit(edit(original, (document) => (document.name = name)), original);
      assert.equal(refused.ok, false);
      if (refused.ok) return;
      assert.match(describeProblems(refused.problems), /^Line 2, column 3: "name" (must not be empty|must be at most 200 characters \(it has 201\))\.$/);
    }
  });

  test('a name longer than 200 characters is refused', () => {
    const original = project();
    const result = readSettingsEdit(edit(original, (document) => (document.name = 'x'.repeat(201))), original);
    assert.equal(result.ok, false);
    assert.match(JSON.stringify(result), /at most 200 characters/);
  });

  test('an edited, added or removed read-only field is refused, naming it', () => {
    const original = project();
    for (const change of [
      (document: Record<string, any>) => (document[READ_ONLY_KEY].api_token = 'phc_mine'),
      (document: Record<string, any>) => delete document[READ_ONLY_KEY].uuid,
      (document: Record<string, any>) => (document[READ_ONLY_KEY].live_events_token = 'x'),
    ]) {
      const result = readSettingsEdit(edit(original, change), original);
      assert.equal(result.ok, false);
      if (result.ok) continue;
      assert.equal(result.problems.length, 1);
      assert.match(result.problems[0].message, /is read-only and was (changed|removed|added)/);
      assert.ok(result.problems[0].field?.startsWith(`${READ_ONLY_KEY}.`));
    }
  });

  test('a read-only field moved to the top level is refused as read-only', () => {
    const original = project();
    const result = readSettingsEdit(edit(original, (document) => (document.api_token = 'phc_x')), original);
    assert.equal(result.ok, false);
    assert.match(JSON.stringify(result), /"api_token\\" is read-only/);
  });

  test('a removed writable field is refused rather than guessed at', () => {
    const original = project();
    const result = readSettingsEdit(edit(original, (document) => delete document.timezone), original);
    assert.equal(result.ok, false);
    assert.match(JSON.stringify(result), /"timezone\\" was removed/);
  });

  test('duplicate keys are refused (JSON.parse would keep the last silently)', () => {
    const original = project();
    const text = serializeSettings(original).replace('"anonymize_ips": false,', '"anonymize_ips": false,\n  "anonymize_ips": true,');
    const result = readSettingsEdit(text, original);
    assert.ok(!result.ok);
    assert.match(result.problems[0].message, /duplicate property "anonymize_ips"/);
    assert.equal(result.problems[0].location.line, text.split('\n').lastIndexOf('  "anonymize_ips": true,') + 1);
  });
});

describe('fields PostHog refused by name', () => {
  test('each at its key, in PostHog\'s words; a field not in the text at the start', () => {
    const text = '{\n  "name": "Renamed",\n  "timezone": "UTC"\n}\n';
    const detail = 'Only project admins can modify these settings: name, timezone, week_start_day';
    assert.equal(describeProblems(refusedFieldProblems(text, ['name', 'timezone', 'week_start_day'], detail)), [
      `Line 1, column 1: "week_start_day": ${detail}`,
      `Line 2, column 3: "name": ${detail}`,
      `Line 3, column 3: "timezone": ${detail}`,
    ].join('\n'));
    assert.equal(refusedFieldProblems('not json', ['name'], detail)[0]?.location.line, 1);
  });
});

describe('settings JSON schema', () => {
  test(`${SETTINGS_SCHEMA_PATH} is the generated schema (regenerate it when the fields change)`, () => {
    const committed = readFileSync(path.join(repoRoot, SETTINGS_SCHEMA_PATH), 'utf8');
    assert.equal(committed, settingsJsonSchemaText());
  });

  test('covers every writable field, and the read-only ones under readOnly', () => {
    const schema = settingsJsonSchema() as { properties: Record<string, any>; additionalProperties: boolean };
    assert.equal(schema.additionalProperties, false);
    for (const field of PROJECT_WRITABLE_FIELDS) {
      assert.ok(field in schema.properties, field);
    }
    assert.deepEqual(Object.keys(schema.properties[READ_ONLY_KEY].properties), [...PROJECT_READ_ONLY_FIELDS]);
    assert.deepEqual(schema.properties.anonymize_ips, { type: 'boolean', description: 'Discard client IP addresses of incoming events.' });
  });

  test('package.json validates the settings documents with it', () => {
    const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
    const entries = manifest.contributes.jsonValidation as { fileMatch: string | string[]; url: string }[];
    assert.ok(entries.some((entry) => entry.url === `./${SETTINGS_SCHEMA_PATH}`));
  });
});
