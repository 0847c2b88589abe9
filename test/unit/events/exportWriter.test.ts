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
let directory: string;

const eventPages = () => api.requests.filter((request) => request.path === `/api/projects/${projectId}/events/`);

before(async () => {
  api = await startLocalApi({ seed: 'empty' });
  const org = api.store.addOrganization('Export Org', [{ userId: api.store.mainUser.id, level: 15 }]);
  projectId = api.store.createProject(org.id, { name: 'Export' }).id;
  api.store.addEvents(projectId, 5_000, { withinHours: 20 });
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
  test('CSV of 2,500 rows: pages of 1,000 by next, dotted sorted headers, progress per page, no staging file left', async () => {
    const target = join(directory, 'events.csv');
    const progress: number[] = [];
    const written = await writeEventsFile(client.events.pages(projectId, { limit: EVENTS_MAX_PAGE, include_person: true }), target, {
      format: 'csv',
      rows: 2_500,
      onProgress: (rows) => progress.push(rows),
    });
    assert.equal(written, 2_500);
    assert.deepEqual(progress, [1_000, 2_000, 2_500]);
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

  test('asking for more rows than exist writes what there is and says how many', async () => {
    const target = join(directory, 'all.jsonl');
    const written = await writeEventsFile(client.events.pages(projectId, { limit: EVENTS_MAX_PAGE }), target, { format: 'jsonl', rows: 1_000_000 });
    assert.equal(written, 5_000);
    const lines = readFileSync(target, 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, 5_000);
    assert.equal(new Set(lines.map((line) => (JSON.parse(line) as Event).id)).size, 5_000);
    rmSync(target);
  });

  test('JSON is one array of the events as PostHog sent them; fewer rows than a page stops after one request', async () => {
    const target = join(directory, 'some.json');
    const written = await writeEventsFile(client.events.pages(projectId, { limit: 7 }), target, { format: 'json', rows: 7 });
    assert.equal(written, 7);
    const events = JSON.parse(readFileSync(target, 'utf8')) as Event[];
    assert.equal(events.length, 7);
    assert.equal(typeof events[0]!.properties, 'object');
    assert.equal(eventPages().length, 1);
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
