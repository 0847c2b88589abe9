import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { completionSpot, tablesNamed } from '../../../src/hogql/completionSpot';
import { suggestionsFor } from '../../../src/hogql/completions';
import { definitionNames, MAX_NAMES, propertyNamesOf } from '../../../src/hogql/propertyNames';
import { type ProjectSchema, SchemaCache, schemaTables } from '../../../src/hogql/schemaCache';

const SCHEMA: ProjectSchema = {
  tables: [
    { name: 'events', type: 'posthog', fields: [{ name: 'event', type: 'string' }, { name: 'timestamp', type: 'datetime' }, { name: 'person', type: 'lazy_table', table: 'persons' }] },
    { name: 'persons', type: 'posthog', fields: [{ name: 'id', type: 'string' }, { name: 'created_at', type: 'datetime' }] },
  ],
  eventProperties: [{ name: '$browser', type: 'String' }, { name: '$current_url' }],
  personProperties: [{ name: 'email', type: 'String' }],
};

function at(textWithCaret: string) {
  const caret = textWithCaret.indexOf('|');
  return completionSpot(textWithCaret.replace('|', ''), caret);
}

describe('completionSpot', () => {
  test('after properties. it asks for an event property, after person.properties. a person property', () => {
    assert.deepEqual(at('select properties.$br| from events'), { kind: 'property', owner: 'event', prefix: '$br' });
    assert.deepEqual(at('select person.properties.| from events'), { kind: 'property', owner: 'person', prefix: '' });
    assert.deepEqual(at('select e.properties.x|'), { kind: 'field', prefix: 'x', tables: ['events'] });
  });

  test('after FROM or JOIN it asks for a table', () => {
    assert.deepEqual(at('select * from ev|'), { kind: 'table', prefix: 'ev' });
    assert.deepEqual(at('select * FROM events e LEFT JOIN |'), { kind: 'table', prefix: '' });
  });

  test('elsewhere, a field of the tables the query reads', () => {
    assert.deepEqual(at('select ti| from persons'), { kind: 'field', prefix: 'ti', tables: ['persons'] });
    assert.deepEqual(tablesNamed('select 1'), ['events']);
  });
});

describe('suggestionsFor', () => {
  test('lists property names, tables, or the fields of the named tables', () => {
    assert.deepEqual(suggestionsFor({ kind: 'property', owner: 'event', prefix: '' }, SCHEMA).map((item) => item.label), ['$browser', '$current_url']);
    assert.deepEqual(suggestionsFor({ kind: 'property', owner: 'person', prefix: '' }, SCHEMA).map((item) => item.label), ['email']);
    assert.deepEqual(suggestionsFor({ kind: 'table', prefix: '' }, SCHEMA).map((item) => item.label), ['events', 'persons']);
    const fields = suggestionsFor({ kind: 'field', prefix: '', tables: ['persons'] }, SCHEMA).filter((item) => item.kind === 'field');
    assert.deepEqual(fields.map((item) => item.label), ['id', 'created_at']);
  });

  test("a property's detail says whose it is, and PostHog's type of it where known", () => {
    const details = suggestionsFor({ kind: 'property', owner: 'event', prefix: '' }, SCHEMA).map((item) => item.detail);
    assert.deepEqual(details, ['event property · String', 'event property']);
    assert.deepEqual(suggestionsFor({ kind: 'property', owner: 'person', prefix: '' }, SCHEMA)[0]!.detail, 'person property · String');
  });

  test('an unknown table (an alias, a subquery) falls back to the events fields', () => {
    const fields = suggestionsFor({ kind: 'field', prefix: '', tables: ['nope'] }, SCHEMA).filter((item) => item.kind === 'field');
    assert.deepEqual(fields.map((item) => item.label), ['event', 'timestamp', 'person']);
    assert.match(fields[2]!.detail, /persons/);
  });
});

