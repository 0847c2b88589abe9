// What PostHog does to notebook content on every create and update, before storing it
// (products/notebooks/backend/query_validation.py `normalize_notebook_query_nodes`, called by the
// serializer's validate_content; python_analysis.py `annotate_python_nodes`, called by create and update).
import { createHash } from 'node:crypto';
import type { Json, JsonObject } from './model';
import { validation } from './errors';

const INSIGHT_SOURCES = ['TrendsQuery', 'FunnelsQuery', 'RetentionQuery', 'PathsQuery', 'StickinessQuery', 'LifecycleQuery', 'WebStatsTableQuery', 'WebOverviewQuery'];
const SORTED_INSIGHT_SOURCES = [...INSIGHT_SOURCES].sort().join(', ');

/**
 * The content PostHog stores for `content`: every `ph-query` node (at any depth) checked and normalised, then
 * every `ph-python` node annotated. A query shape PostHog refuses throws its 400 (attr `content`). Content
 * that is not an object is stored as sent.
 */
export function normalizeNotebookContent(content: Json): Json {
  if (!isObject(content)) return content;
  return annotatePythonNodes(mapNodes(content, normalizeQueryNode));
}

function normalizeQueryNode(node: JsonObject): JsonObject {
  const attrs = node['attrs'];
  if (node['type'] !== 'ph-query' || !isObject(attrs) || !('query' in attrs)) return node;
  const query = normalizeQuery(attrs['query']!);
  return query === attrs['query'] ? node : { ...node, attrs: { ...attrs, query } };
}

function normalizeQuery(query: Json): Json {
  if (!isObject(query) || typeof query['kind'] !== 'string') return query;
  if (query['kind'] === 'InsightVizNode') return normalizeInsightViz(query);
  if (query['kind'] === 'DataVisualizationNode') return checkDataVisualization(query);
  return query;
}

function normalizeInsightViz(query: JsonObject): Json {
  const source = query['source'];
  if (!isObject(source)) {
    throw refused(
      'ph-query node has an InsightVizNode without a `source`. InsightVizNode.source must be a TrendsQuery, FunnelsQuery, RetentionQuery, PathsQuery, StickinessQuery, LifecycleQuery, WebStatsTableQuery, or WebOverviewQuery.',
    );
  }
  const kind = source['kind'];
  if (kind === 'DataVisualizationNode') return checkDataVisualization(source);
  if (kind === 'HogQLQuery') return { kind: 'DataVisualizationNode', source };
  if (typeof kind !== 'string' || !INSIGHT_SOURCES.includes(kind)) {
    throw refused(
      `ph-query node has an InsightVizNode wrapping \`${pythonStr(kind)}\`, which is not a valid insight source. InsightVizNode.source must be one of: ${SORTED_INSIGHT_SOURCES}.`,
    );
  }
  return query;
}

function checkDataVisualization(query: JsonObject): JsonObject {
  const source = query['source'];
  if (!isObject(source)) {
    throw refused('ph-query node has a DataVisualizationNode without a `source`. DataVisualizationNode.source must be a HogQLQuery.');
  }
  if (source['kind'] !== 'HogQLQuery') {
    throw refused(
      `ph-query node has a DataVisualizationNode wrapping \`${pythonStr(source['kind'])}\`, which is not a valid SQL chart source. DataVisualizationNode.source must be a HogQLQuery.`,
    );
  }
  return query;
}

const refused = (detail: string) => validation(detail, 'content');

