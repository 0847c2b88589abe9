import { TAGS } from '../markdown';

// The notebook list's `contains` filter as PostHog reads it (products/notebooks/backend/api/notebook.py).

/**
 * The `contains` targets the filter offers, in PostHog's words (what goes before the colon). PostHog
 * depluralises a target and prefixes `ph-`, then looks among the notebook's top-level nodes
 * (`replay-timestamp`: one level down, inside paragraphs).
 */
export const CONTAINS_TARGETS = [
  'recording',
  'replay-timestamp',
  'query',
  'feature-flag',
  'experiment',
  'early-access-feature',
  'survey',
  'cohort',
  'person',
  'group',
  'llm-trace',
  'recording-playlist',
  'python',
  'markdown-notebook',
  'insight',
] as const;

export type ContainsTarget = (typeof CONTAINS_TARGETS)[number];

/** Node types PostHog's notebooks hold: the Markdown tags' types, nodes without a tag, and legacy ones. */
const KNOWN_NODE_TYPES = new Set([
  ...TAGS.map((tag) => tag.nodeType),
  'ph-markdown-notebook',
  'ph-dashboard-widget',
  'ph-action',
  'ph-workflow',
  'ph-error-tracking-issue',
  'ph-insight',
  'ph-text',
  'ph-dashboard',
]);

/** PostHog's rule for a target: "ies" becomes "y", else one final "s" is dropped. */
export function depluralize(target: string): string {
  if (target.endsWith('ies')) {
    return `${target.slice(0, -3)}y`;
  }
  return target.endsWith('s') ? target.slice(0, -1) : target;
}

/** The node type a target finds, e.g. recordings → ph-recording. */
export function containsNodeType(target: string): string {
  return `ph-${depluralize(target)}`;
}

/**
 * What to type to find a node type: its name without `ph-`, and one more "s" when it ends in one, since
 * PostHog drops one (ph-issues is found by "issuess"); undefined for a name that is not a node type.
 */
export function containsTargetFor(nodeType: string): string | undefined {
  const name = nodeType.trim().replace(/^ph-/, '');
  if (!NODE_NAME.test(name)) {
    return undefined;
  }
  return name.endsWith('s') ? `${name}s` : name;
}

const NODE_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface ContainsPair {
  readonly target: string;
  /** What follows the first colon; undefined when there is none (the same as "true"). */
  readonly match?: string;
}

export function splitContains(value: string): string[] {
  return value.split(/[\s,]+/).filter((pair) => pair.length > 0);
}

export function parsePair(pair: string): ContainsPair {
  const colon = pair.indexOf(':');
  return colon < 0 ? { target: pair } : { target: pair.slice(0, colon), match: pair.slice(colon + 1) };
}

export function formatPair(pair: ContainsPair): string {
  return pair.match === undefined ? pair.target : `${pair.target}:${pair.match}`;
}

const isPresence = (match: string | undefined): boolean => match === undefined || match === 'true' || match === 'false';

/**
 * The contains value with one more pair. PostHog wants every pair at once, so a presence pair (true,
 * false or none) replaces the target's other pairs, and an id replaces its presence pairs (ids add up:
 * the notebook must hold each).
 */
export function addContainsPair(value: string | undefined, pair: ContainsPair): string {
  const node = containsNodeType(pair.target);
  const kept = splitContains(value ?? '')
    .map(parsePair)
    .filter((other) => containsNodeType(other.target) !== node || (!isPresence(pair.match) && !isPresence(other.match) && other.match !== pair.match));
  return [...kept, pair].map(formatPair).join(' ');
}

export function removeContainsPair(value: string | undefined, index: number): string {
  return splitContains(value ?? '')
    .filter((_, at) => at !== index)
    .join(' ');
}

export type ContainsProblemKind =
  /** ":true": PostHog skips a pair without a target. */
  | 'noTarget'
  /** "a:b:c": PostHog reads only up to a second colon. */
  | 'secondColon'
  /** "recording:": PostHog looks for an empty id (suggestion: target:true). */
  | 'emptyMatch'
  /** Upper case or underscores: node types are lower case with hyphens (suggestion: the fixed target). */
  | 'spelling'
  /** Characters no node type has. */
  | 'notNodeType'
  /** "True": PostHog compares true/false exactly, so this is an id (suggestion: lower case). */
  | 'matchCase'
  /** insight: only legacy ph-insight nodes. */
  | 'legacyInsight'
  /** A node type ending in "s" loses it (suggestion: the target with one more "s"). */
  | 'plural'
  /** No node type the extension knows of. */
  | 'unknownNodeType';

export interface ContainsProblem {
  readonly pair: string;
  readonly kind: ContainsProblemKind;
  /** Errors send nothing; warnings explain a filter that may match nothing. */
  readonly severity: 'error' | 'warning';
  /** The node type the pair looks for. */
  readonly nodeType: string;
  readonly suggestion?: string;
}

/** The first error in a contains value, else its first warning, else undefined. */
export function containsProblem(value: string): ContainsProblem | undefined {
  const problems = splitContains(value).map(pairProblem).filter((problem) => problem !== undefined);
  return problems.find((problem) => problem.severity === 'error') ?? problems[0];
}

function pairProblem(pair: string): ContainsProblem | undefined {
  const { target, match } = parsePair(pair);
  const nodeType = containsNodeType(target);
  const problem = (kind: ContainsProblemKind, severity: 'error' | 'warning', suggestion?: string): ContainsProblem => ({
    pair,
    kind,
    severity,
    nodeType,
    suggestion,
  });
  if (!target) {
    return problem('noTarget', 'error');
  }
  if (match?.includes(':')) {
    return problem('secondColon', 'error');
  }
  if (match === '') {
    return problem('emptyMatch', 'error', `${target}:true`);
  }
  if (!NODE_NAME.test(target)) {
    const fixed = target.toLowerCase().replace(/_/g, '-');
    return NODE_NAME.test(fixed) ? problem('spelling', 'error', formatPair({ target: fixed, match })) : problem('notNodeType', 'error');
  }
  if (match !== undefined && !isPresence(match) && /^(true|false)$/i.test(match)) {
    return problem('matchCase', 'warning', formatPair({ target, match: match.toLowerCase() }));
  }
  if (depluralize(target) === 'insight') {
    return problem('legacyInsight', 'warning');
  }
  if (!KNOWN_NODE_TYPES.has(nodeType)) {
    const meant = KNOWN_NODE_TYPES.has(`ph-${target}`) ? containsTargetFor(target) : undefined;
    return meant ? problem('plural', 'warning', formatPair({ target: meant, match })) : problem('unknownNodeType', 'warning');
  }
  return undefined;
}
