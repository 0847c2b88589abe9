import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  describeQuery,
  describeTag,
  isKnownTag,
  kindLabel,
  nodeTypeOfTag,
  QUERY_KINDS,
  TAGS,
  tagDefinition,
  tagOfNodeType,
  UNKNOWN_TAG,
} from '../../../../src/notebooks/markdown/dialect';

describe("PostHog's notebook tags", () => {
  test('every node type has one tag and every tag one node type, both ways', () => {
    assert.equal(TAGS.length, 31);
    assert.equal(new Set(TAGS.map((definition) => definition.tag)).size, TAGS.length);
    assert.equal(new Set(TAGS.map((definition) => definition.nodeType)).size, TAGS.length);
    for (const { tag, nodeType } of TAGS) {
      assert.equal(tagOfNodeType(nodeType), tag);
      assert.equal(nodeTypeOfTag(tag), nodeType);
      assert.match(nodeType, /^ph-[a-z-]+$/);
      assert.match(tag, /^[A-Z][A-Za-z]+$/);
    }
  });

  test("PostHog's own pairs are there", () => {
    assert.equal(tagOfNodeType('ph-query'), 'Query');
    assert.equal(tagOfNodeType('ph-hogql-sql'), 'HogQLSQL');
    assert.equal(tagOfNodeType('ph-llm-trace'), 'LLMTrace');
    assert.equal(tagOfNodeType('ph-feature-flag-code-example'), 'FeatureFlagCodeExample');
    assert.equal(nodeTypeOfTag('ReplayTimestamp'), 'ph-replay-timestamp');
    assert.equal(nodeTypeOfTag('SupportTickets'), 'ph-support-tickets');
  });

  test('names PostHog has no tag for are unknown', () => {
    assert.equal(tagOfNodeType('ph-mention'), undefined);
    assert.equal(tagOfNodeType('paragraph'), undefined);
    assert.equal(nodeTypeOfTag('Qurey'), undefined);
    assert.equal(nodeTypeOfTag(UNKNOWN_TAG), undefined);
    assert.equal(isKnownTag(UNKNOWN_TAG), true);
    assert.equal(isKnownTag('Comment'), true);
    assert.equal(isKnownTag('query'), false);
  });

  test('each tag is described in one short sentence', () => {
    for (const { tag, description } of TAGS) {
      assert.match(description, /^[A-Z].*\.$/, tag);
      assert.ok(description.length <= 70, `${tag}: ${description}`);
    }
    assert.equal(tagDefinition('Query')?.description, 'An insight or query, shown as a chart or table.');
    assert.equal(describeTag('Survey'), 'A survey with its responses.');
    assert.match(describeTag(UNKNOWN_TAG) ?? '', /^A node PostHog has no tag for/);
    assert.equal(describeTag('Comment'), 'A discussion thread on highlighted text.');
    assert.equal(describeTag('Qurey'), undefined);
  });
});

describe('query kinds', () => {
  test("the kinds a notebook's query shows are offered, once each", () => {
    for (const kind of [
      'SavedInsightNode',
      'InsightVizNode',
      'DataTableNode',
      'DataVisualizationNode',
      'HogQLQuery',
      'EventsQuery',
      'TrendsQuery',
      'FunnelsQuery',
      'RetentionQuery',
      'PathsQuery',
      'StickinessQuery',
      'LifecycleQuery',
      'PersonsNode',
      'ActorsQuery',
    ]) {
      assert.ok(QUERY_KINDS.includes(kind), kind);
    }
    assert.equal(new Set(QUERY_KINDS).size, QUERY_KINDS.length);
  });

  test('a saved insight is named by its short id', () => {
    assert.equal(describeQuery({ query: { kind: 'SavedInsightNode', shortId: 'Xk3pQ9aZ' } }), 'Saved insight Xk3pQ9aZ');
    assert.equal(describeQuery({ query: { kind: 'SavedInsightNode' } }), 'Saved insight');
  });

  test('a wrapped query names its source and its wrapper', () => {
    assert.equal(describeQuery({ query: { kind: 'InsightVizNode', source: { kind: 'TrendsQuery', series: [] } } }), 'Trends query (InsightVizNode)');
    assert.equal(describeQuery({ query: { kind: 'DataTableNode', source: { kind: 'EventsQuery', select: ['*'] } } }), 'Events query (DataTableNode)');
  });

  test('a HogQL query shows the start of its SQL on one line', () => {
    const sql = 'select count()\n  from events\n where event = \'$pageview\' and timestamp > now() - interval 7 day';
    const described = describeQuery({ query: { kind: 'DataVisualizationNode', source: { kind: 'HogQLQuery', query: sql } } });
    assert.ok(described);
    assert.ok(described.startsWith("HogQL: select count() from events where event = '$pageview'"), described);
    assert.ok(described.endsWith('…'));
    assert.ok(described.length <= 'HogQL: '.length + 60);
    assert.equal(describeQuery({ query: { kind: 'HogQLQuery', query: 'select 1' } }), 'HogQL: select 1');
  });

  test('other kinds read as words, and no query gives nothing', () => {
    assert.equal(describeQuery({ query: { kind: 'FunnelsQuery' } }), 'Funnels query');
    assert.equal(describeQuery({ title: 'x' }), undefined);
    assert.equal(describeQuery({ query: 'not an object' }), undefined);
    assert.equal(kindLabel('DataTableNode'), 'Data table node');
    assert.equal(kindLabel('HogQLQuery'), 'HogQL query');
    assert.equal(kindLabel('WebOverviewQuery'), 'Web overview query');
  });
});
