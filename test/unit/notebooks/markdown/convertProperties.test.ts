import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { sameJson } from '../../../../src/notebooks/notebookDocument';
import { docToMarkdown, markdownToDoc } from '../../../../src/notebooks/markdown';
import { asMarkdownNotebookHoldsIt, writeDocBlocks } from '../../../../src/notebooks/markdown/toMarkdown';
import { anyDocument, ordinaryDocument } from './corpusArbitraries';

function assertExactRoundTrips(doc: unknown, markdown: string): void {
  const back = markdownToDoc(markdown);
  assert.deepEqual(back.problems, [], markdown);
  assert.ok(sameJson(back.doc, doc), `PM -> MD -> PM differs for:\n${markdown}\n${JSON.stringify(back.doc)}\n${JSON.stringify(doc)}`);
  assert.equal(docToMarkdown(back.doc).markdown, markdown);
}

const TYPED_PIECES = ['a', 'b', ' ', '  ', '\n', '\n\n', '*', '_', '`', '[', ']', '(', ')', '#', '>', '-', '+', '1.', '2)', '|', '~', '<', '!', '\\', '&amp;', '<u>', '</u>', '<br>', '<p></p>', '[ ] ', '[x] ', '---', '```', '    ', '\t', '=', 'é', '😀', 'http://x.y', '<Query query={{"kind":"X"}} />', '<ReplayTimestamp playbackTime={1} sessionRecordingId="s" />'];
const typedMarkdown = fc.array(fc.constantFrom(...TYPED_PIECES), { maxLength: 30 }).map((pieces) => pieces.join(''));

describe('converter properties', () => {
  test('every document either converts exactly, or names a loss at each block that does not', () => {
    fc.assert(
      fc.property(anyDocument, (doc) => {
        const { markdown, losses } = docToMarkdown(doc);
        if (losses.length === 0) {
          assertExactRoundTrips(doc, markdown);
          return;
        }
        // The blocks without a loss, on their own, convert exactly: no difference hides outside a loss.
        const clean = writeDocBlocks(doc).blocks.filter((block) => block.losses.length === 0).map((block) => block.node);
        const cleanDoc = { type: 'doc', content: clean };
        const cleanConversion = docToMarkdown(cleanDoc);
        assert.deepEqual(cleanConversion.losses, []);
        assertExactRoundTrips(cleanDoc, cleanConversion.markdown);
      }),
      { numRuns: 400 },
    );
  });

  test('ordinary documents (words, marks on words, lists, tables, code, tags) always convert without loss', () => {
    fc.assert(
      fc.property(ordinaryDocument, (doc) => {
        const { markdown, losses } = docToMarkdown(doc);
        assert.deepEqual(losses, [], markdown);
        assertExactRoundTrips(doc, markdown);
      }),
      { numRuns: 400 },
    );
  });

  test('as Markdown notebooks, ordinary documents read back as a Markdown notebook holds them, without a backslash break or an entity', () => {
    fc.assert(
      fc.property(ordinaryDocument, (doc) => {
        const { markdown, losses } = docToMarkdown(doc, { forMarkdownNotebook: true });
        assert.deepEqual(losses, [], markdown);
        assert.ok(sameJson(markdownToDoc(markdown).doc, asMarkdownNotebookHoldsIt(doc)), markdown);
        assert.doesNotMatch(markdown, /\\\n|&#32;/, 'PostHog\'s reader would show these as written');
      }),
      { numRuns: 400 },
    );
  });

  test('as Markdown notebooks, any document without a named loss reads back as a Markdown notebook holds it (marks starting or ending with a space included)', () => {
    fc.assert(
      fc.property(anyDocument, (doc) => {
        const { markdown, losses } = docToMarkdown(doc, { forMarkdownNotebook: true });
        if (losses.length === 0) {
          assert.ok(sameJson(markdownToDoc(markdown).doc, asMarkdownNotebookHoldsIt(doc)), markdown);
        }
      }),
      { numRuns: 400 },
    );
  });

  test('whatever Markdown reads without an error converts back, without loss, to Markdown that reads the same', () => {
    fc.assert(
      fc.property(typedMarkdown, (typed) => {
        const { doc, problems } = markdownToDoc(typed);
        if (problems.some((problem) => problem.severity === 'error')) {
          return;
        }
        const { markdown, losses } = docToMarkdown(doc);
        assert.deepEqual(losses, [], JSON.stringify(typed));
        assertExactRoundTrips(doc, markdown);
      }),
      { numRuns: 1000 },
    );
  });
});
