import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { MissingScopeError, NotFoundError, PostHogClient, ResponseShapeError } from '../../../src/api';
import type { LocalApi } from '../../api-server';
import { withLocalApiClient } from '../../support/localApiClient';
import { recordingSleep, sendJson, startStub, type Stub } from './stubServer';

describe('client.propertyDefinitions (local API)', () => {
  let api: LocalApi;
  let client: PostHogClient;
  let projectId = 0;
  withLocalApiClient({ seed: 'minimal' }, (started) => {
    ({ api, client, projectId } = started);
    api.store.propertyDefinitionsOf(projectId).add('person', 'lifetime_value', 120);
  });

  test('lists a page of event or person definitions, with count, links and each one\'s type', async () => {
    const page = await client.propertyDefinitions.list(projectId, { type: 'event', limit: 2 });
    assert.equal(page.results.length, 2);
    assert.ok((page.count ?? 0) > 2);
    assert.match(page.next ?? '', /offset=2/);
    const person = await client.propertyDefinitions.list(projectId, { type: 'person', search: 'lifetime' });
    assert.deepEqual(person.results.map(({ name, property_type, is_numerical }) => ({ name, property_type, is_numerical })), [
      { name: 'lifetime_value', property_type: 'Numeric', is_numerical: true },
    ]);
    const sent = api.requests.filter((request) => /property_definitions/.test(request.path)).map((request) => request.query);
    assert.deepEqual(sent[1], { type: 'person', search: 'lifetime' }, 'no undefined parameters sent');
  });

  test('a key without property_definition:read gets MissingScopeError, an older server NotFoundError', async () => {
    const limited = new PostHogClient({ baseUrl: api.url, apiKey: api.store.createKey({ scopes: ['query:read'] }) });
    try {
      await assert.rejects(limited.propertyDefinitions.list(projectId, { type: 'event' }), (error: unknown) => error instanceof MissingScopeError && error.scope === 'property_definition:read');
    } finally {
      await limited.dispose();
    }
    api.store.settings.propertyDefinitionsApi = false;
    try {
      await assert.rejects(client.propertyDefinitions.list(projectId, { type: 'event' }), NotFoundError);
    } finally {
      api.store.settings.propertyDefinitionsApi = true;
    }
  });
});

describe('client.propertyDefinitions (stub)', () => {
  const stubs: Stub[] = [];
  after(() => Promise.all(stubs.map((stub) => stub.close())));

  test('an answer of another shape is refused; a virtual person property\'s text id is not', async () => {
    let body: unknown = { results: [{ id: 5 }] };
    const stub = await startStub((_, response) => sendJson(response, 200, body));
    stubs.push(stub);
    const client = new PostHogClient({ baseUrl: stub.url, apiKey: 'phx_stub', ...recordingSleep() });
    try {
      await assert.rejects(client.propertyDefinitions.list(1, { type: 'person' }), ResponseShapeError);
      body = { count: 1, next: null, previous: null, results: [{ id: '$builtin_$virt_revenue', name: '$virt_revenue', is_numerical: true, property_type: 'Numeric', tags: [], virtual: true }] };
      const page = await client.propertyDefinitions.list(1, { type: 'person' });
      assert.equal(page.results[0]!.name, '$virt_revenue');
    } finally {
      await client.dispose();
    }
  });
});
