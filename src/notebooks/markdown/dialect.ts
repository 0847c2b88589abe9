import { isObject } from './schema';

/**
 * PostHog's Markdown dialect for notebooks: the tags its web app knows (`<Query query={{…}} />`), the node
 * types they stand for, their props and named views, and the props every embedded card's shell reads. The
 * facts come from PostHog's code: the node-type table of its converters (NOTEBOOK_NODE_TYPE_TO_MARKDOWN_TAG),
 * the web app's tag registry (markdownNotebookRegistry, MarkdownNotebook COMPONENTS.md) and its widget
 * catalog (products/notebooks/notebook-widget-catalog.json).
 */

/** A prop a tag reads: its name, one short sentence, and the value a completion starts with (snippet text). */
export interface PropDefinition {
  readonly name: string;
  readonly description: string;
  readonly snippet?: string;
  /** Left out of the tag's completion snippet. */
  readonly optional?: boolean;
}

export interface TagDefinition {
  readonly tag: string;
  /** The legacy node type it stands for; none for tags that are no node (Divider, Comment, Prompt) or not yet known. */
  readonly nodeType?: string;
  /** One short sentence for hovers and completions. */
  readonly description: string;
  /** The tag's own props (the shell's are SHELL_PROPS). */
  readonly props: readonly PropDefinition[];
  /** Named views a string `view` prop selects; the first is the default. */
  readonly views?: readonly string[];
  /** Whether the card shell reads showFilters, hideResults… (embedded nodes do; Prompt, notes and inline nodes do not). */
  readonly shell: boolean;
  /** How PostHog writes it when not as `<Tag … />`. */
  readonly writtenAs?: string;
  /** An inline node (inside text in a legacy notebook). */
  readonly inline?: boolean;
  /** Still shown by PostHog, no longer offered for new cells. */
  readonly legacy?: boolean;
}

const id = (description: string, snippet = '"${1}"'): PropDefinition => ({ name: 'id', description, snippet });
const code: PropDefinition = { name: 'code', description: 'The cell\'s code.', snippet: '"${1}"' };
const returnVariable: PropDefinition = { name: 'returnVariable', description: 'The variable later cells read the result from.', snippet: '"${1:df}"', optional: true };
const nodeIdProp: PropDefinition = { name: 'nodeId', description: 'The cell\'s id, which other cells refer to.', snippet: '"${1}"', optional: true };

function node(tag: string, nodeType: string, description: string, props: readonly PropDefinition[] = [], views?: readonly string[]): TagDefinition {
  return views ? { tag, nodeType, description, props, views, shell: true } : { tag, nodeType, description, props, shell: true };
}

