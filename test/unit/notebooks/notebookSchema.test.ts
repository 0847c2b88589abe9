import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { EDITABLE_FIELDS, READONLY_KEY, readonlyOf } from '../../../src/notebooks/notebookDocument';
import { notebook } from './fixtures';

const root = path.resolve(__dirname, '../../../..');
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

  test('package.json applies it to posthog: notebook files, and the .vsix ships it', () => {
    const entry = manifest.contributes.jsonValidation.find((item: { url: string }) => item.url === './media/schemas/notebook.schema.json');
    assert.deepEqual(entry?.fileMatch, ['posthog://*/*/notebooks/*.json']);
    assert.ok(manifest.activationEvents.includes('onFileSystem:posthog'));
    assert.match(readFileSync(path.join(root, '.vscodeignore'), 'utf8'), /^!media\/(\*\*|schemas\/\*\*)$/m);
  });
});
