import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { docToMarkdown, markdownToDoc } from '../../../../src/notebooks/markdown';
import { sameWithDefaults } from '../../../../src/notebooks/markdown/toMarkdown';
import { anyDocument } from './corpusArbitraries';
import { paragraph as p } from '../../../api-server/content';

const item = (...content: unknown[]) => ({ type: 'listItem', content });
const bullets = (...items: unknown[]) => ({ type: 'bulletList', content: items });
const doc = (...content: unknown[]) => ({ type: 'doc', content });

function roundTrips(document: unknown): string {
  const { markdown, losses } = docToMarkdown(document);
  assert.deepEqual(losses, [], markdown);
  const back = markdownToDoc(markdown);
  assert.deepEqual(back.problems, []);
  assert.ok(sameWithDefaults(back.doc, document), `${markdown}\n${JSON.stringify(back.doc)}`);
  assert.equal(docToMarkdown(back.doc).markdown, markdown);
  return markdown;
}

describe("a legacy notebook's list items holding more than PostHog's one line", () => {
  test("their other blocks are indented under the item after a blank line, and the next item follows them directly", () => {
    const code = { type: 'codeBlock', attrs: { language: 'sql' }, content: [{ type: 'text', text: 'select 1\n\n  from t' }] };
    const markdown = roundTrips(doc(bullets(item(p('Steps'), p('Then this.'), code, bullets(item(p('nested')))), item(p('Next'))), p('After.')));
    assert.equal(markdown, '- Steps\n\n  Then this.\n\n  ```sql\n  select 1\n\n    from t\n  ```\n\n  - nested\n- Next\n\nAfter.\n');
  });

  test('nested items with blocks of their own, tasks, numbers from their start, and lists of one kind in a row', () => {
    const nested = { type: 'orderedList', attrs: { start: 3 }, content: [item(p('three'), p('more about three')), item(p('four'))] };
    const tasks = { type: 'taskList', content: [{ type: 'taskItem', attrs: { checked: true }, content: [p('done'), { type: 'horizontalRule' }] }] };
    roundTrips(doc(bullets(item(p('a'), nested), item(p('b'), bullets(item(p('x'))), bullets(item(p('y'))))), tasks));
  });

  test('in a quote, and before a paragraph that starts with spaces (escaped, so it is not taken under the item)', () => {
    const list = bullets(item(p('a'), p('second')));
    assert.match(roundTrips(doc({ type: 'blockquote', content: [list, p('  quoted')] })), /^> - a\n>\n> {3}second\n> \\ {2}quoted\n$/);
    assert.match(roundTrips(doc(list, p('  spaced'))), /\n\n\\ {2}spaced\n$/);
  });

  test('text indented under an item after a blank line belongs to it, as typed', () => {
    assert.deepEqual(markdownToDoc('- a\n\n  more\n- b').doc, doc(bullets(item(p('a'), p('more')), item(p('b')))));
    assert.deepEqual(markdownToDoc('- a\n\n  more\n\n- b').doc, doc(bullets(item(p('a'), p('more'))), bullets(item(p('b')))), 'a blank line before the next item ends the list');
    assert.deepEqual(markdownToDoc('- a\n  more').doc.content.length, 2, 'without a blank line it is a paragraph of its own, as PostHog reads it');
  });

  test('no list whose items start with a paragraph is written as an <UnknownNode> any more (property)', () => {
    fc.assert(
      fc.property(anyDocument, (document) => {
        const { markdown } = docToMarkdown(document);
        assert.doesNotMatch(markdown, /<UnknownNode nodeType="(bulletList|orderedList|taskList)"/, markdown);
      }),
      { numRuns: 300 },
    );
  });
});