export const TAGS: readonly TagDefinition[] = [
  node('Query', 'ph-query', 'An insight or query, shown as a chart or table.', [
    { name: 'query', description: 'The query: a SavedInsightNode, an InsightVizNode, a DataTableNode and so on.', snippet: '{{"kind":"SavedInsightNode","shortId":"${1:short id}"}}' },
  ]),
  node('Insight', 'ph-query', 'A saved insight, by its short id.', [id('The insight\'s short id.')], ['detail', 'summary', 'editor', 'results']),
  node('Dashboard', 'ph-dashboard-widget', 'A dashboard and its insights.', [id('The dashboard\'s numeric id.', '{${1:123}}')], ['detail', 'summary']),
  node('Action', 'ph-action', 'An action and the steps it matches.', [id('The action\'s numeric id.', '{${1:123}}')], ['detail', 'summary', 'editor']),
  node('Workflow', 'ph-workflow', 'A workflow, its steps and runs.', [id('The workflow\'s id.')], ['detail', 'summary', 'editor', 'results']),
  node('ErrorTrackingIssue', 'ph-error-tracking-issue', 'An error tracking issue and its exceptions.', [id('The issue\'s id.')], ['detail', 'summary', 'activity']),
  node('Python', 'ph-python', 'A Python cell that runs in the notebook.', [code, returnVariable]),
  { tag: 'PythonV2', description: 'A Python cell of the current notebook kernel.', props: [nodeIdProp, code, returnVariable], shell: true },
  { tag: 'SQLV2', description: 'A SQL cell of the current notebook kernel.', props: [nodeIdProp, code, returnVariable], shell: true },
  node('DuckSQL', 'ph-duck-sql', 'A DuckDB SQL cell that runs in the notebook.', [code, returnVariable]),
  { ...node('HogQLSQL', 'ph-hogql-sql', 'A SQL (HogQL) cell that runs against your PostHog data.', [code, returnVariable]), legacy: true },
  node('Recording', 'ph-recording', 'A session recording, played inline.', [id('The session recording\'s id.')], ['detail', 'summary']),
  node('RecordingPlaylist', 'ph-recording-playlist', 'A list of session recordings matching filters.', [id('The playlist\'s short id.')], ['detail', 'summary', 'conditions']),
  node('FeatureFlag', 'ph-feature-flag', 'A feature flag with its rollout.', [id('The flag\'s numeric id or key.', '{${1:123}}')], [
    'detail',
    'summary',
    'editor',
    'conditions',
    'implementation',
  ]),
  node('FeatureFlagCodeExample', 'ph-feature-flag-code-example', 'Code showing how to use a feature flag.', [id('The flag\'s numeric id or key.', '{${1:123}}')]),
  node('Experiment', 'ph-experiment', 'An experiment with its results.', [id('The experiment\'s numeric id.', '{${1:123}}')], ['detail', 'summary', 'results']),
  node('EarlyAccessFeature', 'ph-early-access-feature', 'An early access feature and who has opted in.', [id('The feature\'s id.')], ['detail', 'summary']),
  node('Survey', 'ph-survey', 'A survey with its responses.', [id('The survey\'s id.')], ['detail', 'summary', 'preview', 'conditions', 'results']),
  node('Person', 'ph-person', 'A person, by distinct id.', [id('The person\'s UUID.'), { name: 'distinctId', description: 'One of the person\'s distinct ids.', snippet: '"${1}"', optional: true }], [
    'detail',
    'summary',
    'activity',
  ]),
  node('Group', 'ph-group', 'A group (company, team…), by its key.', [id('The group\'s key.'), { name: 'groupTypeIndex', description: 'The group type\'s index.', snippet: '{${1:0}}' }], [
    'detail',
    'summary',
    'activity',
  ]),
  node('Cohort', 'ph-cohort', 'A cohort of persons.', [id('The cohort\'s numeric id.', '{${1:123}}')], ['detail', 'summary']),
  {
    tag: 'Backlink',
    nodeType: 'ph-backlink',
    description: 'A link to another PostHog page, shown inline.',
    props: [{ name: 'href', description: 'The page\'s address.', snippet: '"${1:url}"' }],
    shell: false,
    inline: true,
  },
  {
    tag: 'ReplayTimestamp',
    nodeType: 'ph-replay-timestamp',
    description: 'A moment in a session recording, shown inline.',
    props: [
      { name: 'playbackTime', description: 'Milliseconds from the recording\'s start.', snippet: '{${1:0}}' },
      { name: 'sessionRecordingId', description: 'The session recording\'s id.', snippet: '"${1}"' },
    ],
    shell: false,
    inline: true,
  },
  {
    tag: 'Image',
    nodeType: 'ph-image',
    description: 'An image.',
    props: [
      { name: 'src', description: 'The image\'s address.', snippet: '"${1:url}"' },
      { name: 'alt', description: 'A text alternative.', snippet: '"${1}"', optional: true },
    ],
    shell: false,
    writtenAs: '![alt](src)',
  },
  node('PersonFeed', 'ph-person-feed', "A person's recent sessions and events.", [id('The person\'s UUID.')]),
  node('PersonProperties', 'ph-person-properties', "A person's properties.", [id('The person\'s UUID.')]),
  node('GroupProperties', 'ph-group-properties', "A group's properties.", [id('The group\'s key.')]),
  node('Map', 'ph-map', "A map of a person's locations.", [id('The person\'s UUID.')]),
  node('Embed', 'ph-embed', 'An embedded web page.', [{ name: 'src', description: 'The page\'s address.', snippet: '"${1:url}"' }]),
  node('Latex', 'ph-latex', 'A LaTeX formula.', [{ name: 'content', description: 'The formula.', snippet: '"${1}"' }]),
  node('TaskCreate', 'ph-task-create', 'A task created from the notebook.'),
  node('LLMTrace', 'ph-llm-trace', 'An LLM trace from LLM analytics.', [id('The trace\'s id.')], ['detail', 'summary', 'activity']),
  node('Issues', 'ph-issues', 'Error tracking issues.'),
  node('UsageMetrics', 'ph-usage-metrics', 'Usage metrics of a person or group.'),
  node('ZendeskTickets', 'ph-zendesk-tickets', 'Zendesk tickets of a person or group.', [
    { name: 'personId', description: 'The person\'s UUID.', snippet: '"${1}"', optional: true },
    { name: 'groupKey', description: 'The group\'s key.', snippet: '"${1}"', optional: true },
  ]),
  node('RelatedGroups', 'ph-related-groups', 'Groups related to a person or group.'),
  node('CustomerJourney', 'ph-customer-journey', "A customer's journey."),
  node('SupportTickets', 'ph-support-tickets', 'Support tickets of a person or group.'),
  { tag: 'Divider', description: 'A horizontal rule between sections.', props: [], shell: false, writtenAs: '---' },
  {
    tag: 'Comment',
    description: 'A discussion thread on highlighted text.',
    props: [
      { name: 'ref', description: 'The id of the <ref id="…"> highlight (or code-fence anchor) it is about.', snippet: '"${1}"' },
      { name: 'replies', description: 'The replies: {id, text, author?, authorId?, at}.', snippet: '{[${1}]}' },
      { name: 'text', description: 'A note\'s text (PostHog writes a note as <!-- text -->).', snippet: '"${1}"', optional: true },
    ],
    shell: false,
  },
  {
    tag: 'Prompt',
    description: 'A question for PostHog AI, answered in the notebook.',
    props: [
      { name: 'question', description: 'The question.', snippet: '"${1}"' },
      { name: 'keepQuestion', description: 'Keep the question above the answer (true unless {false}).', snippet: '{${1:false}}', optional: true },
    ],
    shell: false,
  },
  {
    tag: 'UnknownNode',
    description: 'A node PostHog has no tag for, kept with its node type.',
    props: [{ name: 'nodeType', description: 'The type of the node it keeps.', snippet: '"${1:ph-}"' }],
    shell: false,
  },
];

