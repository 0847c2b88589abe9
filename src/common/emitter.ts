/** A minimal event emitter shaped like vscode.EventEmitter, for modules that must not import `vscode`. */
export interface Subscription {
  dispose(): void;
}

export type Event<T> = (listener: (value: T) => void) => Subscription;

export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      listener(value);
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
