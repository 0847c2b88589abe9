import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLocalApi, type LocalApi } from '../../api-server';
import { parseArgs } from '../../api-server/cli';
import { control, get, mainProject } from './helpers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('local API: live events', () => {
  let api: LocalApi;
  let projectId: number;

  before(async () => {
    api = await startLocalApi({ seed: 'minimal', control: true });
    ({ projectId } = mainProject(api));
  });
  after(() => api.close());

  test('events/live makes events arrive, newer than any before, until set to 0', async () => {
    const started = new Date().toISOString();
    const size = api.store.eventsOf(projectId).size;
    assert.equal((await control(api, 'POST', 'events/live', { projectId, perSecond: 40 })).status, 200);
    await sleep(1_200);
    assert.equal((await control(api, 'POST', 'events/live', { projectId, perSecond: 0 })).status, 200);
    const added = api.store.eventsOf(projectId).size - size;
    assert.ok(added >= 30 && added <= 60, `about 40 a second, got ${added} in 1.2 s`);
    const newer = await get(api, `/api/projects/${projectId}/events/?after=${encodeURIComponent(started)}&limit=1000`);
    assert.equal(newer.json.results.length, added, 'all of them after the moment they started');
    await sleep(600);
    assert.equal(api.store.eventsOf(projectId).size - size, added, 'stopped');
  });

  test('events/now adds events sharing one timestamp; a strict `after` of that timestamp excludes them all', async () => {
    const { status, json } = await control(api, 'POST', 'events/now', { projectId, count: 3, event: 'twin' });
    assert.equal(status, 201);
    assert.equal(json.ids.length, 3);
    const listed = await get(api, `/api/projects/${projectId}/events/?event=twin`);
    assert.deepEqual(new Set(listed.json.results.map((e: { timestamp: string }) => e.timestamp)).size, 1);
    const after = await get(api, `/api/projects/${projectId}/events/?event=twin&after=${encodeURIComponent(json.timestamp)}`);
    assert.equal(after.json.results.length, 0);
    const again = await control(api, 'POST', 'events/now', { projectId, event: 'twin', timestamp: json.timestamp });
    assert.equal(again.json.timestamp, json.timestamp, 'a given timestamp is used');
  });

  test('bad rates and unknown projects are refused', async () => {
    assert.equal((await control(api, 'POST', 'events/live', { projectId, perSecond: -1 })).status, 400);
    assert.equal((await control(api, 'POST', 'events/now', { projectId: 999_999 })).status, 404);
  });

  test('the CLI takes --live-events N', () => {
    assert.deepEqual(parseArgs(['--live-events', '20']), { port: 8010, seed: 'demo', liveEventsPerSecond: 20 });
  });

  test('liveEventsPerSecond starts events in every project that has some', async () => {
    const live = await startLocalApi({ seed: 'minimal', liveEventsPerSecond: 20 });
    try {
      const withEvents = live.store.visibleProjects().filter((p) => live.store.eventsOf(p.id).size > 0);
      const sizes = withEvents.map((p) => live.store.eventsOf(p.id).size);
      await sleep(1_100);
      withEvents.forEach((p, i) => assert.ok(live.store.eventsOf(p.id).size > sizes[i]!, `project ${p.id} got new events`));
    } finally {
      await live.close();
    }
  });
});
