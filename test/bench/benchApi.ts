// Parent side of apiChild.ts: starts the local API in its own process and drives its store over IPC.
import { fork, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import type { WebEdit } from '../api-server/collab-control';
import type { SeedName } from '../api-server/seed';

export interface ChildStart {
  seed: SeedName;
  latencyMs: number;
  demoEvents?: number;
}

export type ApiCommand =
  | { op: 'organizationWithProjects'; name: string; projects: number }
  | { op: 'projectWithNotebooks'; name: string; notebooks: number }
  | { op: 'bigNotebook'; projectId: number; bytes: number }
  | { op: 'projectByName'; name: string }
  | { op: 'steadyProject'; name: string; count: number; perSecond: number; clusterEvery: number; clusterSize: number }
  | { op: 'reset' }
  | { op: 'traffic' }
  | { op: 'setLatency'; ms: number }
  | { op: 'markdownNotebook'; projectId: number; markdown: string }
  | { op: 'webEdit'; projectId: number; shortId: string; edit: WebEdit }
  | { op: 'close' };

export interface ApiReply {
  id: number;
  value?: unknown;
  error?: string;
}

export interface Traffic {
  requests: { method: string; path: string; status: number }[];
  /** TCP connections the proxy accepted since the last reset. */
  connections: number;
}

export class BenchApi {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();

  private constructor(
    private readonly child: ChildProcess,
    /** The counting proxy's URL: what clients use. */
    readonly url: string,
    readonly key: string,
  ) {
    child.on('message', (reply: ApiReply) => this.settle(reply));
    child.on('exit', (code) => {
      for (const waiter of this.pending.values()) waiter.reject(new Error(`The local API process exited (${code})`));
      this.pending.clear();
    });
  }

  static start(options: ChildStart): Promise<BenchApi> {
    const child = fork(path.join(__dirname, 'apiChild.js'), [JSON.stringify(options)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`The local API process exited (${code}) before it started`)));
      child.once('message', (reply: ApiReply) => {
        const { url, keys } = reply.value as { url: string; keys: { all: string } };
        resolve(new BenchApi(child, url, keys.all));
      });
    });
  }

  call<T>(command: ApiCommand): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.child.send({ id, command });
    });
  }

  reset(): Promise<void> {
    return this.call({ op: 'reset' });
  }

  traffic(): Promise<Traffic> {
    return this.call({ op: 'traffic' });
  }

  async close(): Promise<void> {
    await Promise.race([this.call({ op: 'close' }).catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 5_000))]);
    if (this.child.exitCode === null) this.child.kill();
  }

  private settle(reply: ApiReply): void {
    const waiter = this.pending.get(reply.id);
    if (!waiter) return;
    this.pending.delete(reply.id);
    if (reply.error) waiter.reject(new Error(reply.error));
    else waiter.resolve(reply.value);
  }
}
