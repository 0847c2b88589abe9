import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { type LocalApi, startLocalApi } from '../../api-server';
import { type Event, EVENTS_MAX_PAGE, PostHogClient } from '../../../src/api';
import { csvCell, csvLine, CsvTooWideError, flattenEvent, MAX_CSV_COLUMNS, writeEventsFile } from '../../../src/events/exportWriter';
import { csvRecords } from '../../support/csv';

let api: LocalApi;
let client: PostHogClient;
let projectId: number;
let quietProjectId: number;
let directory: string;

const eventPages = () => api.requests.filter((request) => request.path === `/api/projects/${projectId}/events/`);

before(async () => {
  api = await startLocalApi({ seed: 'empty' });
  const org = api.store.addOrganization('Export Org', [{ userId: api.store.mainUser.id, level: 15 }]);
  projectId = api.store.createProject(org.id, { name: 'Export' }).id;
  api.store.addSteadyEvents(projectId, 5_000, { perSecond: 20 }); // dense: PostHog's first window fills every page
  quietProjectId = api.store.createProject(org.id, { name: 'Quiet' }).id;
  api.store.addSteadyEvents(quietProjectId, 6_000, { perSecond: 1, clusterEvery: 13, clusterSize: 4 });
  client = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.all });
  directory = mkdtempSync(join(tmpdir(), 'posthog-export-writer-'));
});
after(async () => {
  await client.dispose();
  await api.close();
  rmSync(directory, { recursive: true, force: true });
});
beforeEach(() => api.clearRequests());

