/**
 * Search-as-you-type: waits until typing pauses, runs one request for the latest query, aborts the
 * request of any query typed over, and reports only the latest query's answer. Knows nothing of VS Code.
 */
export interface SearchListener<T> {
  onBusy(busy: boolean): void;
  onResults(query: string, results: T): void;
  onError(query: string, error: unknown): void;
}

export class LatestSearch<T> {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: AbortController | undefined;
  private generation = 0;

  constructor(
    private readonly run: (query: string, signal: AbortSignal) => Promise<T>,
    private readonly listener: SearchListener<T>,
    private readonly debounceMs: number,
  ) {}

  /** The query changed: search for it once typing pauses (immediately when `now`). */
  update(query: string, now = false): void {
    clearTimeout(this.timer);
    this.running?.abort();
    this.running = undefined;
    const generation = ++this.generation;
    this.listener.onBusy(true);
    const start = () => void this.search(query, generation);
    if (now) {
      start();
    } else {
      this.timer = setTimeout(start, this.debounceMs);
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.running?.abort();
    this.generation++;
  }

  private async search(query: string, generation: number): Promise<void> {
    const controller = new AbortController();
    this.running = controller;
    try {
      const results = await this.run(query, controller.signal);
      if (generation === this.generation) {
        this.listener.onResults(query, results);
      }
    } catch (error) {
      if (generation === this.generation && !controller.signal.aborted) {
        this.listener.onError(query, error);
      }
    } finally {
      if (generation === this.generation) {
        this.running = undefined;
        this.listener.onBusy(false);
      }
    }
  }
}
