// Writes events to a file as CSV, JSON or JSON Lines, page by page, in bounded memory. vscode-free.
// PostHog answers at most 1,000 events a request (CSV too, without a next link), so an export of more
// rows walks the JSON list (the client's walk: each event once, to the real end) and writes the file itself.
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Event, EventsBatch } from '../api';
import { csvLine, type FormulaCells } from '../common/csv';
import { closeStream, writeText } from '../common/fileStreams';
import { asObject } from './rows';

export type ExportFileFormat = 'csv' | 'json' | 'jsonl';

export const EXPORT_FILE_EXTENSIONS: Record<ExportFileFormat, string> = { csv: 'csv', json: 'json', jsonl: 'jsonl' };

/** The most rows one export may ask for. */
export const MAX_EXPORT_ROWS = 1_000_000;

/**
 * The most columns a CSV export holds: as many as a spreadsheet opens (Excel's 16,384). Every property key
 * of every event is a column, and each row spells all of them, so without a cap events of always-new keys
 * would make the file grow with rows times columns.
 */
export const MAX_CSV_COLUMNS = 16_384;

/** A CSV export stopped: its events have more distinct columns than MAX_CSV_COLUMNS. */
export class CsvTooWideError extends Error {
  constructor(readonly rowsRead: number) {
    super(`The events have more than ${MAX_CSV_COLUMNS} distinct columns (after ${rowsRead} rows): export as JSON Lines instead.`);
    this.name = 'CsvTooWideError';
  }
}

export { csvCell, csvLine, type FormulaCells } from '../common/csv';

export interface ExportWriteOptions {
  format: ExportFileFormat;
  /** Rows asked for: writing stops there, or earlier when the events run out. */
  rows: number;
  /** Called after each page with the rows written so far. */
  onProgress?(written: number): void;
  signal?: AbortSignal;
  /** CSV only; default 'neutralize'. */
  formulaCells?: FormulaCells;
}

export interface ExportWritten {
  /** Rows in the file. */
  rows: number;
  /** The events ran out: the file holds every matching event (fewer than asked, or exactly as many). */
  allMatching: boolean;
  /** Times whose events could not all be listed (over 51,000 share each): the file lacks some of them. */
  skippedAt: string[];
}

/**
 * Writes the events of `batches` (newest first, each once: the client's walk) to `target`, at most `rows`
 * of them. Memory holds one page at a time. The file is written in a folder of its own beside the target
 * and renamed over it only once complete: a failed or cancelled export leaves the target as it was (the
 * file the user chose to replace, or none) and nothing beside it. CSV, whose header must list every
 * column before the first row, first writes the flattened rows to a staging file in that folder.
 */
