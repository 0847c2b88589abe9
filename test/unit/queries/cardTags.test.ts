import '../support/vscode';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { cardTagAppears, mayHoldQueryCards, type TextLines } from '../../../src/queries/cards';

/** A text's lines as VS Code's documents give them (here only `\n` breaks lines; U+2028 stays inside a line). */
function linesOf(text: string): TextLines & { charactersRead: number } {
  const lines = text.split('\n');
  const counted = {
    charactersRead: 0,
    lineText(line: number): string {
      const found = lines[line] ?? '';
      counted.charactersRead += found.length;
      return found;
    },
  };
  return counted;
}

function positionAt(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset);
  const lastBreak = before.lastIndexOf('\n');
  return { line: before.split('\n').length - 1, character: offset - lastBreak - 1 };
}

/** Replaces [from, to) of a text by `inserted`; the new text, and whether the check says a card tag appeared. */
function edit(text: string, from: number, to: number, inserted: string): { text: string; appeared: boolean; charactersRead: number } {
  const next = text.slice(0, from) + inserted + text.slice(to);
  const lines = linesOf(next);
  const appeared = cardTagAppears(lines, positionAt(next, from), positionAt(next, from + inserted.length));
  return { text: next, appeared, charactersRead: lines.charactersRead };
}

/** Types `typed` at `at` one character at a time; whether a tag appeared at the last keystroke and not before. */
function typeByCharacter(text: string, at: number, typed: string): boolean[] {
  const seen: boolean[] = [];
  let current = text;
  for (let index = 0; index < typed.length; index++) {
    const step = edit(current, at + index, at + index, typed[index]!);
    seen.push(step.appeared);
    current = step.text;
  }
  return seen;
}

const PIECES = ['\n<Query', '\n\t<SQLV2', '\n <Insight', '\n<HogQLSQL', '\n<Que', '\n  <', ' <Query', '<', 'Query', 'Insight', 'HogQLSQL', 'SQLV2', 'Que', 'ry', 'Hog', 'QLSQL', 'SQL', 'V2', 'Ins', ' ', '  ', '\t', '\n', '\n', '\u2028', 'x', '_', '9', '-', '/>', '>', '='];
const piecesText = (maxLength: number) => fc.array(fc.constantFrom(...PIECES), { maxLength }).map((pieces) => pieces.join(''));

describe('cardTagAppears: whether an edit made a card tag start a line, reading only around the edit', () => {
  test('after any edit of a text without a card tag, it says what mayHoldQueryCards of the whole new text says', () => {
    // The new text is drawn first (tags at line starts are frequent), then what the edit replaced, so that many
    // edits make a tag appear; texts that held a tag before the edit are left out.
    let appeared = 0;
    fc.assert(
      fc.property(piecesText(20), fc.nat(), fc.nat(), piecesText(3), (next, a, b, replaced) => {
        const from = a % (next.length + 1);
        const to = from + (b % Math.min(12, next.length - from + 1));
        const before = next.slice(0, from) + replaced + next.slice(to);
        fc.pre(!mayHoldQueryCards(before));
        const step = edit(before, from, from + replaced.length, next.slice(from, to));
        assert.equal(step.text, next);
        assert.equal(step.appeared, mayHoldQueryCards(next), JSON.stringify({ before, from, replaced, inserted: next.slice(from, to) }));
        appeared += step.appeared ? 1 : 0;
      }),
      { numRuns: 3000 },
    );
    assert.ok(appeared > 100, `only ${appeared} edits made a tag appear`);
  });

  test('a tag typed character by character is found at its last character (the word boundary counts)', () => {
    const text = 'Notes\n\nSome words.\n';
    assert.deepEqual(typeByCharacter(text, text.length, '<Query '), [false, false, false, false, false, true, true]);
    assert.deepEqual(typeByCharacter(text, text.length, '  <HogQLSQL'), [false, false, false, false, false, false, false, false, false, false, true]);
    assert.deepEqual(typeByCharacter(text, 7, 'x<Query'), [false, false, false, false, false, false, false], 'not at a line start');
  });

  test('a tag typed in one edit, or pasted with lines around it, is found', () => {
    assert.equal(edit('a\n\nb', 2, 2, '<SQLV2 nodeId="c" />').appeared, true);
    assert.equal(edit('a\n\nb', 2, 2, 'pasted\nlines\n\t<Insight id="x" />\nmore\n').appeared, true);
    assert.equal(edit('a\n\nb', 2, 2, 'pasted\nlines\n<Queries />\nmore\n').appeared, false, 'a longer name is no card tag');
  });

  test('a tag made by joining two lines, deleting what stood before it, or breaking a line before it, is found', () => {
    assert.equal(edit('  <Que\nry />', 6, 7, '').appeared, true, 'two lines joined');
    assert.equal(edit('   \n      <Query />', 3, 4, '').appeared, true, 'blanks joined to blanks before the tag');
    assert.equal(edit(`words${' '.repeat(500)}<Query />`, 0, 5, '').appeared, true, 'words deleted far before the tag');
    assert.equal(edit('<QueryX />', 6, 7, '').appeared, true, 'the character ending its name deleted');
    assert.equal(edit('words <Query />', 5, 5, '\n').appeared, true, 'a line broken before it');
    assert.equal(edit('words\u2028x <Query />', 6, 7, '').appeared, true, 'U+2028 starts a line for the regular expression too');
  });

  test('an edit reads only its own lines: a keystroke in a 20,000-line text reads one line', () => {
    const paragraph = 'Signups from organic search rose this week; the drop came from the pricing page.';
    const text = Array.from({ length: 20_000 }, () => paragraph).join('\n');
    const middle = text.length / 2;
    const step = edit(text, middle, middle, 'x');
    assert.equal(step.appeared, false);
    assert.ok(step.charactersRead <= paragraph.length + 1, `${step.charactersRead} characters read`);
  });

  test('in a text of one 2 MB line, a keystroke reads around the edit, not the line: a tag far away goes unseen', () => {
    // The check assumes the text before the edit had no tag; one placed far away shows what it looks at.
    const text = `<Query />${' words'.repeat(350_000)}`;
    const at = text.length - 10;
    const step = edit(text, at, at, '<');
    assert.equal(mayHoldQueryCards(step.text), true);
    assert.equal(step.appeared, false, 'only the edit\'s neighbourhood was looked at');
  });
});
