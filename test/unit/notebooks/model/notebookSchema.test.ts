import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { EDITABLE_FIELDS, MARKDOWN_NODE, parseNotebookDocument, READONLY_KEY, readonlyOf, serializeNotebook } from '../../../../src/notebooks/model/notebookDocument';
import { notebook } from '../fixtures';

const root = path.resolve(__dirname, '../../../../..');
const schema = JSON.parse(readFileSync(path.join(root, 'media/schemas/notebook.schema.json'), 'utf8'));
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

describe('notebook JSON schema', () => {
  test('describes exactly the document fields, the read-only block marked read-only', () => {
    assert.deepEqual(Object.keys(schema.properties).sort(), [READONLY_KEY, ...EDITABLE_FIELDS].sort());
    assert.equal(schema.additionalProperties, false);
    assert.equal(schema.properties[READONLY_KEY].readOnly, true);
    assert.deepEqual(Object.keys(schema.properties[READONLY_KEY].properties).sort(), Object.keys(readonlyOf(notebook())).sort());
  });

  test('offers the content node types, PostHog nodes included', () => {
    const types = schema.definitions.node.properties.type.anyOf[0].enum as string[];
    for (const type of ['paragraph', 'heading', 'text', 'bulletList', 'listItem', 'codeBlock', 'ph-query', 'ph-recording']) {
      assert.ok(types.includes(type), type);
    }
    assert.equal(schema.definitions.node.properties.type.anyOf[0].markdownEnumDescriptions.length, types.length);
  });

  test('describes Markdown notebooks as the document shows them: markdown as lines (or one string)', () => {
    const types = schema.definitions.node.properties.type.anyOf[0].enum as string[];
    assert.ok(types.includes(MARKDOWN_NODE));
    const rule = schema.definitions.node.allOf.find((entry: any) => entry.if?.properties?.type?.const === MARKDOWN_NODE);
    const markdown = rule?.then?.properties?.attrs?.properties?.markdown;
    assert.deepEqual(markdown?.anyOf, [{ type: 'array', items: { type: 'string' } }, { type: 'string' }]);
    const shown = JSON.parse(
      serializeNotebook(notebook({ content: { type: 'doc', content: [{ type: MARKDOWN_NODE, attrs: { nodeId: 'markdown-notebook-v2', markdown: '# A\n' } }] } })),
    );
    const lines = shown.content.content[0].attrs.markdown;
    assert.ok(Array.isArray(lines) && lines.every((line: unknown) => typeof line === 'string'), 'the document fits the schema');
    assert.ok(!('text_content' in shown));
    const snippet = schema.definitions.doc.defaultSnippets.find((entry: { label: string }) => entry.label === 'Markdown notebook');
    const filled = JSON.parse(JSON.stringify(snippet.body).replace(/\$\{1:Title\}/, 'Title').replace(/\$2/, 'Text'));
    const parsed = parseNotebookDocument(JSON.stringify({ title: 'Title', content: filled }));
    assert.deepEqual((parsed.editable.content as any).content[0].attrs.markdown, '# Title\n\nText', 'the snippet saves as Markdown');
  });

  test('package.json applies it to posthog: notebook files, and the .vsix ships it', () => {
    const entry = manifest.contributes.jsonValidation.find((item: { url: string }) => item.url === './media/schemas/notebook.schema.json');
    assert.deepEqual(entry?.fileMatch, ['posthog://*/*/notebooks/*.json']);
    assert.ok(manifest.activationEvents.includes('onFileSystem:posthog'));
    assert.match(readFileSync(path.join(root, '.vscodeignore'), 'utf8'), /^!media\/(\*\*|schemas\/\*\*)$/m);
  });
});
