import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { NotebookListItem } from '../../../../src/api';
import { mergeMatches, prefixMatches, titleMatchesPrefixes, wordsOf } from '../../../../src/notebooks/lists/notebookSearch';

function item(shortId: string, title: string | null): NotebookListItem {
  return {
    id: `id-${shortId}`,
    short_id: shortId,
    title,
    created_at: '2026-11-01T00:00:00Z',
    created_by: null,
    last_modified_at: '2026-11-02T00:00:00Z',
    last_modified_by: null,
  };
}

const loaded = [
  item('aaaaaaa1', 'Signup drop-off'),
  item('aaaaaaa2', 'Weekly product review'),
  item('aaaaaaa3', 'Design signals'),
  item('aaaaaaa4', 'Café opening — Zürich'),
  item('aaaaaaa5', null),
  item('aaaaaaa6', 'Q3 2026 OKRs'),
];

describe('Open Notebook: matching title prefixes among loaded notebooks', () => {
  test('"sig" finds "Signup drop-off" (PostHog\'s whole-word search does not)', () => {
    assert.ok(titleMatchesPrefixes('Signup drop-off', 'sig'));
    assert.deepEqual(prefixMatches(loaded, 'sig').map((notebook) => notebook.title), ['Signup drop-off', 'Design signals']);
  });

  test('every typed word must start a word of the title, in any order and case', () => {
    assert.ok(titleMatchesPrefixes('Signup drop-off', 'DROP sig'));
    assert.ok(titleMatchesPrefixes('Signup drop-off', 'off'));
    assert.ok(!titleMatchesPrefixes('Signup drop-off', 'sig review'));
    assert.ok(!titleMatchesPrefixes('Signup drop-off', 'gnup'), 'a prefix, not any substring');
    assert.deepEqual(prefixMatches(loaded, 'wee rev').map((notebook) => notebook.short_id), ['aaaaaaa2']);
  });

  test('accents, punctuation and digits', () => {
    assert.deepEqual(wordsOf('Café opening — Zürich'), ['cafe', 'opening', 'zurich']);
    assert.deepEqual(prefixMatches(loaded, 'zur caf').map((notebook) => notebook.short_id), ['aaaaaaa4']);
    assert.deepEqual(prefixMatches(loaded, 'Zü').map((notebook) => notebook.short_id), ['aaaaaaa4']);
    assert.deepEqual(prefixMatches(loaded, 'q3 20').map((notebook) => notebook.short_id), ['aaaaaaa6']);
  });

  test('an empty query or one of punctuation only matches nothing; an untitled notebook matches nothing', () => {
    assert.deepEqual(prefixMatches(loaded, ''), []);
    assert.deepEqual(prefixMatches(loaded, ' - '), []);
    assert.ok(!titleMatchesPrefixes(null, 'untitled'));
  });

  test('title-prefix matches come first, then the server\'s whole-word matches, each notebook once', () => {
    const local = prefixMatches(loaded, 'sig');
    const server = [item('bbbbbbb1', 'Pricing notes'), item('aaaaaaa1', 'Signup drop-off')];
    assert.deepEqual(mergeMatches(local, server).map((notebook) => notebook.short_id), ['aaaaaaa1', 'aaaaaaa3', 'bbbbbbb1']);
    assert.deepEqual(mergeMatches([], server), server);
  });
});
