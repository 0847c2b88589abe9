// Which query kinds run, what their bodies must hold (PostHog's pydantic schema, a subset), and how each runs.
import type { Json, JsonObject } from '../model';
import { ApiError, parseError, validation } from '../errors';
import { HogQLError } from '../hogql/parse';
import { runEventsQuery } from './events-query';
import { runTrendsQuery } from './trends';
import { runDatabaseSchema, runHogQLMetadata, runHogQLQuery } from './hogql-kinds';
import type { RunContext } from './context';

type Runner = (query: JsonObject, context: RunContext) => JsonObject;

const RUNNERS: Record<string, Runner> = {
  EventsQuery: runEventsQuery,
  HogQLQuery: runHogQLQuery,
  TrendsQuery: runTrendsQuery,
  HogQLMetadata: runHogQLMetadata,
  DatabaseSchemaQuery: (_query, context) => runDatabaseSchema(context),
};

/** Nodes whose `source` runs in their place (query_runner.py unwraps them). */
const WRAPPERS = new Set(['DataTableNode', 'DataVisualizationNode', 'InsightVizNode']);

/** Kinds PostHog's schema knows but the local API does not run: 400 "Unsupported query kind: X" (PostHog's answer to SavedInsightNode). */
const KNOWN_KINDS = new Set([
  'SavedInsightNode', 'FunnelsQuery', 'RetentionQuery', 'PathsQuery', 'StickinessQuery', 'LifecycleQuery', 'ActorsQuery', 'PersonsNode',
  'SessionsTimelineQuery', 'HogQLAutocomplete', 'WebOverviewQuery', 'WebStatsTableQuery', 'EventsNode', 'ActionsNode', 'InsightActorsQuery',
]);

/** pydantic's wording, as PostHog's mixin puts it after "JSON parse error - ". */
function schemaError(location: string, message: string): ApiError {
  return parseError(`1 validation error for QueryRequest\n${location}\n  ${message}`);
}

const isObject = (value: unknown): value is JsonObject => Boolean(value) && typeof value === 'object' && !Array.isArray(value);

function requireField(node: JsonObject, location: string, name: string, check: (value: Json) => boolean, what: string): void {
  if (!(name in node) || node[name] === undefined) throw schemaError(`${location}.${name}`, 'Field required [type=missing]');
  if (!check(node[name]!)) throw schemaError(`${location}.${name}`, `Input should be ${what}`);
}

function optionalField(node: JsonObject, location: string, name: string, check: (value: Json) => boolean, what: string): void {
  if (node[name] !== undefined && node[name] !== null && !check(node[name]!)) throw schemaError(`${location}.${name}`, `Input should be ${what}`);
}

const isStringList = (value: Json): boolean => Array.isArray(value) && value.every((v) => typeof v === 'string');
const isInteger = (value: Json): boolean => typeof value === 'number' && Number.isInteger(value);

/** Checks a query node against the schema; answers the kind that will run (a wrapper's source's). */
export function validateNode(node: unknown, location = 'query'): string {
  if (!isObject(node)) throw schemaError(location, 'Input should be a valid dictionary or object');
  const kind = node['kind'];
  if (typeof kind !== 'string') throw schemaError(location, "Unable to extract tag using discriminator 'kind'");
  if (WRAPPERS.has(kind)) {
    if (!isObject(node['source'])) throw schemaError(`${location}.${kind}.source`, 'Field required [type=missing]');
    return validateNode(node['source'], `${location}.${kind}.source`);
  }
  const at = `${location}.${kind}`;
  switch (kind) {
    case 'EventsQuery':
      requireField(node, at, 'select', isStringList, 'a valid list of strings');
      optionalField(node, at, 'where', isStringList, 'a valid list of strings');
      optionalField(node, at, 'orderBy', isStringList, 'a valid list of strings');
      optionalField(node, at, 'limit', isInteger, 'a valid integer');
      optionalField(node, at, 'offset', isInteger, 'a valid integer');
      optionalField(node, at, 'events', isStringList, 'a valid list of strings');
      for (const name of ['event', 'after', 'before']) optionalField(node, at, name, (v) => typeof v === 'string', 'a valid string');
      return kind;
    case 'HogQLQuery':
      requireField(node, at, 'query', (v) => typeof v === 'string', 'a valid string');
      return kind;
    case 'TrendsQuery':
      requireField(node, at, 'series', (v) => Array.isArray(v) && v.every(isObject), 'a valid list');
      return kind;
    case 'HogQLMetadata':
      requireField(node, at, 'query', (v) => typeof v === 'string', 'a valid string');
      requireField(node, at, 'language', (v) => ['hogQL', 'hogQLExpr', 'hog', 'hogJson', 'hogTemplate'].includes(v as string), "'hogQL', 'hogQLExpr', 'hog', 'hogJson' or 'hogTemplate'");
      return kind;
    case 'DatabaseSchemaQuery':
      return kind;
  }
  if (KNOWN_KINDS.has(kind)) return kind;
  throw schemaError(location, `Input tag '${kind}' found using 'kind' does not match any of the expected tags`);
}

/** The node that runs: a wrapper's source (recursively), else the node. */
export function runnable(node: JsonObject): JsonObject {
  return WRAPPERS.has(node['kind'] as string) ? runnable(node['source'] as JsonObject) : node;
}

/** The kind's own response; HogQL errors become PostHog's 400 with the error class's code. */
export function execute(node: JsonObject, context: RunContext): JsonObject {
  const query = runnable(node);
  const runner = RUNNERS[query['kind'] as string];
  if (!runner) throw validation(`Unsupported query kind: ${String(query['kind'])}`);
  try {
    return runner(query, context);
  } catch (error) {
    if (error instanceof HogQLError) throw validation(error.message, null, error.code);
    throw error;
  }
}

/** Whether the kind runs here at all (checked before an async run is started). */
export function assertRunnable(node: JsonObject): void {
  const kind = runnable(node)['kind'] as string;
  if (!RUNNERS[kind]) throw validation(`Unsupported query kind: ${kind}`);
}
