import { isObject, sameJson } from '../model/notebookDocument';

/**
 * What PostHog changed in content it stored: it normalises query nodes (an InsightVizNode around a SQL chart
 * becomes the chart) and annotates Python nodes (globalsUsed, globalsExportedWithTypes, globalsAnalysisHash)
 * on every save, so the saved notebook can differ from the text sent. One line per node that differs, e.g.
 * "block 3 (ph-query): query InsightVizNode → DataVisualizationNode", at most `limit` of them.
 */
export function describeRewrite(sent: unknown, stored: unknown, limit = 5): string[] {
  const changes: string[] = [];
  compareNodes(sent, stored, [], changes);
  return changes.length > limit ? [...changes.slice(0, limit), `and ${changes.length - limit} more`] : changes;
}

function compareNodes(sent: unknown, stored: unknown, at: number[], out: string[]): void {
  if (sameJson(sent, stored)) {
    return;
  }
  const where = at.length === 0 ? 'the document' : `block ${at.map((index) => index + 1).join(' › ')}`;
  if (!isObject(sent) || !isObject(stored) || sent['type'] !== stored['type']) {
    out.push(`${where}: replaced`);
    return;
  }
  const type = typeof stored['type'] === 'string' && at.length > 0 ? ` (${stored['type']})` : '';
  const parts = attrChanges(attrsOf(sent), attrsOf(stored));
  if (!sameJson(sent['text'], stored['text']) || !sameJson(sent['marks'], stored['marks'])) {
    parts.push('text changed');
  }
  const sentChildren = Array.isArray(sent['content']) ? sent['content'] : [];
  const storedChildren = Array.isArray(stored['content']) ? stored['content'] : [];
  if (sentChildren.length !== storedChildren.length) {
    parts.push(`${sentChildren.length} → ${storedChildren.length} nodes inside`);
  }
  if (parts.length > 0) {
    out.push(`${where}${type}: ${parts.join('; ')}`);
  }
  if (sentChildren.length === storedChildren.length) {
    sentChildren.forEach((child, index) => compareNodes(child, storedChildren[index], [...at, index], out));
  }
}

function attrChanges(sent: Record<string, unknown>, stored: Record<string, unknown>): string[] {
  const added = Object.keys(stored).filter((key) => !(key in sent));
  const removed = Object.keys(sent).filter((key) => !(key in stored));
  const changed = Object.keys(stored).filter((key) => key in sent && !sameJson(sent[key], stored[key]));
  const parts = changed.map((key) => (key === 'query' ? `query ${queryShape(sent[key])} → ${queryShape(stored[key])}` : `${key} changed`));
  if (added.length > 0) {
    parts.push(`gained ${added.join(', ')}`);
  }
  if (removed.length > 0) {
    parts.push(`lost ${removed.join(', ')}`);
  }
  return parts;
}

/** A query's kind with the kinds it wraps: "InsightVizNode(DataVisualizationNode(HogQLQuery))". */
function queryShape(query: unknown, depth = 0): string {
  if (!isObject(query) || typeof query['kind'] !== 'string') {
    return 'a query without kind';
  }
  const source = query['source'];
  return isObject(source) && typeof source['kind'] === 'string' && depth < 3 ? `${query['kind']}(${queryShape(source, depth + 1)})` : query['kind'];
}

function attrsOf(node: Record<string, unknown>): Record<string, unknown> {
  return isObject(node['attrs']) ? node['attrs'] : {};
}
