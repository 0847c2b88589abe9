import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLocalApi, type LocalApi } from '../../api-server';
import { call, errorBody, mainProject, type Answer } from './helpers';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 5, 10, 12);

describe('local API: Query API kinds', () => {
  let api: LocalApi;
  let projectId: number;
  const post = (query: unknown, extra: Record<string, unknown> = {}, path = ''): Promise<Answer> =>
    call(api, 'POST', `/api/projects/${projectId}/query/${path}`, { body: { query, ...extra } });
  const rows = async (query: unknown): Promise<any[][]> => {
    const answer = await post(query);
    assert.equal(answer.status, 200, answer.text);
    return answer.json.results;
  };

  before(async () => {
    api = await startLocalApi({ seed: 'minimal', now: () => new Date(NOW) });
    ({ projectId } = mainProject(api));
    const person = api.store.eventsOf(projectId).persons.find((p) => p.distinct_ids.length === 2)!;
    api.store.addEvent(projectId, { event: 'exported_report', distinct_id: person.distinct_ids[1]!, timestamp: new Date(NOW - 2 * HOUR), properties: { format: 'pdf', pages: 12 } });
    api.store.addEvent(projectId, { event: 'exported_report', distinct_id: 'anonymous-1', timestamp: new Date(NOW - 3 * HOUR), properties: { format: 'csv', pages: 3 } });
    api.store.addEvent(projectId, { event: 'exported_report', distinct_id: 'anonymous-2', timestamp: new Date(NOW - 30 * 24 * HOUR), properties: { format: 'csv', pages: 1 } });
  });
  after(() => api.close());

  test('EventsQuery: PostHog\'s default columns, labels, types and the special dict columns', async () => {
    const select = ['*', 'event', 'person_display_name -- Person', 'coalesce(properties.$current_url, properties.$screen_name) -- Url / Screen', 'properties.$lib', 'timestamp'];
    const answer = await post({ kind: 'EventsQuery', select, orderBy: ['timestamp DESC'], limit: 5 });
    assert.equal(answer.status, 200);
    const body = answer.json;
    assert.deepEqual(body.columns, select);
    assert.equal(body.types.length, select.length);
    assert.equal(body.types[5], "DateTime64(6, 'UTC')");
    assert.equal(body.results.length, 5);
    assert.equal(body.limit, 5);
    assert.equal(body.offset, 0);
    assert.equal(body.hasMore, true);
    const [star, event, person, url, lib, timestamp] = body.results[0];
    assert.deepEqual(Object.keys(star).sort(), ['created_at', 'distinct_id', 'elements', 'elements_chain', 'event', 'person_mode', 'properties', 'team_id', 'timestamp', 'uuid']);
    assert.equal(star.event, event);
    assert.equal(typeof star.properties, 'object');
    assert.equal(star.timestamp, timestamp);
    assert.deepEqual(Object.keys(person).sort(), ['display_name', 'distinct_id', 'id']);
    assert.equal(url, star.properties.$current_url);
    assert.equal(lib, 'web');
    assert.match(timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
    const stamps = body.results.map((row: unknown[]) => row[5]);
    assert.deepEqual(stamps, [...stamps].sort().reverse(), 'newest first');
    assert.equal(body.nextCursor, `${stamps[4]}|${body.results[4][0].uuid}`);
    assert.equal(body.is_cached, false);
    assert.ok(typeof body.cache_key === 'string' && typeof body.last_refresh === 'string');
  });

  test('EventsQuery: where expressions, properties, event, personId and aliases', async () => {
    const exports = await rows({ kind: 'EventsQuery', select: ['event', 'properties.format as format', 'properties.pages -- Pages'], event: 'exported_report', orderBy: ['timestamp DESC'] });
    assert.deepEqual(exports, [['exported_report', 'pdf', 12], ['exported_report', 'csv', 3]], 'the event older than -24h is outside the default range');
    const named = await post({ kind: 'EventsQuery', select: ['properties.format as format', 'timestamp'], where: ["properties.format = 'csv'", 'properties.pages < 10'], after: '-60d' });
    assert.deepEqual(named.json.columns, ['format', 'timestamp']);
    assert.deepEqual(named.json.results.map((r: unknown[]) => r[0]), ['csv', 'csv']);
    const filtered = await rows({ kind: 'EventsQuery', select: ['properties.pages'], events: ['exported_report'], properties: [{ key: 'format', value: 'pdf', operator: 'exact', type: 'event' }] });
    assert.deepEqual(filtered, [[12]]);
    const person = api.store.eventsOf(projectId).persons.find((p) => p.distinct_ids.length === 2)!;
    const mine = await rows({ kind: 'EventsQuery', select: ['distinct_id', 'person.properties.email'], personId: person.uuid, limit: 1000 });
    assert.ok(mine.length > 0 && mine.every(([id, email]) => person.distinct_ids.includes(id) && email === person.properties['email']));
    const like = await rows({ kind: 'EventsQuery', select: ['event'], where: ["event ilike 'EXPORTED%' and not (properties.pages in (3, 1))"], after: 'all' });
    assert.deepEqual(like, [['exported_report']]);
  });

  test('EventsQuery: after and before, relative or fixed, are strict; after "all" has no lower bound', async () => {
    const count = async (bounds: object) => (await rows({ kind: 'EventsQuery', select: ['count()'], event: 'exported_report', ...bounds }))[0]![0];
    assert.equal(await count({}), 2);
    assert.equal(await count({ after: 'all' }), 3);
    assert.equal(await count({ after: '-60d', before: '-1d' }), 1);
    const at = new Date(NOW - 2 * HOUR).toISOString();
    assert.equal(await count({ before: at }), 1, 'before is strict');
    assert.equal(await count({ after: at }), 0, 'after is strict');
  });

  test('EventsQuery: the default order (first column ascending, timestamp, count()) and the uuid tiebreak', async () => {
    const firstColumn = await rows({ kind: 'EventsQuery', select: ['event'], limit: 1000 });
    const names = firstColumn.map((r) => r[0]);
    assert.deepEqual(names, [...names].sort(), 'without orderBy or timestamp: the first column ascending');
    const counts = await rows({ kind: 'EventsQuery', select: ['event', 'count()'] });
    const numbers = counts.map((r) => r[1]);
    assert.deepEqual(numbers, [...numbers].sort((a, b) => b - a), 'count() descending');
    assert.equal(numbers.reduce((a, b) => a + b, 0), (await rows({ kind: 'EventsQuery', select: ['count()'] }))[0]![0]);
    const aggregated = await post({ kind: 'EventsQuery', select: ['event', 'count()'], limit: 2 });
    assert.equal(aggregated.json.nextCursor, undefined, 'no cursor for an aggregation');
    const byTime = await post({ kind: 'EventsQuery', select: ['uuid', 'timestamp'], orderBy: ['timestamp ASC'], limit: 50 });
    assert.match(byTime.json.hogql, /ORDER BY timestamp ASC, uuid ASC/);
    const stamps = byTime.json.results.map((r: string[]) => r[1]);
    assert.deepEqual(stamps, [...stamps].sort());
  });

  test('EventsQuery: limits (default 100, at most 50,000) and offset', async () => {
    const plain = await post({ kind: 'EventsQuery', select: ['uuid'], orderBy: ['timestamp DESC'] });
    assert.equal(plain.json.results.length, 100);
    assert.equal(plain.json.limit, 100);
    const huge = await post({ kind: 'EventsQuery', select: ['uuid'], orderBy: ['timestamp DESC'], limit: 80_000 });
    assert.equal(huge.json.limit, 50_000);
    assert.equal(huge.json.hasMore, false);
    const second = await post({ kind: 'EventsQuery', select: ['uuid'], orderBy: ['timestamp DESC'], limit: 10, offset: 10 });
    assert.deepEqual(second.json.results, plain.json.results.slice(10, 20));
  });

  test('HogQLQuery: expressions, aliases, WHERE, GROUP BY, ORDER BY, LIMIT/OFFSET and the two tables', async () => {
    const grouped = await post({ kind: 'HogQLQuery', query: "select event, count() as n, min(toDate(timestamp)) from events where event in ('exported_report', 'no such') and properties.pages >= 3 group by event order by n desc" });
    assert.equal(grouped.status, 200, grouped.text);
    assert.deepEqual(grouped.json.results, [['exported_report', 2, '2026-06-10']]);
    assert.deepEqual(grouped.json.columns, ['event', 'n', 'min(toDate(timestamp))']);
    assert.deepEqual(grouped.json.types, [['event', 'String'], ['n', 'UInt64'], ['min(toDate(timestamp))', 'Date']]);
    assert.equal(grouped.json.hasMore, false);
    assert.equal(grouped.json.limit, 100, 'without LIMIT: at most 100 rows, with hasMore');
    const page = await post({ kind: 'HogQLQuery', query: 'select uuid from events order by timestamp desc, uuid limit 5 offset 5' });
    assert.equal(page.json.results.length, 5);
    assert.equal(page.json.hasMore, undefined, 'no hasMore with LIMIT');
    const all = await post({ kind: 'HogQLQuery', query: 'select uuid from events order by timestamp desc, uuid limit 10' });
    assert.deepEqual(page.json.results, all.json.results.slice(5));
    const many = await post({ kind: 'HogQLQuery', query: 'select uuid from events' });
    assert.equal(many.json.results.length, 100);
    assert.equal(many.json.hasMore, true);
    const persons = await post({ kind: 'HogQLQuery', query: "select count() from persons where properties.email like '%@%'" });
    const identified = api.store.eventsOf(projectId).persons.filter((p) => typeof p.properties['email'] === 'string').length;
    assert.deepEqual(persons.json.results, [[identified]]);
    const distinct = await post({ kind: 'HogQLQuery', query: "select distinct event from events where event = 'exported_report'" });
    assert.deepEqual(distinct.json.results, [['exported_report']]);
    const arithmetic = await post({ kind: 'HogQLQuery', query: "select 1 + 2 * 3, lower('AB') || 'c', toStartOfDay(toDateTime('2026-06-10T13:14:15Z')), now() - interval 1 day > toDateTime('2026-06-09')" });
    assert.deepEqual(arithmetic.json.results, [[7, 'abc', '2026-06-10T00:00:00.000000+00:00', 1]]);
  });

  test('HogQL errors: 400 with the error class\'s code and the message only', async () => {
    assert.deepEqual((await post({ kind: 'HogQLQuery', query: 'select nope from events' })).json, errorBody('validation_error', 'hogql_query_error', 'Unable to resolve field: nope'));
    const syntax = await post({ kind: 'HogQLQuery', query: 'select event from events where' });
    assert.equal(syntax.status, 400);
    assert.equal(syntax.json.code, 'hogql_syntax_error');
    const table = await post({ kind: 'HogQLQuery', query: 'select 1 from sessions' });
    assert.equal(table.json.code, 'hogql_query_error');
    assert.match(table.json.detail, /Unknown table "sessions"/);
    const fn = await post({ kind: 'EventsQuery', select: ['frobnicate(event)'] });
    assert.deepEqual(fn.json, errorBody('validation_error', 'hogql_query_error', "Unsupported function call 'frobnicate(...)'"));
  });

  test('HogQLMetadata: validity and errors with start and end offsets into the text', async () => {
    const meta = async (query: string, language = 'hogQL') => (await post({ kind: 'HogQLMetadata', language, query })).json;
    const valid = await meta('select event, count() from events group by event');
    assert.equal(valid.isValid, true);
    assert.deepEqual(valid.errors, []);
    const text = 'select event, nope from events';
    const field = await meta(text);
    assert.equal(field.isValid, false);
    assert.deepEqual(field.errors, [{ message: 'Unable to resolve field: nope', start: 14, end: 18, fix: null }]);
    assert.equal(text.slice(field.errors[0].start, field.errors[0].end), 'nope');
    const table = await meta('select 1 from evnts');
    assert.equal('select 1 from evnts'.slice(table.errors[0].start, table.errors[0].end), 'evnts');
    const syntax = await meta('select event from events where (event = ');
    assert.equal(syntax.isValid, false);
    assert.equal(syntax.errors[0].start, 'select event from events where (event = '.length, 'the end of the text, where an expression was expected');
    const stray = await meta("select event, from events");
    assert.equal("select event, from events".slice(stray.errors[0].start, stray.errors[0].end), 'from');
    const expr = await meta("properties.$browser = 'Chrome' and person.properties.nope2 = 1", 'hogQLExpr');
    assert.equal(expr.isValid, true, 'person properties are open-ended');
    const badExpr = await meta('upper(evnt)', 'hogQLExpr');
    assert.deepEqual(badExpr.errors.map((e: any) => [e.start, e.end]), [[6, 10]]);
    assert.equal(valid.is_cached, undefined, 'editor helpers carry no cache fields');
  });

  test('DatabaseSchemaQuery: the events and persons tables with their fields', async () => {
    const { json } = await post({ kind: 'DatabaseSchemaQuery' });
    assert.deepEqual(Object.keys(json.tables), ['events', 'persons']);
    assert.equal(json.tables.events.type, 'posthog');
    assert.deepEqual(json.tables.events.fields.timestamp, { name: 'timestamp', hogql_value: 'timestamp', type: 'datetime', schema_valid: true });
    assert.equal(json.tables.events.fields.person.type, 'lazy_table');
    assert.ok(['id', 'created_at', 'properties'].every((name) => name in json.tables.persons.fields));
  });

  test('TrendsQuery: one entry per series and breakdown value, counted per interval', async () => {
    const trends = async (extra: object) => (await post({ kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: '$pageview', math: 'total' }], dateRange: { date_from: '-2d' }, ...extra })).json;
    const daily = await trends({ interval: 'day' });
    assert.equal(daily.results.length, 1);
    const [series] = daily.results;
    assert.deepEqual(series.days, ['2026-06-08', '2026-06-09', '2026-06-10']);
    assert.deepEqual(series.labels, ['8-Jun-2026', '9-Jun-2026', '10-Jun-2026']);
    assert.equal(series.label, '$pageview');
    assert.equal(series.action.math, 'total');
    const perDay = await rows({ kind: 'HogQLQuery', query: "select toDate(timestamp) as d, count() from events where event = '$pageview' and timestamp >= '2026-06-08' group by d order by d" });
    assert.deepEqual(series.data, series.days.map((day: string) => perDay.find((r) => r[0] === day)?.[1] ?? 0));
    assert.equal(series.count, series.data.reduce((a: number, b: number) => a + b, 0));
    const hourly = await trends({ interval: 'hour', dateRange: { date_from: '-3h' } });
    assert.match(hourly.results[0].days[0], /^\d{4}-\d\d-\d\d \d\d:00:00$/);
    const split = await trends({ breakdownFilter: { breakdown_type: 'event', breakdown: '$browser' } });
    assert.ok(split.results.length > 1);
    assert.equal(split.results.reduce((sum: number, r: any) => sum + r.count, 0), series.count, 'the breakdown values add up');
    assert.ok(split.results.every((r: any) => r.label === r.breakdown_value));
    const dau = await trends({ series: [{ kind: 'EventsNode', event: '$pageview', math: 'dau' }] });
    assert.ok(dau.results[0].count > 0 && dau.results[0].count < series.count);
  });

  test('wrapper nodes run their source; SavedInsightNode is unsupported; the path kind must match', async () => {
    const source = { kind: 'HogQLQuery', query: "select count() from events where event = 'exported_report'" };
    const bare = (await post(source, { refresh: 'force_blocking' })).json.results;
    for (const kind of ['DataVisualizationNode', 'DataTableNode']) assert.deepEqual((await post({ kind, source }, { refresh: 'force_blocking' })).json.results, bare, kind);
    const insight = await post({ kind: 'InsightVizNode', source: { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: 'exported_report' }] } });
    assert.equal(insight.json.results[0].label, 'exported_report');
    assert.deepEqual((await post({ kind: 'SavedInsightNode', shortId: 'abc' })).json, errorBody('validation_error', 'invalid', 'Unsupported query kind: SavedInsightNode'));
    assert.equal((await post(source, {}, 'HogQLQuery/')).status, 200);
    assert.deepEqual((await post(source, {}, 'EventsQuery/')).json, errorBody('validation_error', 'invalid', 'Query kind mismatch: path kind "EventsQuery" does not match body kind "HogQLQuery".'));
  });

  test('a body that does not fit the schema: 400 parse_error', async () => {
    for (const body of [{}, { query: { kind: 'NoSuchQuery' } }, { query: { kind: 'EventsQuery' } }, { query: { kind: 'HogQLQuery', query: 5 } }, { query: source(), refresh: 'sometimes' }]) {
      const answer = await call(api, 'POST', `/api/projects/${projectId}/query/`, { body });
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.json.code, 'parse_error');
      assert.match(answer.json.detail, /^JSON parse error - /);
    }
    function source() {
      return { kind: 'HogQLQuery', query: 'select 1' };
    }
  });
});
