import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { copiedValue, nodeMatches, propertyPath } from '../../../src/webview/events/propertyTree';

describe('property tree', () => {
  test('paths use dots for identifiers and brackets for the rest', () => {
    assert.equal(propertyPath(['$browser']), 'properties.$browser');
    assert.equal(propertyPath(['$set', 'email']), 'properties.$set.email');
    assert.equal(propertyPath(['utm source', 'a"b']), 'properties["utm source"]["a\\"b"]');
    assert.equal(propertyPath(['list', 0, 'id']), 'properties.list[0].id');
  });

  test('values are copied as text: strings bare, the rest as JSON', () => {
    assert.equal(copiedValue('Chrome'), 'Chrome');
    assert.equal(copiedValue(12), '12');
    assert.equal(copiedValue(null), 'null');
    assert.equal(copiedValue({ a: 1 }), '{\n  "a": 1\n}');
  });

  test('search matches keys and leaf values in any case, not the text of whole objects', () => {
    assert.equal(nodeMatches('$browser', 'Chrome', 'chrome'), true);
    assert.equal(nodeMatches('$Browser', 'x', 'BROWSER'), true);
    assert.equal(nodeMatches('$set', { email: 'a@b' }, 'a@b'), false);
    assert.equal(nodeMatches('n', 42, '4'), true);
    assert.equal(nodeMatches('k', 'v', ''), true);
  });
});
