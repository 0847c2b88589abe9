import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { describePath, JsonSyntaxError, parseJsonWithLocations } from '../../../src/common/jsonWithLocations';

function syntaxError(text: string): JsonSyntaxError {
  try {
    parseJsonWithLocations(text);
  } catch (error) {
    assert.ok(error instanceof JsonSyntaxError);
    return error;
  }
  assert.fail('expected a syntax error');
}

describe('JSON with locations', () => {
  test('parses what JSON.parse parses', () => {
    const text = '{"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9"], "b": {}}';
    assert.deepEqual(parseJsonWithLocations(text).value, JSON.parse(text));
  });

  test('records where each value and key starts', () => {
    const parsed = parseJsonWithLocations('{\n  "title": "x",\n  "content": {\n    "content": [\n      {"type": 1}\n    ]\n  }\n}');
    assert.deepEqual(parsed.locate(['content', 'content', 0, 'type']), { line: 5, column: 16, offset: 65 });
    assert.deepEqual(parsed.locate([]), { line: 1, column: 1, offset: 0 });
    assert.equal(parsed.locateKey(['title'])?.line, 2);
    assert.equal(parsed.locateKey(['title'])?.column, 3);
    assert.equal(parsed.locate(['content', 'missing']), undefined);
    assert.equal(parsed.locate(['content', 'content', 3]), undefined);
  });

  test('finds values past strings with escaped quotes, nested lists and a byte order mark', () => {
    const text = '\ufeff{"a": "say \\"hi\\" [{", "b\\"c": [[1, {"x": "]"}], {"y": [2]}], "d": -1.5e2}';
    const parsed = parseJsonWithLocations(text);
    assert.deepEqual(parsed.value, JSON.parse(text.slice(1)));
    assert.equal(text.slice(parsed.locate(['b"c', 1, 'y', 0])!.offset)[0], '2');
    assert.equal(text.slice(parsed.locate(['d'])!.offset).slice(0, 6), '-1.5e2');
    assert.equal(text.slice(parsed.locateKey(['b"c'])!.offset).slice(0, 6), '"b\\"c"');
  });

  test('refuses duplicate keys deep inside a document', () => {
    const error = syntaxError('{"a": [{"b": {"c": 1, "c": 2}}]}');
    assert.match(error.reason, /duplicate property "c"/);
    assert.equal(error.location.column, 23);
  });

  test('parses any JSON value, and refuses what JSON.parse refuses', () => {
    for (const sample of ['{}', '[]', ' 3 ', '"s"', '{"a":[1,-2.5e3,true,false,null,"x\\"y\\u00e9"],"b":{"c":{}}}']) {
      assert.deepEqual(parseJsonWithLocations(sample).value, JSON.parse(sample));
    }
    for (const sample of ['', '{', '{"a":1,}', '[1,]', "{'a':1}", '{"a":01}', '{"a":tru}', '{"a":1} x', '{"a\n":1}']) {
      assert.throws(() => JSON.parse(sample));
      assert.throws(() => parseJsonWithLocations(sample), JsonSyntaxError, sample);
    }
  });

  test('says where a syntax error is', () => {
    const missingComma = syntaxError('{\n  "title": "x"\n  "content": {}\n}');
    assert.deepEqual([missingComma.location.line, missingComma.location.column], [3, 3]);
    assert.match(missingComma.message, /Line 3, column 3: expected "," or "}" after the value of "title"/);
    assert.match(syntaxError('{"a": [1, 2,]}').reason, /trailing comma/);
    assert.match(syntaxError('{"a": tru}').reason, /expected a value/);
    assert.match(syntaxError('{"a": "x').reason, /unterminated string/);
    assert.match(syntaxError('').reason, /empty/);
    assert.match(syntaxError('{} x').reason, /after the end/);
    assert.match(syntaxError('{"a": 1, // note\n}').reason, /comments/);
  });

  test('refuses duplicate keys, which would hide one of the values', () => {
    const error = syntaxError('{"title": "a",\n "title": "b"}');
    assert.match(error.reason, /duplicate property "title"/);
    assert.equal(error.location.line, 2);
  });

  test('a "__proto__" key is plain data', () => {
    const parsed = parseJsonWithLocations('{"__proto__": {"polluted": true}}').value as Record<string, unknown>;
    assert.deepEqual(Object.keys(parsed), ['__proto__']);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  });

  test('describes paths as a reader writes them', () => {
    assert.equal(describePath(['content', 'content', 3, 'type']), 'content.content[3].type');
    assert.equal(describePath([]), '(document)');
  });
});
