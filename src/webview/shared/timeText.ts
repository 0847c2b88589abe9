// Event times as people read them: the local date and time with the age ("12s ago"). DOM-free; the
// full ISO time stays in the cell's title.

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', Number.POSITIVE_INFINITY],
];

export class TimeText {
  private readonly absolute: Intl.DateTimeFormat;
  private readonly relative: Intl.RelativeTimeFormat;

  constructor(locale?: string) {
    const locales = supported(locale);
    this.absolute = new Intl.DateTimeFormat(locales, {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    this.relative = new Intl.RelativeTimeFormat(locales, { numeric: 'always', style: 'narrow' });
  }

  /** The age of `ms` at `now`: seconds under a minute, then minutes, hours, days. */
  age(ms: number, now: number): string {
    let value = (ms - now) / 1000;
    for (const [unit, size] of UNITS) {
      if (Math.abs(value) < size) {
        return this.relative.format(Math.round(value) || 0, unit);
      }
      value /= size;
    }
    return this.relative.format(Math.round(value), 'day');
  }

  /** The local date and time alone; text that is not a time is shown as it is. */
  at(text: string): string {
    const ms = Date.parse(text);
    return !text || Number.isNaN(ms) ? text : this.absolute.format(ms);
  }

  /** What the Time cell shows; text that is not a time is shown as it is. */
  cell(text: string, now: number): string {
    const ms = Date.parse(text);
    if (!text || Number.isNaN(ms)) {
      return text;
    }
    return `${this.absolute.format(ms)} · ${this.age(ms, now)}`;
  }
}

function supported(locale: string | undefined): string | undefined {
  try {
    return locale && Intl.DateTimeFormat.supportedLocalesOf(locale).length > 0 ? locale : undefined;
  } catch {
    return undefined; // not a language tag
  }
}
