// What a query runs against: the project, its events and time zone, and the server's clock.
import type { Store } from '../store';
import type { Project } from '../model';

export interface RunContext {
  store: Store;
  project: Project;
  nowMicros: number;
  /** the project's time zone, for relative and naive dates */
  timeZone: string;
}

export function runContext(store: Store, project: Project): RunContext {
  return { store, project, nowMicros: store.now().getTime() * 1000, timeZone: String(project.settings['timezone'] ?? 'UTC') };
}
