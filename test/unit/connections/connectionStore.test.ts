import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  connectionLabel,
  ConnectionStore,
  ENVIRONMENT_CONNECTION_ID,
  type EnvironmentConnection,
} from '../../../src/connections/connectionStore';
import { environmentConnection } from '../../../src/connections/environment';
import { MemorySecrets, MemoryState } from '../../support/memoryStores';

function createStore(environment?: EnvironmentConnection) {
  const state = new MemoryState();
  const secrets = new MemorySecrets();
  let next = 0;
  const store = new ConnectionStore(state, secrets, environment, () => `id-${++next}`);
  return { state, secrets, store };
}

describe('ConnectionStore', () => {
  test('keeps the key in secret storage and never in state', async () => {
    const { state, secrets, store } = createStore();
    const connection = await store.save('https://us.posthog.com', 'jane@example.com', 'phx_secret');
    assert.equal(await store.getApiKey(connection.id), 'phx_secret');
    assert.deepEqual([...secrets.values.values()], ['phx_secret']);
    assert.ok(!JSON.stringify([...state.values]).includes('phx_secret'));
  });

  test('lists connections side by side and labels them by host and account', async () => {
    const { store } = createStore();
    await store.save('https://us.posthog.com', 'jane@example.com', 'phx_us');
    await store.save('https://eu.posthog.com', undefined, 'phx_eu');
    assert.deepEqual(store.list().map(connectionLabel), ['US Cloud (jane@example.com)', 'EU Cloud']);
  });

  test('signing in again to the same host and account replaces the key', async () => {
    const { store } = createStore();
    const first = await store.save('https://us.posthog.com', 'jane@example.com', 'phx_old');
    const second = await store.save('https://us.posthog.com', 'jane@example.com', 'phx_new');
    assert.equal(second.id, first.id);
    assert.equal(store.list().length, 1);
    assert.equal(await store.getApiKey(first.id), 'phx_new');
  });

  test('sign out removes the key and the connection, and moves the active one', async () => {
    const { secrets, store } = createStore();
    const us = await store.save('https://us.posthog.com', undefined, 'phx_us');
    const eu = await store.save('https://eu.posthog.com', undefined, 'phx_eu');
    assert.equal(store.active()?.id, eu.id);
    await store.remove(eu.id);
    assert.equal(store.active()?.id, us.id);
    assert.equal(secrets.values.size, 1);
    assert.equal(await store.getApiKey(eu.id), undefined);
  });

  test('the environment connection comes first, keeps its key in memory and is not persisted', async () => {
    const { state, secrets, store } = createStore({ baseUrl: 'http://127.0.0.1:8010', apiKey: 'phx_env' });
    assert.deepEqual(store.list(), [
      { id: ENVIRONMENT_CONNECTION_ID, baseUrl: 'http://127.0.0.1:8010', fromEnvironment: true },
    ]);
    assert.equal(await store.getApiKey(ENVIRONMENT_CONNECTION_ID), 'phx_env');
    assert.equal(state.values.size, 0);
    assert.equal(secrets.values.size, 0);
  });

  test('remembers organizations added by id per connection', async () => {
    const { store } = createStore();
    const connection = await store.save('https://us.posthog.com', undefined, 'phx_us');
    await store.addOrganization(connection.id, 'org-1');
    await store.addOrganization(connection.id, 'org-1');
    assert.deepEqual(store.addedOrganizations(connection.id), ['org-1']);
    assert.deepEqual(store.addedOrganizations('other'), []);
  });

  test('remembers projects added by id per connection, and forgets what was added on sign out', async () => {
    const { store, state } = createStore();
    const connection = await store.save('https://us.posthog.com', undefined, 'phx_us');
    const other = await store.save('https://eu.posthog.com', undefined, 'phx_eu');
    await store.addProject(connection.id, 7);
    await store.addProject(connection.id, 7);
    await store.addProject(other.id, 8);
    await store.addOrganization(connection.id, 'org-1');
    assert.deepEqual(store.addedProjects(connection.id), [7]);
    await store.remove(connection.id);
    assert.deepEqual(store.addedProjects(connection.id), []);
    assert.deepEqual(store.addedOrganizations(connection.id), []);
    assert.deepEqual(store.addedProjects(other.id), [8], "the other connection's are kept");
    assert.ok(!JSON.stringify([...state.values]).includes(connection.id), 'nothing of the connection is left in state');
  });

  test('fires a change when connections change', async () => {
    const { store } = createStore();
    let changes = 0;
    store.onDidChange(() => changes++);
    const connection = await store.save('https://us.posthog.com', undefined, 'phx');
    await store.remove(connection.id);
    assert.ok(changes >= 2);
  });
});

describe('environmentConnection', () => {
  test('reads POSTHOG_HOST and POSTHOG_PERSONAL_API_KEY', () => {
    const connection = environmentConnection(
      { POSTHOG_HOST: 'http://127.0.0.1:8010/', POSTHOG_PERSONAL_API_KEY: 'phx_env' },
      assert.fail,
    );
    assert.deepEqual(connection, { baseUrl: 'http://127.0.0.1:8010', apiKey: 'phx_env' });
  });

  test('defaults to US Cloud without a host, and offers nothing without a key', () => {
    assert.equal(environmentConnection({ POSTHOG_PERSONAL_API_KEY: 'phx' }, assert.fail)?.baseUrl, 'https://us.posthog.com');
    assert.equal(environmentConnection({ POSTHOG_HOST: 'https://eu.posthog.com' }, assert.fail), undefined);
  });

  test('refuses a plain-http host that is not on this machine, and says why', () => {
    const warnings: string[] = [];
    const connection = environmentConnection(
      { POSTHOG_HOST: 'http://posthog.example.com', POSTHOG_PERSONAL_API_KEY: 'phx' },
      (message) => warnings.push(message),
    );
    assert.equal(connection, undefined);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /POSTHOG_HOST/);
    assert.ok(!warnings[0].includes('phx'));
  });
});
