// Messages between the events webview and the extension. Both sides import this file (the webview
// through its esbuild bundle) and validate every message they receive: the webview shows data from
// the public internet, and the extension must not act on anything malformed.
// zod/mini: the same checks in a fraction of the webview bundle (zod's classic API adds ~450 KB).
import * as z from 'zod/mini';
import { parseMessage, type ParseResult } from '../common/webviewMessages';

export const PROPERTY_OPERATORS = [
  'exact',
  'is_not',
  'icontains',
  'not_icontains',
  'regex',
  'not_regex',
  'gt',
  'gte',
  'lt',
  'lte',
  'is_set',
  'is_not_set',
] as const;
export type PropertyOperator = (typeof PROPERTY_OPERATORS)[number];

/** Operators that take no value. */
export const VALUELESS_OPERATORS: readonly PropertyOperator[] = ['is_set', 'is_not_set'];

const text = (max: number) => z.string().check(z.maxLength(max));
const count = () => z.int().check(z.minimum(0));

export const PropertyRowSchema = z.object({
  key: text(400),
  operator: z.enum(PROPERTY_OPERATORS),
  value: text(2_000),
  type: z.enum(['event', 'person']),
});
export type PropertyRow = z.infer<typeof PropertyRowSchema>;

/** The filter form as the user typed it; the extension turns it into query parameters. */
export const FilterStateSchema = z.object({
  event: z._default(text(400), ''),
  distinctId: z._default(text(400), ''),
  personId: z._default(text(400), ''),
  /**
   * Absolute (ISO 8601, a date) or relative (-24h, -7d, -2w, -1m, -1y, -30min). Never unbounded: empty
   * means the default, the last 24 hours (DEFAULT_AFTER).
   */
  after: z._default(text(100), '-24h'),
  before: z._default(text(100), ''),
  properties: z._default(z.array(PropertyRowSchema).check(z.maxLength(50)), []),
  /** More property filters as raw JSON: a list, or an {type: AND|OR, values} group. */
  propertiesJson: z._default(text(20_000), ''),
  /** Page size, at most 1,000 ('' = the server's default, 100). */
  limit: z._default(text(10), ''),
  /** Rows in an export, 1 to 1,000,000 ('' = 1,000). */
  exportLimit: z._default(text(10), ''),
  /**
   * HogQL expressions shown as columns, comma-separated (commas inside parentheses do not split); empty:
   * PostHog's default columns. A bare property key (`$browser`, from an older version) reads as `properties.$browser`.
   */
  columns: z._default(text(2_000), ''),
  /** A HogQL boolean expression the events must satisfy, sent as typed. */
  where: z._default(text(4_000), ''),
});
export type FilterState = z.infer<typeof FilterStateSchema>;

export function defaultFilters(): FilterState {
  return FilterStateSchema.parse({});
}

/** What the webview keeps with vscode.setState, and what the panel serializer gets back after a reload. */
export const PanelStateSchema = z.object({
  connectionId: text(200),
  projectId: z.int(),
  projectName: text(500),
  filters: FilterStateSchema,
  scrollTop: z._default(z.number().check(z.minimum(0)), 0),
});
export type PanelState = z.infer<typeof PanelStateSchema>;

// ---- webview → extension ------------------------------------------------------------------------------

export const WebviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), filters: z.optional(FilterStateSchema), scrollTop: z.optional(z.number().check(z.minimum(0))) }),
  z.object({ type: z.literal('query'), filters: FilterStateSchema }),
  /** The user has scrolled to row `upTo`: load pages until that row (and some beyond) is there. */
  z.object({ type: z.literal('need'), generation: count(), upTo: count().check(z.maximum(10_000_000)) }),
  /**
   * Suggestions for the field being typed: event names, or values of property `key` of the events named
   * `eventName` (what the event field holds now). `propertyType` person gets none: events/values knows
   * event properties only.
   */
  z.object({
    type: z.literal('suggest'),
    requestId: count(),
    field: z.enum(['event', 'propertyValue']),
    key: z.optional(text(400)),
    propertyType: z.optional(z.enum(['event', 'person'])),
    eventName: z.optional(text(400)),
    text: text(400),
  }),
  z.object({ type: z.literal('open'), id: text(200) }),
  /** The detail of event `id` was closed: stop loading it (a wait for PostHog's limit included). */
  z.object({ type: z.literal('closeDetail'), id: text(200) }),
  z.object({ type: z.literal('export'), format: z.enum(['csv', 'json', 'jsonl']), filters: FilterStateSchema }),
  z.object({ type: z.literal('copy'), text: text(5_000_000) }),
  z.object({ type: z.literal('cancel') }),
  /** The Live toggle: show new events at the top as they arrive. */
  z.object({ type: z.literal('live'), on: z.boolean() }),
  /** Load the events Live skipped: the listing again, from the top. */
  z.object({ type: z.literal('loadGap') }),
]);
export type WebviewMessage = z.infer<typeof WebviewMessageSchema>;

