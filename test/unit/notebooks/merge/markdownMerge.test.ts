import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mergeMarkdown } from '../../../../src/notebooks/merge/markdownMerge';
import { acceptAll, LABELS } from './resolve';

const merge = (base: string, ours: string, theirs: string) => mergeMarkdown(base, ours, theirs, LABELS);
const paragraphs = (...blocks: string[]) => `${blocks.join('\n\n')}\n`;

describe('Markdown merge', () => {
  test('merges changes to different paragraphs silently and says which side each came from', () => {
    const base = paragraphs('# Title', 'First.', 'Second.', 'Third.');
    const outcome = merge(base, paragraphs('# Title', 'First, edited here.', 'Second.', 'Third.'), paragraphs('# Title', 'First.', 'Second.', 'Third, edited there.'));
    assert.equal(outcome.text, paragraphs('# Title', 'First, edited here.', 'Second.', 'Third, edited there.'));
    assert.equal(outcome.conflicts, 0);
    assert.deepEqual(outcome.changes, ['kept your change to line 3', "took PostHog's change to line 7"]);
  });

  test('merges changes to neighbouring paragraphs', () => {
    const base = paragraphs('One.', 'Two.', 'Three.');
    const outcome = merge(base, paragraphs('One.', 'Two!', 'Three.'), paragraphs('One.', 'Two.', 'Three!'));
    assert.equal(outcome.text, paragraphs('One.', 'Two!', 'Three!'));
    assert.equal(outcome.conflicts, 0);
  });

  test('marks a paragraph both sides changed differently, with markers around just that paragraph', () => {
    const base = paragraphs('# Title', 'Shared.', 'End.');
    const outcome = merge(base, paragraphs('# Title', 'Shared, mine.', 'End.'), paragraphs('# Title', 'Shared, theirs.', 'End.'));
    assert.equal(
      outcome.text,
      [
        '# Title',
        '',
        '<<<<<<< Yours',
        'Shared, mine.',
        '',
        '=======',
        'Shared, theirs.',
        '',
        '>>>>>>> PostHog (version 7 by Ann Lee)',
        'End.',
        '',
      ].join('\n'),
    );
    assert.equal(outcome.conflicts, 1);
    assert.deepEqual(outcome.changes, ['conflict at lines 3-9']);
    assert.equal(acceptAll(outcome.text, 'ours'), paragraphs('# Title', 'Shared, mine.', 'End.'));
    assert.equal(acceptAll(outcome.text, 'theirs'), paragraphs('# Title', 'Shared, theirs.', 'End.'));
    assert.equal(acceptAll(outcome.text, 'both'), paragraphs('# Title', 'Shared, mine.', 'Shared, theirs.', 'End.'));
  });

  test('puts the blank line before each side when the conflict ends the text, so accepting keeps blocks apart', () => {
    const outcome = merge('Intro.\n\nLast', 'Intro.\n\nLast, mine', 'Intro.\n\nLast, theirs');
    assert.equal(outcome.text, ['Intro.', '<<<<<<< Yours', '', 'Last, mine', '=======', '', 'Last, theirs', '>>>>>>> PostHog (version 7 by Ann Lee)'].join('\n'));
    assert.equal(acceptAll(outcome.text, 'ours'), 'Intro.\n\nLast, mine');
    assert.equal(acceptAll(outcome.text, 'both'), 'Intro.\n\nLast, mine\n\nLast, theirs');
  });

  test('merges changes to different lines of the same block line by line', () => {
    const base = paragraphs('# Tasks', '- [ ] one\n- [ ] two\n- [ ] three\n- [ ] four');
    const ours = paragraphs('# Tasks', '- [x] one\n- [ ] two\n- [ ] three\n- [ ] four');
    const theirs = paragraphs('# Tasks', '- [ ] one\n- [ ] two\n- [ ] three\n- [ ] four\n- [ ] five');
    const outcome = merge(base, ours, theirs);
    assert.equal(outcome.text, paragraphs('# Tasks', '- [x] one\n- [ ] two\n- [ ] three\n- [ ] four\n- [ ] five'));
    assert.equal(outcome.conflicts, 0);
    assert.deepEqual(outcome.changes, ['merged both changes to lines 3-7 line by line']);
  });

  test('conflicts on the same line of a block changed differently, showing the whole block on each side', () => {
    const base = paragraphs('- [ ] one\n- [ ] two');
    const outcome = merge(base, paragraphs('- [x] one\n- [ ] two'), paragraphs('- [ ] one!\n- [ ] two'));
    assert.equal(outcome.conflicts, 1);
    assert.equal(acceptAll(outcome.text, 'theirs'), paragraphs('- [ ] one!\n- [ ] two'));
    assert.match(outcome.text, /^<<<<<<< Yours\n- \[x\] one\n- \[ \] two\n/);
  });

  test('applies a deletion of a block the other side left alone', () => {
    const base = paragraphs('A.', 'B.', 'C.');
    const outcome = merge(base, paragraphs('A.', 'C.'), paragraphs('A.', 'B.', 'C, edited.'));
    assert.equal(outcome.text, paragraphs('A.', 'C, edited.'));
    assert.deepEqual(outcome.changes, ['kept your deletion at line 3', "took PostHog's change to line 3"]);
  });

  test('conflicts when one side deletes a block the other edited; accepting either side stays well-formed', () => {
    const base = paragraphs('A.', 'B.', 'C.');
    const outcome = merge(base, paragraphs('A.', 'C.'), paragraphs('A.', 'B, edited.', 'C.'));
    assert.equal(outcome.conflicts, 1);
    assert.equal(outcome.text, ['A.', '', '<<<<<<< Yours', '=======', 'B, edited.', '', '>>>>>>> PostHog (version 7 by Ann Lee)', 'C.', ''].join('\n'));
    assert.equal(acceptAll(outcome.text, 'ours'), paragraphs('A.', 'C.'));
    assert.equal(acceptAll(outcome.text, 'theirs'), paragraphs('A.', 'B, edited.', 'C.'));
  });

  test('a block moved by one side while the other edits another block merges', () => {
    const base = paragraphs('A.', 'B.', 'C.', 'D.');
    const outcome = merge(base, paragraphs('B.', 'C.', 'A.', 'D.'), paragraphs('A.', 'B.', 'C.', 'D, edited.'));
    assert.equal(outcome.text, paragraphs('B.', 'C.', 'A.', 'D, edited.'));
    assert.equal(outcome.conflicts, 0);
  });

  test('a block moved by one side and edited by the other conflicts at its old place and keeps the unedited block at the new one', () => {
    const base = paragraphs('A.', 'B.', 'C.', 'D.');
    const outcome = merge(base, paragraphs('B.', 'C.', 'A.', 'D.'), paragraphs('A, edited.', 'B.', 'C.', 'D.'));
    assert.equal(outcome.conflicts, 1);
    assert.equal(acceptAll(outcome.text, 'ours'), paragraphs('B.', 'C.', 'A.', 'D.'));
    assert.equal(acceptAll(outcome.text, 'theirs'), paragraphs('A, edited.', 'B.', 'C.', 'A.', 'D.'));
  });

  test('takes a change both sides made the same way once', () => {
    const base = paragraphs('A.', 'B.');
    const outcome = merge(base, paragraphs('A.', 'B, fixed.', 'Mine.'), paragraphs('A.', 'B, fixed.'));
    assert.equal(outcome.text, paragraphs('A.', 'B, fixed.', 'Mine.'));
    assert.deepEqual(outcome.changes, ['both made the same change to line 3', 'kept your change to line 5']);
  });

  test('a retried save the user kept editing after merges with its own first attempt', () => {
    const base = paragraphs('A.', 'B.', 'C.');
    const server = paragraphs('A.', 'B, saved.', 'C.');
    const outcome = merge(base, paragraphs('A.', 'B, saved.', 'Typed after.', 'C.'), server);
    assert.equal(outcome.text, paragraphs('A.', 'B, saved.', 'Typed after.', 'C.'));
    assert.equal(outcome.conflicts, 0);
  });

  test('narrows a conflict to the blocks that differ, and keeps a deletion against an edit as a conflict', () => {
    const base = paragraphs('A.', 'B.', 'C.');
    const outcome = merge(base, paragraphs('A!', 'B, mine.', 'C.'), paragraphs('A!', 'C.'));
    assert.equal(outcome.conflicts, 1);
    assert.equal(outcome.text, ['A!', '', '<<<<<<< Yours', 'B, mine.', '', '=======', '>>>>>>> PostHog (version 7 by Ann Lee)', 'C.', ''].join('\n'));
  });

  test('insertions at the same place conflict unless they are the same', () => {
    const base = paragraphs('A.', 'B.');
    const different = merge(base, paragraphs('A.', 'Mine.', 'B.'), paragraphs('A.', 'Theirs.', 'B.'));
    assert.equal(different.conflicts, 1);
    assert.equal(acceptAll(different.text, 'both'), paragraphs('A.', 'Mine.', 'Theirs.', 'B.'));
    const same = merge(base, paragraphs('A.', 'New.', 'B.', 'Mine.'), paragraphs('A.', 'New.', 'B.'));
    assert.equal(same.text, paragraphs('A.', 'New.', 'B.', 'Mine.'));
    assert.equal(same.conflicts, 0);
  });

  test('handles empty texts', () => {
    assert.equal(merge('', '', '').text, '');
    assert.equal(merge('', 'Mine.\n', '').text, 'Mine.\n');
    assert.equal(merge('Gone.\n', '', 'Gone.\n').text, '');
    const both = merge('', 'Mine.', 'Theirs.');
    assert.equal(both.conflicts, 1);
    assert.equal(acceptAll(both.text, 'ours').trim(), 'Mine.');
  });

  test('returns one side unchanged when the other did not change, or both changed alike', () => {
    const base = paragraphs('A.', 'B.');
    const changed = 'A.\n\n\n\nB!\n';
    assert.equal(merge(base, base, changed).text, changed);
    assert.equal(merge(base, changed, base).text, changed);
    assert.equal(merge(base, changed, changed).text, changed);
    assert.equal(merge(changed, changed, changed).text, changed);
  });

  test('keeps CRLF line ends, and writes its markers and blank lines with them', () => {
    const crlf = (text: string) => text.replace(/\n/g, '\r\n');
    const base = crlf(paragraphs('A.', 'B.', 'C.'));
    const clean = merge(base, crlf(paragraphs('A!', 'B.', 'C.')), crlf(paragraphs('A.', 'B.', 'C!')));
    assert.equal(clean.text, crlf(paragraphs('A!', 'B.', 'C!')));
    const conflicted = merge(base, crlf(paragraphs('A.', 'B, mine.', 'C.')), crlf(paragraphs('A.', 'B, theirs.', 'C.')));
    assert.equal(conflicted.text, crlf(['A.', '', '<<<<<<< Yours', 'B, mine.', '', '=======', 'B, theirs.', '', '>>>>>>> PostHog (version 7 by Ann Lee)', 'C.', ''].join('\n')));
  });

  test('ends a CRLF text without a final newline with no line end after a closing marker', () => {
    const outcome = merge('A.\r\n\r\nB.', 'A.\r\n\r\nB, mine.', 'A.\r\n\r\nB, theirs.');
    assert.ok(outcome.text.endsWith('\n>>>>>>> PostHog (version 7 by Ann Lee)'));
    assert.equal(acceptAll(outcome.text, 'ours'), 'A.\r\n\r\nB, mine.');
  });

  test('keeps whether the text ends with a newline', () => {
    assert.equal(merge('A.\n\nB.', 'A!\n\nB.', 'A.\n\nB!').text, 'A!\n\nB!');
    assert.equal(merge('A.\n\nB.', 'A!\n\nB.\n', 'A.\n\nB!').text, 'A!\n\nB!\n');
  });

  test('keeps the blank lines each block had after it', () => {
    assert.equal(merge('A.\n\n\n\nB.\n\nC.\n', 'A!\n\n\n\nB.\n\nC.\n', 'A.\n\n\n\nB.\n\nC!\n').text, 'A!\n\n\n\nB.\n\nC!\n');
  });

  test('treats a fenced code block with blank lines inside as one block', () => {
    const fence = (body: string) => ['```sql', ...body.split('|'), '```'].join('\n');
    const base = paragraphs('Intro.', fence('select 1||from t'), 'Outro.');
    const clean = merge(base, paragraphs('Intro.', fence('select 2||from t'), 'Outro.'), paragraphs('Intro.', fence('select 1||from t'), 'Outro!'));
    assert.equal(clean.text, paragraphs('Intro.', fence('select 2||from t'), 'Outro!'));
    const lineByLine = merge(base, paragraphs('Intro.', fence('select 2||from t'), 'Outro.'), paragraphs('Intro.', fence('select 1||from u'), 'Outro.'));
    assert.equal(lineByLine.text, paragraphs('Intro.', fence('select 2||from u'), 'Outro.'));
    const conflicted = merge(base, paragraphs('Intro.', fence('select 2||from t'), 'Outro.'), paragraphs('Intro.', fence('select 3||from t'), 'Outro.'));
    assert.equal(conflicted.conflicts, 1);
    assert.equal(acceptAll(conflicted.text, 'ours'), paragraphs('Intro.', fence('select 2||from t'), 'Outro.'));
  });

  test('keeps a tag spanning several lines within its block', () => {
    const query = (kind: string) => `<Query\n  query={{"kind": "${kind}"}}\n/>`;
    const base = paragraphs('Intro.', query('TrendsQuery'), 'Outro.');
    const outcome = merge(base, paragraphs('Intro.', query('FunnelsQuery'), 'Outro.'), paragraphs('Intro.', query('RetentionQuery'), 'Outro.'));
    assert.equal(outcome.conflicts, 1);
    assert.equal(acceptAll(outcome.text, 'theirs'), paragraphs('Intro.', query('RetentionQuery'), 'Outro.'));
  });

  test('merges a 20,000-block text with edits spread on both sides', () => {
    const blocks = Array.from({ length: 20_000 }, (_, index) => (index % 3 === 0 ? '---' : `Paragraph ${index % 40}.`));
    const edit = (changes: Record<number, string>) => paragraphs(...blocks.map((block, index) => changes[index] ?? block));
    const outcome = merge(paragraphs(...blocks), edit({ 10: 'Mine.', 12_000: 'Mine too.' }), edit({ 5_000: 'Theirs.', 19_990: 'Theirs too.' }));
    assert.equal(outcome.conflicts, 0);
    assert.equal(outcome.text, edit({ 10: 'Mine.', 12_000: 'Mine too.', 5_000: 'Theirs.', 19_990: 'Theirs too.' }));
  });
});
