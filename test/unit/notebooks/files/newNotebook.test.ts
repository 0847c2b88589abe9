import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { readPostHogMarkdown } from '../../../../src/notebooks/markdown';
import { markdownNotebookContent, newNotebookMarkdown } from '../../../../src/notebooks/files/newNotebook';
import { markdownOf } from '../../../../src/notebooks/model/notebookDocument';

describe('a new notebook', () => {
  test('is a Markdown notebook holding its title as a heading', () => {
    const content = markdownNotebookContent(newNotebookMarkdown('Weekly review'));
    assert.deepEqual(content, { type: 'doc', content: [{ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown: '# Weekly review' } }] });
    assert.equal(markdownOf(content), '# Weekly review');
  });

  test('PostHog reads the heading as the title typed, whatever Markdown characters it holds', () => {
    for (const title of ['1. Plan', '*Q3* [draft] <u>x</u> `code`', 'a_b _c_ ~~d~~ | e \\ f', '<Query /> & &amp;']) {
      assert.deepEqual(readPostHogMarkdown(newNotebookMarkdown(title)).nodes, [{ type: 'heading', level: 1, children: [{ type: 'text', text: title }] }], title);
    }
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', minLength: 1 }).filter((title) => title.trim() !== '' && ![...title].some((char) => char.charCodeAt(0) < 0x20)), (title) => {
        const expected = title.replace(/\s+/g, ' ').trim();
        assert.deepEqual(readPostHogMarkdown(newNotebookMarkdown(title)).nodes, [{ type: 'heading', level: 1, children: [{ type: 'text', text: expected }] }]);
      }),
      { numRuns: 500 },
    );
  });
});
