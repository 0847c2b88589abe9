import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  codeFenceAnchors,
  describeComment,
  describeProp,
  describeQuery,
  describeTag,
  isKnownTag,
  kindLabel,
  nodeTypeOfTag,
  propsOfTag,
  QUERY_KINDS,
  tagSnippet,
  TAGS,
  tagDefinition,
  tagOfNodeType,
  UNKNOWN_TAG,
} from '../../../../src/notebooks/markdown/dialect';

describe("PostHog's notebook tags", () => {
  test('every tag is PostHog\'s, once; a node type is written with its first tag and every tag reads as its node type', () => {
    assert.equal(new Set(TAGS.map((definition) => definition.tag)).size, TAGS.length);
    for (const { tag, nodeType } of TAGS) {
      assert.match(tag, /^[A-Z][A-Za-z0-9]+$/);
      if (nodeType !== undefined) {
        assert.match(nodeType, /^ph-[a-z-]+$/);
        assert.equal(nodeTypeOfTag(tag), nodeType);
        assert.equal(tagOfNodeType(nodeType), TAGS.find((definition) => definition.nodeType === nodeType)?.tag);
      }
    }
    assert.equal(tagOfNodeType('ph-query'), 'Query', 'Insight reads as ph-query too, Query is written');
    assert.equal(nodeTypeOfTag('Insight'), 'ph-query');
  });

  test("every tag PostHog knows today is known (posthog-behaviour.md's list)", () => {
    const listed = [
      'Query', 'Insight', 'Dashboard', 'Action', 'Workflow', 'ErrorTrackingIssue', 'Python', 'DuckSQL', 'HogQLSQL', 'PythonV2', 'SQLV2',
      'Recording', 'RecordingPlaylist', 'FeatureFlag', 'FeatureFlagCodeExample', 'Experiment', 'EarlyAccessFeature', 'Survey', 'Person',
      'Group', 'Cohort', 'Backlink', 'ReplayTimestamp', 'Image', 'PersonFeed', 'PersonProperties', 'GroupProperties', 'Map', 'Embed',
      'Latex', 'TaskCreate', 'LLMTrace', 'Issues', 'UsageMetrics', 'ZendeskTickets', 'RelatedGroups', 'CustomerJourney', 'SupportTickets',
      'Divider', 'Comment', 'Prompt', 'UnknownNode',
    ];
    assert.deepEqual(listed.filter((tag) => !isKnownTag(tag)), []);
    assert.deepEqual(TAGS.map((definition) => definition.tag).filter((tag) => !listed.includes(tag)), []);
    assert.equal(nodeTypeOfTag('Dashboard'), 'ph-dashboard-widget');
    assert.equal(nodeTypeOfTag('ErrorTrackingIssue'), 'ph-error-tracking-issue');
    assert.equal(nodeTypeOfTag('SQLV2'), undefined, 'its node type is not known');
  });

  test("PostHog's own pairs are there", () => {
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
    assert.equal(isKnownTag('RevenueCard'), false);
  });

  test('each tag is described in one short sentence, and so is each of its props', () => {
    for (const { tag, description, props } of TAGS) {
      assert.match(description, /^[A-Z].*\.$/, tag);
      assert.ok(description.length <= 70, `${tag}: ${description}`);
      for (const prop of props) {
        assert.match(prop.description, /^[A-Z].*[.)]$/, `${tag} ${prop.name}`);
      }
    }
    assert.equal(tagDefinition('Query')?.description, 'An insight or query, shown as a chart or table.');
    assert.equal(describeTag('Survey'), 'A survey with its responses.');
    assert.match(describeTag(UNKNOWN_TAG) ?? '', /^A node PostHog has no tag for/);
    assert.equal(describeTag('Comment'), 'A discussion thread on highlighted text.');
    assert.equal(describeTag('Qurey'), undefined);
  });

  test('embedded nodes read the shell props and their named views; Prompt, notes and inline nodes do not', () => {
    const names = (tag: string) => propsOfTag(tag).map((prop) => prop.name);
    assert.deepEqual(names('FeatureFlag'), ['id', 'showFilters', 'hideResults', 'hideFilters', 'showResults', 'view', 'title']);
    assert.deepEqual(tagDefinition('FeatureFlag')?.views, ['detail', 'summary', 'editor', 'conditions', 'implementation']);
    assert.deepEqual(names('Prompt'), ['question', 'keepQuestion']);
    assert.deepEqual(names('ReplayTimestamp'), ['playbackTime', 'sessionRecordingId']);
    assert.deepEqual(names('Comment'), ['ref', 'replies', 'text']);
    assert.match(describeProp('Query', 'showFilters') ?? '', /filters/);
    assert.equal(describeProp('Query', 'nonsense'), undefined);
  });

  test("a new tag is completed with its props that are not optional, placeholders in order", () => {
    assert.equal(tagSnippet('Group'), ' id="${1}" groupTypeIndex={${2:0}}');
    assert.equal(tagSnippet('ReplayTimestamp'), ' playbackTime={${1:0}} sessionRecordingId="${2}"');
    assert.equal(tagSnippet('Person'), ' id="${1}"', 'distinctId is optional');
    assert.equal(tagSnippet('TaskCreate'), '');
  });

  test('the Comment forms and code-fence anchors are described', () => {
    assert.equal(describeComment({ ref: 'c1', replies: [{ id: 'r1' }, { id: 'r2' }] }), 'Discussion thread on "c1", 2 replies');
    assert.equal(describeComment({ text: 'remember this' }), 'Note');
    assert.deepEqual(codeFenceAnchors('python ref=abc123:4-17 ref=x:0-1'), [
      { id: 'abc123', start: 4, end: 17 },
      { id: 'x', start: 0, end: 1 },
    ]);
    assert.deepEqual(codeFenceAnchors('python'), []);
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
