// Requests an open legacy notebook costs its viewer's key while a teammate types into it, about one version
// per round trip: the real StreamUpdates (src/notebooks/session/streamUpdates.ts, its follow-up reads in
// followUps.ts) over an hour of virtual time, against a stream and a server that answer after one round trip.
// PostHog allows a key 480 requests a minute and 4,800 an hour on notebooks, all callers together.
import { type CollabEvent, HOUR_MS, MINUTE_MS, type Notebook, NOT_MODIFIED } from '../../src/api';
import { type NotebookCalls, StreamSlots, type StreamTarget, StreamUpdates } from '../../src/notebooks/session';
import { notebook as notebookFixture } from '../unit/notebooks/fixtures';
import { VirtualClock } from '../support/virtualClock';
import type { Figure } from './results';

const POSTHOG_PER_MINUTE = 480;
const POSTHOG_PER_HOUR = 4_800;
/** PostHog closes a stream after five minutes. */
const STREAM_LIFETIME_MS = 5 * MINUTE_MS;
/** The budget: a quarter of PostHog's hour for one such notebook, so that three fit beside what the user does. */
const HOURLY_BUDGET = 1_250;

interface HourOfTyping {
  readonly versions: number;
  readonly gets: number;
  readonly streams: number;
  readonly busiestMinute: number;
}

async function hourOfTyping(roundTripMs: number): Promise<HourOfTyping> {
  const clock = new VirtualClock();
  let serverVersion = 0;
  let typing = true;
  const sent: number[] = [];
  let streams = 0;
  let gets = 0;
  let heard: (() => void) | undefined;

  async function* stream(): AsyncGenerator<CollabEvent> {
    const closesAt = clock.now() + STREAM_LIFETIME_MS;
    let told = serverVersion;
    while (clock.now() < closesAt) {
      if (told === serverVersion) {
        await new Promise<void>((resolve) => (heard = resolve));
        continue;
      }
      told++;
      yield { kind: 'step', id: `${told}-0`, version: told, clientId: 'web-2', userName: 'Teammate' };
    }
  }
  const calls = {
    get: async (_project: number, _shortId: string, options?: { ifNoneMatchVersion?: number }) => {
      gets++;
      sent.push(clock.now());
      await clock.sleep(roundTripMs);
      return options?.ifNoneMatchVersion === serverVersion ? NOT_MODIFIED : notebookFixture({ version: serverVersion });
    },
    collab: {
      stream: async () => {
        streams++;
        sent.push(clock.now());
        await clock.sleep(roundTripMs);
        return stream();
      },
    },
  } as unknown as NotebookCalls;

  let known: Notebook = notebookFixture({ version: 0 });
  const take = (latest: Notebook) => {
    if (latest.version > known.version) known = latest;
  };
  const target: StreamTarget = {
    ref: { connectionId: 'bench', projectId: 1, shortId: known.short_id },
    latestKnown: () => known,
    acceptRemote: async (latest) => take(latest),
    // As the session takes a step: one GET of the notebook.
    applyUpdate: async (update) => {
      if (update.version > known.version) take((await calls.get(1, known.short_id)) as Notebook);
    },
    presence: () => undefined,
    streaming: () => undefined,
    knownSince: () => clock.now(),
  };
  const updates = new StreamUpdates(target, async () => calls, { info: () => undefined, warn: () => undefined }, {
    fallback: () => {
      throw new Error('no polling in this benchmark');
    },
    budget: new StreamSlots(1),
    sleep: clock.sleep,
    now: clock.now,
    random: () => 0.5,
  });
  // The teammate: one version per round trip, all hour.
  const teammate = (async () => {
    while (typing) {
      await clock.sleep(roundTripMs);
      serverVersion++;
      heard?.();
    }
  })();
  updates.start();
  await clock.run(HOUR_MS);
  typing = false;
  updates.dispose();
  heard?.();
  await clock.run(roundTripMs);
  await teammate;
  return { versions: serverVersion, gets, streams, busiestMinute: busiestWindow(sent, MINUTE_MS) };
}

/** The most requests in any window of `windowMs` (times in order). */
function busiestWindow(times: readonly number[], windowMs: number): number {
  let most = 0;
  let first = 0;
  times.forEach((time, index) => {
    while (times[first]! <= time - windowMs) first++;
    most = Math.max(most, index - first + 1);
  });
  return most;
}

export async function benchNotebookPressure(latencyMs: number): Promise<Figure[]> {
  const roundTripMs = Math.max(10, 2 * latencyMs);
  const hour = await hourOfTyping(roundTripMs);
  const section = `Open legacy notebook while a teammate types (a version every ${roundTripMs} ms, an hour of virtual time; PostHog allows ${POSTHOG_PER_MINUTE}/min and ${POSTHOG_PER_HOUR.toLocaleString('en-US')}/h per key)`;
  const requests = hour.gets + hour.streams;
  // Before issue 30 every step cost one GET.
  const before = hour.versions + hour.streams;
  return [
    { section, what: 'versions the teammate made', value: hour.versions, unit: 'events' },
    {
      section,
      what: 'requests of the viewer\'s key in the hour (reads and stream opens)',
      value: requests,
      unit: 'requests',
      budget: `≤ ${HOURLY_BUDGET.toLocaleString('en-US')} (PostHog: ${POSTHOG_PER_HOUR.toLocaleString('en-US')})`,
      pass: requests <= HOURLY_BUDGET,
      vsNaive: requests / before,
      note: `${hour.gets} reads, ${hour.streams} stream opens; one read per version would be ${before.toLocaleString('en-US')}`,
    },
    {
      section,
      what: 'requests in the busiest minute',
      value: hour.busiestMinute,
      unit: 'requests/min',
      budget: `< ${POSTHOG_PER_MINUTE} (PostHog's minute)`,
      pass: hour.busiestMinute < POSTHOG_PER_MINUTE,
    },
  ];
}
