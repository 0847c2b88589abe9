import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sameJson } from '../../../../src/notebooks/model/notebookDocument';
import { docToMarkdown, markdownToDoc } from '../../../../src/notebooks/markdown';
import { readPostHogMarkdown, toPostHogMarkdown } from '../../../../src/notebooks/markdown';
import { sameWithDefaults } from '../../../../src/notebooks/markdown/toMarkdown';
import { makeNotebookContent, sampleNotebooks } from '../../../api-server/notebook-samples';
import { Rng } from '../../../api-server/random';
import { CORPUS, EXPECTED_MARKDOWN } from './corpus';

function assertRoundTrips(doc: unknown): string {
  const { markdown, losses } = docToMarkdown(doc);
  assert.deepEqual(losses, [], markdown);
  const back = markdownToDoc(markdown);
  assert.deepEqual(back.problems, []);
  // TipTap's default attrs are left out of tags and restored on reading (the editor adds them on load anyway).
  assert.ok(sameWithDefaults(back.doc, doc), `PM -> MD -> PM differs:\n${markdown}\n${JSON.stringify(back.doc)}`);
  assert.equal(docToMarkdown(back.doc).markdown, markdown, 'MD -> PM -> MD differs');
  return markdown;
}

describe('converter corpus', () => {
  for (const notebook of CORPUS) {
    test(notebook.name, () => {
      if (!notebook.losses) {
        const markdown = assertRoundTrips(notebook.doc);
        if (EXPECTED_MARKDOWN[notebook.name] !== undefined) {
          assert.equal(markdown, EXPECTED_MARKDOWN[notebook.name]);
        }
        return;
      }
      const { markdown, losses } = docToMarkdown(notebook.doc);
      assert.deepEqual(
        losses.map((loss) => loss.severity),
        notebook.losses.map(() => 'error'),
        losses.map((loss) => loss.message).join('\n'),
      );
      notebook.losses.forEach((expected, index) => assert.match(losses[index]!.message, new RegExp(escapeRegExp(expected), 'i')));
      // Kept exactly through the base, even with its losses.
      assert.ok(sameJson(markdownToDoc(markdown, notebook.doc).doc, notebook.doc));
    });
  }

  test('every corpus notebook is found in the expected Markdown table or checked by round trip only', () => {
    for (const name of Object.keys(EXPECTED_MARKDOWN)) {
      assert.ok(CORPUS.some((notebook) => notebook.name === name), name);
    }
  });

  test('as Markdown notebooks, the corpus is what toPostHogMarkdown writes, and PostHog reads it without an error', () => {
    for (const notebook of CORPUS) {
      const { markdown } = docToMarkdown(notebook.doc, { forMarkdownNotebook: true });
      assert.equal(markdown, `${toPostHogMarkdown(notebook.doc).markdown}\n`, notebook.name);
      assert.deepEqual(readPostHogMarkdown(markdown).errors, [], notebook.name);
    }
  });

  test('the legacy notebooks the local API seeds', () => {
    const rng = new Rng(13);
    const docs = [...sampleNotebooks(rng).map((sample) => sample.content), ...[0, 1, 2, 3].map((index) => makeNotebookContent(rng, `Bulk ${index}`, index))];
    for (const doc of docs) {
      assertRoundTrips(doc);
    }
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
