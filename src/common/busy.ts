import { Emitter } from './emitter';

/** Counts work under way, so that a status bar can spin while anything loads. */
export class BusyTracker {
  private running = 0;
  private readonly changed = new Emitter<boolean>();
  readonly onDidChange = this.changed.event;

  get busy(): boolean {
    return this.running > 0;
  }

  async track<T>(work: Promise<T>): Promise<T> {
    this.update(+1);
    try {
      return await work;
    } finally {
      this.update(-1);
    }
  }

  dispose(): void {
    this.changed.dispose();
  }

  private update(delta: number): void {
    const wasBusy = this.busy;
    this.running += delta;
    if (wasBusy !== this.busy) {
      this.changed.fire(this.busy);
    }
  }
}
