import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { PostHogBlockReading, readPostHogBlocks } from '../../../../src/notebooks/markdown';
import { applied, changesOf, editEvent, notebookText } from './editArbitraries';

function replaceAll(reading: PostHogBlockReading, changes: ReturnType<typeof changesOf>): void {
  for (const change of changes) {
    reading.replace(change.range.start, change.range.end, change.text);
  }
}

describe('PostHogBlockReading: a reading that follows edits', () => {
  test('after any edits of golden notebooks, its blocks are readPostHogBlocks of the whole new text', () => {
    fc.assert(
      fc.property(notebookText(), fc.array(editEvent, { minLength: 1, maxLength: 6 }), (start, events) => {
        const reading = PostHogBlockReading.of(start);
        let text = start;
        for (const specs of events) {
          const changes = changesOf(text, specs);
          replaceAll(reading, changes);
          text = applied(text, changes);
          assert.deepEqual(reading.blocks, readPostHogBlocks(text).blocks);
        }
      }),
      { numRuns: 300 },
    );
  });

  test('an edit in a paragraph re-reads that paragraph only; the blocks after are kept, shifted', () => {
    const paragraphs = Array.from({ length: 100 }, (_, index) => `paragraph ${index}`);
    const reading = PostHogBlockReading.of(paragraphs.join('\n\n'));
    const extent = reading.replace({ line: 100, character: 0 }, { line: 100, character: 0 }, 'new line\n\n');
    assert.deepEqual(extent, { fromBlock: 50, fromLine: 100, toLine: 103, oldBlocks: 1, newBlocks: 2 });
    assert.deepEqual(reading.blocks.at(-1), { node: { type: 'paragraph', children: [{ type: 'text', text: 'paragraph 99' }] }, line: 200, endLine: 201 });
  });

  test('a fence left open reads to the end: an edit after it re-reads from the fence (the full reading)', () => {
    const text = ['intro', '', '```', 'code', '', 'more', '', 'last'].join('\n');
    const reading = PostHogBlockReading.of(text);
    const extent = reading.replace({ line: 7, character: 4 }, { line: 7, character: 4 }, '!');
    assert.equal(extent.fromLine, 2);
    const closing = reading.replace({ line: 5, character: 4 }, { line: 5, character: 4 }, '\n```');
    assert.equal(closing.fromLine, 2);
    assert.deepEqual(reading.blocks, readPostHogBlocks(['intro', '', '```', 'code', '', 'more', '```', '', 'last!'].join('\n')).blocks);
  });

  test('a `<!--` without a `-->` ending a line looks to the end: a `-->` typed far after it is found', () => {
    const text = ['<!-- draft', '', 'words', '', 'more words'].join('\n');
    const reading = PostHogBlockReading.of(text);
    const extent = reading.replace({ line: 4, character: 10 }, { line: 4, character: 10 }, ' -->');
    assert.equal(extent.fromLine, 0);
    assert.deepEqual(reading.blocks, readPostHogBlocks(`${text} -->`).blocks);
    assert.equal(reading.blocks.length, 1);
  });
});
