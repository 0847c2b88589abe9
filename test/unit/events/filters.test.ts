import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildExport, buildQuery, columnExpressions, DEFAULT_COLUMNS, describeFilters, FilterError, lookBackFor, propertyFilters, resolveTime } from '../../../src/events/filters';
import { defaultFilters, FilterStateSchema } from '../../../src/events/protocol';

const now = new Date('2024-05-15T13:45:30.000Z');

describe('relative and absolute times', () => {
  const cases: [string, string][] = [
    ['-24h', '2024-05-14T13:45:30.000Z'],
    ['-1h', '2024-05-15T12:45:30.000Z'],
    ['-30min', '2024-05-15T13:15:30.000Z'],
    ['-7d', '2024-05-08T00:00:00.000Z'],
    ['-2w', '2024-05-01T00:00:00.000Z'],
    ['-1m', '2024-04-15T00:00:00.000Z'],
    ['-1y', '2023-05-15T00:00:00.000Z'],
    ['2024-05-01', '2024-05-01T00:00:00.000Z'],
    ['2024-05-01T10:00:00+02:00', '2024-05-01T08:00:00.000Z'],
  ];
  for (const [input, expected] of cases) {
    test(`${input} → ${expected}`, () => assert.equal(resolveTime(input, now), expected));
  }

  test('blank is no bound', () => assert.equal(resolveTime('  ', now), undefined));

  for (const bad of ['yesterday', '-7', '7d', '2024-13-45', '-1 fortnight']) {
    test(`refuses "${bad}" with a message fit to show`, () => {
      assert.throws(() => resolveTime(bad, now), (error: unknown) => error instanceof FilterError && error.message.includes(bad.trim()));
    });
  }
});

describe('property filters', () => {
  test('turns builder rows into PostHog filters; is_set takes no value; blank keys are dropped', () => {
    const filters = propertyFilters(
      [
        { key: '$browser', operator: 'exact', value: 'Chrome', type: 'event' },
        { key: 'email', operator: 'is_set', value: 'ignored', type: 'person' },
        { key: '  ', operator: 'exact', value: 'x', type: 'event' },
      ],
      '',
    );
    assert.deepEqual(filters, [
      { key: '$browser', operator: 'exact', type: 'event', value: 'Chrome' },
      { key: 'email', operator: 'is_set', type: 'person' },
    ]);
  });

  test('appends a raw JSON list, or a raw AND/OR group, after the rows', () => {
    const row = { key: 'plan', operator: 'exact' as const, value: 'pro', type: 'event' as const };
    assert.deepEqual(propertyFilters([row], '[{"key":"$os","value":"Mac OS X"}]'), [
      { key: 'plan', operator: 'exact', type: 'event', value: 'pro' },
      { key: '$os', value: 'Mac OS X' },
    ]);
    const group = { type: 'OR', values: [{ key: '$browser', value: 'Safari' }, { key: '$browser', value: 'Firefox' }] };
    assert.deepEqual(propertyFilters([], JSON.stringify(group)), [group]);
  });

  test('nothing to filter is no parameter', () => assert.equal(propertyFilters([], ''), undefined));

  test('refuses JSON that does not parse, or is not a list or a group', () => {
    assert.throws(() => propertyFilters([], '[{"key":'), FilterError);
    assert.throws(() => propertyFilters([], '"Chrome"'), FilterError);
  });
});

