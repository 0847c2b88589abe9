import * as z from 'zod/mini';

// The Query API's answers (posthog-behaviour.md "Query API"). Objects are loose: PostHog adds fields often
// (cache fields, timings, modifiers), and a caller may want them; only what the client reads is checked.

const count = z.int().check(z.nonnegative());

/** An async run's status: `complete` is true also when it failed; `results` is the whole response once done. */
export const QueryStatusSchema = z.looseObject({
  id: z.string(),
  complete: z.nullish(z.boolean()),
  error: z.nullish(z.boolean()),
  error_message: z.nullish(z.string()),
  results: z.optional(z.unknown()),
  query_async: z.nullish(z.boolean()),
  start_time: z.nullish(z.string()),
  end_time: z.nullish(z.string()),
  expiration_time: z.nullish(z.string()),
  query_progress: z.nullish(z.record(z.string(), z.unknown())),
});
export type QueryStatus = z.infer<typeof QueryStatusSchema>;

/** GET /query/:id/ (any status): `{"query_status": {...}}`. */
export const QueryStatusAnswerSchema = z.looseObject({ query_status: QueryStatusSchema });

/** What POST /query/ answers before its kind is known: a result, or a `query_status` (202) with or without one. */
export const QueryPostAnswerSchema = z.looseObject({ query_status: z.nullish(QueryStatusSchema) });

/** Fields every cached kind's result carries. */
const cacheFields = {
  is_cached: z.nullish(z.boolean()),
  last_refresh: z.nullish(z.string()),
  next_allowed_client_refresh: z.nullish(z.string()),
  cache_key: z.nullish(z.string()),
  timezone: z.nullish(z.string()),
};

const paging = {
  hasMore: z.nullish(z.boolean()),
  limit: z.nullish(count),
  offset: z.nullish(count),
};

/** EventsQuery: rows as arrays in `select` order; `nextCursor` (`<timestamp>|<uuid>`) on newer servers. */
export const EventsQueryResponseSchema = z.looseObject({
  results: z.array(z.array(z.unknown())),
  columns: z.array(z.unknown()),
  types: z.nullish(z.array(z.unknown())),
  hogql: z.nullish(z.string()),
  nextCursor: z.nullish(z.string()),
  ...paging,
  ...cacheFields,
});
export type EventsQueryResponse = z.infer<typeof EventsQueryResponseSchema>;

/** HogQLQuery: `types` as `[name, ClickHouse type]` pairs; `hasMore` only for a SELECT without LIMIT. */
export const HogQLQueryResponseSchema = z.looseObject({
  results: z.array(z.array(z.unknown())),
  columns: z.nullish(z.array(z.string())),
  types: z.nullish(z.array(z.unknown())),
  hogql: z.nullish(z.string()),
  clickhouse: z.nullish(z.string()),
  ...paging,
  ...cacheFields,
});
export type HogQLQueryResponse = z.infer<typeof HogQLQueryResponseSchema>;

/** One series (per breakdown value, per compared period) of a TrendsQuery. */
export const TrendsResultSchema = z.looseObject({
  data: z.array(z.number()),
  labels: z.array(z.string()),
  days: z.array(z.string()),
  count: z.nullish(z.number()),
  label: z.nullish(z.string()),
  aggregated_value: z.nullish(z.number()),
  breakdown_value: z.optional(z.unknown()),
  action: z.nullish(z.record(z.string(), z.unknown())),
  compare_label: z.nullish(z.string()),
});
export type TrendsResult = z.infer<typeof TrendsResultSchema>;

export const TrendsQueryResponseSchema = z.looseObject({
  results: z.array(TrendsResultSchema),
  hasMore: z.nullish(z.boolean()),
  ...cacheFields,
});
export type TrendsQueryResponse = z.infer<typeof TrendsQueryResponseSchema>;

/** An error, warning or notice of HogQLMetadata: `start`/`end` are character offsets into the query, `fix` the text to put there. */
export const HogQLNoticeSchema = z.looseObject({
  message: z.string(),
  start: z.nullish(count),
  end: z.nullish(count),
  fix: z.nullish(z.string()),
});
export type HogQLNotice = z.infer<typeof HogQLNoticeSchema>;

export const HogQLMetadataResponseSchema = z.looseObject({
  query: z.nullish(z.string()),
  isValid: z.nullish(z.boolean()),
  errors: z.array(HogQLNoticeSchema),
  warnings: z.array(HogQLNoticeSchema),
  notices: z.array(HogQLNoticeSchema),
  table_names: z.nullish(z.array(z.string())),
});
export type HogQLMetadataResponse = z.infer<typeof HogQLMetadataResponseSchema>;

export const DatabaseSchemaFieldSchema = z.looseObject({
  name: z.string(),
  hogql_value: z.nullish(z.string()),
  type: z.string(),
  schema_valid: z.nullish(z.boolean()),
  table: z.nullish(z.string()),
  fields: z.nullish(z.array(z.string())),
  chain: z.nullish(z.array(z.unknown())),
});
export type DatabaseSchemaField = z.infer<typeof DatabaseSchemaFieldSchema>;

export const DatabaseSchemaTableSchema = z.looseObject({
  type: z.string(),
  id: z.optional(z.unknown()),
  name: z.string(),
  fields: z.record(z.string(), DatabaseSchemaFieldSchema),
  row_count: z.nullish(z.number()),
});
export type DatabaseSchemaTable = z.infer<typeof DatabaseSchemaTableSchema>;

export const DatabaseSchemaQueryResponseSchema = z.looseObject({
  tables: z.record(z.string(), DatabaseSchemaTableSchema),
  joins: z.nullish(z.array(z.unknown())),
});
export type DatabaseSchemaQueryResponse = z.infer<typeof DatabaseSchemaQueryResponseSchema>;

/** DELETE /query/:id/: `{"message": ...}`. */
export const QueryCancelAnswerSchema = z.looseObject({ message: z.nullish(z.string()) });