describe('SchemaCache', () => {
  test('answers at once from the cache, loads in the background once, and again when old', async () => {
    let now = 0;
    let loads = 0;
    const releases: (() => void)[] = [];
    const cache = new SchemaCache(
      () => {
        loads++;
        return new Promise<ProjectSchema>((resolve) => releases.push(() => resolve(SCHEMA)));
      },
      { maxAgeMs: () => 1_000, now: () => now },
    );
    assert.equal(cache.peek('p'), undefined, 'nothing yet: no wait');
    assert.equal(cache.peek('p'), undefined);
    assert.equal(loads, 1, 'one load under way is shared');
    releases[0]!();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(cache.peek('p'), SCHEMA);
    assert.equal(loads, 1);
    now = 1_000;
    assert.equal(cache.peek('p'), SCHEMA, 'an old schema is still answered while a fresh one loads');
    assert.equal(loads, 2);
  });

  test('clear forgets every schema and says so', () => {
    let cleared = 0;
    const cache = new SchemaCache(async () => SCHEMA, { maxAgeMs: () => 1_000, onClear: () => cleared++ });
    cache.clear();
    assert.equal(cleared, 1);
  });

  test('a failed load is remembered as long as a schema would be, and not retried at each keystroke', async () => {
    let loads = 0;
    const errors: unknown[] = [];
    const cache = new SchemaCache(
      async () => {
        loads++;
        throw new Error('503');
      },
      { maxAgeMs: () => 1_000, now: () => 0, onError: (_key, error) => errors.push(error) },
    );
    await cache.refresh('p');
    cache.peek('p');
    assert.equal(loads, 1);
    assert.equal(errors.length, 1);
    assert.ok(cache.lastError('p') instanceof Error);
  });

  test('schemaTables reads a DatabaseSchemaQuery answer', () => {
    const tables = schemaTables({
      tables: { events: { type: 'posthog', name: 'events', fields: { event: { name: 'event', type: 'string' }, pdi: { name: 'pdi', type: 'lazy_table', table: 'person_distinct_ids' } } } },
    });
    assert.deepEqual(tables, [{ name: 'events', type: 'posthog', fields: [{ name: 'event', type: 'string' }, { name: 'pdi', type: 'lazy_table', table: 'person_distinct_ids' }] }]);
  });
});

describe('propertyNamesOf', () => {
  test('collects event and person property names from events, as objects or JSON text, sorted and once each', () => {
    const names = propertyNamesOf([
      { properties: { $browser: 'Chrome', plan: 'pro' }, person: { properties: { email: 'a@b' } } },
      { properties: '{"$current_url":"https://x","plan":"free"}', person: null },
      { properties: 'not json', person: '{"properties":{"name":"Ann"}}' },
    ]);
    assert.deepEqual(names, {
      event: [{ name: '$browser' }, { name: '$current_url' }, { name: 'plan' }],
      person: [{ name: 'email' }, { name: 'name' }],
    });
  });
});

describe('definitionNames', () => {
  test("keeps PostHog's order and types, each name once, without the virtual person properties", () => {
    const names = definitionNames([
      { id: 'a', name: 'zeta', property_type: 'Numeric' },
      { id: 'b', name: 'alpha', property_type: null },
      { id: 'c', name: 'zeta', property_type: 'String' },
      { id: '$builtin_$virt_initial_channel_type', name: '$virt_initial_channel_type', property_type: 'String' },
      { id: 7, name: 'signed_up_at', property_type: 'DateTime' },
    ]);
    assert.deepEqual(names, [{ name: 'zeta', type: 'Numeric' }, { name: 'alpha' }, { name: 'signed_up_at', type: 'DateTime' }]);
  });

  test('offers at most MAX_NAMES of a kind', () => {
    const many = Array.from({ length: MAX_NAMES + 5 }, (_, i) => ({ id: String(i), name: `p${i}` }));
    assert.equal(definitionNames(many).length, MAX_NAMES);
  });
});
