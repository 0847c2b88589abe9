import { projectKey } from '../../common/keys';
import type { StateStore } from '../../connections';

/**
 * PostHog leaves deleted notebooks out of its list, so the explorer remembers the ones deleted
 * from this editor, to show them (when asked) and restore them.
 */
export interface DeletedNotebook {
  readonly shortId: string;
  readonly title: string;
  readonly deletedAt: string;
}

const KEY = 'posthogExplorer.deletedNotebooks';

type Registry = Record<string, DeletedNotebook[]>;

export class DeletedNotebooks {
  constructor(private readonly state: StateStore) {}

  list(connectionId: string, projectId: number): DeletedNotebook[] {
    return this.registry()[projectKey(connectionId, projectId)] ?? [];
  }

  async add(connectionId: string, projectId: number, notebook: DeletedNotebook): Promise<void> {
    const key = projectKey(connectionId, projectId);
    const registry = this.registry();
    const others = (registry[key] ?? []).filter((entry) => entry.shortId !== notebook.shortId);
    await this.state.update(KEY, { ...registry, [key]: [notebook, ...others] });
  }

  async remove(connectionId: string, projectId: number, shortId: string): Promise<void> {
    const key = projectKey(connectionId, projectId);
    const registry = this.registry();
    const remaining = (registry[key] ?? []).filter((entry) => entry.shortId !== shortId);
    await this.state.update(KEY, { ...registry, [key]: remaining });
  }

  private registry(): Registry {
    return this.state.get<Registry>(KEY) ?? {};
  }
}