/** The props the card shell of every embedded node reads, besides the tag's own. */
export const SHELL_PROPS: readonly PropDefinition[] = [
  { name: 'showFilters', description: 'Show the card\'s filters (hidden unless set).' },
  { name: 'hideResults', description: 'Hide the card\'s results (shown unless set).' },
  { name: 'hideFilters', description: 'Hide the filters (the default; older notebooks write it).' },
  { name: 'showResults', description: 'Show the results (the default).' },
  { name: 'view', description: 'A named view of the card (a boolean view from older notebooks shows or hides results).', snippet: '"${1}"' },
  { name: 'title', description: 'The card\'s own title.', snippet: '"${1}"' },
];

/** The named views PostHog's products share (notebook-widget-catalog.json viewConventions). */
export const VIEW_DESCRIPTIONS: Readonly<Record<string, string>> = {
  summary: 'Compact read-only overview.',
  detail: 'Full read-only view.',
  editor: 'Inline controls for changing the object.',
  results: 'Measured outcomes, responses, or experiment results.',
  preview: 'The object as an end user would see it.',
  conditions: 'Targeting, audience, or evaluation conditions.',
  implementation: 'Setup instructions or integration code.',
  activity: 'Chronological events and changes.',
};

/** A node PostHog has no tag for, kept with its type in a `nodeType` prop. */
export const UNKNOWN_TAG = 'UnknownNode';

