import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readPostHogMarkdown } from '../../../../src/notebooks/markdown';
import { mergeMarkdown } from '../../../../src/notebooks/merge/markdownMerge';
import { LABELS } from './resolve';

const reply = (id: string, text: string) => ({ id, text, author: id === 'r1' ? 'Lee' : 'Priya', at: '2025-01-02T03:04:05Z' });
const thread = (...replies: unknown[]) => `<Comment ref="c1" replies={${JSON.stringify(replies)}} />`;
const notebook = (comment: string) => `# Review\n\n${comment}\n\n<ref id="c1">The captcha fails</ref> on mobile.\n`;
const merge = (base: string, ours: string, theirs: string) => mergeMarkdown(notebook(base), notebook(ours), notebook(theirs), LABELS);

function repliesOf(text: string): unknown {
  const comment = readPostHogMarkdown(text).nodes.find((node) => node.type === 'component' && node.tagName === 'Comment');
  return comment?.type === 'component' ? comment.props.replies : undefined;
}

describe('Markdown merge: comment threads', () => {
  test('two people replying to the same thread keep both replies, PostHog\'s first, without conflict markers', () => {
    const outcome = merge(thread(reply('r1', 'Is this mobile only?')), thread(reply('r1', 'Is this mobile only?'), reply('r2', 'Mostly.')), thread(reply('r1', 'Is this mobile only?'), reply('r3', 'Safari only.')));
    assert.equal(outcome.conflicts, 0);
    assert.deepEqual(repliesOf(outcome.text), [reply('r1', 'Is this mobile only?'), reply('r3', 'Safari only.'), reply('r2', 'Mostly.')]);
    assert.deepEqual(outcome.changes, ["united both sides' replies to the comment thread at line 3"]);
    assert.equal(readPostHogMarkdown(outcome.text).errors.length, 0);
  });

  test('a reply deleted on one side is gone, an edit on one side is kept', () => {
    const base = thread(reply('r1', 'One'), reply('r2', 'Two'));
    const outcome = merge(base, thread(reply('r2', 'Two')), thread(reply('r1', 'One'), reply('r2', 'Two, edited'), reply('r3', 'Three')));
    assert.equal(outcome.conflicts, 0);
    assert.deepEqual(repliesOf(outcome.text), [reply('r2', 'Two, edited'), reply('r3', 'Three')]);
  });

  test('a reply both sides changed differently, or another thread, stays a conflict', () => {
    const base = thread(reply('r1', 'One'));
    assert.equal(merge(base, thread(reply('r1', 'Mine')), thread(reply('r1', 'Theirs'))).conflicts, 1);
    const other = '<Comment ref="c2" replies={[]} />';
    assert.equal(merge(base, thread(reply('r1', 'One'), reply('r2', 'Two')), other).conflicts, 1);
  });
});
