import { ValidationError } from '../../api';
import { parseJsonWithLocations } from '../../common/jsonWithLocations';
import { scanTags } from '../markdown';
import { isObject, sameJson } from '../model/notebookDocument';
import type { NotebookForm } from '../model/notebookPaths';

/**
 * Content PostHog refuses. PostHog checks every `ph-query` node of a notebook's content on each save and
 * answers 400 on `content` with a sentence naming the shape it refuses (an InsightVizNode without a source,
 * or wrapping something that is not an insight query; a DataVisualizationNode whose source is not a
 * HogQLQuery). Its answer does not say which node: the first node, in document order, whose query has such
 * a shape is the one, found here by the same rules so that the refusal shows at that node in the file.
 */

/** A place in an editor's text, lines and columns from 0, the end exclusive. */
export interface TextPlace {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

/** A save PostHog refused for its content: nothing was saved; `place` is the node it concerns, when found. */
export class ContentRefusedError extends Error {
  constructor(
    /** PostHog's own sentence. */
    readonly detail: string,
    readonly place: TextPlace | undefined,
  ) {
    super(`Not saved: PostHog refused the content: ${detail}${place ? ` (line ${place.line + 1})` : ''}`);
  }
}

/** Whether `error` is PostHog's refusal of a notebook's content (400, attr "content"). */
export function isContentRefusal(error: unknown): error is ValidationError {
  return error instanceof ValidationError && error.attr === 'content';
}

const INSIGHT_SOURCES = new Set(['TrendsQuery', 'FunnelsQuery', 'RetentionQuery', 'PathsQuery', 'StickinessQuery', 'LifecycleQuery', 'WebStatsTableQuery', 'WebOverviewQuery']);

/** Whether PostHog refuses a ph-query node's `query` (a query without a string `kind` is left alone). */
export function isRefusedQuery(query: unknown): boolean {
  if (!isObject(query) || typeof query['kind'] !== 'string') {
    return false;
  }
  const source = query['source'];
  if (query['kind'] === 'DataVisualizationNode') {
    return !isObject(source) || source['kind'] !== 'HogQLQuery';
  }
  if (query['kind'] !== 'InsightVizNode') {
    return false;
  }
  if (!isObject(source)) {
    return true;
  }
  if (source['kind'] === 'DataVisualizationNode') {
    return isRefusedQuery(source);
  }
  return source['kind'] !== 'HogQLQuery' && !(typeof source['kind'] === 'string' && INSIGHT_SOURCES.has(source['kind']));
}

/** The first refused ph-query node of `content`: its path from the document (e.g. ['content', 2]), its query, and how many ph-query nodes come before it. */
export function firstRefusedQuery(content: unknown): { readonly path: readonly (string | number)[]; readonly query: unknown; readonly index: number } | undefined {
  let index = 0;
  const walk = (node: unknown, path: (string | number)[]): { path: (string | number)[]; query: unknown; index: number } | undefined => {
    if (!isObject(node)) {
      return undefined;
    }
    if (node['type'] === 'ph-query' && isObject(node['attrs']) && 'query' in node['attrs']) {
      if (isRefusedQuery(node['attrs']['query'])) {
        return { path, query: node['attrs']['query'], index };
      }
      index++;
    }
    const children = Array.isArray(node['content']) ? node['content'] : [];
    for (let child = 0; child < children.length; child++) {
      const found = walk(children[child], [...path, 'content', child]);
      if (found) {
        return found;
      }
    }
    return undefined;
  };
  return walk(content, []);
}

/**
 * Where the editor's `text` (the file in `form`) shows the node PostHog refused in `content`, the content
 * that text was saved as: in the JSON document, the node's `query`; in Markdown, its `<Query>` tag (the
 * one with that query, else the one at the same place among the Query tags).
 */
export function locateRefusedNode(form: NotebookForm, text: string, content: unknown): TextPlace | undefined {
  const refused = firstRefusedQuery(content);
  if (!refused) {
    return undefined;
  }
  if (form === 'json') {
    return jsonPlace(text, ['content', ...refused.path, 'attrs', 'query']);
  }
  const tags = scanTags(text).tags.filter((tag) => tag.nodeType === 'ph-query');
  const tag = tags.find((candidate) => sameJson(candidate.props['query'], refused.query)) ?? tags[refused.index];
  return tag && { line: tag.line, column: tag.column, endLine: tag.endLine, endColumn: tag.endColumn };
}

function jsonPlace(text: string, path: readonly (string | number)[]): TextPlace | undefined {
  let location;
  try {
    location = parseJsonWithLocations(text).locate(path);
  } catch {
    return undefined;
  }
  if (!location) {
    return undefined;
  }
  const lineEnd = text.indexOf('\n', location.offset);
  const endColumn = (lineEnd < 0 ? text.length : lineEnd) - (location.offset - (location.column - 1));
  return { line: location.line - 1, column: location.column - 1, endLine: location.line - 1, endColumn: Math.max(endColumn, location.column) };
}
