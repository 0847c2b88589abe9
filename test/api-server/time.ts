// Time values are kept as integer microseconds since the epoch, like PostHog's databases.

export const MICROS_PER_MS = 1000;
export const MICROS_PER_SECOND = 1_000_000;
export const MICROS_PER_HOUR = 3600 * MICROS_PER_SECOND;
export const MICROS_PER_DAY = 24 * MICROS_PER_HOUR;

function isoParts(micros: number): { base: string; fraction: string } {
  const ms = Math.floor(micros / 1000);
  const iso = new Date(ms).toISOString(); // 2024-01-02T03:04:05.678Z
  const fraction = String(((micros % MICROS_PER_SECOND) + MICROS_PER_SECOND) % MICROS_PER_SECOND).padStart(6, '0');
  return { base: iso.slice(0, 19), fraction };
}

/** DRF DateTimeField style: 2024-01-02T03:04:05.678901Z */
export function isoZ(micros: number): string {
  const { base, fraction } = isoParts(micros);
  return `${base}.${fraction}Z`;
}

/** Python datetime.isoformat() in UTC, as the events API answers: 2024-01-02T03:04:05.678901+00:00 */
export function isoOffset(micros: number): string {
  const { base, fraction } = isoParts(micros);
  return `${base}.${fraction}+00:00`;
}

const ISO_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):?(\d{2})(?::?(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** Parses ISO 8601 (like dateutil's isoparse) to microseconds, keeping sub-millisecond digits. Naive = UTC. */
export function parseIsoMicros(text: string): number | undefined {
  const m = ISO_PATTERN.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (Number.isNaN(ms)) return undefined;
  const date = new Date(ms);
  if (date.getUTCMonth() !== Number(mo) - 1 || date.getUTCDate() !== Number(d)) return undefined;
  let micros = ms * 1000 + Number((frac + '000000').slice(0, 6));
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offsetMinutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0');
    micros -= sign * offsetMinutes * 60 * MICROS_PER_SECOND;
  }
  return micros;
}

const RELATIVE_PATTERN = /^-?(\d+)([hdwmyHDWMY]|minute|min|hour|day|week|month|year)s?$/;

/**
 * PostHog's relative_date_parse subset: "-7d", "-24h", "-2w", "-1m" (months), "-1y", "-30minute";
 * otherwise an ISO date.
 */
export function parseDateParam(text: string, nowMicros: number): number | undefined {
  const iso = parseIsoMicros(text);
  if (iso !== undefined) return iso;
  const m = RELATIVE_PATTERN.exec(text.trim());
  if (!m) return undefined;
  const amount = Number(m[1]);
  const unit = m[2]!;
  const now = new Date(Math.floor(nowMicros / 1000));
  switch (unit) {
    case 'h': case 'H': case 'hour': return nowMicros - amount * MICROS_PER_HOUR;
    case 'minute': case 'min': return nowMicros - amount * 60 * MICROS_PER_SECOND;
    case 'd': case 'D': case 'day': return startOfDay(nowMicros - amount * MICROS_PER_DAY);
    case 'w': case 'W': case 'week': return startOfDay(nowMicros - amount * 7 * MICROS_PER_DAY);
    case 'm': case 'M': case 'month': now.setUTCMonth(now.getUTCMonth() - amount); return startOfDay(now.getTime() * 1000);
    default: now.setUTCFullYear(now.getUTCFullYear() - amount); return startOfDay(now.getTime() * 1000);
  }
}

function startOfDay(micros: number): number {
  return micros - (((micros % MICROS_PER_DAY) + MICROS_PER_DAY) % MICROS_PER_DAY);
}
