// One hour, in virtual time, of what a user may well do with one key: two events panels with Live on and
// an export, against the local API with PostHog's per-key limits on (240 a minute, 1,200 an hour).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type LocalApi, startLocalApi } from '../../api-server';
import { type Event, PostHogClient, RequestBudgets } from '../../../src/api';
import { writeEventsFile } from '../../../src/events/exportWriter';
import { type LiveFetch, type LiveState, LiveTail } from '../../../src/events/liveTail';
import { VirtualClock } from '../../support/virtualClock';

const HOUR = 3_600_000;

describe('one key, two Live panels and an export', () => {
  const clock = new VirtualClock();
  let api: LocalApi;
  let client: PostHogClient;
  let projectId: number;
  let directory: string;

  before(async () => {
    api = await startLocalApi({ seed: 'empty', rateLimits: true, now: () => new Date(clock.now()) });
    const org = api.store.addOrganization('Budget Org', [{ userId: api.store.mainUser.id, level: 15 }]);
    projectId = api.store.createProject(org.id, { name: 'Busy' }).id;
    api.store.addSteadyEvents(projectId, 30_000, { perSecond: 20 });
    client = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.all, budgets: new RequestBudgets({ now: clock.now, sleep: clock.sleep }) });
    directory = mkdtempSync(join(tmpdir(), 'posthog-key-budget-'));
  });
  after(async () => {
    await client.dispose();
    await api.close();
    rmSync(directory, { recursive: true, force: true });
  });

  test('stay within PostHog\'s hourly limit together: no 429 in the hour, Live slows down and says why, the export is complete', async () => {
    const since = new Date(clock.now() - 2 * HOUR).toISOString();
    const newest: Event[] = (await client.events.list(projectId, { limit: 1 })).results;
    let livePolls = 0;
    const fetch: LiveFetch = (afterTime, signal) => {
      livePolls++;
      return clock.tracked(client.events.pages(projectId, { after: afterTime ?? since, limit: 1_000 }, { signal, priority: 'live', noWait: true }));
    };
    const states: LiveState[][] = [[], []];
    const panels = states.map(
      (seen) => new LiveTail(fetch, { events: () => undefined, state: (state) => seen.push(state) }, { intervalMs: 5_000, budget: client.events.budget, timers: clock }, newest),
    );
    panels.forEach((panel) => panel.start());
    const exported = writeEventsFile(clock.tracked(client.events.pages(projectId, { after: since, limit: 1_000 }, { priority: 'bulk' })), join(directory, 'all.jsonl'), {
      format: 'jsonl',
      rows: 1_000_000,
    });
    await clock.run(HOUR);
    panels.forEach((panel) => panel.stop());
    const written = await exported;

    assert.deepEqual(written, { rows: 30_000, allMatching: true, skippedAt: [] }, 'the export wrote every event');
    const statuses = api.requests.map((request) => request.status);
    assert.equal(statuses.filter((status) => status === 429).length, 0, 'PostHog never had to throttle the key');
    assert.ok(api.requests.length <= 1_200, `${api.requests.length} events requests in the hour`);
    console.log(`      ${api.requests.length} requests in the hour: ${livePolls} Live polls, the rest the export`);
    assert.ok(livePolls >= 650 && livePolls <= 725, `${livePolls} Live polls: the 720 an hour Live keeps to, shared by the two panels`);
    const last = states[0]!.filter((state) => state.kind === 'watching').at(-1);
    assert.ok(last?.kind === 'watching' && last.pace.intervalMs === 10_000 && last.pace.slowedBy === 'panels', JSON.stringify(last));
  });
});
