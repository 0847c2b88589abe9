import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { PostHogClient } from '../../../src/api';
import { ProjectSchemaLoader } from '../../../src/hogql/projectSchema';
import type { PropertyName } from '../../../src/hogql/propertyNames';
import { type LocalApi, startLocalApi } from '../../api-server';

/** A property PostHog keeps a definition of although no recent event carries it (seen long ago). */
const OLD_PROPERTY = 'legacy_coupon_code';

describe('ProjectSchemaLoader (local API)', () => {
  let api: LocalApi;
  let projectId: number;
  const clients: PostHogClient[] = [];
  const target = () => ({ connectionId: 'c1', projectId });

  function loader(key = api.keys.all) {
    const client = new PostHogClient({ baseUrl: api.url, apiKey: key });
    clients.push(client);
    const logged: string[] = [];
    const schemas = new ProjectSchemaLoader({ clientOf: async () => client, log: (message) => logged.push(message) });
    return { schemas, logged };
  }
  const named = (names: readonly PropertyName[], name: string) => names.find((property) => property.name === name);
  const requestsTo = (pattern: RegExp) => api.requests.filter((request) => pattern.test(request.path)).length;

  before(async () => {
    api = await startLocalApi({ seed: 'minimal' });
    projectId = api.store.visibleProjects()[0]!.id;
    api.store.propertyDefinitionsOf(projectId).add('event', OLD_PROPERTY, 'SPRING24');
    api.store.propertyDefinitionsOf(projectId).add('person', 'lifetime_value', 120);
  });
  beforeEach(() => {
    api.clearRequests();
    api.store.settings.propertyDefinitionsApi = true;
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    await api.close();
  });

  test("takes the names from PostHog's definitions, with their types, without reading events", async () => {
    const { schemas, logged } = loader();
    const schema = await schemas.load(target());
    assert.deepEqual(named(schema.eventProperties, OLD_PROPERTY), { name: OLD_PROPERTY, type: 'String' }, 'a definition no recent event carries');
    assert.deepEqual(named(schema.personProperties, 'lifetime_value'), { name: 'lifetime_value', type: 'Numeric' });
    assert.ok(named(schema.eventProperties, '$browser'));
    assert.ok(!named(schema.eventProperties, 'lifetime_value'));
    assert.ok(schema.tables.some((table) => table.name === 'events'));
    const asked = api.requests.filter((request) => /property_definitions/.test(request.path)).map((request) => [request.query['type'], request.query['limit']]);
    assert.deepEqual(asked.sort(), [['event', '1000'], ['person', '1000']]);
    assert.equal(requestsTo(/\/events\/$/), 0);
    assert.deepEqual(logged, []);
  });

  test('an older server without the endpoint (404): names from recent events, said once, and not asked again', async () => {
    api.store.settings.propertyDefinitionsApi = false;
    const { schemas, logged } = loader();
    const first = await schemas.load(target());
    assert.ok(named(first.eventProperties, '$browser'), 'recent events still name properties');
    assert.ok(!named(first.eventProperties, OLD_PROPERTY), 'a property no recent event carries is unknown then');
    assert.equal(requestsTo(/\/events\/$/), 1);
    await schemas.load(target());
    assert.equal(requestsTo(/property_definitions/), 2, 'two requests at the first load only');
    assert.equal(logged.length, 1);
    assert.match(logged[0]!, /recent events from now on/);
    api.store.settings.propertyDefinitionsApi = true;
    schemas.forget();
    assert.ok(named((await schemas.load(target())).eventProperties, OLD_PROPERTY), 'asked again once forgotten (Refresh HogQL Schema)');
  });

  test('a key without property_definition:read (403) falls back the same way', async () => {
    const key = api.store.createKey({ scopes: ['query:read'] });
    const { schemas, logged } = loader(key);
    const schema = await schemas.load(target());
    assert.ok(named(schema.eventProperties, '$browser'));
    assert.equal(logged.length, 1);
    assert.match(logged[0]!, /property_definition:read/);
  });

  test('a passing failure falls back for that load only, and the next load asks PostHog again', async () => {
    api.injectFault({ path: /property_definitions/, status: 400, code: 'too_many_bytes', times: 2 });
    const { schemas, logged } = loader();
    assert.ok(!named((await schemas.load(target())).eventProperties, OLD_PROPERTY));
    assert.match(logged[0]!, /this time/);
    assert.ok(named((await schemas.load(target())).eventProperties, OLD_PROPERTY));
  });
});
