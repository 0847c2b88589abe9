// PostHog's relative_date_parse (posthog/utils.py) as the notebook list's date_from / date_to use it, with
// dateutil's isoparse (dateutil/parser/isoparser.py) before it. Nothing is refused: what neither reads is "now".
import { serverError } from './errors';
import { pythonInt } from './python';
import { MICROS_PER_SECOND } from './time';

/** A wall-clock time: what a clock in some time zone shows. */
interface Wall {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  micro: number;
}

interface Parsed {
  wall: Wall;
  /** Seconds east of UTC; undefined for a time without an offset (read in the project's time zone). */
  offsetSeconds?: number;
}

const MICROS_PER_MINUTE = 60 * MICROS_PER_SECOND;
const MICROS_PER_DAY = 24 * 60 * MICROS_PER_MINUTE;

/**
 * The instant (microseconds since the epoch) PostHog reads from a date_from / date_to value:
 * - ISO 8601 as dateutil's isoparse reads it (2026-11-01, 20261101, 2026-W45-1, 2026-305,
 *   2026-11-01T12:30, any one character between date and time, Z / ±HH / ±HHMM / ±HH:MM), then
 *   "%Y-%m-%d" without zero padding (2026-1-5); without an offset, in the project's time zone;
 * - otherwise the first `-?N<unit>` (Start|End) anywhere in it, counted back from now in that time zone:
 *   h hours, d days, w weeks, m months, M minutes, s seconds, q 13 weeks, y years ("-7d", "7d" and "+7d" are
 *   all a week ago; "dStart" is today's midnight, "mStart" the 1st of this month);
 * - anything else (including a date such as 2026-02-30 that neither reads) is now.
 * A result outside Python's years 1-9999 is a 500, as PostHog's unhandled OverflowError / ValueError is.
 */
export function relativeDateParse(input: string, nowMicros: number, timeZone: string): number {
  const parsed = isoParse(input) ?? unpaddedDate(input);
  if (parsed) {
    const instant = parsed.offsetSeconds === undefined
      ? wallToInstant(parsed.wall, timeZone)
      : wallMicros(parsed.wall) - parsed.offsetSeconds * MICROS_PER_SECOND;
    return inPythonRange(instant);
  }
  const relative = /-?([0-9]+)?([hdwmqysHDWMQY])(Start|End)?/.exec(input);
  if (!relative) return nowMicros;
  const delta = deltaFor(relative[2]!, relative[1], relative[3]);
  if (Object.keys(delta).length === 0) return nowMicros;
  return wallToInstant(subtract(wallOf(nowMicros, timeZone), delta), timeZone);
}

// ---- dateutil's isoparse --------------------------------------------------------------------------

function isoParse(text: string): Parsed | undefined {
  if ([...text].some((char) => char.charCodeAt(0) > 0x7f)) return undefined;
  const date = commonDate(text) ?? uncommonDate(text);
  if (!date) return undefined;
  let time: TimeParts = { hour: 0, minute: 0, second: 0, micro: 0 };
  if (text.length > date.end) {
    const parsedTime = isoTime(text.slice(date.end + 1));
    if (!parsedTime) return undefined;
    time = parsedTime;
  }
  const midnightNext = time.hour === 24;
  const wall: Wall = { ...date.ymd, ...time, hour: midnightNext ? 0 : time.hour };
  if (!isValidWall(wall)) return undefined;
  return { wall: midnightNext ? addDays(wall, 1) : wall, offsetSeconds: time.offsetSeconds };
}

interface DateParts {
  ymd: { year: number; month: number; day: number };
  end: number;
}