// ---- extension → webview ------------------------------------------------------------------------------

/** A row of the table: cells as text, in the order of `columns`; the event id apart. */
export const RowSchema = z.object({ id: z.nullable(z.string()), cells: z.array(z.string()) });
export type Row = z.infer<typeof RowSchema>;

export const EventDetailSchema = z.object({
  id: z.string(),
  event: z.string(),
  timestamp: z.string(),
  distinctId: z.string(),
  /** Pretty-printed JSON. */
  properties: z.string(),
  person: z.string(),
  elements: z.string(),
  elementsChain: z.string(),
  /** The whole event, pretty-printed. */
  raw: z.string(),
});
export type EventDetail = z.infer<typeof EventDetailSchema>;

export const ExtensionMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('init'),
    project: z.object({ id: z.number(), name: z.string() }),
    connectionId: z.string(),
    filters: FilterStateSchema,
    scrollTop: z.number().check(z.minimum(0)),
    /** VS Code's display language, for dates and relative ages. */
    locale: z.optional(z.string()),
  }),
  /**
   * A new query began: forget the rows; `columns` are the table's headers, `range` the times asked (ISO;
   * no `before`: until now), shown above the table.
   */
  z.object({
    type: z.literal('reset'),
    generation: count(),
    columns: z.array(z.string()),
    range: z.optional(z.object({ after: z.optional(z.string()), before: z.optional(z.string()) })),
  }),
  /** Rows appended at `start` (pages arrive in order, each once). */
  z.object({
    type: z.literal('rows'),
    generation: count(),
    start: count(),
    rows: z.array(RowSchema),
    done: z.boolean(),
  }),
  z.object({
    type: z.literal('status'),
    generation: count(),
    loading: z.boolean(),
    error: z.optional(z.string()),
    /** The error may pass if the same query runs again (PostHog's rate limit, a network or server failure): offer Retry. */
    retry: z.optional(z.boolean()),
    /** What loading waits for (PostHog's rate limit for the key), in words; '' when it no longer waits. */
    waiting: z.optional(z.string()),
    /** Something to know about the rows, e.g. events that could not all be listed. */
    note: z.optional(z.string()),
  }),
  /** The answer to a `suggest`: values, and a note (e.g. "type an event name first") or an error to show by the field. */
  z.object({
    type: z.literal('suggestions'),
    requestId: count(),
    values: z.array(z.string()),
    note: z.optional(z.string()),
    error: z.optional(z.string()),
  }),
  /**
   * An event's detail: the event, why it could not be loaded, or (before either) what loading it waits for
   * (PostHog's limit for the key), in words.
   */
  z.object({
    type: z.literal('detail'),
    id: z.string(),
    detail: z.optional(EventDetailSchema),
    error: z.optional(z.string()),
    waiting: z.optional(z.string()),
  }),
  /** Live: new rows, newest first, to put at the top; the list keeps at most `keep` rows (the oldest go). */
  z.object({ type: z.literal('liveRows'), generation: count(), rows: z.array(RowSchema), keep: count() }),
  /** Live is on or off, and what it is doing in words. */
  z.object({ type: z.literal('liveState'), on: z.boolean(), text: z.string(), error: z.optional(z.boolean()) }),
  /**
   * PostHog refused the HogQL of a field: its message, shown under that field, and the span of `text` (the
   * where as typed, or the one column expression at fault) it points at, when PostHog said.
   */
  z.object({
    type: z.literal('fieldError'),
    generation: count(),
    field: z.enum(['columns', 'where']),
    message: z.string(),
    text: z.string(),
    start: z.optional(count()),
    end: z.optional(count()),
  }),
  /** The panel looked further back than the form asked (nothing in the default range): the After it shows now. */
  z.object({ type: z.literal('after'), after: text(100) }),
  /** Live skipped the events between these times (ISO) to stay within the key's budget; offer to load them. */
  z.object({ type: z.literal('liveGap'), generation: count(), after: z.string(), before: z.string() }),
]);
export type ExtensionMessage = z.infer<typeof ExtensionMessageSchema>;

export function parseWebviewMessage(data: unknown): ParseResult<WebviewMessage> {
  return parseMessage(WebviewMessageSchema, data);
}

export function parseExtensionMessage(data: unknown): ParseResult<ExtensionMessage> {
  return parseMessage(ExtensionMessageSchema, data);
}
