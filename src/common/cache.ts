/**
 * Caches one value per key, and shares the request that is under way, so that a tree expanded
 * twice, or refreshed while loading, asks the server once.
 */
export class AsyncCache<V> {
  private readonly entries = new Map<string, Promise<V>>();

  get(key: string, load: () => Promise<V>): Promise<V> {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = load();
      this.entries.set(key, entry);
      // A failure is not cached: the next get() tries again.
      entry.catch(() => {
        if (this.entries.get(key) === entry) {
          this.entries.delete(key);
        }
      });
    }
    return entry;
  }

  /** Forgets the keys that start with the prefix (all of them when it is empty). */
  invalidate(prefix = ''): void {
    for (const key of [...this.entries.keys()]) {
      if (key.startsWith(prefix)) {
        this.entries.delete(key);
      }
    }
  }
}
