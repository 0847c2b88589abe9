import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { type LocalApi, startLocalApi } from '../../api-server';
import { type Event, EVENTS_MAX_PAGE, PostHogClient } from '../../../src/api';
import { csvLine, flattenEvent, writeEventsFile } from '../../../src/events/exportWriter';
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

  test('an abort stops between pages, rejects, and removes the staging file', async () => {
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
    assert.ok(!existsSync(`${target}.rows.tmp`));
    assert.ok(eventPages().length <= 3);
    rmSync(target, { force: true });
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
