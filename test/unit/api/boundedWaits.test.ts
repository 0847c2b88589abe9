import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  errorFromResponse,
  KeyBudget,
  PostHogClient,
  RateLimitedError,
  RateLimitedTooLongError,
  RequestBudgets,
  realSleep,
} from '../../../src/api';
import type { FaultRule } from '../../api-server/faults';
import { withLocalApiClient } from '../../support/localApiClient';

/** A clock that moves only when someone sleeps on it, and counts the sleeps. */
function countingClock(start = Date.UTC(2026, 0, 1, 12)) {
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

const THROTTLED = (wait: string) => `Request was throttled. Expected available in ${wait} seconds.`;
const tooLong = (pattern: RegExp) => (error: unknown) => error instanceof RateLimitedTooLongError && pattern.test(error.userMessage);

describe('waits longer than an hour end the operation (budget, virtual clock)', () => {
  for (const seconds of [99_999_999, 1e12, Infinity, NaN, -5]) {
    test(`a 429 naming ${seconds} seconds throws at once with PostHog's text, blocks nothing and sleeps never`, async () => {
      const time = countingClock();
      const budget = new KeyBudget(time);
      assert.throws(() => budget.throttled('clickhouse', seconds, THROTTLED(String(seconds))), tooLong(new RegExp(`${String(seconds)} seconds.*Retry`)));
      await budget.acquire('clickhouse', 'bulk');
      await budget.acquire('clickhouse', 'live', { noWait: true });
      assert.deepEqual(time.state.slept, [], 'no wait, so no timer');
    });
  }

  test('a wait of an hour is still waited out; the message of a longer one says how long in words', async () => {
    const time = countingClock();
    const budget = new KeyBudget(time);
    budget.throttled('clickhouse', 3_600, THROTTLED('3600'));
    await budget.acquire('clickhouse', 'bulk');
    assert.deepEqual(time.state.slept, [3_600_000]);
    assert.throws(() => budget.throttled('clickhouse', 99_999_999), tooLong(/asked to wait 3 years\b/));
    assert.throws(() => budget.throttled('clickhouse', 3 * 3_600), tooLong(/asked to wait 3 hours\b/));
    assert.throws(() => budget.throttled('clickhouse', NaN), tooLong(/a time that is no number of seconds/));
  });

  test('no timer longer than a timer can hold is ever created', async () => {
    for (const ms of [2 ** 31, 1e15, Infinity, NaN]) {
      await assert.rejects(realSleep(ms), RangeError, `${ms} ms`);
    }
  });
});

describe('a 429\'s wait as the client reads it', () => {
  const throttled = (retryAfter: string | undefined, detail = 'Request was throttled.') =>
    errorFromResponse({ endpoint: 'GET /api/users/@me/', status: 429, bodyText: JSON.stringify({ type: 'throttled_error', code: 'throttled', detail }), retryAfter, now: new Date(Date.UTC(2026, 0, 1)) });

  test('an HTTP date in the year 3000, "-5", "Infinity" or digits past a double end the request; an hour or none is waited', () => {
    for (const header of ['Wed, 01 Jan 3000 00:00:00 GMT', '-5', 'Infinity', '9'.repeat(400), '3601']) {
      assert.ok(throttled(header) instanceof RateLimitedTooLongError, header);
    }
    const year3000 = throttled('Wed, 01 Jan 3000 00:00:00 GMT') as RateLimitedTooLongError;
    assert.match(year3000.userMessage, /asked to wait 975 years \(PostHog: "Request was throttled\.", "Retry-After: Wed, 01 Jan 3000 00:00:00 GMT"\)/);
    for (const header of ['3600', 'Thu, 01 Jan 2026 00:30:00 GMT', undefined]) {
      assert.ok(throttled(header) instanceof RateLimitedError, String(header));
    }
    assert.ok(throttled(undefined, THROTTLED('NaN')) instanceof RateLimitedTooLongError, 'a detail naming no number');
    assert.ok(throttled(undefined, THROTTLED('-5')) instanceof RateLimitedTooLongError, 'a negative detail');
  });
});

describe('waits longer than an hour end the operation (local API)', () => {
  let url = '';
  let key = '';
  let projectId = 0;
  let api: Parameters<Parameters<typeof withLocalApiClient>[1]>[0]['api'];
  withLocalApiClient({ seed: 'minimal' }, (started) => {
    ({ api, projectId } = started);
    url = api.url;
    key = api.keys.all;
  });

  /** A client whose budget and retries sleep on a virtual clock that counts every sleep. */
  function connect() {
    const time = countingClock();
    const client = new PostHogClient({ baseUrl: url, apiKey: key, budgets: new RequestBudgets(time), sleep: time.sleep, random: () => 0 });
    return { client, time };
  }

  const cases: [string, FaultRule][] = [
    ['99,999,999 s in the detail', { throttleText: '99999999' }],
    ['1e12 s in the detail', { throttleText: '1000000000000' }],
    ['Infinity (digits past a double) in the detail', { throttleText: '9'.repeat(400) }],
    ['NaN in the detail', { throttleText: 'NaN' }],
    ['-5 in the detail', { throttleText: '-5' }],
    ['a Retry-After date in the year 3000', { retryAfter: 'Wed, 01 Jan 3000 00:00:00 GMT' }],
    ['a Retry-After of 10^12', { retryAfter: '1000000000000' }],
  ];
  for (const [name, rule] of cases) {
    test(`${name}: an export, a read and a click end at once with RateLimitedTooLongError, one request each, no sleep; a retry sends again`, async () => {
      const { client, time } = connect();
      try {
        api.clearRequests();
        api.injectFault({ status: 429, times: 3, ...rule });
        const exportPages = client.events.pages(projectId, { limit: 5 }, { priority: 'bulk' });
        await assert.rejects(exportPages.next(), tooLong(/PostHog: "Request was throttled\..*Retry later/));
        await assert.rejects(client.events.list(projectId, { limit: 5 }), RateLimitedTooLongError, 'the patient events read');
        await assert.rejects(client.users.me(), RateLimitedTooLongError, 'a click');
        assert.equal(api.requests.length, 3, 'one request each, none repeated');
        assert.deepEqual(time.state.slept, [], 'no wait at all');
        await client.events.list(projectId, { limit: 5 });
        assert.deepEqual(api.requests.slice(3).map((request) => request.status), [200], 'the retry is sent: the key is not blocked for the years asked');
      } finally {
        await client.dispose();
      }
    });
  }
});
