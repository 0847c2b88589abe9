import type { Project, ProjectWritable, ProjectWritableField } from '../api';
import { JsonSyntaxError, type Location, parseJsonWithLocations, type ParsedJson } from '../common/jsonWithLocations';
import {
  type FieldKind,
  isWritableField,
  NAME_MAX_LENGTH,
  PROJECT_READ_ONLY_FIELDS,
  WRITABLE_FIELD_KINDS,
  writableFieldOrder,
} from './projectFields';

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** The member that holds the read-only fields, apart from the editable ones. */
export const READ_ONLY_KEY = 'readOnly';

/** Why a settings document cannot be saved: what is wrong, and where. */
export interface SettingsProblem {
  readonly message: string;
  readonly field?: string;
  readonly location: Location;
}

export type SettingsEdit =
  | { readonly ok: true; readonly changes: ProjectWritable; readonly changedFields: ProjectWritableField[] }
  | { readonly ok: false; readonly problems: SettingsProblem[] };

/**
 * The project as the user edits it: the writable fields (name first, then alphabetical) at the top
 * level, the read-only ones under "readOnly", each in a stable order, two-space indented.
 */
export function serializeSettings(project: Project): string {
  const document: Record<string, unknown> = {};
  const source = project as Record<string, unknown>;
  for (const field of writableFieldOrder()) {
    if (source[field] !== undefined) {
      document[field] = source[field];
    }
  }
  const readOnly: Record<string, unknown> = {};
  for (const field of PROJECT_READ_ONLY_FIELDS) {
    if (source[field] !== undefined) {
      readOnly[field] = source[field];
    }
  }
  document[READ_ONLY_KEY] = readOnly;
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * Reads an edited settings document against the project it was made from: the writable fields whose
 * value changed, or every problem that keeps it from being saved (nothing is sent then).
 */
export function readSettingsEdit(text: string, original: Project): SettingsEdit {
  let parsed: ParsedJson;
  try {
    parsed = parseJsonWithLocations(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) {
      return refused([{ message: `Invalid JSON: ${error.reason}.`, location: error.location }]);
    }
    throw error;
  }
  const value = parsed.value as JsonValue;
  const start: Location = { line: 1, column: 1, offset: 0 };
  if (!isObject(value)) {
    return refused([{ message: 'The settings must be a JSON object.', location: start }]);
  }
  /** Where a path's key is; a removed key points at its parent's. */
  const at = (path: string): Location =>
    parsed.locateKey(path.split('.')) ?? (path.includes('.') ? at(path.slice(0, path.lastIndexOf('.'))) : start);
  const problems: SettingsProblem[] = [];
  const baseline = JSON.parse(serializeSettings(original)) as Record<string, JsonValue>;
  const changes: Record<string, JsonValue> = {};

  for (const [field, fieldValue] of Object.entries(value)) {
    if (field === READ_ONLY_KEY) {
      problems.push(...readOnlyProblems(fieldValue, baseline[READ_ONLY_KEY], at));
    } else if (!isWritableField(field)) {
      problems.push({
        field,
        location: at(field),
        message: (PROJECT_READ_ONLY_FIELDS as readonly string[]).includes(field)
          ? `"${field}" is read-only; it belongs under "${READ_ONLY_KEY}" and cannot be changed.`
          : `"${field}" is not a project setting PostHog accepts.`,
      });
    } else {
      const problem = typeProblem(field, fieldValue);
      if (problem) {
        problems.push({ field, location: at(field), message: `"${field}" ${problem}.` });
      } else {
        const normalized = field === 'name' ? (fieldValue as string).trim() : fieldValue;
        if (!sameJson(normalized, baseline[field])) {
          changes[field] = normalized;
        }
      }
    }
  }
  for (const field of Object.keys(baseline)) {
    if (!(field in value)) {
      problems.push({
        field,
        location: start,
        message:
          field === READ_ONLY_KEY
            ? `"${READ_ONLY_KEY}" was removed; put it back unchanged.`
            : `"${field}" was removed; put it back (use null to clear a setting that allows it).`,
      });
    }
  }
  if (problems.length > 0) {
    return refused(problems);
  }
  const changedFields = writableFieldOrder().filter((field) => field in changes);
  return { ok: true, changes: changes as ProjectWritable, changedFields };
}

/**
 * PostHog refused some fields by name (e.g. its 403 "Only project admins can modify these settings: name"):
 * one problem per field, at the field's key in the edited text, in PostHog's words.
 */
export function refusedFieldProblems(text: string, fields: readonly string[], detail: string): SettingsProblem[] {
  const start: Location = { line: 1, column: 1, offset: 0 };
  let parsed: ParsedJson | undefined;
  try {
    parsed = parseJsonWithLocations(text);
  } catch {
    parsed = undefined;
  }
  return refused(fields.map((field) => ({ field, location: parsed?.locateKey([field]) ?? start, message: `"${field}": ${detail}` }))).problems;
}

/** One line per problem, e.g. 'Line 4, "anonymize_ips": must be true or false, not "yes".' */
export function describeProblems(problems: readonly SettingsProblem[]): string {
  return problems.map(describeProblem).join('\n');
}

export function describeProblem(problem: SettingsProblem): string {
  return `Line ${problem.location.line}, column ${problem.location.column}: ${problem.message}`;
}

function readOnlyProblems(
  edited: JsonValue,
  original: JsonValue | undefined,
  at: (path: string) => Location,
): SettingsProblem[] {
  if (!isObject(edited) || !isObject(original ?? null)) {
    return [{ field: READ_ONLY_KEY, location: at(READ_ONLY_KEY), message: `"${READ_ONLY_KEY}" must stay as it was.` }];
  }
  const before = original as Record<string, JsonValue>;
  const problems: SettingsProblem[] = [];
  for (const field of new Set([...Object.keys(before), ...Object.keys(edited)])) {
    if (!sameJson(edited[field], before[field])) {
      const path = `${READ_ONLY_KEY}.${field}`;
      const what = !(field in edited) ? 'was removed' : !(field in before) ? 'was added' : 'was changed';
      problems.push({
        field: path,
        location: at(path),
        message: `"${field}" is read-only and ${what}; PostHog sets it. Undo that edit to save.`,
      });
    }
  }
  return problems;
}

/** Why a value does not fit a writable field, or undefined when it does. */
export function typeProblem(field: ProjectWritableField, value: JsonValue): string | undefined {
  return kindProblem(WRITABLE_FIELD_KINDS[field], value);
}

function kindProblem(kind: FieldKind, value: JsonValue): string | undefined {
  const got = `not ${describeValue(value)}`;
  switch (kind.kind) {
    case 'name': {
      if (typeof value !== 'string') {
        return `must be a string, ${got}`;
      }
      return nameProblem(value);
    }
    case 'string':
      return typeof value === 'string' || (kind.nullable && value === null)
        ? undefined
        : `must be a string${kind.nullable ? ' or null' : ''}, ${got}`;
    case 'boolean':
      return typeof value === 'boolean' || (kind.nullable && value === null)
        ? undefined
        : `must be true or false${kind.nullable ? ' (or null)' : ''}, ${got}`;
    case 'integer': {
      if (kind.nullable && value === null) {
        return undefined;
      }
      if (typeof value !== 'number' || !Number.isInteger(value)) {
        return `must be a whole number${kind.nullable ? ' or null' : ''}, ${got}`;
      }
      if (kind.minimum !== undefined && value < kind.minimum) {
        return `must be at least ${kind.minimum}`;
      }
      if (kind.maximum !== undefined && value > kind.maximum) {
        return `must be at most ${kind.maximum}`;
      }
      return undefined;
    }
    case 'weekStartDay':
      return value === 0 || value === 1 || value === null ? undefined : `must be 0 (Sunday), 1 (Monday) or null, ${got}`;
    case 'stringList': {
      if (kind.nullable && value === null) {
        return undefined;
      }
      const itemsOk =
        Array.isArray(value) && value.every((item) => typeof item === 'string' || (kind.nullItems && item === null));
      return itemsOk ? undefined : `must be a list of strings${kind.nullable ? ' or null' : ''}, ${got}`;
    }
    case 'json':
      return undefined;
  }
}

/** Why a project name is refused (1-200 characters once trimmed), or undefined. */
export function nameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed.length === 0) {
    return 'must not be empty';
  }
  if (trimmed.length > NAME_MAX_LENGTH) {
    return `must be at most ${NAME_MAX_LENGTH} characters (it has ${trimmed.length})`;
  }
  return undefined;
}

function describeValue(value: JsonValue): string {
  if (value === null) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return 'a list';
  }
  if (typeof value === 'object') {
    return 'an object';
  }
  const shown = JSON.stringify(value);
  return shown.length > 40 ? `${typeof value === 'string' ? 'a string' : 'a number'}` : shown;
}

function refused(problems: SettingsProblem[]): { readonly ok: false; readonly problems: SettingsProblem[] } {
  const ordered = [...problems].sort((a, b) => a.location.line - b.location.line || a.location.column - b.location.column);
  return { ok: false, problems: ordered };
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Equal as JSON values, whatever the order of object keys. */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(canonical).join(',')}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}
