import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { markdownToDoc, readPostHogMarkdown } from '../../../../src/notebooks/markdown';
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
  /** PostHog's reading, and the legacy notebook's (which agrees with it on these lines). */
  const readings = (text: string) => JSON.stringify([readPostHogMarkdown(text), markdownToDoc(text).doc]);
  const BASE = 'Intro.\n\nThe block.\n\nOutro.\n';
  const replaced = (block: string) => BASE.replace('The block.', block);
  const LOOK_ALIKES = {
    'a line of equals signs after text': 'Title\n=======',
    'a 7-deep quote': '>>>>>>> seven levels deep',
    'arrows in a paragraph': '<<<<<<< arrows',
    'arrows on a later line of a paragraph': 'First line\n<<<<<<< arrows\nlast line',
    'a row of pipes after text': 'Cells\n|||||||',
    'a row of pipes in a table': '| a | b |\n|---|---|\n|||||||',
    'a tilde fence, which PostHog reads as text': '  ~~~\n=======\n\ttab\n   three\n  ~~~',
  };

  const check = (ours: string, theirs: string, same: (accepted: string, side: string) => void) => {
    const merged = mergeMarkdown(BASE, ours, theirs, LABELS);
    assert.equal(merged.conflicts, 1);
    assert.equal(scanConflicts(merged.text.split('\n')).length, 1, 'VS Code finds the one conflict');
    same(acceptAll(merged.text, 'ours'), ours);
    same(acceptAll(merged.text, 'theirs'), theirs);
    const reversed = mergeMarkdown(BASE, theirs, ours, LABELS);
    same(acceptAll(reversed.text, 'theirs'), ours);
    same(acceptAll(reversed.text, 'ours'), theirs);
    assert.deepEqual(findConflictMarkers(acceptAll(merged.text, 'both')), [], 'Accept Both leaves no marker');
  };

  for (const [what, block] of Object.entries(LOOK_ALIKES)) {
    test(`Accept Current, Incoming and Both keep ${what} as PostHog reads it`, () => {
      check(replaced(block), replaced('Their block.'), (accepted, side) => assert.equal(readings(accepted), readings(side)));
    });
  }

  test('each look-alike is spelled with an escape PostHog removes, or a space PostHog trims', () => {
    const lines = conflictLines(['<<<<<<< a', 'text', '|||||||', '=======', '>>>>>>> q', '=======\r'], ['b'], LABELS, '');
    assert.deepEqual(lines.slice(1, 7), ['\\<<<<<<< a', 'text', '\\|||||||', '=======<u></u>', ' >>>>>>> q', '=======<u></u>\r']);
  });

  const IN_CODE = {
    'a code block showing a git conflict': '```diff\n<<<<<<< HEAD\n  ours\n=======\n\ttheirs\n>>>>>>> branch\n```',
    'an indented fence': '   ```\n>>>>>>> x\n     five\n   ```',
    'an unclosed fence': '```\n=======\nlast',
    'a comment note': '<!-- a note\n=======\n-->',
    'a tag over several lines': '<Survey title="x"\n>>>>>>> id="s1" />',
  };
  for (const [what, block] of Object.entries(IN_CODE)) {
    test(`in ${what}, raw text for PostHog without escapes, only the look-alike lines gain a space in front`, () => {
      const ours = replaced(block);
      check(ours, replaced('Their block.'), (accepted, side) => {
        const lookAlike = /^(?:<{7}|\|{7}|={7}|>{7})/;
        const expected = side.split('\n').map((line) => (lookAlike.test(line) ? ` ${line}` : line));
        assert.deepEqual(accepted.split('\n'), expected);
      });
    });
  }

  test('a git conflict shown in the user\'s code block outside the conflict is not one VS Code offers to resolve', () => {
    const shown = 'Before.\n\n```diff\n<<<<<<< HEAD\na\n=======\nb\n>>>>>>> main\n```\n\n<<<<<<< arrows\n\n';
    const base = `${shown}The block.\n`;
    const ours = `${shown}Mine.\n`;
    const theirs = `${shown}Theirs.\n`;
    const merged = mergeMarkdown(base, ours, theirs, LABELS);
    assert.equal(scanConflicts(merged.text.split('\n')).length, 1);
    assert.equal(readings(acceptAll(merged.text, 'ours')), readings(ours.replace('```diff\n<<<<<<<', '```diff\n <<<<<<<')));
    assert.equal(readings(acceptAll(merged.text, 'theirs')), readings(theirs.replace('```diff\n<<<<<<<', '```diff\n <<<<<<<')));
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
