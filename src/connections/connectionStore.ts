import { Emitter } from '../common/emitter';
import { hostLabel } from './hosts';

/** A signed-in PostHog host. The key is never part of it: it stays in secret storage. */
export interface Connection {
  readonly id: string;
  readonly baseUrl: string;
  /** The e-mail of the key's user, once known. */
  readonly account?: string;
  /** Offered from POSTHOG_HOST / POSTHOG_PERSONAL_API_KEY; never persisted. */
  readonly fromEnvironment: boolean;
}

/** The parts of vscode.Memento and vscode.SecretStorage the store uses, so it runs under plain Node. */
export interface StateStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

export interface SecretStore {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}

export interface EnvironmentConnection {
  readonly baseUrl: string;
  readonly apiKey: string;
}

const CONNECTIONS_KEY = 'posthogExplorer.connections';
const ACTIVE_KEY = 'posthogExplorer.activeConnection';
const ADDED_ORGANIZATIONS_KEY = 'posthogExplorer.addedOrganizations';
const ADDED_PROJECTS_KEY = 'posthogExplorer.addedProjects';
export const ENVIRONMENT_CONNECTION_ID = 'environment';

type StoredConnection = Pick<Connection, 'id' | 'baseUrl' | 'account'>;

export function connectionLabel(connection: Connection): string {
  const host = hostLabel(connection.baseUrl);
  return connection.account ? `${host} (${connection.account})` : host;
}

/** Keeps the list of connections in state storage and their API keys in secret storage. */
export class ConnectionStore {
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly state: StateStore,
    private readonly secrets: SecretStore,
    private readonly environment: EnvironmentConnection | undefined,
    private readonly newId: () => string,
  ) {}

  list(): Connection[] {
    const stored = (this.state.get<StoredConnection[]>(CONNECTIONS_KEY) ?? []).map((entry) => ({
      ...entry,
      fromEnvironment: false,
    }));
    if (!this.environment) {
      return stored;
    }
    const fromEnvironment: Connection = {
      id: ENVIRONMENT_CONNECTION_ID,
      baseUrl: this.environment.baseUrl,
      fromEnvironment: true,
    };
    return [fromEnvironment, ...stored];
  }

  get(id: string): Connection | undefined {
    return this.list().find((connection) => connection.id === id);
  }

  async getApiKey(id: string): Promise<string | undefined> {
    if (id === ENVIRONMENT_CONNECTION_ID) {
      return this.environment?.apiKey;
    }
    return this.secrets.get(secretKey(id));
  }

  /** Adds a connection, or replaces the key of the one for the same host and account. */
  async save(baseUrl: string, account: string | undefined, apiKey: string): Promise<Connection> {
    const stored = this.storedConnections();
    const existing = stored.find((entry) => entry.baseUrl === baseUrl && entry.account === account);
    const entry: StoredConnection = existing ?? { id: this.newId(), baseUrl, account };
    await this.secrets.store(secretKey(entry.id), apiKey);
    if (!existing) {
      await this.state.update(CONNECTIONS_KEY, [...stored, entry]);
    }
    await this.setActive(entry.id);
    return { ...entry, fromEnvironment: false };
  }

  /** Updates the key of an existing connection (after "Sign in again"). */
  async replaceApiKey(id: string, apiKey: string): Promise<void> {
    await this.secrets.store(secretKey(id), apiKey);
    this.changed.fire();
  }

  async remove(id: string): Promise<void> {
    await this.secrets.delete(secretKey(id));
    await this.state.update(
      CONNECTIONS_KEY,
      this.storedConnections().filter((entry) => entry.id !== id),
    );
    if (this.state.get<string>(ACTIVE_KEY) === id) {
      await this.state.update(ACTIVE_KEY, undefined);
    }
    await this.forgetIds(ADDED_ORGANIZATIONS_KEY, id);
    await this.forgetIds(ADDED_PROJECTS_KEY, id);
    this.changed.fire();
  }

  /** The connection commands act on: the chosen one while it exists, else the first. */
  active(): Connection | undefined {
    const connections = this.list();
    const chosen = this.state.get<string>(ACTIVE_KEY);
    return connections.find((connection) => connection.id === chosen) ?? connections[0];
  }

  async setActive(id: string): Promise<void> {
    await this.state.update(ACTIVE_KEY, id);
    this.changed.fire();
  }

  /** Organizations the user added by id, for keys that may not list them. */
  addedOrganizations(connectionId: string): string[] {
    return this.addedIds<string>(ADDED_ORGANIZATIONS_KEY, connectionId);
  }

  addOrganization(connectionId: string, organizationId: string): Promise<void> {
    return this.addId(ADDED_ORGANIZATIONS_KEY, connectionId, organizationId);
  }

  /** Projects the user added by id, for keys limited to some projects (which may not list them). */
  addedProjects(connectionId: string): number[] {
    return this.addedIds<number>(ADDED_PROJECTS_KEY, connectionId);
  }

  addProject(connectionId: string, projectId: number): Promise<void> {
    return this.addId(ADDED_PROJECTS_KEY, connectionId, projectId);
  }

  /** Ids kept per connection in global state under `key`. */
  private addedIds<T extends string | number>(key: string, connectionId: string): T[] {
    return this.state.get<Record<string, T[]>>(key)?.[connectionId] ?? [];
  }

  private async addId<T extends string | number>(key: string, connectionId: string, id: T): Promise<void> {
    const all = this.state.get<Record<string, T[]>>(key) ?? {};
    const current = all[connectionId] ?? [];
    if (!current.includes(id)) {
      await this.state.update(key, { ...all, [connectionId]: [...current, id] });
    }
    this.changed.fire();
  }

  private async forgetIds(key: string, connectionId: string): Promise<void> {
    const all = this.state.get<Record<string, unknown[]>>(key);
    if (all && connectionId in all) {
      const { [connectionId]: _forgotten, ...rest } = all;
      await this.state.update(key, rest);
    }
  }

  dispose(): void {
    this.changed.dispose();
  }

  private storedConnections(): StoredConnection[] {
    return this.state.get<StoredConnection[]>(CONNECTIONS_KEY) ?? [];
  }
}

function secretKey(connectionId: string): string {
  return `posthogExplorer.apiKey.${connectionId}`;
}