export async function writeEventsFile(batches: AsyncIterable<EventsBatch>, target: string, options: ExportWriteOptions): Promise<ExportWritten> {
  // A new folder (mkdtemp never reuses a name), so that what is removed afterwards is only ever ours; in the
  // target's folder, so that the rename stays on one file system; named apart from the target, whose name
  // may already be as long as a file name can be.
  const folder = await mkdtemp(join(dirname(target), '.posthog-export-'));
  try {
    const file = join(folder, 'file');
    const written =
      options.format === 'csv'
        ? await writeCsvFile(batches, file, join(folder, 'rows'), options)
        : await writeRecords(batches, file, options, options.format === 'json' ? jsonArrayWriter() : jsonLinesWriter());
    await rename(file, target);
    return written;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function writeCsvFile(batches: AsyncIterable<EventsBatch>, path: string, staging: string, options: ExportWriteOptions): Promise<ExportWritten> {
  const headers = new Set<string>();
  const written = await writeRecords(batches, staging, options, stagingWriter(headers));
  await writeCsv(staging, path, [...headers].sort(), options);
  return written;
}

interface RecordWriter {
  start: string;
  record(event: Event, index: number): string;
  end: string;
}

function jsonArrayWriter(): RecordWriter {
  return { start: '[', record: (event, index) => `${index ? ',' : ''}\n${JSON.stringify(event)}`, end: '\n]\n' };
}

function jsonLinesWriter(): RecordWriter {
  return { start: '', record: (event) => `${JSON.stringify(event)}\n`, end: '' };
}

/** One flattened row per line ([[column, text], ...]); collects the columns for the CSV header (at most MAX_CSV_COLUMNS). */
function stagingWriter(headers: Set<string>): RecordWriter {
  return {
    start: '',
    record: (event, index) => {
      const cells = flattenEvent(event);
      cells.forEach((_, column) => headers.add(column));
      if (headers.size > MAX_CSV_COLUMNS) {
        throw new CsvTooWideError(index + 1);
      }
      return `${JSON.stringify([...cells])}\n`;
    },
    end: '',
  };
}

async function writeRecords(batches: AsyncIterable<EventsBatch>, path: string, options: ExportWriteOptions, writer: RecordWriter): Promise<ExportWritten> {
  const out = await openFile(path);
  const result: ExportWritten = { rows: 0, allMatching: false, skippedAt: [] };
  try {
    await writeText(out, writer.start);
    for await (const batch of batches) {
      throwIfAborted(options.signal);
      const take = batch.events.slice(0, options.rows - result.rows);
      await writeText(out, take.map((event, index) => writer.record(event, result.rows + index)).join(''));
      result.rows += take.length;
      if (batch.skippedAt && take.length > 0) {
        result.skippedAt.push(batch.skippedAt);
      }
      options.onProgress?.(result.rows);
      if (batch.last) {
        result.allMatching = take.length === batch.events.length;
        break;
      }
      if (result.rows >= options.rows) {
        break;
      }
    }
    await writeText(out, writer.end);
    await closeStream(out);
    return result;
  } catch (error) {
    await discard(out);
    throw error;
  }
}

async function writeCsv(staging: string, path: string, headers: string[], options: ExportWriteOptions): Promise<void> {
  const out = await openFile(path);
  const lines = createInterface({ input: createReadStream(staging, 'utf8'), crlfDelay: Infinity });
  const formulaCells = options.formulaCells ?? 'neutralize';
  try {
    await writeText(out, csvLine(headers, formulaCells));
    for await (const line of lines) {
      throwIfAborted(options.signal);
      if (line) {
        const cells = new Map(JSON.parse(line) as [string, string][]);
        await writeText(out, csvLine(headers.map((header) => cells.get(header) ?? ''), formulaCells));
      }
    }
    await closeStream(out);
  } catch (error) {
    await discard(out);
    throw error;
  } finally {
    lines.close();
  }
}

/**
 * An event as PostHog's CSV shows it: nested objects and lists flattened into dotted columns
 * (`properties.$browser`, `elements.0.tag_name`), properties and person given as JSON text parsed
 * first, null as an empty cell, booleans as True/False (Python's text). Unlike PostHog's, a key holding a
 * `.` or a `[` is written quoted in brackets (`properties["a.b"]`), so that it keeps a column apart from
 * the nested `properties.a.b` instead of sharing it.
 */
export function flattenEvent(event: Event): Map<string, string> {
  const value: Record<string, unknown> = { ...event };
  for (const field of ['properties', 'person'] as const) {
    if (typeof value[field] === 'string') {
      value[field] = asObject(value[field]) ?? value[field];
    }
  }
  return flatten(value, '', new Map());
}

function flatten(value: unknown, prefix: string, out: Map<string, string>): Map<string, string> {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((child, index) => [String(index), child] as const) : Object.entries(value);
    for (const [key, child] of entries) {
      flatten(child, columnName(prefix, key), out);
    }
    return out;
  }
  if (value !== undefined) {
    out.set(prefix, value === null ? '' : value === true ? 'True' : value === false ? 'False' : String(value));
  }
  return out;
}

/** `prefix.key`, or `prefix["key"]` when the key holds what separates keys (a `.`, or a `[` that opens a quoted one). */
function columnName(prefix: string, key: string): string {
  if (/[.[]/.test(key)) {
    return `${prefix}[${JSON.stringify(key)}]`;
  }
  return prefix ? `${prefix}.${key}` : key;
}

/** A file opened for writing (created now, so that removing it later cannot race its creation). */
async function openFile(path: string): Promise<WriteStream> {
  const out = createWriteStream(path);
  await once(out, 'open');
  return out;
}

/** Closes a stream being abandoned; the caller then removes its file. */
async function discard(out: WriteStream): Promise<void> {
  if (!out.closed) {
    const closed = once(out, 'close').catch(() => undefined);
    out.destroy();
    await closed;
  }
}



function throwIfAborted(signal: AbortSignal | undefined): void {
  signal?.throwIfAborted();
}