/** YYYY, YYYY-MM, YYYY-MM-DD or YYYYMMDD (ranges are checked later, as datetime() does). */
function commonDate(text: string): DateParts | undefined {
  if (text.length < 4) return undefined;
  const year = pythonInt(text.slice(0, 4));
  if (year === undefined) return undefined;
  let pos = 4;
  if (pos >= text.length) return { ymd: { year, month: 1, day: 1 }, end: pos };
  const dashes = text[pos] === '-';
  if (dashes) pos++;
  if (text.length - pos < 2) return undefined;
  const month = pythonInt(text.slice(pos, pos + 2));
  if (month === undefined) return undefined;
  pos += 2;
  if (pos >= text.length) return dashes ? { ymd: { year, month, day: 1 }, end: pos } : undefined;
  if (dashes) {
    if (text[pos] !== '-') return undefined;
    pos++;
  }
  if (text.length - pos < 2) return undefined;
  const day = pythonInt(text.slice(pos, pos + 2));
  return day === undefined ? undefined : { ymd: { year, month, day }, end: pos + 2 };
}

/** YYYY-Www, YYYY-Www-D, YYYYWwwD, YYYY-DDD or YYYYDDD. */
function uncommonDate(text: string): DateParts | undefined {
  if (text.length < 4) return undefined;
  const year = pythonInt(text.slice(0, 4));
  if (year === undefined || year < 1 || year > 9999) return undefined;
  const dashes = text[4] === '-';
  let pos = dashes ? 5 : 4;
  let ordinal: number;
  if (text[pos] === 'W') {
    const week = pythonInt(text.slice(pos + 1, pos + 3));
    pos += 3;
    let weekday: number | undefined = 1;
    if (text.length > pos) {
      if ((text[pos] === '-') !== dashes) return undefined;
      if (dashes) pos++;
      weekday = pythonInt(text.slice(pos, pos + 1));
      pos++;
    }
    if (week === undefined || weekday === undefined || week < 1 || week > 53 || weekday < 1 || weekday > 7) return undefined;
    const jan4 = new Date(0);
    jan4.setUTCFullYear(year, 0, 4);
    const isoWeekdayOfJan4 = ((jan4.getUTCDay() + 6) % 7) + 1;
    ordinal = 4 - (isoWeekdayOfJan4 - 1) + (week - 1) * 7 + (weekday - 1);
  } else {
    if (text.length - pos < 3) return undefined;
    const day = pythonInt(text.slice(pos, pos + 3));
    pos += 3;
    if (day === undefined || day < 1 || day > (isLeap(year) ? 366 : 365)) return undefined;
    ordinal = day;
  }
  const date = new Date(0);
  date.setUTCFullYear(year, 0, ordinal);
  // A week date outside years 1-9999 overflows Python's date: an unhandled OverflowError.
  if (date.getUTCFullYear() < 1 || date.getUTCFullYear() > 9999) throw serverError();
  return { ymd: { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() }, end: pos };
}

interface TimeParts {
  hour: number;
  minute: number;
  second: number;
  micro: number;
  offsetSeconds?: number;
}

/** hh, hh:mm or hhmm, hh:mm:ss or hhmmss, a fraction after . or , (6 digits kept), then Z or ±HH[[:]MM]. */
function isoTime(text: string): TimeParts | undefined {
  if (text.length < 2) return undefined;
  const parts = [0, 0, 0, 0];
  let offsetSeconds: number | undefined;
  let pos = 0;
  let component = -1;
  let colons = false;
  while (pos < text.length && component < 5) {
    component++;
    if ('-+Zz'.includes(text[pos]!)) {
      const zone = zoneOffset(text.slice(pos));
      if (zone === undefined) return undefined;
      offsetSeconds = zone;
      pos = text.length;
      break;
    }
    if (component === 1 && text[pos] === ':') {
      colons = true;
      pos++;
    } else if (component === 2 && colons) {
      if (text[pos] !== ':') return undefined;
      pos++;
    }
    if (component < 3) {
      const value = pythonInt(text.slice(pos, pos + 2));
      if (value === undefined) return undefined;
      parts[component] = value;
      pos += 2;
    }
    if (component === 3) {
      const fraction = /^[.,]([0-9]+)/.exec(text.slice(pos));
      if (!fraction) continue;
      const digits = fraction[1]!.slice(0, 6);
      parts[3] = Number(digits) * 10 ** (6 - digits.length);
      pos += fraction[0].length;
    }
  }
  if (pos < text.length) return undefined;
  const [hour, minute, second, micro] = parts as [number, number, number, number];
  if (hour === 24 && (minute !== 0 || second !== 0 || micro !== 0)) return undefined;
  return { hour, minute, second, micro, offsetSeconds };
}

