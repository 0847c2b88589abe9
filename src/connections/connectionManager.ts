import * as vscode from 'vscode';
import { PostHogClient, type RequestLogEntry } from '../api';
import { Disposable } from '../workbench/disposable';
import { ExplorerModel } from '../catalog';
import { type Connection, ConnectionStore } from './connectionStore';
import { affectsNetwork, networkOptions } from './networkSettings';
import { describeRoute } from './routeDescription';

/** A connection with its client and what the explorer has loaded through it. */
export interface ConnectionSession {
  readonly connection: Connection;
  readonly client: PostHogClient;
  readonly model: ExplorerModel;
}

/** The one place that creates clients: every request of every connection is logged here. */
export class ConnectionManager extends Disposable {
  private readonly sessions = new Map<string, Promise<ConnectionSession | undefined>>();
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;

  constructor(
    readonly store: ConnectionStore,
    readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this._register(store.onDidChange(() => this.changed.fire()));
    this._register({ dispose: () => this.closeSessions() });
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (affectsNetwork(event)) {
          this.closeSessions();
          this.changed.fire();
        }
      }),
    );
  }

  connections(): Connection[] {
    return this.store.list();
  }

  /** The session of a connection, or undefined when its key is gone from secret storage. */
  session(connectionId: string): Promise<ConnectionSession | undefined> {
    let session = this.sessions.get(connectionId);
    if (!session) {
      session = this.openSession(connectionId);
      this.sessions.set(connectionId, session);
    }
    return session;
  }

  createClient(baseUrl: string, apiKey: string): PostHogClient {
    const network = networkOptions(this.log);
    const client = new PostHogClient({ baseUrl, apiKey, network, onRequest: (entry) => this.logRequest(baseUrl, entry) });
    this.log.info(`${new URL(client.baseUrl).host}: ${describeRoute(client.route)}`);
    if (network.strictSSL === false) {
      this.log.warn(`${new URL(client.baseUrl).host}: certificates are not checked (http.proxyStrictSSL is off)`);
    }
    return client;
  }

  async signedIn(baseUrl: string, account: string | undefined, apiKey: string): Promise<Connection> {
    const connection = await this.store.save(baseUrl, account, apiKey);
    this.closeSession(connection.id);
    this.changed.fire();
    return connection;
  }

  async signOut(connectionId: string): Promise<void> {
    this.closeSession(connectionId);
    await this.store.remove(connectionId);
  }

  private async openSession(connectionId: string): Promise<ConnectionSession | undefined> {
    const connection = this.store.get(connectionId);
    const apiKey = connection && (await this.store.getApiKey(connectionId));
    if (!connection || !apiKey) {
      return undefined;
    }
    const client = this.createClient(connection.baseUrl, apiKey);
    const model = new ExplorerModel(
      client,
      () => this.store.addedOrganizations(connectionId),
      () => this.store.addedProjects(connectionId),
    );
    return { connection, client, model };
  }

  private closeSession(connectionId: string): void {
    const session = this.sessions.get(connectionId);
    this.sessions.delete(connectionId);
    void session?.then((open) => open?.client.dispose());
  }

  private closeSessions(): void {
    for (const id of [...this.sessions.keys()]) {
      this.closeSession(id);
    }
  }

  private logRequest(baseUrl: string, entry: RequestLogEntry): void {
    const status = entry.status ?? entry.error ?? 'failed';
    const attempt = entry.attempt > 1 ? ` (attempt ${entry.attempt})` : '';
    const note = entry.note ? ` (${entry.note})` : '';
    const line = `${entry.method} ${new URL(baseUrl).host}${entry.path} → ${status} in ${Math.round(entry.durationMs)} ms${attempt}${note}`;
    if (entry.status !== undefined && entry.status < 400) {
      this.log.info(line);
    } else {
      this.log.warn(line);
    }
  }
}
