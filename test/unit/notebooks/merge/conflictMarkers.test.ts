import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findConflictMarkers } from '../../../../src/notebooks/merge/conflictMarkers';
import { mergeMarkdown } from '../../../../src/notebooks/merge/markdownMerge';
import { LABELS } from './resolve';

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

  test('reports unmatched opening and closing markers, but not a =======/||||||| outside a conflict', () => {
    assert.deepEqual(findConflictMarkers('<<<<<<< Yours\nmine\n=======\n'), [{ line: 0, marker: '<<<<<<<' }]);
    assert.deepEqual(findConflictMarkers('text\n>>>>>>> PostHog\n'), [{ line: 1, marker: '>>>>>>>' }]);
    assert.deepEqual(findConflictMarkers('<<<<<<<\na\n<<<<<<< again\nb\n=======\nc\n>>>>>>>'), [
      { line: 0, marker: '<<<<<<<' },
      { line: 2, marker: '<<<<<<<' },
      { line: 4, marker: '=======' },
      { line: 6, marker: '>>>>>>>' },
    ]);
  });

  test('needs the marker at the line start followed by a space or the line end', () => {
    assert.deepEqual(findConflictMarkers(' <<<<<<< indented\n<<<<<<<< eight\n<<<<<<<x\n>>>>>>>>\n======= text\n'), []);
  });
});