function zoneOffset(text: string): number | undefined {
  if (text === 'Z' || text === 'z') return 0;
  if (![3, 5, 6].includes(text.length)) return undefined;
  const sign = text[0] === '-' ? -1 : text[0] === '+' ? 1 : 0;
  if (sign === 0) return undefined;
  const hours = pythonInt(text.slice(1, 3));
  const minutes = text.length === 3 ? 0 : pythonInt(text.slice(text[3] === ':' ? 4 : 3));
  if (hours === undefined || minutes === undefined) return undefined;
  if (hours === 0 && minutes === 0) return 0;
  if (minutes > 59 || hours > 23) return undefined;
  return sign * (hours * 60 + minutes) * 60;
}

/** datetime.strptime(value, "%Y-%m-%d"): month and day may lack their leading zero, or the day be " 5". */
function unpaddedDate(text: string): Parsed | undefined {
  const match = /^([0-9]{4})-(1[0-2]|0[1-9]|[1-9])-(3[01]|[12][0-9]|0[1-9]|[1-9]| [1-9])$/i.exec(text);
  if (!match) return undefined;
  const wall: Wall = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]), hour: 0, minute: 0, second: 0, micro: 0 };
  return isValidWall(wall) ? { wall } : undefined;
}

// ---- relativedelta --------------------------------------------------------------------------------

/** relativedelta's arguments: plural names are amounts to go back, singular ones set that field. */
interface Delta {
  years?: number;
  months?: number;
  days?: number;
  hours?: number;
  minutes?: number;
  seconds?: number;
  month?: number;
  day?: number;
  hour?: number;
  minute?: number;
  second?: number;
  micro?: number;
}

function deltaFor(kind: string, number: string | undefined, position: string | undefined): Delta {
  // Python's `if number:` is true for any digits, "0" included: "-0d" still goes through relativedelta.
  const n = number === undefined ? undefined : Number(number);
  const has = n !== undefined;
  const delta: Delta = {};
  switch (kind) {
    case 'h':
      if (has) delta.hours = n!;
      if (position === 'Start') Object.assign(delta, { minute: 0, second: 0, micro: 0 });
      if (position === 'End') Object.assign(delta, { minute: 59, second: 59, micro: 999_999 });
      break;
    case 'd':
      if (has) delta.days = n!;
      if (position === 'Start') Object.assign(delta, { hour: 0, minute: 0, second: 0, micro: 0 });
      if (position === 'End') Object.assign(delta, { hour: 23, minute: 59, second: 59, micro: 999_999 });
      break;
    case 'w':
      if (has) delta.days = 7 * n!;
      break;
    case 'm':
      if (has) delta.months = n!;
      if (position === 'Start') delta.day = 1;
      if (position === 'End') delta.day = 31;
      break;
    case 'M':
      if (has) delta.minutes = n!;
      break;
    case 's':
      if (has) delta.seconds = n!;
      break;
    case 'q':
      if (has) delta.days = 7 * 13 * n!;
      break;
    case 'y':
      if (has) delta.years = n!;
      if (position === 'Start') Object.assign(delta, { month: 1, day: 1 });
      if (position === 'End') delta.day = 31;
      break;
    // H, D, W, Q, Y and S match the pattern but map to nothing: now.
  }
  return delta;
}

