import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import MarkdownIt from 'markdown-it';
import { conflictLines, findConflictMarkers } from '../../../../src/notebooks/merge/conflictMarkers';
import { mergeMarkdown } from '../../../../src/notebooks/merge/markdownMerge';
import { acceptAll, LABELS, scanConflicts } from './resolve';

describe('conflict markers', () => {
  test('finds the markers a conflicted merge wrote, line by line', () => {
    const { text } = mergeMarkdown('A.\n\nB.\n\nC.\n', 'A.\n\nB, mine.\n\nC.\n', 'A.\n\nB, theirs.\n\nC.\n', LABELS);
    assert.deepEqual(findConflictMarkers(text), [
      { line: 2, marker: '<<<<<<<' },
      { line: 5, marker: '=======' },
      { line: 8, marker: '>>>>>>>' },
    ]);
  });

  test('leaves a Markdown setext heading underline alone', () => {
    assert.deepEqual(findConflictMarkers('Heading\n=======\n\nText.\n'), []);
    assert.deepEqual(findConflictMarkers('a\n|||||||\nb\n'), []);
  });

  test('reports the markers of a conflict with a base section, and CRLF lines', () => {
    const text = ['<<<<<<< Yours', 'mine', '||||||| base', 'old', '=======', 'theirs', '>>>>>>> PostHog', ''].join('\r\n');
    assert.deepEqual(
      findConflictMarkers(text).map((found) => found.marker),
      ['<<<<<<<', '|||||||', '=======', '>>>>>>>'],
    );
  });

  test('reports a conflict with a marker line left out, and a lone marker with a label this extension writes', () => {
    assert.deepEqual(findConflictMarkers('<<<<<<< Yours\nmine\n=======\n'), [
      { line: 0, marker: '<<<<<<<' },
      { line: 2, marker: '=======' },
    ]);
    assert.deepEqual(findConflictMarkers('<<<<<<< Yours\nmine\n'), [{ line: 0, marker: '<<<<<<<' }]);
    assert.deepEqual(findConflictMarkers('text\n>>>>>>> PostHog\n'), [{ line: 1, marker: '>>>>>>>' }]);
    assert.deepEqual(findConflictMarkers('text\n>>>>>>> PostHog (version 4 by Ann Lee)\n'), [{ line: 1, marker: '>>>>>>>' }]);
    assert.deepEqual(findConflictMarkers('<<<<<<<\na\n<<<<<<< again\nb\n=======\nc\n>>>>>>>'), [
      { line: 2, marker: '<<<<<<<' },
      { line: 4, marker: '=======' },
      { line: 6, marker: '>>>>>>>' },
    ]);
  });

  test('leaves look-alikes of the user\'s own alone: a 7-deep quote, arrows, a git conflict shown in a code block', () => {
    assert.deepEqual(findConflictMarkers('Deep:\n\n>>>>>>> seven levels of quote\n'), []);
    assert.deepEqual(findConflictMarkers('<<<<<<< arrows as text\n\nMore.\n\n>>>>>>> and a deep quote\n'), []);
    const shown = 'How a conflict looks:\n\n```diff\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> branch\n```\n\nHeading\n=======\n';
    assert.deepEqual(findConflictMarkers(shown), []);
    assert.deepEqual(findConflictMarkers(shown.replace(/```/g, '~~~~')), []);
  });

  test('finds the extension\'s conflict whatever its sides hold: a code block showing a conflict, an unclosed fence', () => {
    const shown = '```\n<<<<<<< HEAD\na\n=======\nb\n>>>>>>> branch\n```';
    const { text } = mergeMarkdown('A.\n\nB.\n', `A.\n\n${shown}\n`, 'A.\n\nB, theirs.\n', LABELS);
    assert.deepEqual(
      findConflictMarkers(text).map((found) => found.marker),
      ['<<<<<<<', '=======', '>>>>>>>'],
    );
    const unclosed = mergeMarkdown('A.\n\nB.\n', 'A.\n\n```js\nlet b;\n', 'A.\n\nB, theirs.\n', LABELS).text;
    assert.deepEqual(
      findConflictMarkers(unclosed).map((found) => found.marker),
      ['<<<<<<<', '=======', '>>>>>>>'],
    );
  });

  test('needs the marker at the line start followed by a space or the line end', () => {
    assert.deepEqual(findConflictMarkers(' <<<<<<< indented\n<<<<<<<< eight\n<<<<<<<x\n>>>>>>>>\n======= text\n'), []);
  });
});

describe('conflict markers VS Code cannot confuse with the sides\' own lines', () => {
  const markdown = new MarkdownIt();
  const BASE = 'Intro.\n\nThe block.\n\nOutro.\n';
  const replaced = (block: string) => BASE.replace('The block.', block);
  const LOOK_ALIKES = {
    'a setext heading': 'Title\n=======',
    'a 7-deep quote': '>>>>>>> seven levels deep',
    'arrows in a paragraph': '<<<<<<< arrows',
    'a table-like row': 'Cells\n|||||||',
    'a fenced code block showing a git conflict': '```diff\n<<<<<<< HEAD\n  ours\n=======\n\ttheirs\n>>>>>>> branch\n```',
    'an indented fence with a tab': '  ~~~\n=======\n\ttab\n   three\n  ~~~',
    'a fence indented by three': '   ```\n>>>>>>> x\n     five\n   ```',
    'an unclosed fence': '```\n=======\nlast',
  };

  for (const [what, block] of Object.entries(LOOK_ALIKES)) {
    test(`Accept Current, Incoming and Both keep ${what} as Markdown reads it`, () => {
      const ours = replaced(block);
      const theirs = replaced('Their block.');
      const merged = mergeMarkdown(BASE, ours, theirs, LABELS);
      assert.equal(merged.conflicts, 1);
      assert.equal(scanConflicts(merged.text.split('\n')).length, 1, 'VS Code finds the one conflict');
      assert.equal(markdown.render(acceptAll(merged.text, 'ours')), markdown.render(ours));
      assert.equal(markdown.render(acceptAll(merged.text, 'theirs')), markdown.render(theirs));
      const reversed = mergeMarkdown(BASE, theirs, ours, LABELS);
      assert.equal(markdown.render(acceptAll(reversed.text, 'theirs')), markdown.render(ours), 'on PostHog\'s side too');
      assert.equal(markdown.render(acceptAll(reversed.text, 'ours')), markdown.render(theirs));
      assert.deepEqual(findConflictMarkers(acceptAll(merged.text, 'both')), [], 'Accept Both leaves no marker');
    });
  }

  test('a git conflict shown in the user\'s code block outside the conflict is not one VS Code offers to resolve', () => {
    const shown = 'Before.\n\n```diff\n<<<<<<< HEAD\na\n=======\nb\n>>>>>>> main\n```\n\n<<<<<<< arrows\n\n';
    const base = `${shown}The block.\n`;
    const ours = `${shown}Mine.\n`;
    const theirs = `${shown}Theirs.\n`;
    const merged = mergeMarkdown(base, ours, theirs, LABELS);
    assert.equal(scanConflicts(merged.text.split('\n')).length, 1);
    assert.equal(markdown.render(acceptAll(merged.text, 'ours')), markdown.render(ours));
    assert.equal(markdown.render(acceptAll(merged.text, 'theirs')), markdown.render(theirs));
    assert.equal(mergeMarkdown(base, ours, base, LABELS).text, ours, 'a merge without conflicts is written exactly');
  });

  test('lines without look-alikes are written as they are', () => {
    assert.deepEqual(conflictLines(['a', '====== six', '> quote'], ['b'], LABELS, ''), ['<<<<<<< Yours', 'a', '====== six', '> quote', '=======', 'b', '>>>>>>> PostHog (version 7 by Ann Lee)']);
  });

  test('a label with line breaks stays on its marker line', () => {
    const lines = conflictLines(['a'], ['b'], { ours: 'Yours', theirs: 'PostHog (version 2 by Ann\n\nInjected\r\n>>>>>>> x)' }, '\r');
    assert.deepEqual(lines, ['<<<<<<< Yours\r', 'a', '=======\r', 'b', '>>>>>>> PostHog (version 2 by Ann Injected >>>>>>> x)\r']);
  });
});
