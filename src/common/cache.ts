/**
 * Caches one value per key, and shares the request that is under way, so that a tree expanded
 * twice, or refreshed while loading, asks the server once.
 *
 * A caller may pass a signal: when it aborts, that caller's promise rejects with its reason at once, and
 * the shared load is aborted too once no caller waits for it any more (a caller without a signal always
 * waits), so that a tree load nobody will show stops its requests.
 */
export class AsyncCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  get(key: string, load: (signal: AbortSignal) => Promise<V>, signal?: AbortSignal): Promise<V> {
    if (signal?.aborted) {
      return Promise.reject(signal.reason);
    }
    let entry = this.entries.get(key);
    if (!entry) {
      entry = this.start(key, load);
    }
    if (!signal) {
      entry.pinned = true;
      return entry.value;
    }
    return this.waitFor(key, entry, signal);
  }

  /** Forgets the keys that start with the prefix (all of them when it is empty). */
  invalidate(prefix = ''): void {
    for (const key of [...this.entries.keys()]) {
      if (key.startsWith(prefix)) {
        this.entries.delete(key);
      }
    }
  }

  private start(key: string, load: (signal: AbortSignal) => Promise<V>): Entry<V> {
    const controller = new AbortController();
    const value = load(controller.signal);
    const entry: Entry<V> = { value, controller, waiting: 0, pinned: false, settled: false };
    this.entries.set(key, entry);
    value.then(
      () => {
        entry.settled = true;
      },
      () => {
        entry.settled = true;
        // A failure is not cached: the next get() tries again.
        this.forget(key, entry);
      },
    );
    return entry;
  }

  private waitFor(key: string, entry: Entry<V>, signal: AbortSignal): Promise<V> {
    entry.waiting++;
    return new Promise<V>((resolve, reject) => {
      const giveUp = () => {
        reject(signal.reason);
        entry.waiting--;
        if (entry.waiting === 0 && !entry.pinned && !entry.settled) {
          entry.controller.abort(signal.reason);
          this.forget(key, entry);
        }
      };
      signal.addEventListener('abort', giveUp, { once: true });
      entry.value.then(
        (value) => {
          signal.removeEventListener('abort', giveUp);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', giveUp);
          reject(error);
        },
      );
    });
  }

  private forget(key: string, entry: Entry<V>): void {
    if (this.entries.get(key) === entry) {
      this.entries.delete(key);
    }
  }
}

interface Entry<V> {
  readonly value: Promise<V>;
  readonly controller: AbortController;
  /** Callers with a signal still waiting. */
  waiting: number;
  /** A caller without a signal waits: the load is never aborted. */
  pinned: boolean;
  settled: boolean;
}
