// Event timestamps to the microsecond, as PostHog stores them (ClickHouse DateTime64(6)). JavaScript dates
// stop at milliseconds, and paging below a row needs its time plus one microsecond.

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** Microseconds since the epoch of an ISO 8601 time (up to 9 fractional digits, any offset; none = UTC). */
export function timestampMicros(text: string): number | undefined {
  const match = ISO.exec(text.trim());
  if (!match) {
    return undefined;
  }
  const [, year, month, day, hour, minute, second, fraction = '', zone] = match;
  const ms = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
  if (Number.isNaN(ms)) {
    return undefined;
  }
  let micros = ms * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6));
  if (zone && zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0');
    micros -= (zone.startsWith('-') ? -1 : 1) * minutes * 60_000_000;
  }
  return micros;
}

/** The time as ISO 8601 in UTC with six fractional digits: 2026-03-02T12:00:00.000001Z. */
export function isoFromMicros(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const fraction = String(micros - Math.floor(micros / 1_000_000) * 1_000_000).padStart(6, '0');
  return `${new Date(ms).toISOString().slice(0, 19)}.${fraction}Z`;
}
