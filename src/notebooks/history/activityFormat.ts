const MAX_VALUE_LENGTH = 80;

/** A value of an activity change on one short line (JSON, cut at 80 characters; ∅ for none). */
export function showValue(value: unknown): string {
  if (value === undefined || value === null) {
    return '∅';
  }
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > MAX_VALUE_LENGTH ? `${oneLine.slice(0, MAX_VALUE_LENGTH - 1)}…` : oneLine;
}
