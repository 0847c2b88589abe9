// Request-body validation with Django REST framework's rules and messages. The first failing field
// is reported (as drf-exceptions-hog does), with nested positions joined by "__" in `attr`.
import type { Json, JsonObject } from './model';
import { validation } from './errors';

export type Field =
  | { kind: 'string'; maxLength?: number; minLength?: number; allowNull?: boolean; allowBlank?: boolean }
  | { kind: 'boolean'; allowNull?: boolean }
  | { kind: 'integer'; allowNull?: boolean; min?: number; max?: number }
  | { kind: 'choice'; choices: readonly (string | number)[]; allowNull?: boolean }
  | { kind: 'timezone' }
  | { kind: 'decimal'; maxDigits: number; decimalPlaces: number; allowNull?: boolean }
  | { kind: 'stringList'; allowNull?: boolean; allowNullItems?: boolean; itemMaxLength?: number }
  | { kind: 'object'; allowNull?: boolean }
  | { kind: 'json' };

export type Schema = Record<string, Field>;

const TRUE_VALUES = new Set<unknown>(['t', 'T', 'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON', '1', 1, true]);
const FALSE_VALUES = new Set<unknown>(['f', 'F', 'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF', '0', 0, false]);
const NULL_VALUES = new Set<unknown>(['null', 'Null', 'NULL', '', null]);

/** The body must be a JSON object (DRF: "Invalid data. Expected a dictionary, but got list."). */
export function requireObject(body: unknown): JsonObject {
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw validation(`Invalid data. Expected a dictionary, but got ${pythonType(body)}.`, null, 'invalid');
  }
  return body as JsonObject;
}

/** Validates the schema's fields present in `body`; unknown and read-only fields are ignored, as DRF does. */
export function validateBody(body: JsonObject, schema: Schema): JsonObject {
  const out: JsonObject = {};
  for (const [name, field] of Object.entries(schema)) {
    if (!(name in body)) continue;
    out[name] = validateField(body[name] as Json, field, name);
  }
  return out;
}

function validateField(value: Json, field: Field, attr: string): Json {
  if (value === null && field.kind !== 'json') {
    if ('allowNull' in field && field.allowNull) return null;
    throw validation('This field may not be null.', attr, 'null');
  }
  switch (field.kind) {
    case 'json':
      return value;
    case 'object':
      if (typeof value !== 'object' || Array.isArray(value)) throw validation('Expected a JSON object.', attr, 'invalid');
      return value;
    case 'string':
      return validateString(value, field, attr);
    case 'boolean':
      if (TRUE_VALUES.has(value)) return true;
      if (FALSE_VALUES.has(value)) return false;
      if (field.allowNull && NULL_VALUES.has(value)) return null;
      throw validation('Must be a valid boolean.', attr, 'invalid');
    case 'integer':
      return validateInteger(value, field, attr);
    case 'choice': {
      const match = field.choices.find((c) => String(c) === pythonStr(value));
      if (match === undefined || typeof value === 'object') throw validation(`"${pythonStr(value)}" is not a valid choice.`, attr, 'invalid_choice');
      return match;
    }
    case 'timezone':
      if (typeof value !== 'string' || !isTimezone(value)) throw validation(`"${pythonStr(value)}" is not a valid choice.`, attr, 'invalid_choice');
      return value;
    case 'decimal':
      return validateDecimal(value, field, attr);
    case 'stringList':
      return validateStringList(value, field, attr);
  }
}

function validateString(value: Json, field: Extract<Field, { kind: 'string' }>, attr: string): string {
  if (typeof value === 'boolean' || !(typeof value === 'string' || typeof value === 'number')) {
    throw validation('Not a valid string.', attr, 'invalid');
  }
  const text = String(value).trim();
  if (text === '' && !field.allowBlank) throw validation('This field may not be blank.', attr, 'blank');
  if (field.maxLength !== undefined && text.length > field.maxLength) {
    throw validation(`Ensure this field has no more than ${field.maxLength} characters.`, attr, 'max_length');
  }
  if (field.minLength !== undefined && text.length < field.minLength && text !== '') {
    throw validation(`Ensure this field has at least ${field.minLength} characters.`, attr, 'min_length');
  }
  return text;
}

function validateInteger(value: Json, field: Extract<Field, { kind: 'integer' }>, attr: string): number {
  const text = typeof value === 'string' || typeof value === 'number' ? String(value).replace(/\.0*\s*$/, '').trim() : '';
  if (typeof value === 'boolean' || !/^[+-]?\d+$/.test(text)) throw validation('A valid integer is required.', attr, 'invalid');
  const n = Number(text);
  if (field.min !== undefined && n < field.min) throw validation(`Ensure this value is greater than or equal to ${field.min}.`, attr, 'min_value');
  if (field.max !== undefined && n > field.max) throw validation(`Ensure this value is less than or equal to ${field.max}.`, attr, 'max_value');
  return n;
}

function validateDecimal(value: Json, field: Extract<Field, { kind: 'decimal' }>, attr: string): string {
  const text = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
  if (typeof value === 'boolean' || !/^[+-]?(\d+\.?\d*|\.\d+)$/.test(text)) throw validation('A valid number is required.', attr, 'invalid');
  const [whole = '', fraction = ''] = text.replace(/^[+-]/, '').split('.');
  const wholeDigits = whole.replace(/^0+/, '').length;
  const fractionDigits = fraction.replace(/0+$/, '').length;
  if (wholeDigits + fractionDigits > field.maxDigits) {
    throw validation(`Ensure that there are no more than ${field.maxDigits} digits in total.`, attr, 'max_digits');
  }
  if (fractionDigits > field.decimalPlaces) {
    throw validation(`Ensure that there are no more than ${field.decimalPlaces} decimal places.`, attr, 'max_decimal_places');
  }
  const maxWhole = field.maxDigits - field.decimalPlaces;
  if (wholeDigits > maxWhole) {
    throw validation(`Ensure that there are no more than ${maxWhole} digit${maxWhole === 1 ? '' : 's'} before the decimal point.`, attr, 'max_whole_digits');
  }
  return Number(text).toFixed(field.decimalPlaces);
}

function validateStringList(value: Json, field: Extract<Field, { kind: 'stringList' }>, attr: string): Json[] {
  if (!Array.isArray(value)) {
    throw validation(`Expected a list of items but got type "${pythonType(value)}".`, attr, 'not_a_list');
  }
  return value.map((item, index) => {
    if (item === null) {
      if (field.allowNullItems) return null;
      throw validation('This field may not be null.', `${attr}__${index}`, 'null');
    }
    return validateString(item, { kind: 'string', allowBlank: true, maxLength: field.itemMaxLength }, `${attr}__${index}`);
  });
}

let zoneNames: Set<string> | undefined;

/** An IANA time zone name, case as in the tz database (pytz's all_timezones accepts aliases too). */
export function isTimezone(name: string): boolean {
  zoneNames ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (zoneNames.has(name) || name === 'UTC') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
  } catch {
    return false;
  }
  return name.split('/').every((part) => /^[A-Z]/.test(part));
}

export function pythonType(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'str';
  return 'dict';
}

/** How Python's str() shows a JSON value in DRF messages. */
function pythonStr(value: Json): string {
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (value === null) return 'None';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