describe('event export writer', () => {
  test('CSV of 2,500 rows: pages of 1,000, dotted sorted headers, progress per page, no staging file left', async () => {
    const target = join(directory, 'events.csv');
    const progress: number[] = [];
    const written = await writeEventsFile(client.events.pages(projectId, { limit: EVENTS_MAX_PAGE, include_person: true }), target, {
      format: 'csv',
      rows: 2_500,
      onProgress: (rows) => progress.push(rows),
    });
    assert.deepEqual(written, { rows: 2_500, allMatching: false, skippedAt: [] });
    assert.deepEqual(progress, [1_000, 1_999, 2_500], 'each next page starts a microsecond after the last row: that row comes again and is dropped');
    const [headers, ...rows] = csvRecords(readFileSync(target, 'utf8'));
    assert.equal(rows.length, 2_500);
    assert.deepEqual(headers, [...headers!].sort());
    for (const column of ['event', 'id', 'timestamp', 'properties.$browser', 'person.distinct_ids.0']) {
      assert.ok(headers!.includes(column), column);
    }
    assert.ok(rows.every((row) => row.length === headers!.length));
    assert.equal(new Set(rows.map((row) => row[headers!.indexOf('id')])).size, 2_500, 'no row twice');
    assert.deepEqual(eventPages().map((request) => request.query['limit']), ['1000', '1000', '1000']);
    assert.deepEqual(eventPages().map((request) => Boolean(request.query['before'])), [false, true, true]);
    assert.deepEqual(readdirSync(directory), ['events.csv']);
  });

  test('asking for more rows than exist writes what there is and says it is every matching event', async () => {
    const target = join(directory, 'all.jsonl');
    const written = await writeEventsFile(client.events.pages(projectId, { limit: EVENTS_MAX_PAGE }), target, { format: 'jsonl', rows: 1_000_000 });
    assert.deepEqual(written, { rows: 5_000, allMatching: true, skippedAt: [] });
    const lines = readFileSync(target, 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, 5_000);
    assert.equal(new Set(lines.map((line) => (JSON.parse(line) as Event).id)).size, 5_000);
    rmSync(target);
  });

  test('JSON is one array of the events as PostHog sent them; fewer rows than a page stops after one request', async () => {
    const target = join(directory, 'some.json');
    const written = await writeEventsFile(client.events.pages(projectId, { limit: 7 }), target, { format: 'json', rows: 7 });
    assert.equal(written.rows, 7);
    const events = JSON.parse(readFileSync(target, 'utf8')) as Event[];
    assert.equal(events.length, 7);
    assert.equal(typeof events[0]!.properties, 'object');
    assert.equal(eventPages().length, 1);
    rmSync(target);
  });

  test('a quiet project (an event a second, with clusters on one timestamp): 5,000 rows, each once, though PostHog answers pages of about 900 without next', async () => {
    const target = join(directory, 'quiet.jsonl');
    const after = new Date(Date.now() - 3 * 3_600_000).toISOString();
    const written = await writeEventsFile(client.events.pages(quietProjectId, { limit: EVENTS_MAX_PAGE, after }), target, { format: 'jsonl', rows: 5_000 });
    assert.deepEqual(written, { rows: 5_000, allMatching: false, skippedAt: [] });
    const ids = readFileSync(target, 'utf8').trimEnd().split('\n').map((line) => (JSON.parse(line) as Event).id);
    assert.equal(ids.length, 5_000);
    assert.equal(new Set(ids).size, 5_000, 'no event twice');
    const newest = [...api.store.eventsOf(quietProjectId).sorted()].slice(0, 5_000).map((row) => api.store.eventsOf(quietProjectId).record(row).uuid);
    assert.deepEqual(new Set(ids), new Set(newest), 'exactly the 5,000 newest: none skipped at a page boundary');
    const pages = api.requests.filter((request) => request.path === `/api/projects/${quietProjectId}/events/`);
    assert.ok(pages.length <= 8, `${pages.length} requests for 5,000 rows`);
    rmSync(target);
  });

  test('an abort stops between pages, rejects, and leaves nothing behind', async () => {
    const controller = new AbortController();
    const target = join(directory, 'cancelled.csv');
    await assert.rejects(
      writeEventsFile(client.events.pages(projectId, { limit: 1_000 }, { signal: controller.signal }), target, {
        format: 'csv',
        rows: 5_000,
        signal: controller.signal,
        onProgress: (rows) => rows >= 2_000 && controller.abort(),
      }),
      (error: unknown) => error instanceof Error && error.name === 'AbortError',
    );
    assert.deepEqual(readdirSync(directory).filter((name) => name.startsWith('cancelled.csv') || name.startsWith('.posthog-export-')), [], 'no file, no staging file, no folder of the export');
    assert.ok(eventPages().length <= 3);
  });

  test('flattening follows PostHog\'s CSV: dotted keys, JSON-text fields parsed, True/False, empty for null', () => {
    const cells = flattenEvent({
      id: 'e1',
      distinct_id: 'd',
      event: 'x',
      timestamp: 't',
      properties: '{"flag":true,"off":false,"list":[1,{"a":null}]}',
      person: null,
      elements: [],
    });
    assert.deepEqual(Object.fromEntries(cells), {
      id: 'e1',
      distinct_id: 'd',
      event: 'x',
      timestamp: 't',
      'properties.flag': 'True',
      'properties.off': 'False',
      'properties.list.0': '1',
      'properties.list.1.a': '',
      person: '',
    });
    assert.equal(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines']), 'a,"b,c","say ""hi""","two\nlines"\r\n');
  });
});

/** Batches of made-up events, then (optionally) a failure: an export that breaks after writing some rows. */
async function* madeUpBatches(events: Event[], failAfter?: Error): AsyncGenerator<{ events: Event[]; last: boolean }> {
  yield { events, last: failAfter === undefined };
  if (failAfter) throw failAfter;
}

function madeUpEvent(id: string, properties: Record<string, unknown>): Event {
  return { id, distinct_id: 'd', event: 'e', timestamp: '2026-11-26T10:00:00Z', properties, elements: [] };
}

describe('CSV cells a spreadsheet would run as formulas', () => {
  test('cells starting with =, +, -, @, a tab or a carriage return start with a quote; plain numbers stay numbers', () => {
    assert.equal(csvCell('=HYPERLINK("http://evil.example","click")'), `"'=HYPERLINK(""http://evil.example"",""click"")"`);
    assert.equal(csvCell('+1+cmd|" /C calc"!A0'), `"'+1+cmd|"" /C calc""!A0"`);
    assert.equal(csvCell('-2+3'), `'-2+3`);
    assert.equal(csvCell('@SUM(A1:A9)'), `'@SUM(A1:A9)`);
    assert.equal(csvCell('\t=1+1'), `'\t=1+1`);
    assert.equal(csvCell('\r=1+1'), `"'\r=1+1"`);
    for (const fullWidth of ['\uFF1D1+1', '\uFF0B1', '\uFF0D5', '\uFF20SUM(A1)']) {
      assert.equal(csvCell(fullWidth), `'${fullWidth}`, `full-width ${fullWidth[0]}, which Apple Numbers reads as its ASCII twin`);
    }
    for (const number of ['-5', '+5', '-0.25', '-.5', '-1e5', '+2.5E-3', '-12345678901234567890']) {
      assert.equal(csvCell(number), number, `${number} is a number, not a formula`);
    }
    for (const text of ['plain', '', '5', 'a=b', ' =1', "'already quoted"]) {
      assert.equal(csvCell(text), /[",\r\n]/.test(text) ? `"${text}"` : text, `${JSON.stringify(text)} stays as it is`);
    }
  });

  test('kept raw when asked (posthogExplorer.events.csvFormulaCells: raw)', () => {
    assert.equal(csvCell('=1+1', 'raw'), '=1+1');
    assert.equal(csvLine(['=1+1', '-2+3', 'a,b'], 'raw'), '=1+1,-2+3,"a,b"\r\n');
  });

  test('an export neutralises formula cells by default, headers included, and writes them raw when asked', async () => {
    const events = [madeUpEvent('e1', { '=cmd': '=1+1', price: -5, note: '@SUM(A1)' })];
    const neutral = join(directory, 'formulas.csv');
    await writeEventsFile(madeUpBatches(events), neutral, { format: 'csv', rows: 10 });
    const [header, row] = csvRecords(readFileSync(neutral, 'utf8'));
    const cell = (name: string) => row![header!.indexOf(name)];
    assert.equal(cell('properties.=cmd'), "'=1+1");
    assert.equal(cell('properties.price'), '-5');
    assert.equal(cell('properties.note'), "'@SUM(A1)");
    const raw = join(directory, 'formulas-raw.csv');
    await writeEventsFile(madeUpBatches(events), raw, { format: 'csv', rows: 10, formulaCells: 'raw' });
    const [rawHeader, rawRow] = csvRecords(readFileSync(raw, 'utf8'));
    assert.equal(rawRow![rawHeader!.indexOf('properties.=cmd')], '=1+1');
    rmSync(neutral);
    rmSync(raw);
  });
});

describe('columns of keys with dots', () => {
  test('a key "a.b" and a nested {a: {b}} get distinct, readable columns', () => {
    const cells = flattenEvent(madeUpEvent('e1', { 'a.b': 'dotted key', a: { b: 'nested', 'c.d': 'nested dotted', 'e[0]': 'bracket' }, list: [{ 'x.y': 1 }] }));
    assert.equal(cells.get('properties.a.b'), 'nested');
    assert.equal(cells.get('properties["a.b"]'), 'dotted key');
    assert.equal(cells.get('properties.a["c.d"]'), 'nested dotted');
    assert.equal(cells.get('properties.a["e[0]"]'), 'bracket');
    assert.equal(cells.get('properties.list.0["x.y"]'), '1');
  });

  test('an export keeps both values, each in its column', async () => {
    const target = join(directory, 'dots.csv');
    await writeEventsFile(madeUpBatches([madeUpEvent('e1', { 'a.b': 'dotted key', a: { b: 'nested' } })]), target, { format: 'csv', rows: 10 });
    const [header, row] = csvRecords(readFileSync(target, 'utf8'));
    assert.equal(row![header!.indexOf('properties.a.b')], 'nested');
    assert.equal(row![header!.indexOf('properties["a.b"]')], 'dotted key');
    rmSync(target);
  });
});

describe('a CSV export of events whose keys never repeat', () => {
  test('stops once its columns outnumber a spreadsheet\'s, before the file grows as rows times columns; JSON Lines takes them', async () => {
    const folder = mkdtempSync(join(directory, 'wide-'));
    const events = Array.from({ length: 2_000 }, (_, index) => madeUpEvent(`e${index}`, Object.fromEntries(Array.from({ length: 10 }, (__, key) => [`key_${index}_${key}`, key]))));
    const error = await writeEventsFile(madeUpBatches(events), join(folder, 'wide.csv'), { format: 'csv', rows: 2_000 }).then(
      () => assert.fail('written'),
      (failure: unknown) => failure,
    );
    assert.ok(error instanceof CsvTooWideError, String(error));
    assert.ok(error.rowsRead < 2_000 && error.rowsRead * 10 > MAX_CSV_COLUMNS - 20, String(error.rowsRead));
    assert.deepEqual(readdirSync(folder), [], 'nothing written');
    const written = await writeEventsFile(madeUpBatches(events), join(folder, 'wide.jsonl'), { format: 'jsonl', rows: 2_000 });
    assert.equal(written.rows, 2_000);
  });
});

describe('an export over an existing file', () => {
  const old = 'the file the user chose to replace\n';

  for (const format of ['csv', 'json', 'jsonl'] as const) {
    test(`a failed ${format} export leaves the existing file as it was, and nothing beside it`, async () => {
      const folder = mkdtempSync(join(directory, 'failed-'));
      const target = join(folder, `events.${format}`);
      writeFileSync(target, old);
      await assert.rejects(
        writeEventsFile(madeUpBatches([madeUpEvent('e1', { a: 1 })], new Error('PostHog broke off')), target, { format, rows: 10 }),
        /PostHog broke off/,
      );
      assert.equal(readFileSync(target, 'utf8'), old);
      assert.deepEqual(readdirSync(folder), [`events.${format}`]);
    });
  }

  test('a cancelled export leaves the existing file as it was', async () => {
    const folder = mkdtempSync(join(directory, 'cancelled-'));
    const target = join(folder, 'events.csv');
    writeFileSync(target, old);
    const controller = new AbortController();
    await assert.rejects(
      writeEventsFile(client.events.pages(projectId, { limit: 1_000 }, { signal: controller.signal }), target, {
        format: 'csv',
        rows: 5_000,
        signal: controller.signal,
        onProgress: (rows) => rows >= 1_000 && controller.abort(),
      }),
      (error: unknown) => error instanceof Error && error.name === 'AbortError',
    );
    assert.equal(readFileSync(target, 'utf8'), old);
    assert.deepEqual(readdirSync(folder), ['events.csv']);
  });

  test('a CSV export cancelled after the last page, while it writes the file itself, leaves the existing file as it was', async () => {
    const folder = mkdtempSync(join(directory, 'cancelled-late-'));
    const target = join(folder, 'events.csv');
    writeFileSync(target, old);
    const controller = new AbortController();
    await assert.rejects(
      writeEventsFile(madeUpBatches([madeUpEvent('e1', { a: 1 })]), target, { format: 'csv', rows: 10, signal: controller.signal, onProgress: () => controller.abort() }),
      (error: unknown) => error instanceof Error && error.name === 'AbortError',
    );
    assert.equal(readFileSync(target, 'utf8'), old);
    assert.deepEqual(readdirSync(folder), ['events.csv']);
  });

  test('a file of the user\'s named like the old staging file (<target>.rows.tmp) is neither used nor removed', async () => {
    const folder = mkdtempSync(join(directory, 'staging-'));
    const target = join(folder, 'events.csv');
    writeFileSync(`${target}.rows.tmp`, 'mine');
    await writeEventsFile(madeUpBatches([madeUpEvent('e1', { a: 1 })]), target, { format: 'csv', rows: 10 });
    await assert.rejects(writeEventsFile(madeUpBatches([madeUpEvent('e2', { a: 2 })], new Error('broke')), target, { format: 'csv', rows: 10 }));
    assert.equal(readFileSync(`${target}.rows.tmp`, 'utf8'), 'mine');
    assert.deepEqual(readdirSync(folder).sort(), ['events.csv', 'events.csv.rows.tmp']);
    assert.equal(csvRecords(readFileSync(target, 'utf8'))[1]![csvRecords(readFileSync(target, 'utf8'))[0]!.indexOf('id')], 'e1');
  });

  test('a finished export replaces the existing file', async () => {
    const folder = mkdtempSync(join(directory, 'replaced-'));
    const target = join(folder, 'events.jsonl');
    writeFileSync(target, old);
    await writeEventsFile(madeUpBatches([madeUpEvent('e1', { a: 1 })]), target, { format: 'jsonl', rows: 10 });
    assert.equal((JSON.parse(readFileSync(target, 'utf8')) as Event).id, 'e1');
    assert.deepEqual(readdirSync(folder), ['events.jsonl']);
  });
});
