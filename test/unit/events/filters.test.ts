import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildExportQuery, buildQuery, columnKeys, expressionList, FilterError, propertyFilters, resolveTime } from '../../../src/events/filters';
import { defaultFilters } from '../../../src/events/protocol';

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
    });
    assert.equal(query.selecting, false);
    assert.deepEqual(query.columns, ['$browser', '$os']);
  });

  test('the default form is an empty query', () => {
    assert.deepEqual(buildQuery(defaultFilters(), now).filters, {});
  });

  test('select and where are lists of expressions, one per line', () => {
    const query = buildQuery({ ...defaultFilters(), select: 'event\n\n  count()  \n', where: "event = '$pageview'" }, now);
    assert.deepEqual(query.filters.select, ['event', 'count()']);
    assert.deepEqual(query.filters.where, ["event = '$pageview'"]);
    assert.equal(query.selecting, true);
  });

  test('where without select is refused before anything is sent', () => {
    assert.throws(() => buildQuery({ ...defaultFilters(), where: 'true' }, now), /needs "select"/);
  });

  for (const limit of ['0', '-1', '2.5', 'ten', '100000']) {
    test(`refuses page size "${limit}"`, () => assert.throws(() => buildQuery({ ...defaultFilters(), limit }, now), FilterError));
  }

  test('an export takes the same filters with its own row count, not the page size', () => {
    const state = { ...defaultFilters(), event: '$pageview', limit: '50' };
    assert.deepEqual(buildExportQuery(state, now), { event: '$pageview' });
    assert.deepEqual(buildExportQuery({ ...state, exportLimit: '20000' }, now), { event: '$pageview', limit: 20_000 });
    assert.throws(() => buildExportQuery({ ...state, exportLimit: '1e9' }, now), /rows to export/);
  });

  test('helpers: expression lines and column keys', () => {
    assert.equal(expressionList(' \n '), undefined);
    assert.deepEqual(columnKeys(' a, ,b ,a'), ['a', 'b']);
  });
});
