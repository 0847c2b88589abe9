// Writes a result's table to a CSV or JSON file, row after row, with the stream's back-pressure: linear in
// the rows, and no second copy of them in memory. The file is written beside the target and renamed over
// it once complete, so a failure leaves the target as it was. vscode-free.
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { csvLine, type FormulaCells } from '../common/csv';
import { closeStream, writeText } from '../common/fileStreams';
import { cellText, type ResultTable } from './resultModel';

export type TableFileFormat = 'csv' | 'json';

/** Text is handed to the stream in pieces of about this many characters. */
const PIECE = 64 * 1024;

export async function writeTableFile(table: ResultTable, target: string, format: TableFileFormat, formulaCells: FormulaCells = 'neutralize'): Promise<number> {
  const partial = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now()}.partial`);
  const out = createWriteStream(partial);
  try {
    await once(out, 'open');
    await writeLines(out, format === 'csv' ? csvLines(table, formulaCells) : jsonLines(table));
    await closeStream(out);
    await rename(partial, target);
  } catch (error) {
    out.destroy();
    await rm(partial, { force: true });
    throw error;
  }
  return table.rows.length;
}

function* csvLines(table: ResultTable, formulaCells: FormulaCells): Generator<string> {
  yield csvLine(table.columns, formulaCells);
  const width = table.columns.length;
  for (const row of table.rows) {
    const cells = new Array<string>(width);
    for (let column = 0; column < width; column++) {
      cells[column] = cellText(row[column]);
    }
    yield csvLine(cells, formulaCells);
  }
}

/** `{"columns": [...], "rows": [[...], ...]}`: the values as PostHog sent them, a row a line. */
function* jsonLines(table: ResultTable): Generator<string> {
  yield `{"columns":${JSON.stringify(table.columns)},"rows":[`;
  let first = true;
  for (const row of table.rows) {
    yield `${first ? '' : ','}\n${JSON.stringify(row.slice(0, table.columns.length).map((value) => value ?? null))}`;
    first = false;
  }
  yield '\n]}\n';
}

async function writeLines(out: WriteStream, lines: Iterable<string>): Promise<void> {
  let piece = '';
  for (const line of lines) {
    piece += line;
    if (piece.length >= PIECE) {
      await writeText(out, piece);
      piece = '';
    }
  }
  await writeText(out, piece);
}


