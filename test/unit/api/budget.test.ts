import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BudgetWaitError, KeyBudget, RequestBudgets, type BudgetWait } from '../../../src/api';

/** A clock that moves only when the budget sleeps (or the test says so). */
function clock(start = Date.UTC(2026, 0, 1, 12)) {
  const state = { now: start, slept: [] as number[] };
  return {
    state,
    now: () => state.now,
    sleep: async (ms: number) => {
      state.slept.push(ms);
      state.now += ms;
    },
  };
}

describe('request budget of a key', () => {
  test('interactive requests go until just under PostHog\'s 240 a minute, then wait for the oldest to age out', async () => {
    const time = clock();
    const budget = new KeyBudget(time);
    for (let i = 0; i < 230; i++) await budget.acquire('clickhouse', 'interactive');
    assert.deepEqual(time.state.slept, [], 'no wait for the first 230');
    const waits: BudgetWait[] = [];
    await budget.acquire('clickhouse', 'interactive', { onWait: (wait) => waits.push(wait) });
    assert.deepEqual(waits, [{ untilMs: time.state.now, reason: 'minute' }]);
    assert.equal(time.state.slept[0], 60_000, 'the first of the minute leaves it 60 s after it was sent');
    assert.equal(budget.sentWithin('clickhouse', 60_000), 1, 'the 230 of the first minute are out of its window');
  });

  test('exports keep to 180 a minute and 1,000 an hour, leaving room for what the user does', async () => {
    const time = clock();
    const budget = new KeyBudget(time);
    for (let minute = 0; minute < 6; minute++) {
      for (let i = 0; i < 166; i++) await budget.acquire('clickhouse', 'bulk');
      time.state.now += 60_000;
    }
    time.state.now -= 60_000;
    for (let i = 0; i < 4; i++) await budget.acquire('clickhouse', 'bulk');
    assert.deepEqual(time.state.slept, [], 'under both shares: no wait');
    assert.equal(budget.sentWithin('clickhouse', 3_600_000), 1_000);
    assert.equal(budget.waitFor('clickhouse', 'bulk')?.reason, 'hour', 'the export waits for the hour');
    assert.equal(budget.waitFor('clickhouse', 'interactive'), undefined, 'a click still goes');
    assert.equal(budget.waitFor('clickhouse', 'live')?.reason, 'hour');
  });

  test('after a 429 nothing goes to that bucket until the wait PostHog named, and the wait says why', async () => {
    const time = clock();
    const budget = new KeyBudget(time);
    budget.throttled('clickhouse', 2_400, 'Request was throttled. Expected available in 2400 seconds.');
    assert.deepEqual(budget.waitFor('clickhouse', 'interactive'), {
      untilMs: time.state.now + 2_400_000,
      reason: 'throttled',
      detail: 'Request was throttled. Expected available in 2400 seconds.',
    });
    assert.equal(budget.waitFor('eventValues', 'interactive'), undefined, 'events/values has its own bucket');
    await assert.rejects(budget.acquire('clickhouse', 'live', { noWait: true }), (error: unknown) => error instanceof BudgetWaitError && /Try again in 40 minutes/.test(error.userMessage));
    await budget.acquire('clickhouse', 'interactive');
    assert.deepEqual(time.state.slept, [2_400_000]);
  });

  test('a wait is cancellable', async () => {
    const budget = new KeyBudget({ now: () => 0, sleep: (_ms, signal) => new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason))) });
    budget.throttled('clickhouse', 60);
    const controller = new AbortController();
    const waiting = budget.acquire('clickhouse', 'interactive', { signal: controller.signal });
    controller.abort(new DOMException('stop', 'AbortError'));
    await assert.rejects(waiting, { name: 'AbortError' });
  });

  test('Live\'s pace: the setting alone, its hourly share split between the active panels, and slower when the budget is used', () => {
    const time = clock();
    const budget = new KeyBudget(time);
    assert.deepEqual(budget.livePace(5_000), { intervalMs: 5_000, panels: 1 });
    const shares = [budget.joinLive(), budget.joinLive(), budget.joinLive()];
    assert.deepEqual(budget.livePace(5_000), { intervalMs: 15_000, slowedBy: 'panels', panels: 3 });
    shares[2]!.setActive(false);
    assert.deepEqual(budget.livePace(5_000), { intervalMs: 10_000, slowedBy: 'panels', panels: 2 });
    shares.forEach((share) => share.leave());
    assert.deepEqual(budget.livePace(2_000), { intervalMs: 5_000, slowedBy: 'share', panels: 1 });
    budget.throttled('clickhouse', 90, 'Request was throttled. Expected available in 90 seconds.');
    assert.deepEqual(budget.livePace(5_000), { intervalMs: 90_000, slowedBy: 'throttled', panels: 1, detail: 'Request was throttled. Expected available in 90 seconds.' });
  });

  test('one budget per host and key: clients of the same key share it, other keys and hosts do not', () => {
    const budgets = new RequestBudgets();
    const first = budgets.of('https://us.posthog.com', 'phx_aaa');
    assert.equal(budgets.of('https://us.posthog.com', 'phx_aaa'), first);
    assert.notEqual(budgets.of('https://us.posthog.com', 'phx_bbb'), first);
    assert.notEqual(budgets.of('https://eu.posthog.com', 'phx_aaa'), first);
  });
});
