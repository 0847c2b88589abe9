import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLocalApi, type LocalApi } from '../../api-server';
import { errorBody, get, mainProject } from './helpers';

const q = (value: unknown): string => encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value));

describe('local API: events', () => {
  let api: LocalApi;
  let projectId: number;
  let base: string;
  const fetchJson = async (url: string) =>
    (await fetch(url, { headers: { Authorization: `Bearer ${api.keys.all}` } })).json() as Promise<{ next: string | null; results: { id: string; timestamp: string }[] }>;

  before(async () => {
    api = await startLocalApi({ seed: 'minimal' });
    ({ projectId } = mainProject(api));
    base = `/api/projects/${projectId}/events`;
    api.store.addEvent(projectId, {
      event: 'exported_report', distinct_id: 'maya@example.com', timestamp: new Date(Date.now() - 3 * 86_400_000),
      properties: { format: 'pdf', pages: 12, $browser: 'Firefox' },
    });
  });
  after(() => api.close());

  test('lists up to 100 events newest first with properties, person and elements as JSON values', async () => {
    const page = (await get(api, `${base}/?include_person=true`)).json;
    assert.ok(page.results.length >= 50 && page.results.length <= 100, `the first window holding half a page: ${page.results.length}`);
    assert.deepEqual(Object.keys(page).sort(), ['next', 'results']);
    const stamps = page.results.map((e: { timestamp: string }) => e.timestamp);
    assert.deepEqual(stamps, [...stamps].sort().reverse());
    const event = page.results[0];
    assert.match(event.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
    assert.equal(typeof event.properties, 'object');
    assert.ok(Array.isArray(event.elements));
    const identified = page.results.find((e: { person: { is_identified: boolean } | null }) => e.person?.is_identified);
    assert.ok(identified.person.distinct_ids.length === 1 && 'email' in identified.person.properties);
    const click = page.results.find((e: { event: string }) => e.event === '$autocapture');
    assert.ok(click.elements.length > 0 && click.elements[0].tag_name);
    assert.ok(click.elements_chain.length > 0);
  });

  test('next keeps every parameter and sets before to the last row\'s time', async () => {
    const first = (await get(api, `${base}/?limit=150&event=%24pageview&distinct_id=`)).json;
    assert.equal(first.results.length, 0, 'an empty distinct_id matches nothing');
    const page = (await get(api, `${base}/?limit=150&orderBy=${q(['-timestamp'])}`)).json;
    const next = new URL(page.next);
    assert.equal(next.searchParams.get('limit'), '150');
    assert.equal(next.searchParams.get('orderBy'), '["-timestamp"]');
    assert.equal(next.searchParams.get('before'), page.results[149].timestamp);
    const more = await fetchJson(page.next);
    assert.ok(more.results.every((e) => e.timestamp < page.results[149].timestamp), 'before is strict');
  });

  test('without after (PATCH_EVENT_LIST_MAX_OFFSET 2) the list covers only the 24 hours before `before`', async () => {
    assert.deepEqual((await get(api, `${base}/?event=exported_report`)).json.results, [], 'three days old: out of reach');
    const found = (await get(api, `${base}/?after=-7d&event=exported_report`)).json;
    assert.equal(found.results.length, 1);
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString();
    assert.deepEqual((await get(api, `${base}/?before=${q(twoDaysAgo)}`)).json.results, [], 'a day before `before` holds nothing');
    const before = new Date(Date.now() - 3 * 86_400_000 + 3_600_000).toISOString();
    const old = (await get(api, `${base}/?before=${q(before)}`)).json;
    assert.deepEqual(old.results.map((e: { event: string }) => e.event), ['exported_report'], 'the 24 hours before an older `before`');
    assert.equal(old.next, null);
  });

  test('filters by event, distinct_id and person_id', async () => {
    const pageviews = (await get(api, `${base}/?event=%24pageview&limit=500`)).json.results;
    assert.ok(pageviews.length > 50 && pageviews.every((e: { event: string }) => e.event === '$pageview'));
    const person = api.store.eventsOf(projectId).persons.find((p) => p.distinct_ids.length === 2)!;
    const byPerson = (await get(api, `${base}/?person_id=${person.id}&limit=500`)).json.results;
    assert.ok(byPerson.length > 0 && byPerson.every((e: { distinct_id: string }) => person.distinct_ids.includes(e.distinct_id)));
    assert.deepEqual((await get(api, `${base}/?person_id=${person.uuid}&limit=500`)).json.results, byPerson);
    const distinct = byPerson[0].distinct_id;
    const byDistinct = (await get(api, `${base}/?distinct_id=${q(distinct)}&limit=500`)).json.results;
    assert.ok(byDistinct.every((e: { distinct_id: string }) => e.distinct_id === distinct));
  });

  test('properties filter: exact, is_not, icontains, gt, is_set and OR groups', async () => {
    const list = async (filter: unknown) => (await get(api, `${base}/?limit=1000&after=-7d&properties=${q(filter)}`)).json.results as { event: string; properties: Record<string, unknown> }[];
    const chrome = await list([{ key: '$browser', value: 'Chrome' }]);
    assert.ok(chrome.length > 0 && chrome.every((e) => e.properties['$browser'] === 'Chrome'));
    const notChrome = await list([{ key: '$browser', value: 'Chrome', operator: 'is_not', type: 'event' }]);
    assert.equal(chrome.length + notChrome.length, 501);
    const icontains = await list([{ key: '$current_url', value: 'PRICING', operator: 'icontains' }]);
    assert.ok(icontains.length > 0 && icontains.every((e) => String(e.properties['$current_url']).includes('/pricing')));
    const big = await list([{ key: 'pages', value: 10, operator: 'gt' }]);
    assert.deepEqual(big.map((e) => e.event), ['exported_report']);
    const withFormat = await list([{ key: 'format', operator: 'is_set' }]);
    assert.equal(withFormat.length, 1);
    const either = await list({ type: 'OR', values: [{ key: '$browser', value: 'Safari' }, { key: '$browser', value: 'Firefox' }] });
    assert.ok(either.length > 0 && either.every((e) => ['Safari', 'Firefox'].includes(e.properties['$browser'] as string)));
    const bad = await get(api, `${base}/?properties=${q('[{')}`);
    assert.deepEqual(bad.json, errorBody('validation_error', 'invalid', 'Properties are unparsable!', 'properties'));
  });

  test('offsets above 50,000 are refused', async () => {
    const answer = await get(api, `${base}/?offset=50001`);
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.json, errorBody('validation_error', 'invalid', 'Offset is deprecated. Max supported offset value is 50000'));
    assert.equal((await get(api, `${base}/?offset=50000`)).status, 200);
  });

  test('format=csv answers text/csv with dotted, sorted headers and no next link', async () => {
    const answer = await get(api, `${base}/?format=csv&limit=20`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('content-type'), 'text/csv; charset=utf-8');
    const lines = answer.text.trimEnd().split('\r\n');
    assert.equal(lines.length, 21);
    const headers = lines[0]!.split(',');
    assert.deepEqual(headers, [...headers].sort());
    assert.ok(headers.includes('properties.$browser') && headers.includes('event') && headers.includes('timestamp'));
    assert.ok(!answer.text.includes('"next"'));
  });

  test('retrieve by UUID; malformed id is 400 Invalid UUID; unknown id is 404', async () => {
    const listed = (await get(api, `${base}/?limit=3`)).json.results[2];
    const one = (await get(api, `${base}/${listed.id}/`)).json;
    assert.equal(one.id, listed.id);
    assert.deepEqual(one.properties, listed.properties);
    const sameId = (await get(api, `${base}/${listed.id.replace(/-/g, '').toUpperCase()}/`)).json;
    assert.equal(sameId.id, listed.id);
    const malformed = await get(api, `${base}/not-a-uuid/`);
    assert.equal(malformed.status, 400);
    assert.deepEqual(malformed.json, { detail: 'Invalid UUID', code: 'invalid', type: 'validation_error' });
    const unknown = await get(api, `${base}/01890000-0000-7000-8000-000000000000/`);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.code, 'not_found');
  });

  test('values: key and (for a personal API key) event_name are required; {results, refreshing}; at most 10', async () => {
    const missing = await get(api, `${base}/values/?event_name=%24pageview`);
    assert.equal(missing.status, 400);
    assert.equal(missing.json.detail, 'You must provide a key');
    const noEvent = await get(api, `${base}/values/?key=%24browser`);
    assert.equal(noEvent.status, 400);
    assert.deepEqual(
      noEvent.json,
      errorBody(
        'validation_error',
        'invalid',
        'The event_name parameter is required when using a personal API key. For queries without event filters, please use the Query endpoint instead: https://posthog.com/docs/api/query',
      ),
    );
    const browsers = await get(api, `${base}/values/?key=%24browser&event_name=%24pageview`);
    assert.deepEqual(Object.keys(browsers.json).sort(), ['refreshing', 'results']);
    assert.equal(browsers.json.refreshing, false);
    assert.equal(browsers.headers.get('cache-control'), 'max-age=10');
    assert.ok(browsers.json.results.length > 1 && browsers.json.results.length <= 10);
    assert.ok(browsers.json.results.every((v: { name: unknown }) => typeof v.name === 'string'));
    const safari = (await get(api, `${base}/values/?key=%24browser&event_name=%24pageview&value=safari`)).json.results;
    assert.ok(safari.length > 0 && safari.every((v: { name: string }) => v.name.toLowerCase().includes('safari')));
    assert.deepEqual((await get(api, `${base}/values/?key=format&event_name=exported_report`)).json.results, [{ name: 'pdf' }]);
    assert.deepEqual((await get(api, `${base}/values/?key=format&event_name=%24pageview`)).json.results, []);
    const both = (await get(api, `${base}/values/?key=format&event_name=%24pageview&event_name=exported_report`)).json.results;
    assert.deepEqual(both, [{ name: 'pdf' }], 'several event_name values are all used');
    const paths = (await get(api, `${base}/values/?key=%24pathname&event_name=%24pageview`)).json.results;
    assert.equal(paths.length, 10);
  });

  test('values key=custom_event: needs event_name too, then lists every custom event name sorted, ignoring event_name and value', async () => {
    assert.equal((await get(api, `${base}/values/?key=custom_event`)).status, 400);
    const names = (await get(api, `${base}/values/?key=custom_event&event_name=anything&value=zzz`)).json.results.map((v: { name: string }) => v.name);
    assert.ok(names.includes('exported_report'));
    assert.ok(names.every((name: string) => !name.startsWith('$')));
    assert.deepEqual(names, [...names].sort());
  });

  test('select and where are ignored: the answer is the ordinary list of events', async () => {
    const plain = (await get(api, `${base}/?limit=5`)).json;
    const selected = (await get(api, `${base}/?limit=5&select=${q(['event', 'count()'])}&where=${q(["event = 'nothing'"])}`)).json;
    assert.deepEqual(Object.keys(selected).sort(), ['next', 'results']);
    assert.deepEqual(selected.results.map((e: { id: string }) => e.id), plain.results.map((e: { id: string }) => e.id));
    const whereOnly = await get(api, `${base}/?limit=5&where=${q(['not even hogql ('])}`);
    assert.equal(whereOnly.status, 200);
    assert.equal(whereOnly.json.results.length, 5);
  });

  test('person is filled only with include_person=true (or 1), in the list and in retrieve', async () => {
    const plain = (await get(api, `${base}/?limit=200`)).json.results as { id: string; person: unknown }[];
    assert.ok(plain.every((e) => e.person === null), 'no person without include_person');
    const withPerson = (await get(api, `${base}/?limit=200&include_person=true`)).json.results as { id: string; person: { distinct_ids: string[] } | null }[];
    assert.ok(withPerson.some((e) => e.person && e.person.distinct_ids.length > 0));
    assert.ok((await get(api, `${base}/?limit=200&include_person=no`)).json.results.every((e: { person: unknown }) => e.person === null));
    const id = withPerson.find((e) => e.person)!.id;
    assert.equal((await get(api, `${base}/${id}/?include_person=false`)).json.person, null);
    assert.ok((await get(api, `${base}/${id}/?include_person=TRUE`)).json.person);
    assert.ok((await get(api, `${base}/${id}/?include_person=1`)).json.person);
  });
});

