import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  authorOf,
  MAX_CARETS,
  RemoteCarets,
  cursorAtOffset,
  headAtOffset,
  headOfNode,
  nodeOfHead,
  offsetOfCursor,
  offsetOfHead,
  textPasses,
} from '../../../../src/notebooks/session/remoteCarets';

const TEXT = ['# Plan', 'Intro line one', 'intro line two', '', '## Steps', '', '- [ ] first', '- second', '', '```sql', 'select 1', '', 'from x', '```', ''].join('\n');

describe('carets between PostHog and an editor\'s text', () => {
  test('a Markdown notebook\'s (node, offset) lands in its block, markers skipped, and comes back the same', () => {
    const cases: [{ node_index: number; offset?: number; list_item_index?: number }, string][] = [
      [{ node_index: 0, offset: 2 }, '# Pl'],
      [{ node_index: 1, offset: 3 }, '# Plan\nInt'],
      [{ node_index: 1, offset: 18 }, '# Plan\nIntro line one\nint'],
      [{ node_index: 2, offset: 0 }, '# Plan\nIntro line one\nintro line two\n\n## '],
      [{ node_index: 3, offset: 2, list_item_index: 1 }, '# Plan\nIntro line one\nintro line two\n\n## Steps\n\n- [ ] first\n- se'],
      [{ node_index: 4, offset: 3 }, '# Plan\nIntro line one\nintro line two\n\n## Steps\n\n- [ ] first\n- second\n\n```'],
    ];
    for (const [cursor, before] of cases) {
      assert.equal(offsetOfCursor(TEXT, cursor), before.length, JSON.stringify(cursor));
      assert.deepEqual(cursorAtOffset(TEXT, before.length), cursor.list_item_index === undefined ? cursor : { ...cursor }, before);
    }
  });

  test('a caret past its block or the text is clamped, never lost', () => {
    assert.equal(offsetOfCursor(TEXT, { node_index: 0, offset: 999 }), '# Plan'.length);
    assert.equal(offsetOfCursor(TEXT, { node_index: 99 }), TEXT.indexOf('```'));
    assert.equal(offsetOfCursor('', { node_index: 0 }), undefined);
  });

  test('a legacy notebook\'s ProseMirror position counts into its top-level nodes', () => {
    const doc = {
      type: 'doc',
      content: [
        { type: 'heading', content: [{ type: 'text', text: 'Plan' }] },
        { type: 'paragraph', content: [{ type: 'text', text: 'Hello ' }, { type: 'text', text: 'world', marks: [{ type: 'bold' }] }] },
        { type: 'ph-recording', attrs: { id: 'x' } },
        { type: 'paragraph' },
      ],
    };
    assert.deepEqual(nodeOfHead(doc, 1), { index: 0, offset: 0 });
    assert.deepEqual(nodeOfHead(doc, 9), { index: 1, offset: 2 });
    assert.deepEqual(nodeOfHead(doc, 19), { index: 2, offset: 0 });
    assert.deepEqual(nodeOfHead(doc, 20), { index: 3, offset: 0 });
    assert.equal(headOfNode(doc, 1, 2), 9);
    const markdown = '# Plan\n\nHello **world**\n';
    assert.equal(offsetOfHead(markdown, doc, 9), '# Plan\n\nHe'.length);
    assert.deepEqual(headAtOffset(markdown, doc, '# Plan\n\nHe'.length), { head: 9 });
  });

  test('authors: a person by name (one safe line), PostHog\'s agent by its client id', () => {
    assert.deepEqual(authorOf('tab-1', 'Lee\nChen'), { name: 'Lee Chen', agent: false });
    assert.deepEqual(authorOf('notebook-agent:ai', 'Ana'), { name: 'PostHog AI (for Ana)', agent: true });
    assert.deepEqual(authorOf('notebook-agent:writer', undefined), { name: 'agent writer', agent: true });
    assert.equal(authorOf(undefined, undefined), undefined);
  });

  test('carets are kept per client, at most MAX_CARETS of them (the oldest go), each for a minute', () => {
    const carets = new RemoteCarets();
    for (let index = 0; index < MAX_CARETS + 10; index++) {
      carets.update({ clientId: `c${index}`, author: { name: `N${index}`, agent: false }, cursor: { node_index: 0 }, at: 1000 + index });
    }
    const { carets: kept } = carets.current(1000 + MAX_CARETS);
    assert.equal(kept.length, MAX_CARETS);
    assert.equal(kept[0]!.clientId, 'c10');
    assert.equal(carets.update({ clientId: 'c10', author: { name: 'N10', agent: false }, cursor: { node_index: 0 }, at: 2000 }), false, 'the same caret again: nothing to show anew');
    assert.deepEqual(carets.current(2000 + 60_001).carets, [], 'gone a minute after their last ping');
  });
});

describe('carets of many collaborators on a big text', () => {
  test('every caret of a repaint maps through one pass over the text, and a repaint of the same text through none', () => {
    const text = `${TEXT}\n${'A paragraph of the notebook.\n\n'.repeat(20_000)}`;
    const before = textPasses();
    const offsets = Array.from({ length: 50 }, (_, index) => offsetOfCursor(text, { node_index: index * 300, offset: 3 }));
    assert.equal(textPasses() - before, 1, 'one pass for 50 carets');
    assert.ok(offsets.every((offset) => offset !== undefined));
    offsetOfCursor(text, { node_index: 7 });
    cursorAtOffset(text, 1000);
    assert.equal(textPasses() - before, 1, 'the same text again: no pass');
    offsetOfCursor(`${text}x`, { node_index: 7 });
    assert.equal(textPasses() - before, 2, 'another text: one pass');
  });
});