/** `wall - relativedelta(**delta)`: fields set, years and months back (the day clamped), then wall-clock time back. */
function subtract(wall: Wall, delta: Delta): Wall {
  let year = wall.year - (delta.years ?? 0);
  let month = (delta.month ?? wall.month) - (delta.months ?? 0);
  year += Math.floor((month - 1) / 12);
  month = ((((month - 1) % 12) + 12) % 12) + 1;
  if (year < 1 || year > 9999 || !Number.isFinite(year)) throw serverError();
  const day = Math.min(daysInMonth(year, month), delta.day ?? wall.day);
  const set: Wall = {
    year, month, day,
    hour: delta.hour ?? wall.hour, minute: delta.minute ?? wall.minute, second: delta.second ?? wall.second, micro: delta.micro ?? wall.micro,
  };
  const back = (delta.days ?? 0) * MICROS_PER_DAY + (delta.hours ?? 0) * 60 * MICROS_PER_MINUTE
    + (delta.minutes ?? 0) * MICROS_PER_MINUTE + (delta.seconds ?? 0) * MICROS_PER_SECOND;
  const result = wallFromMicros(wallMicros(set) - back);
  if (!(result.year >= 1 && result.year <= 9999)) throw serverError();
  return result;
}

// ---- wall clocks and time zones -------------------------------------------------------------------

const formatters = new Map<string, Intl.DateTimeFormat>();

/** What a clock in the time zone shows at an instant. */
function wallOf(instant: number, timeZone: string): Wall {
  const micro = ((instant % MICROS_PER_SECOND) + MICROS_PER_SECOND) % MICROS_PER_SECOND;
  if (timeZone === 'UTC') return wallFromMicros(instant);
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', era: 'short', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(new Date(Math.floor(instant / 1000))).map((part) => [part.type, part.value]));
  const year = Number(parts['year']);
  return {
    year: parts['era'] === 'BC' ? 1 - year : year, month: Number(parts['month']), day: Number(parts['day']),
    hour: Number(parts['hour']), minute: Number(parts['minute']), second: Number(parts['second']), micro,
  };
}

function offsetAt(instant: number, timeZone: string): number {
  const wall = wallOf(instant, timeZone);
  return wallMicros({ ...wall, micro: 0 }) - (instant - wall.micro);
}

/**
 * The instant a wall-clock time names in the time zone, as Python's zoneinfo reads it with fold=0: a time
 * that happens twice is the first one; a time skipped by a clock change uses the offset from before it.
 */
function wallToInstant(wall: Wall, timeZone: string): number {
  if (wall.year < 1 || wall.year > 9999) throw serverError();
  const local = wallMicros(wall);
  const before = offsetAt(local - MICROS_PER_DAY, timeZone);
  const after = offsetAt(local + MICROS_PER_DAY, timeZone);
  if (before === after || offsetAt(local - before, timeZone) === before) return local - before;
  return offsetAt(local - after, timeZone) === after ? local - after : local - before;
}

function inPythonRange(instant: number): number {
  const year = wallFromMicros(instant).year;
  if (!Number.isFinite(instant) || year < 1 || year > 9999) throw serverError();
  return instant;
}

/** A wall-clock time as microseconds, counted as if it were UTC (years before 100 included). */
function wallMicros(wall: Wall): number {
  const date = new Date(0);
  date.setUTCFullYear(wall.year, wall.month - 1, wall.day);
  date.setUTCHours(wall.hour, wall.minute, wall.second, 0);
  return date.getTime() * 1000 + wall.micro;
}

function wallFromMicros(micros: number): Wall {
  const micro = ((micros % MICROS_PER_SECOND) + MICROS_PER_SECOND) % MICROS_PER_SECOND;
  const date = new Date((micros - micro) / 1000);
  return {
    year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(),
    hour: date.getUTCHours(), minute: date.getUTCMinutes(), second: date.getUTCSeconds(), micro,
  };
}

function addDays(wall: Wall, days: number): Wall {
  const next = wallFromMicros(wallMicros(wall) + days * MICROS_PER_DAY);
  if (next.year > 9999) throw serverError();
  return next;
}

function isValidWall(wall: Wall): boolean {
  return wall.year >= 1 && wall.year <= 9999 && wall.month >= 1 && wall.month <= 12 && wall.day >= 1
    && wall.day <= daysInMonth(wall.year, wall.month) && wall.hour >= 0 && wall.hour <= 23 && wall.minute >= 0
    && wall.minute <= 59 && wall.second >= 0 && wall.second <= 59;
}

function daysInMonth(year: number, month: number): number {
  return [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
