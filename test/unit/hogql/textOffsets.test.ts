import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { scanTags } from '../../../src/notebooks/markdown';
import { mayHoldSqlCells, sqlCellTexts } from '../../../src/hogql/sqlCells';
import { plainTextMap, writtenValueMap } from '../../../src/hogql/textOffsets';

describe('query text offsets', () => {
  test('a HogQL document maps one to one, clamped to its text', () => {
    const map = plainTextMap('select 1');
    assert.equal(map.toDocument(3), 3);
    assert.equal(map.toDocument(99), 8);
    assert.equal(map.fromDocument(8), 8);
    assert.equal(map.fromDocument(9), undefined);
  });

  test('a JSON string value maps each escape to one character of the query', () => {
    const document = '<SQLV2 code="select\\n  \\"a\\u00e9\\" from events" />';
    const start = document.indexOf('"') + 1;
    const text = 'select\n  "aé" from events';
    const map = writtenValueMap(document, start, text, '"');
    const fromIndex = text.indexOf('from');
    assert.equal(document.slice(map.toDocument(fromIndex), map.toDocument(fromIndex + 4)), 'from');
    assert.equal(document.slice(map.toDocument(text.indexOf('é')), map.toDocument(text.indexOf('é') + 1)), '\\u00e9');
    assert.equal(map.fromDocument(document.indexOf('from')), fromIndex);
    assert.equal(map.toDocument(text.length), document.lastIndexOf('"'));
    assert.equal(map.fromDocument(start - 1), undefined);
  });

  test("a single-quoted value: a backslash escapes the next character", () => {
    const document = "<HogQLSQL code='it\\'s' />";
    const start = document.indexOf("'") + 1;
    const map = writtenValueMap(document, start, "it's", "'");
    assert.equal(map.toDocument(3), document.indexOf('s'));
  });
});

describe('sqlCellTexts', () => {
  test('finds SQL cells with their code at its written place, and skips other tags', () => {
    const markdown = [
      '# Notes',
      '',
      '<Query query={{"kind":"DataTableNode","source":{"kind":"EventsQuery","select":["*"]}}} />',
      '',
      '<SQLV2 nodeId="n1" code="select event\\nfrom events" />',
      '',
      '<HogQLSQL code={"select 1"} />',
    ].join('\n');
    assert.ok(mayHoldSqlCells(markdown));
    const cells = sqlCellTexts(markdown, scanTags(markdown).tags);
    assert.deepEqual(cells.map((cell) => cell.text), ['select event\nfrom events', 'select 1']);
    const [first, second] = cells;
    assert.equal(markdown.slice(first!.toDocument(13), first!.toDocument(17)), 'from');
    assert.equal(markdown.slice(second!.toDocument(0), second!.toDocument(8)), 'select 1');
  });

  test('a notebook without SQL cells is not read', () => {
    assert.equal(mayHoldSqlCells('# Title\n\n<Query query={{}} />'), false);
  });
});
