/**
 * A streamed reader of server-sent events (the WHATWG "event stream" format), fed text as it arrives. A
 * server's stream is untrusted and long-lived: each line and each event is capped, and what is over a cap is
 * skipped up to the end of its event and reported, so memory stays bounded whatever the server sends. Linear in
 * the text fed: each character is looked at once, and a line is joined once.
 */

/** One event as the stream dispatched it. */
export interface SseEvent {
  readonly kind: 'event';
  /** The `event:` field, "message" when there was none. */
  readonly event: string;
  readonly data: string;
  /** The `id:` field of this event, if it had one (the last event id does not carry over to events without). */
  readonly id?: string;
}

/** An event skipped for being over a cap: what it was is unknown, only that something was missed. */
export interface SseSkipped {
  readonly kind: 'skipped';
  readonly reason: 'line' | 'event';
}

export type SseItem = SseEvent | SseSkipped;

export interface SseLimits {
  /** The longest line read, in UTF-16 code units. */
  readonly maxLineChars: number;
  /** The most data one event may carry, in UTF-16 code units. */
  readonly maxEventChars: number;
}

export class SseParser {
  private line: string[] = [];
  private lineChars = 0;
  private afterCarriageReturn = false;
  private data: string[] = [];
  private dataChars = 0;
  private hasData = false;
  private eventType = '';
  private id: string | undefined;
  private skipped: SseSkipped['reason'] | undefined;

  constructor(private readonly limits: SseLimits) {}

  /** The items the text completes; a partial line or event waits for the next text. */
  push(text: string): SseItem[] {
    const items: SseItem[] = [];
    let start = 0;
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (this.afterCarriageReturn) {
        this.afterCarriageReturn = false;
        if (code === 10) {
          start = index + 1; // the "\n" of a "\r\n", maybe split between two pushes
          continue;
        }
      }
      if (code !== 10 && code !== 13) {
        continue;
      }
      this.append(text.slice(start, index));
      this.endLine(items);
      this.afterCarriageReturn = code === 13;
      start = index + 1;
    }
    this.append(text.slice(start));
    return items;
  }

  /** The stream ended: a partial event is dropped, as the format says. */
  end(): void {
    this.line = [];
    this.lineChars = 0;
    this.resetEvent();
  }

  private append(part: string): void {
    if (part === '') {
      return;
    }
    this.lineChars += part.length;
    if (this.lineChars > this.limits.maxLineChars) {
      this.skipped ??= 'line';
      this.line = [];
      return;
    }
    this.line.push(part);
  }

  private endLine(items: SseItem[]): void {
    const overLong = this.lineChars > this.limits.maxLineChars;
    const line = overLong ? '' : this.line.join('');
    this.line = [];
    this.lineChars = 0;
    if (!overLong && line === '') {
      this.dispatch(items);
      return;
    }
    if (overLong || line.startsWith(':')) {
      return; // a comment (keepalive), or the rest of a line over the cap
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) {
      value = value.slice(1);
    }
    this.field(field, value);
  }

  private field(name: string, value: string): void {
    switch (name) {
      case 'event':
        this.eventType = value;
        return;
      case 'data':
        this.dataChars += value.length + 1;
        if (this.dataChars > this.limits.maxEventChars) {
          this.skipped ??= 'event';
          this.data = [];
          return;
        }
        this.data.push(value);
        this.hasData = true;
        return;
      case 'id':
        if (!value.includes('\0')) {
          this.id = value;
        }
        return;
      default:
        return; // retry and unknown fields: the reconnection policy is the client's own
    }
  }

  private dispatch(items: SseItem[]): void {
    if (this.skipped) {
      items.push({ kind: 'skipped', reason: this.skipped });
    } else if (this.hasData) {
      items.push({ kind: 'event', event: this.eventType || 'message', data: this.data.join('\n'), ...(this.id === undefined ? {} : { id: this.id }) });
    }
    this.resetEvent();
  }

  private resetEvent(): void {
    this.data = [];
    this.dataChars = 0;
    this.hasData = false;
    this.eventType = '';
    this.id = undefined;
    this.skipped = undefined;
  }
}
