// How PostHog's ingestion guesses a property definition's type from a value it sees (facts from
// rust/property-defs-rs/src/types.rs, `detect_property_type`; see README.md, "Property definitions").
import type { Json } from './model';

export type PropertyType = 'DateTime' | 'String' | 'Numeric' | 'Boolean';

/** Names that hint at a time: a date-like string or a recent whole number of seconds under them is a DateTime. */
const TIME_NAME_PARTS = ['time', 'timestamp', 'date', '_at', '-at', 'createdat', 'updatedat'];
/** Names whose values are always text, whatever the first one looked like. */
const TEXT_NAME_PREFIXES = ['utm_', '$initial_utm_', '$feature/', '$survey_response'];
const SIX_MONTHS_S = 15_768_000;

/** A date at the start (year first or last, `-` or `/`), then optionally a time of day and anything. */
const DATE_PREFIX = /^(\d{4}[-/][0-2]\d[-/][0-3]\d|[0-2]\d[-/][0-3]\d[-/]\d{4})([ T][0-2]\d:[0-6]\d:[0-6]\d.*)?$/;
const RFC_3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const RFC_2822 = /^([A-Za-z]{3},\s*)?\d{1,2}\s+[A-Za-z]{3}\s+\d{2,4}\s+\d{2}:\d{2}(:\d{2})?\s+([+-]\d{4}|[A-Za-z]{1,5})$/;

/** The type PostHog gives a property first seen with this value; null (no type) for null, objects and lists. */
export function guessPropertyType(name: string, value: Json, nowMs: number): PropertyType | null {
  const key = name.toLowerCase();
  if (TEXT_NAME_PREFIXES.some((prefix) => key.startsWith(prefix)) || key === '$feature_flag_response') return 'String';
  if (TIME_NAME_PARTS.some((part) => key.includes(part)) && looksLikeTime(value, nowMs)) return 'DateTime';
  if (typeof value === 'string') return typeOfText(value.trim());
  if (typeof value === 'number') return 'Numeric';
  if (typeof value === 'boolean') return 'Boolean';
  return null;
}

function typeOfText(text: string): PropertyType {
  if (['true', 'false', 'TRUE', 'FALSE'].includes(text)) return 'Boolean';
  return isLikelyDate(text) ? 'DateTime' : 'String';
}

/** A date-like string, or a whole non-negative number of seconds from six months ago on. */
function looksLikeTime(value: Json, nowMs: number): boolean {
  if (typeof value === 'string') return isLikelyDate(value);
  return typeof value === 'number' && Number.isInteger(value) && value >= Math.floor(nowMs / 1000) - SIX_MONTHS_S;
}

function isLikelyDate(text: string): boolean {
  return RFC_3339.test(text) || RFC_2822.test(text) || DATE_PREFIX.test(text);
}
