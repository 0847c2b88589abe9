import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { readPostHogMarkdown, toPostHogMarkdown } from '../../../../src/notebooks/markdown';
import { type ConstructBlock, constructDocument } from './constructArbitraries';
import { blockLines, canonical, converterStripped, firstDifference } from './goldenCases';

const doc = (blocks: readonly ConstructBlock[]) => ({ type: 'doc', content: blocks.map((entry) => entry.node) });

function assertReadsAsMeant(blocks: readonly ConstructBlock[], markdown: string): void {
  const reading = converterStripped(readPostHogMarkdown(markdown));
  const meant = { type: 'doc', nodes: blocks.flatMap((entry) => entry.expected ?? []), errors: [] };
  assert.equal(canonical(reading), canonical(meant), `${firstDifference(reading, meant)}\n${markdown}`);
}

describe("toPostHogMarkdown: each construct is read as meant, or declared as a loss of its kind", () => {
  test('a document either converts with no loss and reads back as meant, or declares each construct it cannot carry at its block', () => {
    fc.assert(
      fc.property(constructDocument, (blocks) => {
        const content = doc(blocks).content;
        const { markdown, losses } = toPostHogMarkdown({ type: 'doc', content });
        blocks.forEach((entry, index) => {
          if (entry.kind === undefined) {
            return;
          }
          const [start, end] = blockLines(content, index);
          const found = losses.some((loss) => loss.kind === entry.kind && loss.line <= end && loss.endLine >= start);
          assert.ok(found, `no ${entry.kind} loss at lines ${start}-${end} (block ${index}): ${JSON.stringify(losses.map((loss) => [loss.kind, loss.line, loss.endLine]))}\n${markdown}`);
        });
        if (blocks.every((entry) => entry.kind === undefined)) {
          assert.deepEqual(losses, [], markdown);
          assertReadsAsMeant(blocks, markdown);
        }
      }),
      { numRuns: 300 },
    );
  });

  test("the blocks that hold no loss convert, on their own, with none and read as meant (callouts too, declared as quotes)", () => {
    fc.assert(
      fc.property(constructDocument, (blocks) => {
        const held = blocks.filter((entry) => entry.expected !== undefined);
        const { markdown, losses } = toPostHogMarkdown(doc(held));
        assert.deepEqual(
          losses.map((loss) => loss.kind),
          held.filter((entry) => entry.kind === 'callout').map(() => 'callout'),
          markdown,
        );
        assertReadsAsMeant(held, markdown);
      }),
      { numRuns: 300 },
    );
  });
});
