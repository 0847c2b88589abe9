import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  defaultFilters,
  type ExtensionMessage,
  parseExtensionMessage,
  parseWebviewMessage,
  type WebviewMessage,
} from '../../../src/events/protocol';

describe('events protocol: webview → extension', () => {
  const valid: WebviewMessage[] = [
    { type: 'ready' },
    { type: 'ready', filters: defaultFilters(), scrollTop: 480 },
    { type: 'query', filters: { ...defaultFilters(), event: '$pageview', after: '-7d' } },
    { type: 'need', generation: 3, upTo: 1_250 },
    { type: 'suggest', requestId: 1, field: 'propertyValue', key: '$browser', text: 'Chr' },
    { type: 'suggest', requestId: 2, field: 'propertyValue', key: '$browser', propertyType: 'event', eventName: '$pageview', text: '' },
    { type: 'open', id: '0190a1b2-0000-7000-8000-000000000000' },
    { type: 'export', format: 'csv', filters: defaultFilters() },
    { type: 'export', format: 'jsonl', filters: defaultFilters() },
    { type: 'copy', text: '{"a":1}' },
    { type: 'cancel' },
    { type: 'live', on: true },
  ];
  for (const message of valid) {
    test(`accepts ${message.type}`, () => {
      const parsed = parseWebviewMessage(message);
      assert.ok(parsed.ok, parsed.ok ? '' : parsed.problem);
      assert.deepEqual(parsed.message, message);
    });
  }

  test('fills the filter defaults a partial filter leaves out', () => {
    const parsed = parseWebviewMessage({ type: 'query', filters: { event: 'signup' } });
    assert.ok(parsed.ok);
    assert.equal(parsed.message.type, 'query');
    assert.deepEqual(parsed.message.type === 'query' && parsed.message.filters, { ...defaultFilters(), event: 'signup' });
  });

  const malformed: [string, unknown][] = [
    ['not an object', 'ready'],
    ['null', null],
    ['an unknown type', { type: 'deleteEverything' }],
    ['no type', { filters: {} }],
    ['a negative row', { type: 'need', generation: 1, upTo: -5 }],
    ['a fractional generation', { type: 'need', generation: 1.5, upTo: 5 }],
    ['an unknown export format', { type: 'export', format: 'xlsx', filters: {} }],
    ['an unknown operator', { type: 'query', filters: { properties: [{ key: 'a', operator: 'drop_table', value: '', type: 'event' }] } }],
    ['a property filter of another type', { type: 'query', filters: { properties: [{ key: 'a', operator: 'exact', value: '', type: 'cohort' }] } }],
    ['a number where text belongs', { type: 'query', filters: { event: 42 } }],
    ['an oversized event name', { type: 'query', filters: { event: 'x'.repeat(401) } }],
    ['a suggestion for an unknown field', { type: 'suggest', requestId: 1, field: 'apiKey', text: '' }],
    ['an id that is not text', { type: 'open', id: { $gt: '' } }],
    ['a Live toggle that is not a boolean', { type: 'live', on: 'yes' }],
  ];
  for (const [what, message] of malformed) {
    test(`rejects ${what}`, () => {
      const parsed = parseWebviewMessage(message);
      assert.equal(parsed.ok, false);
      assert.ok(!parsed.ok && parsed.problem.length > 0);
    });
  }
});

describe('events protocol: extension → webview', () => {
  const valid: ExtensionMessage[] = [
    { type: 'init', project: { id: 1, name: 'Hedgebox' }, connectionId: 'c1', filters: defaultFilters(), scrollTop: 0 },
    { type: 'reset', generation: 2, columns: ['Time', 'Event'] },
    { type: 'rows', generation: 2, start: 100, rows: [{ id: 'a', cells: ['t', '<img src=x onerror=alert(1)>'] }], done: false },
    { type: 'status', generation: 2, loading: false, error: 'Refused' },
    { type: 'suggestions', requestId: 4, values: ['$pageview'] },
    { type: 'suggestions', requestId: 5, values: [], note: 'Type an event name first.' },
    { type: 'suggestions', requestId: 6, values: [], error: 'No suggestions: PostHog is limiting the request rate.' },
    { type: 'detail', id: 'a', error: 'Not found' },
    { type: 'init', project: { id: 1, name: 'H' }, connectionId: 'c1', filters: defaultFilters(), scrollTop: 0, locale: 'de' },
    { type: 'liveRows', generation: 2, rows: [{ id: 'b', cells: ['t'] }], keep: 10_000 },
    { type: 'liveState', on: true, text: 'Live: checking every 5 s.' },
    { type: 'liveState', on: false, text: 'Live stopped: Invalid key.', error: true },
  ];
  for (const message of valid) {
    test(`accepts ${message.type}`, () => {
      const parsed = parseExtensionMessage(message);
      assert.ok(parsed.ok, parsed.ok ? '' : parsed.problem);
      assert.deepEqual(parsed.message, message);
    });
  }

  const malformed: [string, unknown][] = [
    ['rows whose cells are not text', { type: 'rows', generation: 1, start: 0, rows: [{ id: 'a', cells: [{ html: '<b>' }] }], done: true }],
    ['rows without done', { type: 'rows', generation: 1, start: 0, rows: [] }],
    ['a detail with a missing field', { type: 'detail', id: 'a', detail: { id: 'a' } }],
    ['an unknown type', { type: 'eval', code: 'alert(1)' }],
    ['suggestions that are not text', { type: 'suggestions', requestId: 1, values: [1, 2] }],
    ['live rows without a limit', { type: 'liveRows', generation: 1, rows: [] }],
    ['live rows whose cells are not text', { type: 'liveRows', generation: 1, rows: [{ id: 'a', cells: [1] }], keep: 5 }],
    ['a locale that is not text', { type: 'init', project: { id: 1, name: 'H' }, connectionId: 'c', filters: {}, scrollTop: 0, locale: 1 }],
  ];
  for (const [what, message] of malformed) {
    test(`rejects ${what}`, () => {
      assert.equal(parseExtensionMessage(message).ok, false);
    });
  }
});
