// Events that keep arriving while the server runs (CLI --live-events N, control POST /_control/events/live),
// so the demo and the benchmark have something for the events panel's Live mode to show.
import type { Store } from './store';

const TICK_MS = 500;

interface Stream {
  perSecond: number;
  timer: ReturnType<typeof setInterval>;
  lastMicros: number;
  /** Fractions of an event owed by earlier ticks. */
  carry: number;
}

export class LiveEvents {
  private readonly streams = new Map<number, Stream>();

  constructor(private readonly store: Store) {}

  /** From now on, about `perSecond` generated events a second in the project (0 stops). */
  set(projectId: number, perSecond: number): void {
    this.stop(projectId);
    if (!(perSecond > 0)) return;
    this.store.eventsOf(projectId); // throws for an unknown project
    const stream: Stream = {
      perSecond,
      lastMicros: this.store.now().getTime() * 1000,
      carry: 0,
      timer: setInterval(() => this.tick(projectId, stream), TICK_MS),
    };
    stream.timer.unref();
    this.streams.set(projectId, stream);
  }

  rate(projectId: number): number {
    return this.streams.get(projectId)?.perSecond ?? 0;
  }

  stop(projectId: number): void {
    const stream = this.streams.get(projectId);
    if (stream) clearInterval(stream.timer);
    this.streams.delete(projectId);
  }

  stopAll(): void {
    for (const projectId of [...this.streams.keys()]) this.stop(projectId);
  }

  private tick(projectId: number, stream: Stream): void {
    const now = this.store.now().getTime() * 1000;
    const owed = (stream.perSecond * (now - stream.lastMicros)) / 1_000_000 + stream.carry;
    const count = Math.floor(owed);
    stream.carry = owed - count;
    if (count > 0 && this.store.getProject(projectId)) this.store.addEventsBetween(projectId, count, stream.lastMicros, now);
    stream.lastMicros = now;
  }
}
