// The notebook list's contains and date filters, as PostHog's NotebookViewSet._filter_list_request reads them.
import { describe, test, afterEach, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startLocalApi, type Json, type LocalApi } from '../../api-server';
import { relativeDateParse } from '../../api-server/relative-date';
import { call, errorBody, get, mainProject } from './helpers';

/** 2026-03-09 12:00 UTC: 08:00 in New York, the day after clocks went forward there (2026-03-08 02:00 EST). */
const NOW = Date.parse('2026-03-09T12:00:00Z');
const micros = (iso: string): number => Date.parse(iso) * 1000;

describe('local API: the notebook list contains filter', () => {
  let api: LocalApi;
  let base: string;
  let projectId: number;

  beforeEach(async () => {
    api = await startLocalApi({ seed: 'minimal' });
    const project = api.store.createProject(mainProject(api).orgId, { name: 'Contains rules' });
    projectId = project.id;
    base = `/api/projects/${projectId}/notebooks`;
    const node = (type: string, attrs: Json = {}, content?: Json[]): Json => (content ? { type, attrs, content } : { type, attrs });
    const doc = (...nodes: Json[]): Json => ({ type: 'doc', content: nodes });
    const notebooks: [string, Json][] = [
      ['flag 7', doc(node('ph-feature-flag', { id: 7 }))],
      ['flag "7"', doc(node('ph-feature-flag', { id: '7' }))],
      ['legacy insight', doc(node('ph-insight', { id: 'ins1' }))],
      ['saved insight', doc(node('ph-query', { query: { kind: 'SavedInsightNode', shortId: 'ins1' } }))],
      ['nested recording', doc(node('paragraph', {}, [node('ph-recording', { id: 'rec1' })]))],
      ['replay comment', doc(node('paragraph', {}, [node('ph-replay-timestamp', { sessionRecordingId: 'rec1', playbackTime: 5 }), { type: 'text', text: 'look' }]))],
      ['person and cohort', doc(node('ph-person', { id: 'p1' }), node('ph-cohort', { id: 3 }))],
      ['markdown', doc(node('ph-markdown-notebook', { nodeId: 'markdown-notebook-v2', markdown: '<FeatureFlag id={7} />' }))],
      ['no content', null],
      ['content without nodes', { type: 'doc' }],
    ];
    for (const [title, content] of notebooks) api.store.createNotebook(projectId, { title, content });
  });
  afterEach(() => api.close());

  const titles = async (contains: string): Promise<string[]> => {
    const answer = await get(api, `${base}/?contains=${encodeURIComponent(contains)}`);
    assert.equal(answer.status, 200, contains);
    return answer.json.results.map((n: { title: string }) => n.title).sort();
  };

  test('targets keep their hyphens and lose one plural: feature_flag matches nothing, feature-flags what feature-flag does', async () => {
    assert.deepEqual(await titles('feature-flag:true'), ['flag "7"', 'flag 7']);
    assert.deepEqual(await titles('feature-flags'), ['flag "7"', 'flag 7']);
    assert.deepEqual(await titles('feature_flag:true'), []);
    assert.deepEqual(await titles('cohorts:true'), ['person and cohort'], 'one final s is dropped');
    assert.deepEqual(await titles('Person:true'), [], 'node types are lower case');
  });

  test('ids: Python int() reads the match first, so "7", "+7", "007" and "0_7" are the number 7 and only a numeric id matches', async () => {
    for (const match of ['7', '+7', '007', '0_7']) assert.deepEqual(await titles(`feature-flag:${match}`), ['flag 7'], match);
    assert.deepEqual(await titles('feature-flag:7.0'), [], 'not an integer for int(): the text "7.0"');
    assert.deepEqual(await titles('cohort:3'), ['person and cohort']);
    assert.deepEqual(await titles('person:p1'), ['person and cohort']);
  });

  test('insight finds only legacy ph-insight nodes; query:<short id> finds a SavedInsightNode', async () => {
    assert.deepEqual(await titles('insight:true'), ['legacy insight']);
    assert.deepEqual(await titles('query:ins1'), ['saved insight']);
    assert.deepEqual(await titles('insight:ins1'), ['legacy insight']);
  });

  test('only top-level nodes count, except replay-timestamp, which is looked for one level down', async () => {
    assert.deepEqual(await titles('recording:true'), []);
    assert.deepEqual(await titles('replay-timestamp:true'), ['replay comment']);
    assert.deepEqual(await titles('replay-timestamps:rec1'), ['replay comment']);
    assert.deepEqual(await titles('markdown-notebook:true'), ['markdown'], "a Markdown notebook's tags are text to contains");
  });

  test('false keeps a notebook without content but drops one whose content has no node list, as SQL NULL does', async () => {
    const absent = await titles('recording:false');
    assert.ok(absent.includes('no content'), absent.join(', '));
    assert.ok(!absent.includes('content without nodes'), absent.join(', '));
    assert.ok(absent.includes('flag 7'));
  });

  test('pairs are separated by commas or spaces; a pair without a target is skipped; a second colon is ignored', async () => {
    assert.deepEqual(await titles('person:true,cohort:3'), ['person and cohort']);
    assert.deepEqual(await titles(':true  cohort'), ['person and cohort']);
    assert.deepEqual(await titles('cohort:3:anything'), ['person and cohort']);
  });
});

