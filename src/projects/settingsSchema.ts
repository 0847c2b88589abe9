import { FIELD_DESCRIPTIONS, type FieldKind, NAME_MAX_LENGTH, PROJECT_READ_ONLY_FIELDS, WRITABLE_FIELD_KINDS, writableFieldOrder } from './projectFields';
import { READ_ONLY_KEY } from './settingsText';

/** Where the generated schema lives (package.json "jsonValidation" points at it). */
export const SETTINGS_SCHEMA_PATH = 'media/schemas/project-settings.schema.json';

const COMMON_TIME_ZONES = [
  'UTC',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'America/Sao_Paulo',
  'Europe/London',
  'Europe/Berlin',
  'Europe/Paris',
  'Asia/Kolkata',
  'Asia/Singapore',
  'Asia/Tokyo',
  'Australia/Sydney',
];

/**
 * The JSON schema of the settings document, for completion and validation in the editor. Written to
 * SETTINGS_SCHEMA_PATH; a unit test checks that the file matches this function.
 */
export function settingsJsonSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const field of writableFieldOrder()) {
    const description = FIELD_DESCRIPTIONS[field];
    properties[field] = { ...schemaOf(WRITABLE_FIELD_KINDS[field], field), ...(description ? { description } : {}) };
  }
  const readOnly: Record<string, unknown> = {};
  for (const field of PROJECT_READ_ONLY_FIELDS) {
    readOnly[field] = { readOnly: true, markdownDescription: 'Set by PostHog; cannot be changed here.' };
  }
  properties[READ_ONLY_KEY] = {
    type: 'object',
    readOnly: true,
    description: 'Shown for reference. PostHog sets these fields; saving refuses any change to them.',
    properties: readOnly,
    additionalProperties: false,
  };
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'PostHog project settings',
    description: 'The writable settings of a PostHog project. Saving sends the changed fields in one PATCH.',
    type: 'object',
    properties,
    additionalProperties: false,
  };
}

export function settingsJsonSchemaText(): string {
  return `${JSON.stringify(settingsJsonSchema(), null, 2)}\n`;
}

function schemaOf(kind: FieldKind, field: string): Record<string, unknown> {
  const nullable = (type: string, isNullable: boolean) => (isNullable ? { type: [type, 'null'] } : { type });
  switch (kind.kind) {
    case 'name':
      return { type: 'string', minLength: 1, maxLength: NAME_MAX_LENGTH, pattern: '\\S' };
    case 'string':
      return field === 'timezone'
        ? { type: 'string', examples: COMMON_TIME_ZONES }
        : field === 'session_recording_sample_rate'
          ? { type: ['string', 'null'], pattern: '^(0(\\.\\d{1,2})?|1(\\.0{1,2})?)$', examples: ['1.00', '0.50', '0.10'] }
          : nullable('string', kind.nullable);
    case 'boolean':
      return nullable('boolean', kind.nullable);
    case 'integer':
      return {
        ...nullable('integer', kind.nullable),
        ...(kind.minimum === undefined ? {} : { minimum: kind.minimum }),
        ...(kind.maximum === undefined ? {} : { maximum: kind.maximum }),
      };
    case 'weekStartDay':
      return { enum: [0, 1, null], markdownEnumDescriptions: ['Sunday', 'Monday', 'By locale'] };
    case 'stringList':
      return {
        ...nullable('array', kind.nullable),
        items: kind.nullItems ? { type: ['string', 'null'] } : { type: 'string' },
      };
    case 'json':
      return {};
  }
}