describe('local API: events are capped at 1,000 rows a request', () => {
  let api: LocalApi;
  let base: string;

  before(async () => {
    api = await startLocalApi({ seed: 'minimal' });
    const { projectId } = mainProject(api);
    base = `/api/projects/${projectId}/events`;
    api.store.addSteadyEvents(projectId, 2_000, { perSecond: 50 }); // all in the first window (one minute)
  });
  after(() => api.close());

  test('a JSON limit above 1,000 answers 1,000 rows and a next link', async () => {
    const page = (await get(api, `${base}/?limit=5000`)).json;
    assert.equal(page.results.length, 1_000);
    assert.ok(page.next);
    assert.equal(new URL(page.next).searchParams.get('limit'), '5000', 'next keeps the parameter as given');
  });

  test('CSV defaults to 1,000 rows, is cut to 1,000 and has no next', async () => {
    const rows = (text: string) => text.trimEnd().split('\r\n').length - 1;
    const plain = await get(api, `${base}/?format=csv`);
    assert.equal(rows(plain.text), 1_000);
    const big = await get(api, `${base}/?format=csv&limit=3500`);
    assert.equal(rows(big.text), 1_000);
    assert.equal(rows((await get(api, `${base}/?format=csv&limit=7`)).text), 7);
  });
});