/** Python's str() of a JSON value, as far as PostHog's f-strings show one (objects and lists: JSON here). */
function pythonStr(value: Json | undefined): string {
  if (value === undefined || value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : JSON.stringify(value);
}

/**
 * ph-python nodes whose `globalsAnalysisHash` is not the SHA-256 of their `code` (or that lack the analysis)
 * gain `globalsUsed`, `globalsExportedWithTypes` and `globalsAnalysisHash`.
 */
export function annotatePythonNodes(content: Json): Json {
  if (!isObject(content)) return content;
  return mapNodes(content, (node) => {
    const attrs = node['attrs'];
    if (node['type'] !== 'ph-python' || !isObject(attrs)) return node;
    const code = attrs['code'] ?? '';
    if (typeof code !== 'string') return node;
    const hash = createHash('sha256').update(code, 'utf8').digest('hex');
    if (attrs['globalsAnalysisHash'] === hash && 'globalsUsed' in attrs && 'globalsExportedWithTypes' in attrs) return node;
    const analysis = analyzePythonGlobals(code);
    return { ...node, attrs: { ...attrs, globalsUsed: analysis.used, globalsExportedWithTypes: analysis.exported, globalsAnalysisHash: hash } };
  });
}

/** Each node (pre-order: the node, then its `content` children) through `map`. */
function mapNodes(node: JsonObject, map: (node: JsonObject) => JsonObject): JsonObject {
  const mapped = map(node);
  const children = mapped['content'];
  if (!Array.isArray(children)) return mapped;
  return { ...mapped, content: children.map((child) => (isObject(child) ? mapNodes(child, map) : child)) };
}

const PYTHON_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case print len range str int float list dict set tuple bool type object isinstance enumerate zip sum min max sorted abs open any all map filter round super Exception ValueError KeyError'.split(' '),
);

/**
 * A rough stand-in for PostHog's ast-based analysis (see the README): names bound by top-level statements
 * (assignments, imports, def, class) are exported, sorted, with a type where the value shows one; names read
 * that no top-level statement binds (and that are not Python keywords or common built-ins) are used.
 */
function analyzePythonGlobals(code: string): { used: string[]; exported: JsonObject[] } {
  const exported = new Map<string, string>();
  const lines = code.replace(/#[^\n]*/g, '').split('\n');
  for (const line of lines) {
    if (/^\s/.test(line)) continue;
    let match: RegExpExecArray | null;
    if ((match = /^(?:async\s+)?def\s+([A-Za-z_]\w*)|^class\s+([A-Za-z_]\w*)/.exec(line))) exported.set((match[1] ?? match[2])!, exported.get((match[1] ?? match[2])!) ?? 'unknown');
    else if ((match = /^import\s+(.+)$/.exec(line))) for (const part of match[1]!.split(',')) bindImport(exported, part.trim(), true);
    else if ((match = /^from\s+\S+\s+import\s+\(?([^)]+)\)?$/.exec(line))) for (const part of match[1]!.split(',')) bindImport(exported, part.trim(), false);
    else if ((match = /^([A-Za-z_][\w\s,]*?)\s*(?::\s*([^=]+?))?\s*=(?!=)\s*(.*)$/.exec(line))) {
      for (const name of match[1]!.split(',').map((part) => part.trim()).filter(Boolean)) exported.set(name, match[2]?.trim() || valueType(match[3]!));
    }
  }
  const withoutStrings = code.replace(/#[^\n]*/g, '').replace(/("""[\s\S]*?"""|'''[\s\S]*?'''|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')/g, '""');
  const used = new Set<string>();
  for (const match of withoutStrings.matchAll(/(?<![\w.])([A-Za-z_]\w*)(?!\s*=(?!=))/g)) {
    const name = match[1]!;
    if (!exported.has(name) && !PYTHON_KEYWORDS.has(name)) used.add(name);
  }
  return { used: [...used].sort(), exported: [...exported.keys()].sort().map((name) => ({ name, type: exported.get(name)! })) };
}

function bindImport(exported: Map<string, string>, part: string, dotted: boolean): void {
  const [name, alias] = part.split(/\s+as\s+/);
  const bound = alias?.trim() || (dotted ? name!.split('.')[0]! : name!);
  if (bound && !exported.has(bound)) exported.set(bound, 'module');
}

function valueType(value: string): string {
  const text = value.trim();
  if (/^-?\d+$/.test(text)) return 'int';
  if (/^-?\d*\.\d+$/.test(text)) return 'float';
  if (/^(['"])/.test(text)) return 'str';
  if (text === 'True' || text === 'False') return 'bool';
  if (text === 'None') return 'None';
  if (text.startsWith('[')) return 'list';
  if (text.startsWith('{')) return 'dict';
  if (text.startsWith('(')) return 'tuple';
  const call = /^(list|dict|set|tuple|int|float|str|bool)\(/.exec(text);
  return call ? call[1]! : 'unknown';
}

function isObject(value: Json | undefined): value is JsonObject {
  return value !== null && value !== undefined && typeof value === 'object' && !Array.isArray(value);
}
