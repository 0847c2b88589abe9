import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  NotebookDocumentError,
  parseNotebookDocument,
  serializeNotebook,
  textContentOf,
} from '../../../../src/notebooks/model/notebookDocument';
import { notebook } from '../fixtures';

function problems(text: string): string {
  try {
    parseNotebookDocument(text);
  } catch (error) {
    assert.ok(error instanceof NotebookDocumentError, String(error));
    return error.message;
  }
  assert.fail('expected the document to be refused');
}

describe('notebook document', () => {
  test('is pretty-printed with the read-only block first and keys in a fixed order', () => {
    const text = serializeNotebook(notebook());
    const document = JSON.parse(text);
    assert.deepEqual(Object.keys(document), ['_readonly', 'title', 'content', 'text_content']);
    assert.deepEqual(Object.keys(document._readonly), ['about', 'short_id', 'version', 'created_at', 'created_by', 'last_modified_at', 'last_modified_by']);
    assert.equal(document._readonly.version, 3);
    assert.equal(document._readonly.last_modified_by, 'Ann Lee <ann@example.com>');
    assert.match(document._readonly.about, /Read-only/);
    assert.deepEqual(Object.keys(document.content), ['type', 'content']);
    assert.deepEqual(Object.keys(document.content.content[0]), ['type', 'attrs', 'content']);
    assert.ok(text.startsWith('{\n  "_readonly": {\n'));
    assert.ok(text.endsWith('}\n'));
  });

  test('the same notebook always gives the same text, whatever order the server sent', () => {
    const reverseKeys = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reverseKeys)
        : value && typeof value === 'object'
          ? Object.fromEntries(Object.entries(value).reverse().map(([key, inner]) => [key, reverseKeys(inner)]))
          : value;
    const reordered = notebook({ content: reverseKeys(notebook().content) });
    assert.notDeepEqual(Object.keys(reordered.content as object), Object.keys(notebook().content as object));
    assert.equal(serializeNotebook(reordered), serializeNotebook(notebook()));
  });

  test('a notebook without content shows an empty document', () => {
    const document = JSON.parse(serializeNotebook(notebook({ content: null, text_content: null, title: null })));
    assert.deepEqual(document.content, { type: 'doc', content: [] });
    assert.equal(document.title, null);
  });

  test('reads the editable fields back', () => {
    const parsed = parseNotebookDocument(serializeNotebook(notebook()));
    assert.equal(parsed.editable.title, 'Weekly review');
    assert.equal(parsed.readonly?.['version'], 3);
    assert.equal(parsed.hasTextContent, true);
  });

  test('invalid JSON is refused with its line and column', () => {
    const text = serializeNotebook(notebook()).replace('"title": "Weekly review",', '"title": "Weekly review"');
    const line = text.split('\n').findIndex((l) => l.includes('"content": {')) + 1;
    assert.match(problems(text), new RegExp(`^Not saved: Line ${line}, column 3: invalid JSON: expected "," or "}"`));
  });

  test('wrong types are refused with the field and its line', () => {
    const text = serializeNotebook(notebook()).replace('"title": "Weekly review"', '"title": 42');
    const line = text.split('\n').findIndex((l) => l.includes('"title": 42')) + 1;
    assert.match(problems(text), new RegExp(`Line ${line}, column 12: title must be a string or null, not a number`));
    const badNode = serializeNotebook(notebook()).replace('"type": "paragraph"', '"type": 7');
    assert.match(problems(badNode), /content\.content\[1\]\.type must be a node type/);
    const badText = serializeNotebook(notebook()).replace('"text": "Signups are up "', '"text": ""');
    assert.match(problems(badText), /content\.content\[1\]\.content\[0\] is a text node and needs a non-empty "text"/);
    assert.match(problems(serializeNotebook(notebook()).replace('"type": "doc"', '"type": "page"')), /content\.type must be "doc"/);
    assert.match(problems(serializeNotebook(notebook()).replace('"text_content": "', '"text_content": ["').replace(/"\n}\n$/, '"]\n}\n')), /text_content must be a string or null, not a list/);
  });

  test('unknown fields are refused where they are written', () => {
    const text = serializeNotebook(notebook()).replace('"title":', '"subtitle": "x",\n  "title":');
    const line = text.split('\n').findIndex((l) => l.includes('"subtitle"')) + 1;
    assert.match(problems(text), new RegExp(`Line ${line}, column 3: unknown field "subtitle"`));
  });

  test('lists several problems at once', () => {
    const text = serializeNotebook(notebook()).replace('"title": "Weekly review"', '"title": 1, "extra": 2');
    assert.match(problems(text), /^Not saved \(2 problems\)/);
  });

  test('text_content is the text of the blocks, blank lines between, PostHog nodes left out', () => {
    assert.equal(textContentOf(notebook().content), 'Weekly review\n\nSignups are up 12%');
    assert.equal(
      textContentOf({
        type: 'doc',
        content: [
          { type: 'bulletList', content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'one' }] }] }] },
          { type: 'paragraph', content: [{ type: 'text', text: 'a' }, { type: 'hardBreak' }, { type: 'text', text: 'b' }] },
          { type: 'ph-query', attrs: { query: {} } },
          { type: 'paragraph' },
        ],
      }),
      'one\n\na\nb\n\n',
    );
  });

  test('a member named __proto__ is kept, in the document and in what a save sends', () => {
    const content = JSON.parse('{"type":"doc","content":[{"type":"ph-query","attrs":{"__proto__":{"kind":"x"},"id":1}}]}');
    const text = serializeNotebook(notebook({ content }));
    assert.match(text, /"__proto__": \{\n\s+"kind": "x"/);
    const parsed = parseNotebookDocument(text);
    const attrs = (parsed.editable.content as { content: { attrs: object }[] }).content[0]!.attrs;
    assert.deepEqual(Object.keys(attrs), ['__proto__', 'id']);
    assert.equal(Object.getPrototypeOf(attrs), Object.prototype, 'a member, not the prototype');
  });
});
