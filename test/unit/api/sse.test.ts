import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type SseItem, SseParser } from '../../../src/api/sse';

const LIMITS = { maxLineChars: 100, maxEventChars: 200 };

/** Feeds the text in pieces of `size` characters and collects what the parser dispatched. */
function parse(text: string, size = text.length, limits = LIMITS): SseItem[] {
  const parser = new SseParser(limits);
  const items: SseItem[] = [];
  for (let at = 0; at < text.length; at += size) items.push(...parser.push(text.slice(at, at + size)));
  parser.end();
  return items;
}

describe('SseParser', () => {
  test('reads events with ids, types and multi-line data, skipping comments, in any split of the text', () => {
    const text = ': keepalive\n\nid: 3-0\nevent: update\ndata: {"a":1}\n\nevent: presence\ndata: one\ndata:two\n\n';
    const expected: SseItem[] = [
      { kind: 'event', event: 'update', data: '{"a":1}', id: '3-0' },
      { kind: 'event', event: 'presence', data: 'one\ntwo' },
    ];
    for (const size of [1, 2, 3, 7, text.length]) assert.deepEqual(parse(text, size), expected, `pieces of ${size}`);
  });

  test('takes CRLF, CR and LF line ends, also a CRLF split between two pieces', () => {
    const crlf = 'event: a\r\ndata: x\r\n\r\n';
    const cr = 'event: a\rdata: x\r\r';
    for (const text of [crlf, cr]) {
      for (const size of [1, 2, 5, text.length]) {
        assert.deepEqual(parse(text, size), [{ kind: 'event', event: 'a', data: 'x' }], JSON.stringify({ text, size }));
      }
    }
  });

  test('an event without data is not dispatched, one without a type is a "message", and a partial one at the end is dropped', () => {
    assert.deepEqual(parse('event: nothing\n\ndata: plain\n\ndata: cut off'), [{ kind: 'event', event: 'message', data: 'plain' }]);
  });

  test('a line or an event over its cap is skipped to the end of its event and reported, and the next event reads', () => {
    const longLine = `data: ${'x'.repeat(150)}\n\ndata: after\n\n`;
    assert.deepEqual(parse(longLine, 9), [{ kind: 'skipped', reason: 'line' }, { kind: 'event', event: 'message', data: 'after' }]);
    const bigEvent = `${'data: 0123456789012345678901234567890123456789\n'.repeat(6)}\ndata: after\n\n`;
    assert.deepEqual(parse(bigEvent, 13), [{ kind: 'skipped', reason: 'event' }, { kind: 'event', event: 'message', data: 'after' }]);
  });

  test('memory stays bounded by the caps whatever the server sends (a line that never ends)', () => {
    const parser = new SseParser(LIMITS);
    for (let i = 0; i < 10_000; i++) assert.deepEqual(parser.push('y'.repeat(1000)), []);
    const state = parser as unknown as { line: string[] };
    assert.ok(state.line.join('').length <= LIMITS.maxLineChars);
    assert.deepEqual(parser.push('\n\ndata: ok\n\n'), [{ kind: 'skipped', reason: 'line' }, { kind: 'event', event: 'message', data: 'ok' }]);
  });

  test('an id with a NUL is ignored, as the format says', () => {
    assert.deepEqual(parse('id: 1\0\ndata: x\n\n'), [{ kind: 'event', event: 'message', data: 'x' }]);
  });
});
