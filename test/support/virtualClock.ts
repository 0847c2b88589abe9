// Virtual time for tests that run an hour of Live polls and exports against the local API in seconds.
// Timers and sleeps wait on the virtual clock; real work (HTTP to the local API) is tracked, and time moves
// to the next timer only when no tracked work is in flight. A sleep started inside tracked work parks it
// (it waits for time, not for I/O), so a budget wait inside a page fetch does not stall the clock.
import type { Sleep } from '../../src/api';
import type { Timers } from '../../src/events/liveTail';

export class VirtualClock implements Timers {
  private time: number;
  private queue: { at: number; run: () => void; id: number }[] = [];
  private ids = 0;
  private busy = 0;

  constructor(start = Date.UTC(2026, 0, 5, 9)) {
    this.time = start;
  }

  now = (): number => this.time;

  setTimeout = (run: () => void, ms: number): unknown => {
    const id = ++this.ids;
    this.queue.push({ at: this.time + Math.max(0, ms), run, id });
    return id;
  };

  clearTimeout = (handle: unknown): void => {
    this.queue = this.queue.filter((entry) => entry.id !== handle);
  };

  sleep: Sleep = (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      this.busy--;
      const onAbort = () => {
        this.clearTimeout(id);
        this.busy++;
        reject(signal!.reason);
      };
      const id = this.setTimeout(() => {
        // The signal may be given to many sleeps and aborted long after this one ended.
        signal?.removeEventListener('abort', onAbort);
        this.busy++;
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });

  /** Real work the clock must wait for before moving on. */
  track<T>(work: () => Promise<T>): Promise<T> {
    this.busy++;
    return work().finally(() => this.busy--);
  }

  /** An iterator whose every step is tracked work. */
  tracked<T>(iterator: AsyncIterator<T>): AsyncIterableIterator<T> {
    const track = <R>(work: () => Promise<R>) => this.track(work);
    return {
      next: () => track(() => iterator.next()),
      return: async (value?: unknown) => (await iterator.return?.(value)) ?? { done: true, value: undefined },
      [Symbol.asyncIterator]() {
        return this;
      },
    } as AsyncIterableIterator<T>;
  }

  /** Moves `ms` forward, firing timers in order, each once the tracked work before it is done. */
  async run(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await this.idle();
      this.queue.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.queue[0];
      if (!next || next.at > end) break;
      this.queue.shift();
      this.time = next.at;
      next.run();
    }
    this.time = end;
    await this.idle();
  }

  private async idle(): Promise<void> {
    for (let quiet = 0; quiet < 5; ) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.busy > 0) {
        quiet = 0;
        await new Promise<void>((resolve) => setTimeout(resolve, 1));
      } else {
        quiet++;
      }
    }
  }
}
