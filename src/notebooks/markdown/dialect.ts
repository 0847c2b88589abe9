import { isObject } from './schema';

/**
 * PostHog's Markdown dialect for notebooks: the self-closing tags (`<Query query={{…}} />`) that stand
 * for the notebook's embedded nodes, their node types, and the query kinds a `<Query>` holds. The table
 * is PostHog's own (products/notebooks: NOTEBOOK_NODE_TYPE_TO_MARKDOWN_TAG, the same in its Python and
 * frontend converters).
 */

export interface TagDefinition {
  readonly tag: string;
  readonly nodeType: string;
  /** One short sentence for hovers and completions. */
  readonly description: string;
}

export const TAGS: readonly TagDefinition[] = [
  { tag: 'Query', nodeType: 'ph-query', description: 'An insight or query, shown as a chart or table.' },
  { tag: 'Python', nodeType: 'ph-python', description: 'A Python cell that runs in the notebook.' },
  { tag: 'DuckSQL', nodeType: 'ph-duck-sql', description: 'A DuckDB SQL cell that runs in the notebook.' },
  { tag: 'HogQLSQL', nodeType: 'ph-hogql-sql', description: 'A SQL (HogQL) cell that runs against your PostHog data.' },
  { tag: 'Recording', nodeType: 'ph-recording', description: 'A session recording, played inline.' },
  { tag: 'RecordingPlaylist', nodeType: 'ph-recording-playlist', description: 'A list of session recordings matching filters.' },
  { tag: 'FeatureFlag', nodeType: 'ph-feature-flag', description: 'A feature flag with its rollout.' },
  {
    tag: 'FeatureFlagCodeExample',
    nodeType: 'ph-feature-flag-code-example',
    description: 'Code showing how to use a feature flag.',
  },
  { tag: 'Experiment', nodeType: 'ph-experiment', description: 'An experiment with its results.' },
  {
    tag: 'EarlyAccessFeature',
    nodeType: 'ph-early-access-feature',
    description: 'An early access feature and who has opted in.',
  },
  { tag: 'Survey', nodeType: 'ph-survey', description: 'A survey with its responses.' },
  { tag: 'Person', nodeType: 'ph-person', description: 'A person, by distinct id.' },
  { tag: 'Group', nodeType: 'ph-group', description: 'A group (company, team…), by its key.' },
  { tag: 'Cohort', nodeType: 'ph-cohort', description: 'A cohort of persons.' },
  { tag: 'Backlink', nodeType: 'ph-backlink', description: 'A link to another PostHog page, shown inline.' },
  { tag: 'ReplayTimestamp', nodeType: 'ph-replay-timestamp', description: 'A moment in a session recording, shown inline.' },
  { tag: 'Image', nodeType: 'ph-image', description: 'An image.' },
  { tag: 'PersonFeed', nodeType: 'ph-person-feed', description: "A person's recent sessions and events." },
  { tag: 'PersonProperties', nodeType: 'ph-person-properties', description: "A person's properties." },
  { tag: 'GroupProperties', nodeType: 'ph-group-properties', description: "A group's properties." },
  { tag: 'Map', nodeType: 'ph-map', description: "A map of a person's locations." },
  { tag: 'Embed', nodeType: 'ph-embed', description: 'An embedded web page.' },
  { tag: 'Latex', nodeType: 'ph-latex', description: 'A LaTeX formula.' },
  { tag: 'TaskCreate', nodeType: 'ph-task-create', description: 'A task created from the notebook.' },
  { tag: 'LLMTrace', nodeType: 'ph-llm-trace', description: 'An LLM trace from LLM analytics.' },
  { tag: 'Issues', nodeType: 'ph-issues', description: 'Error tracking issues.' },
  { tag: 'UsageMetrics', nodeType: 'ph-usage-metrics', description: 'Usage metrics of a person or group.' },
  { tag: 'ZendeskTickets', nodeType: 'ph-zendesk-tickets', description: 'Zendesk tickets of a person or group.' },
  { tag: 'RelatedGroups', nodeType: 'ph-related-groups', description: 'Groups related to a person or group.' },
  { tag: 'CustomerJourney', nodeType: 'ph-customer-journey', description: "A customer's journey." },
  { tag: 'SupportTickets', nodeType: 'ph-support-tickets', description: 'Support tickets of a person or group.' },
];

/** A node PostHog has no tag for, kept with its type in a `nodeType` prop. */
export const UNKNOWN_TAG = 'UnknownNode';

/**
 * A discussion thread anchored to highlighted text: PostHog's server writes `<Comment ref="…" replies={…} />`
 * for the comment marks of a notebook it converts. It is not a node, so it has no node type.
 */
