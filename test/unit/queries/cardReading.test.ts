import '../support/vscode';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { findQueryCards } from '../../../src/queries';
import { QueryCardReading } from '../../../src/queries/cardReading';
import { applied, changesOf, editEvent, lineStarts, notebookText } from '../notebooks/markdown/editArbitraries';

function offsetsOf(text: string): (line: number) => number {
  const starts = lineStarts(text);
  return (line) => starts[line] ?? text.length;
}

describe('QueryCardReading: cards that follow edits', () => {
  test('after any edits of golden notebooks, the cards are findQueryCards of the whole new text', () => {
    fc.assert(
      fc.property(notebookText(), fc.array(editEvent, { minLength: 1, maxLength: 6 }), (start, events) => {
        const reading = QueryCardReading.of(start);
        let text = start;
        for (const specs of events) {
          const changes = changesOf(text, specs);
          reading.apply(changes);
          text = applied(text, changes);
          assert.deepEqual(reading.cards(offsetsOf(text)), findQueryCards(text));
        }
      }),
      { numRuns: 300 },
    );
  });

  test('a card keeps its id when text is typed above it, and two identical cards keep theirs', () => {
    const tag = '<Query query={{"kind":"HogQLQuery","query":"select 1"}} />';
    const text = `# Numbers\n\n${tag}\n\ntext\n\n${tag}`;
    const reading = QueryCardReading.of(text);
    const before = reading.cards(offsetsOf(text)).map((card) => card.id);
    reading.apply([{ range: { start: { line: 4, character: 4 }, end: { line: 4, character: 4 } }, text: ' and more\n\n## Second' }]);
    const after = reading.cards(offsetsOf(`# Numbers\n\n${tag}\n\ntext and more\n\n## Second\n\n${tag}`));
    assert.deepEqual(after.map((card) => card.id), before);
    assert.deepEqual(after.map((card) => [card.label, card.range.startLine]), [['Numbers', 2], ['Second', 8]]);
  });

  test("a SQL cell's code offset points at its code after the lines above it changed", () => {
    const text = 'intro\n\n  <SQLV2 nodeId="n1"\n  code="select event from events" />';
    const reading = QueryCardReading.of(text);
    reading.apply([{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } }, text: 'a longer\nintro' }]);
    const edited = 'a longer\nintro\n\n  <SQLV2 nodeId="n1"\n  code="select event from events" />';
    const [cell] = reading.cards(offsetsOf(edited));
    assert.equal(edited.slice(cell!.sql!.offset, cell!.sql!.offset + cell!.sql!.text.length), 'select event from events');
  });
});
