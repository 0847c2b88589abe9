import type { QueryNode } from '../api';

/** Wrapper nodes of a ph-query card: PostHog runs their `source` (query_runner.py unwraps them), as its web app sends it. */
const WRAPPERS = new Set(['InsightVizNode', 'DataVisualizationNode', 'DataTableNode']);
/** Nodes with no runner of their own on /query/. */
const NOT_RUNNABLE = new Set(['SavedInsightNode']);

/**
 * The query to send for a card's `query` prop: a wrapper's `source`, a bare query node itself; undefined for
 * what cannot be run here (a saved insight by short id, a wrapper without a source, anything without a kind).
 */
export function innerQuery(node: unknown): QueryNode | undefined {
  if (!isQueryNode(node) || NOT_RUNNABLE.has(node.kind)) {
    return undefined;
  }
  if (!WRAPPERS.has(node.kind)) {
    return node;
  }
  const source = node['source'];
  return isQueryNode(source) && !WRAPPERS.has(source.kind) && !NOT_RUNNABLE.has(source.kind) ? source : undefined;
}

/** What a query is, for a card without a heading: "Trends", "SQL", "Events"… */
export function queryKindLabel(query: QueryNode | undefined): string {
  if (!query) {
    return 'Query';
  }
  if (query.kind === 'HogQLQuery') {
    return 'SQL';
  }
  return query.kind.replace(/Query$/, '') || query.kind;
}

function isQueryNode(value: unknown): value is QueryNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { kind?: unknown }).kind === 'string';
}