export const COMMENT_TAG = 'Comment';

const NODE_TYPE_BY_TAG = new Map(TAGS.map((definition) => [definition.tag, definition.nodeType]));
const TAG_BY_NODE_TYPE = new Map(TAGS.map((definition) => [definition.nodeType, definition.tag]));

export function tagOfNodeType(nodeType: string): string | undefined {
  return TAG_BY_NODE_TYPE.get(nodeType);
}

export function nodeTypeOfTag(tag: string): string | undefined {
  return NODE_TYPE_BY_TAG.get(tag);
}

export function tagDefinition(tag: string): TagDefinition | undefined {
  return TAGS.find((definition) => definition.tag === tag);
}

const OTHER_TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  [UNKNOWN_TAG]: 'A node PostHog has no tag for, kept with its node type.',
  [COMMENT_TAG]: 'A discussion thread on highlighted text.',
};

/** The one-sentence description of any tag PostHog knows. */
export function describeTag(tag: string): string | undefined {
  return tagDefinition(tag)?.description ?? OTHER_TAG_DESCRIPTIONS[tag];
}

/** Every tag name PostHog writes or reads: the node tags, UnknownNode and Comment. */
export function isKnownTag(tag: string): boolean {
  return NODE_TYPE_BY_TAG.has(tag) || tag === UNKNOWN_TAG || tag === COMMENT_TAG;
}

/**
 * The `kind` values of PostHog's query schema (NodeKind) that a notebook's `<Query>` shows: its interface
 * nodes, insight queries and data queries. Internal kinds (metadata, autocomplete, taxonomy) are left out.
 */
export const QUERY_KINDS: readonly string[] = [
  'SavedInsightNode',
  'InsightVizNode',
  'DataTableNode',
  'DataVisualizationNode',
  'HogQLQuery',
  'HogQuery',
  'EventsQuery',
  'EventsNode',
  'ActionsNode',
  'DataWarehouseNode',
  'PersonsNode',
  'ActorsQuery',
  'GroupsQuery',
  'SessionsTimelineQuery',
  'RecordingsQuery',
  'TrendsQuery',
  'FunnelsQuery',
  'RetentionQuery',
  'PathsQuery',
  'StickinessQuery',
  'LifecycleQuery',
  'CalendarHeatmapQuery',
  'FunnelCorrelationQuery',
  'InsightActorsQuery',
  'WebOverviewQuery',
  'WebStatsTableQuery',
  'WebGoalsQuery',
  'WebVitalsQuery',
  'ErrorTrackingQuery',
  'LogsQuery',
  'TracesQuery',
  'ExperimentQuery',
  'RevenueAnalyticsOverviewQuery',
  'MarketingAnalyticsTableQuery',
];

const HOGQL_PREVIEW_LENGTH = 60;

/**
 * What a `<Query>` shows, from its props, in a few words: "Saved insight Xk3pQ9aZ", "Trends query
 * (InsightVizNode)", "HogQL: select count() from events…". Undefined when there is no query.
 */
export function describeQuery(props: Record<string, unknown>): string | undefined {
  const query = props.query;
  if (!isObject(query) || typeof query.kind !== 'string') {
    return undefined;
  }
  return describeQueryNode(query);
}

function describeQueryNode(query: Record<string, unknown>): string {
  const kind = String(query.kind);
  if (kind === 'SavedInsightNode') {
    return typeof query.shortId === 'string' ? `Saved insight ${query.shortId}` : 'Saved insight';
  }
  if (kind === 'HogQLQuery') {
    return typeof query.query === 'string' ? `HogQL: ${shorten(oneLine(query.query), HOGQL_PREVIEW_LENGTH)}` : 'HogQL query';
  }
  const source = query.source;
  if (isObject(source) && typeof source.kind === 'string') {
    return source.kind === 'HogQLQuery' ? describeQueryNode(source) : `${kindLabel(source.kind)} (${kind})`;
  }
  return kindLabel(kind);
}

/** "TrendsQuery" → "Trends query", "DataTableNode" → "Data table node", "HogQLQuery" → "HogQL query". */
export function kindLabel(kind: string): string {
  const words = kind.match(/HogQL|[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? [kind];
  const keepsCase = (word: string, index: number) => index === 0 || word === 'HogQL' || (word.length > 1 && word === word.toUpperCase());
  return words.map((word, index) => (keepsCase(word, index) ? word : word.toLowerCase())).join(' ');
}

export function shorten(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1).trimEnd()}…`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
