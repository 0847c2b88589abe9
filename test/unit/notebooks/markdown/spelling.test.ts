import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { docToMarkdownSpelledAs, docToMarkdownText, markdownToDoc } from '../../../../src/notebooks/markdown';

describe('a document written in the spelling of a text', () => {
  test('blocks that read back as the same node keep the text\'s spelling; changed ones are the dialect\'s own', () => {
    const spelled = '#   Spaced title\n\n_em_ and __strong__\n\n* one\n+ two\n\n1) a\n\nOld paragraph.\n';
    const doc = markdownToDoc(spelled.replace('Old paragraph.', 'New _paragraph_.')).doc;
    assert.equal(docToMarkdownSpelledAs(doc, spelled), '#   Spaced title\n\n_em_ and __strong__\n\n* one\n+ two\n\n1) a\n\nNew *paragraph*.\n');
  });

  test('a block the document holds twice takes the text\'s spellings in order, then the dialect\'s', () => {
    const spelled = '_a_\n\n*a*\n';
    const doc = { type: 'doc', content: [...markdownToDoc(spelled).doc.content, ...markdownToDoc('_a_').doc.content] };
    assert.equal(docToMarkdownSpelledAs(doc, spelled), '_a_\n\n*a*\n\n*a*\n');
  });

  test('the dialect\'s own text comes back as it is', () => {
    const doc = markdownToDoc('# Title\n\n- item\n').doc;
    assert.equal(docToMarkdownSpelledAs(doc, docToMarkdownText(doc)), docToMarkdownText(doc));
    assert.equal(docToMarkdownSpelledAs(doc, ''), docToMarkdownText(doc));
  });
});
