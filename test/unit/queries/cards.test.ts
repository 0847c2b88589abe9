import '../support/vscode';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findQueryCards, innerQuery } from '../../../src/queries';

const trends = { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: '$pageview', math: 'total' }], interval: 'day' };
const hogql = { kind: 'HogQLQuery', query: 'select event, count() from events group by event' };
const events = { kind: 'EventsQuery', select: ['*', 'event', 'timestamp'], after: '-7d' };

function queryTag(query: unknown, extra = 'hideFilters '): string {
  return `<Query ${extra}query={${JSON.stringify(query)}} />`;
}

describe('findQueryCards: cards and cells as PostHog reads a notebook', () => {
  test('each wrapper kind is a card whose query is its source', () => {
    const markdown = [
      '# Weekly numbers',
      '',
      queryTag({ kind: 'InsightVizNode', source: trends }),
      '',
      queryTag({ kind: 'DataVisualizationNode', source: hogql, display: 'ActionsLineGraph' }),
      '',
      queryTag({ kind: 'DataTableNode', source: events, columns: ['event'] }),
    ].join('\n');
    const cards = findQueryCards(markdown);
    assert.deepEqual(
      cards.map((card) => [card.kind, card.tag, card.query, card.range]),
      [
        ['query', 'Query', trends, { startLine: 2, endLine: 3 }],
        ['query', 'Query', hogql, { startLine: 4, endLine: 5 }],
        ['query', 'Query', events, { startLine: 6, endLine: 7 }],
      ],
    );
    assert.deepEqual(cards.map((card) => card.label), ['Weekly numbers', 'SQL', 'Events']);
  });

  test('a tag over several lines (pretty-printed JSON) spans its lines', () => {
    const json = JSON.stringify({ kind: 'InsightVizNode', source: trends }, null, 2);
    const markdown = `intro\n\n<Query query={${json}}\n/>\n\nafter`;
    const [card] = findQueryCards(markdown);
    assert.deepEqual(card?.range, { startLine: 2, endLine: 2 + json.split('\n').length + 1 });
    assert.deepEqual(card?.query, trends);
  });

  test('SQL cells: HogQLSQL and SQLV2 carry their code, its offset in the document and a HogQLQuery; DuckSQL is left out', () => {
    const markdown = ['<HogQLSQL code="select 1" />', '', '<SQLV2 nodeId="n1" code={"select 2"} />', '', '<DuckSQL code="select * from df" />'].join('\n');
    const cards = findQueryCards(markdown);
    assert.deepEqual(cards.map((card) => [card.kind, card.tag, card.sql?.text, card.query]), [
      ['sql', 'HogQLSQL', 'select 1', { kind: 'HogQLQuery', query: 'select 1' }],
      ['sql', 'SQLV2', 'select 2', { kind: 'HogQLQuery', query: 'select 2' }],
    ]);
    for (const card of cards) {
      assert.equal(markdown.slice(card.sql!.offset, card.sql!.offset + card.sql!.text.length), card.sql!.text);
    }
  });

  test("a SQL cell's code offset is read from its own lines: a code span opened on the line before does not hide it", () => {
    const markdown = ['Counts with `count()', '<SQLV2 code="select `event`, count() from events group by 1" />', '', 'more text'].join('\n');
    const [cell] = findQueryCards(markdown);
    assert.equal(cell?.sql?.text, 'select `event`, count() from events group by 1');
    assert.equal(markdown.slice(cell!.sql!.offset, cell!.sql!.offset + cell!.sql!.text.length), cell!.sql!.text);
  });

  test('saved insights are cards with a short id and nothing to send', () => {
    const markdown = `${queryTag({ kind: 'SavedInsightNode', shortId: 'Xk3pQ9aZ' })}\n\n<Insight id="Ab12Cd34" />`;
    const cards = findQueryCards(markdown);
    assert.deepEqual(cards.map((card) => [card.savedInsight, card.query]), [['Xk3pQ9aZ', undefined], ['Ab12Cd34', undefined]]);
  });

  test('what PostHog does not read as a tag is no card: in code, in text, unclosed, escaped', () => {
    const tag = queryTag({ kind: 'DataTableNode', source: events });
    const markdown = ['```', tag, '```', '', `text before ${tag}`, '', '<Query query={{"kind":"DataTableNode",', '', 'broken}} />', '', `\\${tag}`].join('\n');
    assert.deepEqual(findQueryCards(markdown), []);
  });

  test('ids stay while a card is unchanged, and two identical cards differ', () => {
    const tag = queryTag({ kind: 'InsightVizNode', source: trends });
    const before = findQueryCards(`${tag}\n\n${tag}`);
    const after = findQueryCards(`# New heading\n\nsome text\n\n${tag}\n\n${tag}`);
    assert.notEqual(before[0]!.id, before[1]!.id);
    assert.deepEqual(after.map((card) => card.id), before.map((card) => card.id));
  });
});

describe('innerQuery: what PostHog web app sends for each node', () => {
  test('wrappers send their source; bare queries themselves; saved insights and sourceless wrappers nothing', () => {
    assert.deepEqual(innerQuery({ kind: 'InsightVizNode', source: trends, showHeader: true }), trends);
    assert.deepEqual(innerQuery({ kind: 'DataVisualizationNode', source: hogql, chartSettings: {} }), hogql);
    assert.deepEqual(innerQuery({ kind: 'DataTableNode', source: events, columns: ['event'] }), events);
    assert.deepEqual(innerQuery(hogql), hogql);
    assert.equal(innerQuery({ kind: 'SavedInsightNode', shortId: 'x' }), undefined);
    assert.equal(innerQuery({ kind: 'DataTableNode' }), undefined);
    assert.equal(innerQuery({ kind: 'DataTableNode', source: { kind: 'SavedInsightNode' } }), undefined);
    assert.equal(innerQuery('select 1'), undefined);
    assert.equal(innerQuery(null), undefined);
  });
});