describe('the whole query', () => {
  test('sets only the parameters the user filled in', () => {
    const query = buildQuery(
      {
        ...defaultFilters(),
        event: ' $pageview ',
        distinctId: 'user-1',
        personId: '42',
        after: '-24h',
        before: '2024-05-15T12:00:00Z',
        limit: '250',
        properties: [{ key: '$browser', operator: 'icontains', value: 'chr', type: 'event' }],
        columns: '$browser, $os, $browser',
      },
      now,
    );
    assert.deepEqual(query.filters, {
      event: '$pageview',
      distinct_id: 'user-1',
      person_id: '42',
      after: '2024-05-14T13:45:30.000Z',
      before: '2024-05-15T12:00:00.000Z',
      properties: [{ key: '$browser', operator: 'icontains', type: 'event', value: 'chr' }],
      limit: 250,
      include_person: true,
    });
    assert.deepEqual(query.columns, ['properties.$browser', 'properties.$os']);
  });

  test('the default form asks for the last 24 hours (never unbounded) and the persons (the Person column)', () => {
    assert.equal(defaultFilters().after, '-24h', 'the form shows the bound');
    const lastDay = { after: new Date(now.getTime() - 86_400_000).toISOString(), include_person: true };
    assert.deepEqual(buildQuery(defaultFilters(), now).filters, lastDay);
    assert.deepEqual(buildQuery({ ...defaultFilters(), after: '  ' }, now).filters, lastDay, 'an emptied After is the default again');
  });

  test('a range over 366 days is refused before anything is sent, with the limit in plain words', () => {
    assert.throws(
      () => buildQuery({ ...defaultFilters(), after: '2023-01-01', before: '2024-05-01' }, now),
      (error: unknown) => error instanceof FilterError && error.message === 'The time range is 486 days long; PostHog lists events from at most 366 days at once. Move After and Before closer together (for a year, use -365d).',
    );
    assert.throws(() => buildQuery({ ...defaultFilters(), after: '-400d' }, now), /at most 366 days/);
    assert.equal(buildQuery({ ...defaultFilters(), after: '-365d' }, now).filters.after, '2023-05-16T00:00:00.000Z', '-365d fits');
    assert.equal(buildQuery({ ...defaultFilters(), after: '2023-06-01', before: '2024-06-01' }, now).filters.before, '2024-06-01T00:00:00.000Z', '366 days across a leap day fits');
  });

  test('a saved form of an older version (property keys as columns, no where) reads as HogQL columns', () => {
    const restored = FilterStateSchema.parse({ event: '', distinctId: '', personId: '', after: '-24h', before: '', properties: [], columns: '$current_url, $browser', select: 'count()' });
    assert.equal('select' in restored, false);
    assert.equal(restored.where, '');
    assert.deepEqual(buildQuery(restored, now).columns, ['properties.$current_url', 'properties.$browser']);
  });

  test('the page size is at most 1,000, PostHog\'s cap', () => {
    assert.equal(buildQuery({ ...defaultFilters(), limit: '1000' }, now).filters.limit, 1_000);
    assert.throws(() => buildQuery({ ...defaultFilters(), limit: '1001' }, now), /from 1 to 1,000\./);
  });

  for (const limit of ['0', '-1', '2.5', 'ten', '100000']) {
    test(`refuses page size "${limit}"`, () => assert.throws(() => buildQuery({ ...defaultFilters(), limit }, now), FilterError));
  }

  test('an export takes the same filters (persons included) without the page size, and 1 to 1,000,000 rows (default 1,000)', () => {
    const state = { ...defaultFilters(), event: '$pageview', limit: '50' };
    assert.deepEqual(buildExport(state, now).query.filters, { event: '$pageview', after: new Date(now.getTime() - 86_400_000).toISOString(), include_person: true });
    assert.equal(buildExport(state, now).rows, 1_000);
    assert.deepEqual(buildExport({ ...state, exportLimit: '1000000' }, now).rows, 1_000_000);
    assert.throws(() => buildExport({ ...state, exportLimit: '1000001' }, now), /rows to export must be a whole number from 1 to 1,000,000/);
    assert.throws(() => buildExport({ ...state, exportLimit: '1e9' }, now), /rows to export/);
  });

  test('columns: HogQL expressions split at top-level commas only; bare property keys migrate; empty is PostHog\'s defaults', () => {
    assert.deepEqual(columnExpressions(" coalesce(properties.$a, 'x,y'), , event ,event, [1, 2] "), ["coalesce(properties.$a, 'x,y')", 'event', '[1, 2]']);
    assert.deepEqual(columnExpressions('$browser, properties.$os'), ['properties.$browser', 'properties.$os']);
    assert.deepEqual(columnExpressions('  '), [...DEFAULT_COLUMNS]);
  });

  test('an empty result names the filters the user set; the look-back picks the shortest range holding the newest event', () => {
    assert.deepEqual(describeFilters(defaultFilters()), []);
    assert.deepEqual(describeFilters({ ...defaultFilters(), event: 'x', where: "properties.$os = 'Mac'" }), ['event = "x"', "where = properties.$os = 'Mac'"]);
    assert.equal(lookBackFor(new Date(now.getTime() - 3 * 86_400_000).toISOString(), now), '-7d');
    assert.equal(lookBackFor(new Date(now.getTime() - 20 * 86_400_000).toISOString(), now), '-30d');
    assert.equal(lookBackFor(new Date(now.getTime() - 200 * 86_400_000).toISOString(), now), '-365d');
  });
});
