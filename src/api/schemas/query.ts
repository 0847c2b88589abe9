import { z } from 'zod';

// The Query API's answers (posthog-behaviour.md "Query API"). Objects are loose: PostHog adds fields often
// (cache fields, timings, modifiers), and a caller may want them; only what the client reads is checked.

const count = z.number().int().nonnegative();

/** An async run's status: `complete` is true also when it failed; `results` is the whole response once done. */
export const QueryStatusSchema = z.looseObject({
  id: z.string(),
  complete: z.boolean().nullable().optional(),
  error: z.boolean().nullable().optional(),
  error_message: z.string().nullable().optional(),
  results: z.unknown().optional(),
  query_async: z.boolean().nullable().optional(),
  start_time: z.string().nullable().optional(),
  end_time: z.string().nullable().optional(),
  expiration_time: z.string().nullable().optional(),
  query_progress: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type QueryStatus = z.infer<typeof QueryStatusSchema>;

/** GET /query/:id/ (any status): `{"query_status": {...}}`. */
export const QueryStatusAnswerSchema = z.looseObject({ query_status: QueryStatusSchema });

/** What POST /query/ answers before its kind is known: a result, or a `query_status` (202) with or without one. */
export const QueryPostAnswerSchema = z.looseObject({ query_status: QueryStatusSchema.nullable().optional() });

/** Fields every cached kind's result carries. */
const cacheFields = {
  is_cached: z.boolean().nullable().optional(),
  last_refresh: z.string().nullable().optional(),
  next_allowed_client_refresh: z.string().nullable().optional(),
  cache_key: z.string().nullable().optional(),
  timezone: z.string().nullable().optional(),
};

const paging = {
  hasMore: z.boolean().nullable().optional(),
  limit: count.nullable().optional(),
  offset: count.nullable().optional(),
};

/** EventsQuery: rows as arrays in `select` order; `nextCursor` (`<timestamp>|<uuid>`) on newer servers. */
export const EventsQueryResponseSchema = z.looseObject({
  results: z.array(z.array(z.unknown())),
  columns: z.array(z.unknown()),
  types: z.array(z.unknown()).nullable().optional(),
  hogql: z.string().nullable().optional(),
  nextCursor: z.string().nullable().optional(),
  ...paging,
  ...cacheFields,
});
export type EventsQueryResponse = z.infer<typeof EventsQueryResponseSchema>;

/** HogQLQuery: `types` as `[name, ClickHouse type]` pairs; `hasMore` only for a SELECT without LIMIT. */
export const HogQLQueryResponseSchema = z.looseObject({
  results: z.array(z.array(z.unknown())),
  columns: z.array(z.string()).nullable().optional(),
  types: z.array(z.unknown()).nullable().optional(),
  hogql: z.string().nullable().optional(),
  clickhouse: z.string().nullable().optional(),
  ...paging,
  ...cacheFields,
});
export type HogQLQueryResponse = z.infer<typeof HogQLQueryResponseSchema>;

/** One series (per breakdown value, per compared period) of a TrendsQuery. */
export const TrendsResultSchema = z.looseObject({
  data: z.array(z.number()),
  labels: z.array(z.string()),
  days: z.array(z.string()),
  count: z.number().nullable().optional(),
  label: z.string().nullable().optional(),
  aggregated_value: z.number().nullable().optional(),
  breakdown_value: z.unknown().optional(),
  action: z.record(z.string(), z.unknown()).nullable().optional(),
  compare_label: z.string().nullable().optional(),
});
export type TrendsResult = z.infer<typeof TrendsResultSchema>;

export const TrendsQueryResponseSchema = z.looseObject({
  results: z.array(TrendsResultSchema),
  hasMore: z.boolean().nullable().optional(),
  ...cacheFields,
});
export type TrendsQueryResponse = z.infer<typeof TrendsQueryResponseSchema>;

/** An error, warning or notice of HogQLMetadata: `start`/`end` are character offsets into the query, `fix` the text to put there. */
export const HogQLNoticeSchema = z.looseObject({
  message: z.string(),
  start: count.nullable().optional(),
  end: count.nullable().optional(),
  fix: z.string().nullable().optional(),
});
export type HogQLNotice = z.infer<typeof HogQLNoticeSchema>;

export const HogQLMetadataResponseSchema = z.looseObject({
  query: z.string().nullable().optional(),
  isValid: z.boolean().nullable().optional(),
  errors: z.array(HogQLNoticeSchema),
  warnings: z.array(HogQLNoticeSchema),
  notices: z.array(HogQLNoticeSchema),
  table_names: z.array(z.string()).nullable().optional(),
});
export type HogQLMetadataResponse = z.infer<typeof HogQLMetadataResponseSchema>;

export const DatabaseSchemaFieldSchema = z.looseObject({
  name: z.string(),
  hogql_value: z.string().nullable().optional(),
  type: z.string(),
  schema_valid: z.boolean().nullable().optional(),
  table: z.string().nullable().optional(),
  fields: z.array(z.string()).nullable().optional(),
  chain: z.array(z.unknown()).nullable().optional(),
});
export type DatabaseSchemaField = z.infer<typeof DatabaseSchemaFieldSchema>;

export const DatabaseSchemaTableSchema = z.looseObject({
  type: z.string(),
  id: z.unknown().optional(),
  name: z.string(),
  fields: z.record(z.string(), DatabaseSchemaFieldSchema),
  row_count: z.number().nullable().optional(),
});
export type DatabaseSchemaTable = z.infer<typeof DatabaseSchemaTableSchema>;

export const DatabaseSchemaQueryResponseSchema = z.looseObject({
  tables: z.record(z.string(), DatabaseSchemaTableSchema),
  joins: z.array(z.unknown()).nullable().optional(),
});
export type DatabaseSchemaQueryResponse = z.infer<typeof DatabaseSchemaQueryResponseSchema>;

/** DELETE /query/:id/: `{"message": ...}`. */
export const QueryCancelAnswerSchema = z.looseObject({ message: z.string().nullable().optional() });
