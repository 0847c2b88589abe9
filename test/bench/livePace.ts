// Live's requests in an hour with one and with three events panels open on one key: the real LiveTail and the
// key's budget (src/api/budget.ts), an hour of virtual time, a server that always answers at once. PostHog
// allows the key 1,200 events requests an hour, all callers together.
import { KeyBudget, HOUR_MS } from '../../src/api';
import { DEFAULT_LIVE_INTERVAL_MS, type LiveFetch, LiveTail } from '../../src/events/liveTail';
import { VirtualClock } from '../support/virtualClock';
import type { Figure } from './results';

const PANEL_COUNTS = [1, 3];
const POSTHOG_HOURLY_LIMIT = 1_200;

async function liveHour(panels: number): Promise<{ requests: number; intervalMs: number }> {
  const clock = new VirtualClock();
  const budget = new KeyBudget({ now: clock.now, sleep: clock.sleep });
  let requests = 0;
  const fetch: LiveFetch = (_after, signal) =>
    (async function* () {
      await budget.acquire('clickhouse', 'live', { noWait: true, signal });
      requests++;
      yield { events: [], last: true };
    })();
  let intervalMs = 0;
  const tails = Array.from(
    { length: panels },
    () =>
      new LiveTail(fetch, { events: () => undefined, state: (state) => state.kind === 'watching' && (intervalMs = state.pace.intervalMs) }, { intervalMs: DEFAULT_LIVE_INTERVAL_MS, budget, timers: clock }, []),
  );
  tails.forEach((tail) => tail.start());
  await clock.run(HOUR_MS - 1);
  tails.forEach((tail) => tail.stop());
  return { requests, intervalMs };
}

export async function benchLivePace(): Promise<Figure[]> {
  const section = `Live: events requests in an hour on one key (${DEFAULT_LIVE_INTERVAL_MS / 1000} s setting; PostHog allows ${POSTHOG_HOURLY_LIMIT.toLocaleString('en-US')} an hour per key, all callers)`;
  const figures: Figure[] = [];
  for (const panels of PANEL_COUNTS) {
    const { requests, intervalMs } = await liveHour(panels);
    const before = panels * (HOUR_MS / DEFAULT_LIVE_INTERVAL_MS);
    figures.push({
      section,
      what: `${panels} panel${panels === 1 ? '' : 's'} with Live on`,
      value: requests,
      unit: 'requests',
      budget: '≤ 720 (Live\'s share)',
      pass: requests <= 720,
      note: `each panel every ${intervalMs / 1000} s; before this change ${before.toLocaleString('en-US')} (${before > POSTHOG_HOURLY_LIMIT ? 'over the limit: every events request of the key refused for the rest of the hour' : 'within the limit'})`,
    });
  }
  return figures;
}
