import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { applySpans, markdownCrc, replayUpdates } from '../../../../src/notebooks/session/markdownDiff';
import { assertLinear } from '../markdown/linearCheck';
import { planRemoteMerge, textEdits } from '../../../../src/notebooks/session/remoteMerge';
import { mergeMarkdown } from '../../../../src/notebooks/merge';

const BASE = '# Plan\n\nFirst paragraph.\n\nSecond paragraph.\n\nThird paragraph.\n';
const LABELS = { ours: 'Yours', theirs: 'PostHog' };

describe('a remote change meeting unsaved text', () => {
  test('a change to another paragraph merges at once, and the editor is then based on theirs', () => {
    const ours = BASE.replace('First paragraph.', 'First paragraph, mine.');
    const theirs = BASE.replace('Third paragraph.', 'Third paragraph, theirs.');
    assert.deepEqual(planRemoteMerge(BASE, ours, theirs), {
      kind: 'merged',
      text: '# Plan\n\nFirst paragraph, mine.\n\nSecond paragraph.\n\nThird paragraph, theirs.\n',
      base: theirs,
    });
  });

  test('a change that overlaps the user\'s is held, with the lines it is about; the other changes still merge', () => {
    const ours = BASE.replace('Second paragraph.', 'Second paragraph, mine.');
    const overlapping = BASE.replace('Second paragraph.', 'Second paragraph, theirs.');
    assert.deepEqual(planRemoteMerge(BASE, ours, overlapping), { kind: 'held', held: [{ start: 4, end: 5 }] });
    const both = overlapping.replace('# Plan', '# Plan, retitled');
    const plan = planRemoteMerge(BASE, ours, both);
    assert.equal(plan.kind, 'partial');
    if (plan.kind !== 'partial') return;
    assert.equal(plan.text, '# Plan, retitled\n\nFirst paragraph.\n\nSecond paragraph, mine.\n\nThird paragraph.\n');
    assert.deepEqual(plan.held, [{ start: 4, end: 5 }]);
    assert.equal(plan.base, BASE.replace('# Plan', '# Plan, retitled'), 'theirs without the held change');
    // At save, merging with PostHog's text marks exactly the held place.
    const atSave = mergeMarkdown(plan.base, plan.text, both, LABELS);
    assert.equal(atSave.conflicts, 1);
    assert.match(atSave.text, /^# Plan, retitled\n/);
    assert.match(atSave.text, /<<<<<<< Yours\nSecond paragraph, mine\.\n\n=======\nSecond paragraph, theirs\.\n/);
  });

  test('nothing to bring in when theirs is the base or what the editor already has', () => {
    const ours = `${BASE}\nMine.\n`;
    assert.equal(planRemoteMerge(BASE, ours, BASE).kind, 'unchanged');
    assert.equal(planRemoteMerge(BASE, ours, ours).kind, 'unchanged');
  });
});

describe('textEdits', () => {
  test('only the changed characters, offsets into the old text, the rest untouched', () => {
    const from = 'one\ntwo\nthree\nfour\n';
    const to = 'one\ntwo, edited\nthree\nfour\nfive\n';
    const edits = textEdits(from, to);
    assert.deepEqual(edits, [
      { start: 7, end: 7, text: ', edited' },
      { start: 19, end: 19, text: 'five\n' },
    ]);
    assert.equal(applySpans(from, edits), to);
  });

  test('any text becomes any other, without splitting a surrogate pair', () => {
    const text = fc.array(fc.constantFrom('a', 'b', '\n', '😀', '\r\n', 'é'), { maxLength: 30 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, (from, to) => {
        const edits = textEdits(from, to);
        assert.equal(applySpans(from, edits), to);
        for (const edit of edits) {
          assert.ok(!/^[\udc00-\udfff]/.test(from.slice(edit.start)) || edit.start === from.length, 'starts on a whole character');
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('PostHog\'s diffs', () => {
  test('markdownCrc is zlib\'s CRC-32 of the UTF-16-LE bytes, lone surrogates included', async () => {
    const { crc32 } = await import('node:zlib');
    for (const text of ['', 'abc', '# Plan\n\nSignups 😀 é', '\ud83d lone']) {
      assert.equal(markdownCrc(text), crc32(Buffer.from(text, 'utf16le')), JSON.stringify(text));
    }
  });

  test('updates replay in order only while each base CRC matches', () => {
    const first = { diff: [{ start: 3, end: 3, text: ' 😀' }], baseCrc: markdownCrc('one two') };
    const second = { diff: [{ start: 0, end: 3, text: 'ONE' }], baseCrc: markdownCrc('one 😀 two') };
    assert.equal(replayUpdates('one two', [first, second]), 'ONE 😀 two');
    assert.equal(replayUpdates('one two!', [first, second]), undefined, 'another base');
    assert.equal(replayUpdates('one two', [{ diff: first.diff }]), undefined, 'no CRC to check');
    assert.equal(replayUpdates('one two', [{ diff: [{ start: 5, end: 2, text: '' }], baseCrc: markdownCrc('one two') }]), undefined, 'spans that do not fit');
  });

  test('a replay gives what applying the updates one by one gives, for any spans: across chunks and their groups, at their edges, deleting most of the text, onto an empty text', () => {
    // Numbered lines make texts of a few hundred KB cheaply (many groups of chunks, and pastes that split one)
    // that never repeat, so that a span applied at another place shows.
    const long = (minLength: number, maxLength: number) =>
      fc.tuple(fc.string({ maxLength: 40 }), fc.integer({ min: minLength, max: maxLength })).map(([piece, length]) => {
        const lines: string[] = [];
        for (let total = 0, index = 0; total < length; index++) {
          lines.push(`${piece}${index}\n`);
          total += lines[lines.length - 1]!.length;
        }
        return lines.join('').slice(0, length);
      });
    const inserted = fc.oneof(fc.string({ maxLength: 9_000 }), long(20_000, 80_000));
    const update = (length: number) =>
      fc
        .array(fc.record({ a: fc.nat({ max: length }), b: fc.nat({ max: length }), text: inserted }), { maxLength: 4 })
        .map((raw) => {
          const cuts = raw.flatMap(({ a, b }) => [a, b]).sort((x, y) => x - y);
          return raw.map(({ text }, index) => ({ start: cuts[2 * index]!, end: cuts[2 * index + 1]!, text }));
        });
    const script = fc.tuple(fc.oneof(fc.constant(''), fc.string({ maxLength: 20_000 }), long(100_000, 300_000)), fc.integer({ min: 1, max: 6 }));
    fc.assert(
      fc.property(
        script.chain(([start, count]) => {
          // Each update's spans are drawn for the length the text has when it comes.
          let arbitrary: fc.Arbitrary<{ text: string; updates: { diff: { start: number; end: number; text: string }[]; baseCrc: number }[] }> = fc.constant({ text: start, updates: [] });
          for (let step = 0; step < count; step++) {
            arbitrary = arbitrary.chain(({ text, updates }) =>
              update(text.length).map((diff) => ({ text: applySpans(text, diff)!, updates: [...updates, { diff, baseCrc: markdownCrc(text) }] })),
            );
          }
          return arbitrary.map((end) => ({ start, ...end }));
        }),
        ({ start, text, updates }) => {
          assert.equal(replayUpdates(start, updates), text);
        },
      ),
      { numRuns: 60 },
    );
  });

  test('a replay is linear in the text plus the updates (the CRC of the whole text per update: 1 MB × 1,000 blocked 7.9 s), and as applying them one by one', () => {
    const replayOf = (size: number) => {
      let text = 'Lorem ipsum dolor sit amet, consectetur.\n'.repeat(size * 25);
      const start = text;
      const updates = Array.from({ length: size }, (_, index) => {
        const at = (index * 7919) % text.length;
        const update = { diff: [{ start: at, end: Math.min(text.length, at + 5), text: `edit ${index} 😀` }, { start: text.length, end: text.length, text: '!' }], baseCrc: markdownCrc(text) };
        text = applySpans(text, update.diff)!;
        return update;
      });
      return { start, updates, end: text };
    };
    const small = replayOf(50);
    assert.equal(replayUpdates(small.start, small.updates), small.end);
    const inputs = new Map<number, ReturnType<typeof replayOf>>();
    assertLinear('replayUpdates', (size) => {
      const input = inputs.get(size) ?? replayOf(size);
      inputs.set(size, input);
      replayUpdates(input.start, input.updates);
    }, 100);
  });
});
