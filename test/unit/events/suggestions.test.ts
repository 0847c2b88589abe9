import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type LocalApi, startLocalApi } from '../../api-server';
import { type EventValuesQuery, PostHogClient, RateLimitedError } from '../../../src/api';
import { EventSuggestions, type ValuesCall } from '../../../src/events/suggestions';

const never = new AbortController().signal;

/** A values call that records its queries and answers from a table. */
function stub(answer: (query: EventValuesQuery) => unknown[] | Error) {
  const queries: EventValuesQuery[] = [];
  const call: ValuesCall = async (query) => {
    queries.push(query);
    const result = answer(query);
    if (result instanceof Error) throw result;
    return { results: result.map((name) => ({ name })), refreshing: false };
  };
  return { call, queries };
}

/** A clock that sleeping moves forward. */
function clock() {
  let now = 1_000_000;
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
    advance: (ms: number) => (now += ms),
    sleeps,
  };
}

describe('event suggestions', () => {
  test('property values need an event name first: no request, a note saying so', async () => {
    const values = stub(() => ['Chrome']);
    const suggestions = new EventSuggestions(values.call);
    assert.deepEqual(await suggestions.suggest({ field: 'propertyValue', key: '$browser', text: 'ch', eventName: ' ' }, never), { values: [], note: 'needEventName' });
    assert.deepEqual(await suggestions.suggest({ field: 'propertyValue', key: '', text: 'ch', eventName: '$pageview' }, never), { values: [], note: 'needKey' });
    assert.deepEqual(await suggestions.suggest({ field: 'propertyValue', key: 'email', propertyType: 'person', text: '', eventName: '$pageview' }, never), { values: [], note: 'personProperty' });
    assert.deepEqual(values.queries, []);
  });

  test('asks for the typed event, caches the answer, and spaces requests to stay under 60 a minute', async () => {
    const time = clock();
    const values = stub((query) => (query.value === 'ch' ? ['Chrome'] : ['Chrome', 'Firefox']));
    const suggestions = new EventSuggestions(values.call, { now: time.now, sleep: time.sleep });
    const ask = (text: string) => suggestions.suggest({ field: 'propertyValue', key: '$browser', text, eventName: '$pageview' }, never);
    assert.deepEqual(await ask('ch'), { values: ['Chrome'] });
    assert.deepEqual(values.queries, [{ key: '$browser', event_name: '$pageview', value: 'ch' }]);
    assert.deepEqual(await ask('ch'), { values: ['Chrome'] }, 'from the cache');
    assert.equal(values.queries.length, 1);
    time.advance(200);
    assert.deepEqual(await ask(''), { values: ['Chrome', 'Firefox'] });
    assert.deepEqual(values.queries[1], { key: '$browser', event_name: '$pageview' });
    assert.deepEqual(time.sleeps, [900], 'the second request waited for its turn (1.1 s apart)');
    time.advance(6 * 60_000);
    await ask('ch');
    assert.equal(values.queries.length, 3, 'the cache expires');
  });

  test('a failure is returned to show by the field, not swallowed', async () => {
    const limited = new RateLimitedError({ endpoint: 'GET /x/', status: 429, retryAfterSeconds: 30 });
    const suggestions = new EventSuggestions(stub(() => limited).call);
    const answer = await suggestions.suggest({ field: 'propertyValue', key: '$browser', text: '', eventName: '$pageview' }, never);
    assert.equal(answer.error, limited);
  });

  test('an aborted request (a newer one came) rejects instead of answering', async () => {
    const controller = new AbortController();
    const suggestions = new EventSuggestions(async (_query, signal) => {
      controller.abort();
      throw signal.reason;
    });
    await assert.rejects(suggestions.suggest({ field: 'propertyValue', key: 'k', text: '', eventName: 'e' }, controller.signal));
  });

  test('event names: seen in loaded events, built in, and the custom names (asked once, with the typed text as event_name)', async () => {
    const values = stub(() => ['signed_up', 'uploaded_file']);
    const suggestions = new EventSuggestions(values.call, { minIntervalMs: 0 });
    suggestions.learn([{ event: 'upgraded_plan' }, { event: '$pageview' }]);
    assert.deepEqual(await suggestions.suggest({ field: 'event', text: '' }, never), {
      values: ['$autocapture', '$exception', '$feature_flag_called', '$groupidentify', '$identify', '$opt_in', '$pageleave', '$pageview', '$rageclick', '$screen', '$set', '$web_vitals', 'upgraded_plan'],
    });
    assert.equal(values.queries.length, 0, 'nothing typed: nothing asked');
    assert.deepEqual(await suggestions.suggest({ field: 'event', text: 'up' }, never), { values: ['upgraded_plan', 'uploaded_file', '$groupidentify', 'signed_up'] }, 'names that start with the text first');
    assert.deepEqual(values.queries, [{ key: 'custom_event', event_name: 'up' }]);
    assert.deepEqual(await suggestions.suggest({ field: 'event', text: 'sign' }, never), { values: ['signed_up'] });
    assert.equal(values.queries.length, 1, 'the custom names are cached and filtered here');
  });

  test('event names still come from what is known when the request fails', async () => {
    const suggestions = new EventSuggestions(stub(() => new Error('offline')).call);
    suggestions.learn([{ event: 'upgraded_plan' }]);
    const answer = await suggestions.suggest({ field: 'event', text: 'upg' }, never);
    assert.deepEqual(answer.values, ['upgraded_plan']);
    assert.match(String(answer.error), /offline/);
  });
});

describe('event suggestions against the local API', () => {
  let api: LocalApi;
  let client: PostHogClient;
  let projectId: number;
  before(async () => {
    api = await startLocalApi({ seed: 'minimal' });
    projectId = api.store.visibleProjects()[0]!.id;
    api.store.addEvent(projectId, { event: 'exported_report', distinct_id: 'maya', properties: { format: 'pdf' } });
    api.store.addEvent(projectId, { event: 'exported_report', distinct_id: 'maya', properties: { format: 'png' } });
    client = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.all });
  });
  after(async () => {
    await client.dispose();
    await api.close();
  });

  test('suggests the values of a property of the named event, and custom event names', async () => {
    const suggestions = new EventSuggestions((query, signal) => client.events.values(projectId, query, { signal }), { minIntervalMs: 0 });
    const formats = await suggestions.suggest({ field: 'propertyValue', key: 'format', text: 'p', eventName: 'exported_report' }, never);
    assert.deepEqual(formats.values.sort(), ['pdf', 'png']);
    const request = api.requests.at(-1)!;
    assert.deepEqual(request.query, { key: 'format', event_name: 'exported_report', value: 'p' });
    const names = await suggestions.suggest({ field: 'event', text: 'export' }, never);
    assert.deepEqual(names.values, ['exported_report']);
  });
});