describe('local API: the notebook list date filters', () => {
  let api: LocalApi;
  let base: string;
  let projectId: number;

  beforeEach(async () => {
    api = await startLocalApi({ seed: 'minimal', now: () => new Date(NOW) });
    const project = api.store.createProject(mainProject(api).orgId, { name: 'New York', timezone: 'America/New_York' });
    projectId = project.id;
    base = `/api/projects/${projectId}/notebooks`;
    for (const at of ['2026-03-01T04:59:59Z', '2026-03-01T05:00:01Z', '2026-03-02T12:00:00Z', '2026-03-09T11:00:00Z']) {
      api.store.createNotebook(projectId, { title: at }, undefined, micros(at));
    }
  });
  afterEach(() => api.close());

  const titles = async (key: string, value: string): Promise<string[]> => {
    const answer = await get(api, `${base}/?${key}=${encodeURIComponent(value)}`);
    assert.equal(answer.status, 200, `${key}=${value}: ${answer.text}`);
    return answer.json.results.map((n: { title: string }) => n.title).sort();
  };

  test("a date without an offset is read in the project's time zone; with one, as given", async () => {
    assert.deepEqual(await titles('date_from', '2026-03-01'), ['2026-03-01T05:00:01Z', '2026-03-02T12:00:00Z', '2026-03-09T11:00:00Z']);
    assert.deepEqual(await titles('date_to', '2026-03-01T00:00:00'), ['2026-03-01T04:59:59Z']);
    assert.deepEqual(await titles('date_to', '2026-03-01T00:00:00Z'), []);
    assert.deepEqual(await titles('date_from', '2026-03-02T07:00-05:00'), ['2026-03-09T11:00:00Z']);
  });

  test('dateutil formats and unpadded dates are read, not refused', async () => {
    for (const value of ['20260302', '2026-061', '2026-W10-1', '2026-3-2', '2026-03-02 00:00']) {
      assert.deepEqual(await titles('date_from', value), ['2026-03-02T12:00:00Z', '2026-03-09T11:00:00Z'], value);
    }
  });

  test('relative dates count back from now in the project time zone; what PostHog cannot read is now', async () => {
    assert.deepEqual(await titles('date_from', '-7d'), ['2026-03-09T11:00:00Z'], 'a week ago is 2026-03-02 08:00 EST');
    assert.deepEqual(await titles('date_from', '-8d'), ['2026-03-02T12:00:00Z', '2026-03-09T11:00:00Z']);
    assert.deepEqual(await titles('date_from', 'dStart'), ['2026-03-09T11:00:00Z'], "today's midnight in New York");
    assert.deepEqual(await titles('date_from', 'mStart'), ['2026-03-02T12:00:00Z', '2026-03-09T11:00:00Z'], 'the 1st at this time of day (08:00)');
    for (const unreadable of ['yesterday', 'soon', '2026-02-30', '']) {
      assert.deepEqual(await titles('date_from', unreadable), [], `${unreadable}: after now`);
      assert.equal((await titles('date_to', unreadable)).length, 4, `${unreadable}: before now`);
    }
  });

  test('a date outside Python years 1-9999 is a 500, as PostHog answers', async () => {
    for (const value of ['-9000y', '-99999999999d']) {
      const answer = await get(api, `${base}/?date_from=${encodeURIComponent(value)}`);
      assert.equal(answer.status, 500, value);
      assert.deepEqual(answer.json, errorBody('server_error', 'error', 'A server error occurred.'));
    }
  });

  test('relativeDateParse: wall-clock arithmetic with fold=0 across a clock change, as zoneinfo does', () => {
    const now = micros('2026-03-09T12:00:00Z');
    const ny = 'America/New_York';
    assert.equal(relativeDateParse('-1d', now, ny), micros('2026-03-08T12:00:00Z'), 'same wall time (08:00 EDT) a day before');
    assert.equal(relativeDateParse('-2d', now, ny), micros('2026-03-07T13:00:00Z'), '08:00 EST');
    assert.equal(relativeDateParse('2026-03-08T02:30', now, ny), micros('2026-03-08T07:30:00Z'), 'a skipped time uses the offset before the change');
    assert.equal(relativeDateParse('2026-11-01T01:30', now, ny), micros('2026-11-01T05:30:00Z'), 'a repeated time is its first occurrence');
    assert.equal(relativeDateParse('2026-03-02T24:00', now, 'UTC'), micros('2026-03-03T00:00:00Z'), '24:00 is the next midnight');
    assert.equal(relativeDateParse('-1mEnd', now, 'UTC'), micros('2026-02-28T12:00:00Z'), 'day 31 clamped to February');
    assert.equal(relativeDateParse('7d', now, 'UTC'), relativeDateParse('-7d', now, 'UTC'), 'the sign is optional: always back');
    assert.equal(relativeDateParse('-2q', now, 'UTC'), now - 26 * 7 * 86_400_000_000);
    assert.equal(relativeDateParse('-30M', now, 'UTC'), now - 30 * 60_000_000, 'M is minutes, m months');
    assert.equal(relativeDateParse('-3D', now, 'UTC'), now, 'upper-case D, W, Q, Y, H, S match but move nothing');
  });
});

describe('local API: the notebook version check', () => {
  let api: LocalApi;

  beforeEach(async () => {
    api = await startLocalApi({ seed: 'minimal' });
  });
  afterEach(() => api.close());

  test('a PATCH carrying content checks the version whatever the content is: null and {} included', async () => {
    const { projectId } = mainProject(api);
    const notebook = api.store.notebooksOf(projectId).find((n) => !n.deleted)!;
    const path = `/api/projects/${projectId}/notebooks/${notebook.short_id}/`;
    for (const content of [null, {}]) {
      const stale = await call(api, 'PATCH', path, { body: { content, version: notebook.version - 1 } });
      assert.equal(stale.status, 409, JSON.stringify(content));
      assert.deepEqual(stale.json, errorBody('server_error', 'conflict', 'Someone else edited the Notebook'));
      const missing = await call(api, 'PATCH', path, { body: { content } });
      assert.equal(missing.status, 409, `${JSON.stringify(content)} without a version`);
    }
    const version = notebook.version;
    const cleared = await call(api, 'PATCH', path, { body: { content: null, version } });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.json.content, null);
    assert.equal(cleared.json.version, version + 1, 'and moves the version on');
  });
});