/**
 * A discussion thread anchored to highlighted text (`<Comment ref="…" replies={…} />`), or, with `text`, a note
 * (which PostHog writes as `<!-- text -->`). It is not a node, so it has no node type.
 */
export const COMMENT_TAG = 'Comment';

const DEFINITIONS = new Map(TAGS.map((definition) => [definition.tag, definition]));
const NODE_TYPE_BY_TAG = new Map(TAGS.flatMap((definition) => (definition.nodeType ? [[definition.tag, definition.nodeType] as const] : [])));
/** The first tag of each node type is the one written for it (Query, not Insight, for ph-query). */
const TAG_BY_NODE_TYPE = new Map([...NODE_TYPE_BY_TAG].reverse().map(([tag, nodeType]) => [nodeType, tag] as const));

export function tagOfNodeType(nodeType: string): string | undefined {
  return TAG_BY_NODE_TYPE.get(nodeType);
}

export function nodeTypeOfTag(tag: string): string | undefined {
  return NODE_TYPE_BY_TAG.get(tag);
}

export function tagDefinition(tag: string): TagDefinition | undefined {
  return DEFINITIONS.get(tag);
}

/** The one-sentence description of any tag PostHog knows. */
export function describeTag(tag: string): string | undefined {
  return tagDefinition(tag)?.description;
}

/** Every tag name PostHog's web app reads as one it knows; any other capitalised name it shows as unknown. */
export function isKnownTag(tag: string): boolean {
  return DEFINITIONS.has(tag);
}

/** The props a tag reads: its own, then the shell's for embedded nodes. */
export function propsOfTag(tag: string): readonly PropDefinition[] {
  const definition = tagDefinition(tag);
  if (!definition) {
    return [];
  }
  return definition.shell ? [...definition.props, ...SHELL_PROPS.filter((shell) => !definition.props.some((own) => own.name === shell.name))] : definition.props;
}

/**
 * A new tag's text after its name, as snippet text: its props that are not optional, each with its starting
 * value (`${1:…}` placeholders numbered in order).
 */
export function tagSnippet(tag: string): string {
  let placeholder = 0;
  const props = (tagDefinition(tag)?.props ?? []).filter((prop) => !prop.optional && prop.snippet !== undefined);
  return props.map((prop) => ` ${prop.name}=${prop.snippet!.replace(/\$\{1/g, () => `\${${++placeholder}`)}`).join('');
}

/** The prop's sentence, for a hover: the tag's own, a shell prop's, or undefined. */
export function describeProp(tag: string, prop: string): string | undefined {
  return propsOfTag(tag).find((definition) => definition.name === prop)?.description;
}

/**
 * A code fence's comment anchors: `ref=<id>:<start>-<end>` tokens in its info string (PostHog keeps a
 * discussion thread on code there, code having no marks), with UTF-16 offsets into the code.
 */
export function codeFenceAnchors(info: string): { id: string; start: number; end: number }[] {
  return [...info.matchAll(/(?:^|\s)ref=([^\s:]+):(\d+)-(\d+)(?=\s|$)/g)].map((match) => ({ id: match[1]!, start: Number(match[2]), end: Number(match[3]) }));
}

/** What a `<Comment>` is, in a few words: "Discussion thread, 2 replies" or "Note". */
export function describeComment(props: Record<string, unknown>): string {
  if (typeof props.ref === 'string' || Array.isArray(props.replies)) {
    const count = Array.isArray(props.replies) ? props.replies.length : 0;
    return `Discussion thread on ${typeof props.ref === 'string' ? `"${props.ref}"` : 'no highlight'}, ${count} ${count === 1 ? 'reply' : 'replies'}`;
  }
  return 'Note';
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
