import { after, before } from 'node:test';
import { PostHogClient } from '../../src/api';
import { type LocalApi, startLocalApi, type StartOptions } from '../api-server';

/** The local API, a client of it holding a key of every scope, and the first project the key sees. */
export interface LocalApiClient {
  readonly api: LocalApi;
  readonly client: PostHogClient;
  readonly projectId: number;
}

/**
 * Starts the local API (`options`) and a client of it before the suite's tests, hands them to `ready`, and
 * stops both after the suite.
 */
export function withLocalApiClient(options: StartOptions, ready: (started: LocalApiClient) => void | Promise<void>): void {
  let started: LocalApiClient | undefined;
  before(async () => {
    const api = await startLocalApi(options);
    const client = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.all });
    started = { api, client, projectId: api.store.visibleProjects()[0]!.id };
    await ready(started);
  });
  after(async () => {
    await started?.client.dispose();
    await started?.api.close();
  });
}
