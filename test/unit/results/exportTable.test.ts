import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { writeTableFile } from '../../../src/results/exportTable';

const table = { columns: ['name', 'n', 'props'], rows: [['=cmd()', 1, { a: 'b' }], ['x, "y"', null, null]] };

describe('exporting a result table', () => {
  test('CSV: the header, then each row; formulas neutralised, quotes doubled', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'results-export-'));
    const target = join(folder, 'out.csv');
    assert.equal(await writeTableFile(table, target, 'csv'), 2);
    assert.equal(await readFile(target, 'utf8'), `name,n,props\r\n'=cmd(),1,"{""a"":""b""}"\r\n"x, ""y""",,\r\n`);
    assert.deepEqual(await readdir(folder), ['out.csv'], 'nothing left beside it');
  });

  test('JSON: columns and rows with the values as PostHog sent them', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'results-export-'));
    const target = join(folder, 'out.json');
    await writeTableFile(table, target, 'json');
    assert.deepEqual(JSON.parse(await readFile(target, 'utf8')), { columns: table.columns, rows: [['=cmd()', 1, { a: 'b' }], ['x, "y"', null, null]] });
  });

  test('50,000 rows are written whole', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'results-export-'));
    const target = join(folder, 'big.csv');
    const rows = Array.from({ length: 50_000 }, (_, index) => [index, `event ${index}`]);
    await writeTableFile({ columns: ['i', 'event'], rows }, target, 'csv');
    const lines = (await readFile(target, 'utf8')).split('\r\n');
    assert.equal(lines.length, 50_002);
    assert.equal(lines[50_000], '49999,event 49999');
  });

  test('a failed export leaves the file it was to replace as it was', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'results-export-'));
    const target = join(folder, 'keep.csv');
    await writeFile(target, 'before');
    const poisoned = { columns: ['x'], rows: [[{ toJSON: () => { throw new Error('boom'); } }]] };
    await assert.rejects(writeTableFile(poisoned, target, 'json'), /boom/);
    assert.equal(await readFile(target, 'utf8'), 'before');
    assert.deepEqual(await readdir(folder), ['keep.csv']);
  });
});
