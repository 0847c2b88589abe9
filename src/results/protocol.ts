// Messages between the Results webview and the extension. Both sides import this file (the webview through
// its esbuild bundle) and validate every message they receive. zod/mini keeps the webview bundle small.
import * as z from 'zod/mini';
import { parseMessage, type ParseResult } from '../common/webviewMessages';
import { SAVED_ROWS_PER_SECTION, SAVED_SECTIONS, SAVED_TEXT_CHARS, SAVED_TITLE_CHARS } from './restoredResults';

const text = (max: number) => z.string().check(z.maxLength(max));
const count = () => z.int().check(z.minimum(0));
const sectionId = () => text(500);

// ---- webview → extension ------------------------------------------------------------------------------

export const ResultsWebviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('cancel'), id: sectionId() }),
  /** Run a restored section's query again (through the Run Query command). */
  z.object({ type: z.literal('rerun'), id: sectionId() }),
  z.object({ type: z.literal('copy'), text: text(5_000_000) }),
  z.object({ type: z.literal('export'), id: sectionId(), format: z.enum(['csv', 'json']) }),
  /** Open the section's query in PostHog's web app (the extension knows the link). */
  z.object({ type: z.literal('open'), id: sectionId() }),
]);
export type ResultsWebviewMessage = z.infer<typeof ResultsWebviewMessageSchema>;

// ---- extension → webview ------------------------------------------------------------------------------

export const ChartSchema = z.object({
  days: z.array(z.string()),
  series: z.array(z.object({ label: z.string(), total: z.nullable(z.number()), values: z.array(z.nullable(z.number())) })),
});
export type ChartMessage = z.infer<typeof ChartSchema>;

export const SectionViewSchema = z.object({
  kind: z.enum(['table', 'trends', 'totals', 'unsupported']),
  columns: z.array(z.string()),
  rowCount: count(),
  chart: z.optional(ChartSchema),
});
export type SectionView = z.infer<typeof SectionViewSchema>;

export const ResultsExtensionMessageSchema = z.discriminatedUnion('type', [
  /** `uri` and `title`: the document the panel belongs to, kept for the serializer. */
  z.object({ type: z.literal('init'), uri: z.string(), title: z.string(), locale: z.optional(z.string()) }),
  /**
   * A section's state, shown in the order sections were first sent. `generation` grows with each run of
   * the section: rows of an older run are dropped. `summary`: "N rows in T s", PostHog's error, "Cancelled".
   */
  z.object({
    type: z.literal('section'),
    id: sectionId(),
    generation: count(),
    label: z.string(),
    queryKind: z.string(),
    canOpen: z.boolean(),
    state: z.enum(['running', 'done', 'failed', 'cancelled']),
    summary: z.string(),
    view: z.optional(SectionViewSchema),
    /** When the run ended (ms since the epoch); only for a finished run. */
    at: z.optional(z.number()),
    /** A section brought back from the webview's state after a reload: `rows` is how many rows the run had. */
    restored: z.optional(z.object({ rows: count() })),
  }),
  /** Rows of a done section, as text, appended at `start` (in order, each once). */
  z.object({ type: z.literal('rows'), id: sectionId(), generation: count(), start: count(), rows: z.array(z.array(z.string())) }),
]);
export type ResultsExtensionMessage = z.infer<typeof ResultsExtensionMessageSchema>;

export type SectionMessage = Extract<ResultsExtensionMessage, { type: 'section' }>;
export type RowsMessage = Extract<ResultsExtensionMessage, { type: 'rows' }>;

// ---- the webview's state ------------------------------------------------------------------------------

/**
 * A finished section as the webview keeps it (src/results/restoredResults.ts): `view.rowCount` is how many
 * rows the run had, `rows` the first of them, as text.
 */
export const SavedSectionSchema = z.object({
  id: sectionId(),
  label: text(SAVED_TEXT_CHARS),
  queryKind: text(200),
  state: z.enum(['done', 'failed', 'cancelled']),
  summary: text(SAVED_TEXT_CHARS),
  at: z.number(),
  view: z.optional(SectionViewSchema),
  rows: z.array(z.array(z.string())).check(z.maxLength(SAVED_ROWS_PER_SECTION)),
});
export type SavedSection = z.infer<typeof SavedSectionSchema>;

/** What the webview keeps with vscode.setState, for the panel serializer after a reload. */
export const ResultsPanelStateSchema = z.object({
  uri: text(10_000),
  title: text(SAVED_TITLE_CHARS),
  sections: z._default(z.array(SavedSectionSchema).check(z.maxLength(SAVED_SECTIONS)), []),
});
export type ResultsPanelState = z.infer<typeof ResultsPanelStateSchema>;

export function parseResultsWebviewMessage(data: unknown): ParseResult<ResultsWebviewMessage> {
  return parseMessage(ResultsWebviewMessageSchema, data);
}

export function parseResultsExtensionMessage(data: unknown): ParseResult<ResultsExtensionMessage> {
  return parseMessage(ResultsExtensionMessageSchema, data);
}
