import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLocalApi, type LocalApi } from '../../api-server';
import { guessPropertyType } from '../../api-server/property-types';
import { control, errorBody, get, mainProject } from './helpers';

const NOW = Date.parse('2026-06-10T12:00:00Z');

describe('local API: property definitions', () => {
  let api: LocalApi;
  let projectId: number;
  let base: string;
  const names = async (query: string, key?: string): Promise<string[]> => {
    const answer = await get(api, `${base}?${query}`, key ? { key } : {});
    assert.equal(answer.status, 200, answer.text);
    return answer.json.results.map((definition: { name: string }) => definition.name);
  };

  before(async () => {
    api = await startLocalApi({ seed: 'minimal', control: true });
    ({ projectId } = mainProject(api));
    base = `/api/projects/${projectId}/property_definitions/`;
    api.store.addEvent(projectId, {
      event: 'exported_report',
      distinct_id: 'maya@example.com',
      properties: { format: 'pdf', pages: 12, is_draft: 'true', exported_at: '2026-06-01T10:00:00Z', $set: { favourite_format: 'pdf' }, distinct_id: 'x' },
    });
  });
  after(() => api.close());

  test("answers PostHog's page of event definitions by name, each with its guessed type", async () => {
    const answer = await get(api, `${base}?limit=1000`);
    assert.equal(answer.status, 200);
    assert.deepEqual(Object.keys(answer.json).sort(), ['count', 'next', 'previous', 'results']);
    const byName = new Map(answer.json.results.map((definition: { name: string }) => [definition.name, definition]));
    assert.deepEqual(byName.get('pages'), {
      id: (byName.get('pages') as { id: string }).id, name: 'pages', is_numerical: true, property_type: 'Numeric', tags: [], is_seen_on_filtered_events: null,
    });
    assert.equal((byName.get('is_draft') as { property_type: string }).property_type, 'Boolean');
    assert.equal((byName.get('exported_at') as { property_type: string }).property_type, 'DateTime');
    assert.equal((byName.get('format') as { property_type: string }).property_type, 'String');
    assert.ok(byName.has('$browser'), 'the generated events\' properties too');
    const listed = [...byName.keys()] as string[];
    assert.deepEqual(listed, [...listed].sort((a, b) => (a < b ? -1 : 1)), 'ordered by name');
    for (const hidden of ['distinct_id', '$set', 'favourite_format']) assert.ok(!byName.has(hidden), hidden);
    assert.equal(answer.json.count, listed.length);
  });

  test('type=person lists the persons\' properties and those events set, not event properties', async () => {
    const person = await names('type=person&limit=1000');
    assert.ok(person.includes('favourite_format') && person.includes('email') && person.includes('$initial_browser'), person.join(', '));
    assert.ok(!person.includes('pages'));
  });

  test('search keeps names holding every word, case-insensitively, `_` matching any character', async () => {
    assert.deepEqual(await names('search=PAGES'), ['pages']);
    assert.deepEqual(await names('search=exp+at'), ['exported_at']);
    assert.deepEqual(await names('search=is_dr'), ['is_draft']);
    assert.deepEqual(await names('search=is%25ft'), ['is_draft'], '% is a wildcard too');
  });

  test('pages by limit and offset with absolute next and previous links', async () => {
    const first = (await get(api, `${base}?limit=2`)).json;
    assert.equal(first.results.length, 2);
    assert.equal(first.previous, null);
    assert.match(first.next, /^http:\/\/[^/]+\/api\/projects\/\d+\/property_definitions\/\?limit=2&offset=2$/);
    const second = (await get(api, new URL(first.next).pathname + new URL(first.next).search)).json;
    assert.notDeepEqual(second.results, first.results);
    assert.match(second.previous, /\?limit=2$/);
    assert.equal((await get(api, `${base}?limit=2&offset=100000`)).json.results.length, 0);
  });

  test('properties, is_numerical and excluded_properties narrow the list; a bad type is refused', async () => {
    assert.deepEqual(await names('properties=pages,format,nope'), ['format', 'pages']);
    const numerical = await names('is_numerical=true&limit=1000');
    assert.ok(numerical.includes('pages') && !numerical.includes('format'));
    assert.ok(!(await names(`excluded_properties=${encodeURIComponent('["pages"]')}&limit=1000`)).includes('pages'));
    const refused = await get(api, `${base}?type=cohort`);
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.json, errorBody('validation_error', 'invalid_choice', '"cohort" is not a valid choice.', 'type'));
  });

  test('keeps a definition no stored event carries, added as a property seen long ago', async () => {
    const added = await control(api, 'POST', 'property-definitions', { projectId, type: 'event', name: 'legacy_coupon', value: 'SPRING' });
    assert.equal(added.status, 201);
    assert.deepEqual(await names('search=legacy'), ['legacy_coupon']);
  });

  test("needs property_definition:read, which the read-only key has", async () => {
    const key = api.store.createKey({ scopes: ['query:read'] });
    const refused = await get(api, base, { key });
    assert.equal(refused.status, 403);
    assert.equal(refused.json.detail, "API key missing required scope 'property_definition:read'");
    assert.equal((await get(api, base, { key: api.keys.readOnly })).status, 200);
  });
});

describe('guessPropertyType (PostHog ingestion\'s rules)', () => {
  test('types values: numbers, booleans and their words, dates, text; null has no type', () => {
    assert.equal(guessPropertyType('amount', 12.5, NOW), 'Numeric');
    assert.equal(guessPropertyType('flag', false, NOW), 'Boolean');
    assert.equal(guessPropertyType('flag', ' TRUE ', NOW), 'Boolean');
    assert.equal(guessPropertyType('when', '2026-06-01 10:00:00', NOW), 'DateTime');
    assert.equal(guessPropertyType('version', '10.0', NOW), 'String');
    assert.equal(guessPropertyType('email', null, NOW), null);
    assert.equal(guessPropertyType('nested', { a: 1 }, NOW), null);
  });

  test('names decide first: utm_ and feature flags are text, a recent whole number under a time name is a DateTime', () => {
    assert.equal(guessPropertyType('utm_campaign', 2026, NOW), 'String');
    assert.equal(guessPropertyType('$feature/beta', true, NOW), 'String');
    assert.equal(guessPropertyType('signup_time', Math.floor(NOW / 1000) - 3600, NOW), 'DateTime');
    assert.equal(guessPropertyType('signup_time', 12, NOW), 'Numeric', 'too old to be a time');
    assert.equal(guessPropertyType('$time', 1_780_000_000.5, NOW), 'Numeric', 'not a whole number');
  });
});
