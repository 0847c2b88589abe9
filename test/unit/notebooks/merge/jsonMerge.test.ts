import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findConflictMarkers } from '../../../../src/notebooks/merge/conflictMarkers';
import { mergeNotebookJson } from '../../../../src/notebooks/merge/jsonMerge';
import {
  type EditableNotebook,
  editableOf,
  markdownOf,
  parseNotebookDocument,
  readonlyOf,
  serializeDocument,
  serializeNotebook,
} from '../../../../src/notebooks/model/notebookDocument';
import { notebook } from '../fixtures';
import { acceptAll, LABELS } from './resolve';
import { paragraph } from '../../../api-server/content';

const readonly = readonlyOf(notebook({ version: 7 }));
const query = (attrs: Record<string, unknown>) => ({ type: 'ph-query', attrs });
const legacy = (title: string, ...nodes: unknown[]): EditableNotebook => ({ title, content: { type: 'doc', content: nodes }, text_content: null });
const markdownNotebook = (markdown: string, title = 'Notes'): EditableNotebook => ({
  title,
  content: { type: 'doc', content: [{ type: 'ph-markdown-notebook', attrs: { nodeId: 'n1', markdown } }] },
  text_content: markdown,
});
const merge = (base: EditableNotebook, ours: EditableNotebook, theirs: EditableNotebook) => mergeNotebookJson(base, ours, theirs, LABELS);

/** The document after accepting a side everywhere, parsed as JSON (throws if it is not valid JSON). */
function accepted(text: string, choice: 'ours' | 'theirs' | 'both'): Record<string, any> {
  return JSON.parse(acceptAll(text, choice)) as Record<string, any>;
}

describe('notebook JSON merge', () => {
  test('merges changes to different nodes, and renders the merged document as serializeDocument does', () => {
    const base = legacy('Review', paragraph('a'), query({ kind: 'TrendsQuery' }), paragraph('c'));
    const outcome = merge(base, legacy('Review', paragraph('a, mine'), query({ kind: 'TrendsQuery' }), paragraph('c')), legacy('Review', paragraph('a'), query({ kind: 'TrendsQuery' }), paragraph('c, theirs')));
    assert.equal(outcome.conflicts, 0);
    assert.deepEqual(outcome.merged?.content, { type: 'doc', content: [paragraph('a, mine'), query({ kind: 'TrendsQuery' }), paragraph('c, theirs')] });
    assert.deepEqual(outcome.changes, ['kept your change to content node 1', "took PostHog's change to content node 3"]);
    assert.ok(outcome.merged);
    assert.equal(outcome.render(readonly), serializeDocument(readonly, outcome.merged));
  });

  test('merges one node changed on both sides field by field, key by key within attrs', () => {
    const base = legacy('Review', query({ kind: 'TrendsQuery', interval: 'day', nested: { a: 1, b: 1 } }));
    const ours = legacy('Review', query({ kind: 'FunnelsQuery', interval: 'day', nested: { a: 2, b: 1 } }));
    const theirs = legacy('Review', query({ kind: 'TrendsQuery', interval: 'week', nested: { a: 1, b: 2 } }));
    const outcome = merge(base, ours, theirs);
    assert.equal(outcome.conflicts, 0);
    assert.deepEqual(outcome.merged?.content, { type: 'doc', content: [query({ kind: 'FunnelsQuery', interval: 'week', nested: { a: 2, b: 2 } })] });
    assert.deepEqual(outcome.changes, ['merged both changes to content node 1 field by field']);
  });

  test('a field changed differently on both sides is a conflict for that node; each accept gives valid JSON with that side', () => {
    const base = legacy('Review', paragraph('a'), query({ kind: 'TrendsQuery' }), paragraph('c'));
    const ours = legacy('Review', paragraph('a'), query({ kind: 'FunnelsQuery' }), paragraph('c'));
    const theirs = legacy('Review', paragraph('a'), query({ kind: 'RetentionQuery' }), paragraph('c'));
    const outcome = merge(base, ours, theirs);
    assert.equal(outcome.merged, undefined);
    assert.equal(outcome.conflicts, 1);
    assert.deepEqual(outcome.changes, ['conflict at content node 2 (attrs.kind changed on both sides)']);
    const text = outcome.render(readonly);
    assert.ok(text.includes(['<<<<<<< Yours', '      {', '        "type": "ph-query",'].join('\n')));
    assert.ok(text.includes(['      },', '=======', '      {'].join('\n')));
    assert.ok(text.includes(['      },', '>>>>>>> PostHog (version 7 by Ann Lee)', '      {'].join('\n')));
    assert.equal(findConflictMarkers(text).length, 3);
    assert.deepEqual(accepted(text, 'ours')['content'], ours.content);
    assert.deepEqual(accepted(text, 'theirs')['content'], theirs.content);
    assert.deepEqual(accepted(text, 'both')['content'], { type: 'doc', content: [paragraph('a'), query({ kind: 'FunnelsQuery' }), query({ kind: 'RetentionQuery' }), paragraph('c')] });
  });

  test('a conflict at the end of the content starts each side with the comma, so Accept Both gives valid JSON too', () => {
    const base = legacy('Review', paragraph('a'), paragraph('c'));
    const ours = legacy('Review', paragraph('a'), paragraph('c, mine'));
    const theirs = legacy('Review', paragraph('a'), paragraph('c, theirs'));
    const text = merge(base, ours, theirs).render(readonly);
    assert.ok(text.includes(['      }', '<<<<<<< Yours', '      ,', '      {'].join('\n')), text);
    assert.ok(text.includes(['=======', '      ,', '      {'].join('\n')), text);
    assert.deepEqual(accepted(text, 'ours')['content'], ours.content);
    assert.deepEqual(accepted(text, 'theirs')['content'], theirs.content);
    assert.deepEqual(accepted(text, 'both')['content'], { type: 'doc', content: [paragraph('a'), paragraph('c, mine'), paragraph('c, theirs')] });
  });

  test('a node deleted on one side and edited on the other takes in a neighbour so both accepts give valid JSON', () => {
    const base = legacy('Review', paragraph('a'), paragraph('b'));
    const ours = legacy('Review', paragraph('a'));
    const theirs = legacy('Review', paragraph('a'), paragraph('b, edited'));
    const text = merge(base, ours, theirs).render(readonly);
    assert.deepEqual(accepted(text, 'ours')['content'], ours.content);
    assert.deepEqual(accepted(text, 'theirs')['content'], theirs.content);
    const inMiddle = merge(legacy('R', paragraph('b'), paragraph('z')), legacy('R', paragraph('z')), legacy('R', paragraph('b!'), paragraph('z'))).render(readonly);
    assert.deepEqual(accepted(inMiddle, 'ours')['content'], { type: 'doc', content: [paragraph('z')] });
    assert.deepEqual(accepted(inMiddle, 'theirs')['content'], { type: 'doc', content: [paragraph('b!'), paragraph('z')] });
  });

  test('conflicts on the title, rendered around the title line', () => {
    const outcome = merge(legacy('Review', paragraph('a')), legacy('Mine', paragraph('a')), legacy('Theirs', paragraph('a!')));
    assert.equal(outcome.conflicts, 1);
    assert.deepEqual(outcome.changes, ['conflict in the title', "took PostHog's change to content node 1"]);
    const text = outcome.render(readonly);
    assert.ok(text.includes(['<<<<<<< Yours', '  "title": "Mine",', '=======', '  "title": "Theirs",', '>>>>>>> PostHog (version 7 by Ann Lee)'].join('\n')));
    assert.equal(accepted(text, 'ours')['title'], 'Mine');
    const incoming = parseNotebookDocument(acceptAll(text, 'theirs'));
    assert.equal(incoming.editable.title, 'Theirs');
    assert.deepEqual(incoming.editable.content, legacy('', paragraph('a!')).content);
  });

  test('gives text_content the simple rule: ours where only ours changed it, else theirs', () => {
    const base = { ...legacy('R', paragraph('a')), text_content: 'a' };
    const outcome = merge(base, { ...legacy('R', paragraph('a')), text_content: 'mine' }, { ...legacy('R', paragraph('b')), text_content: 'a' });
    assert.equal(outcome.merged?.text_content, 'mine');
    const both = merge(base, { ...base, text_content: 'mine' }, { ...base, title: 'T', text_content: 'theirs' });
    assert.equal(both.merged?.text_content, 'theirs');
  });

  test('merges a Markdown notebook through the Markdown merge; its text_content is the merged Markdown', () => {
    const outcome = merge(markdownNotebook('# Notes\n\nA.\n\nB.\n'), markdownNotebook('# Notes\n\nA, mine.\n\nB.\n'), markdownNotebook('# Notes\n\nA.\n\nB, theirs.\n'));
    assert.equal(outcome.conflicts, 0);
    assert.equal(markdownOf(outcome.merged?.content), '# Notes\n\nA, mine.\n\nB, theirs.\n');
    assert.equal(outcome.merged?.text_content, '# Notes\n\nA, mine.\n\nB, theirs.\n');
    assert.deepEqual(outcome.changes, ['in the Markdown: kept your change to line 3', "in the Markdown: took PostHog's change to line 5"]);
  });

  test("renders a Markdown notebook's conflict around elements of its markdown lines", () => {
    const ours = markdownNotebook('# Notes\n\nA, mine.\n\nB.\n');
    const theirs = markdownNotebook('# Notes\n\nA, theirs.\n\nB.\n');
    const outcome = merge(markdownNotebook('# Notes\n\nA.\n\nB.\n'), ours, theirs);
    assert.equal(outcome.conflicts, 1);
    const text = outcome.render(readonly);
    assert.ok(
      text.includes(
        ['            "",', '<<<<<<< Yours', '            "A, mine.",', '            "",', '=======', '            "A, theirs.",', '            "",', '>>>>>>> PostHog (version 7 by Ann Lee)', '            "B.",'].join('\n'),
      ),
    );
    assert.equal(markdownOf(parseNotebookDocument(acceptAll(text, 'ours')).editable.content), '# Notes\n\nA, mine.\n\nB.\n');
    assert.equal(markdownOf(parseNotebookDocument(acceptAll(text, 'theirs')).editable.content), '# Notes\n\nA, theirs.\n\nB.\n');
    assert.equal(markdownOf(parseNotebookDocument(acceptAll(text, 'both')).editable.content), '# Notes\n\nA, mine.\n\nA, theirs.\n\nB.\n');
  });

  test('a Markdown conflict at the end of the text takes in the line before it', () => {
    const outcome = merge(markdownNotebook('A.\n\nB.'), markdownNotebook('A.'), markdownNotebook('A.\n\nB!'));
    const text = outcome.render(readonly);
    assert.equal(markdownOf(parseNotebookDocument(acceptAll(text, 'ours')).editable.content), 'A.');
    assert.equal(markdownOf(parseNotebookDocument(acceptAll(text, 'theirs')).editable.content), 'A.\n\nB!');
  });

  test('renders an unchanged notebook exactly as serializeNotebook wrote it', () => {
    const stored = notebook({ version: 7 });
    const editable = editableOf(stored);
    assert.equal(merge(editable, editable, editable).render(readonly), serializeNotebook(stored));
  });

  test('a member named __proto__ merges as any other member and stays one', () => {
    const attrs = (json: string) => JSON.parse(json) as Record<string, unknown>;
    const base = legacy('Review', query(attrs('{"__proto__":{"a":1},"kind":"TrendsQuery"}')));
    const ours = legacy('Review', query(attrs('{"__proto__":{"a":1},"kind":"FunnelsQuery"}')));
    const theirs = legacy('Review', query(attrs('{"__proto__":{"a":2},"kind":"TrendsQuery"}')));
    const outcome = merge(base, ours, theirs);
    assert.equal(outcome.conflicts, 0);
    const merged = (outcome.merged?.content as { content: { attrs: Record<string, unknown> }[] }).content[0]!.attrs;
    assert.deepEqual(Object.keys(merged), ['__proto__', 'kind']);
    assert.deepEqual(Object.getOwnPropertyDescriptor(merged, '__proto__')?.value, { a: 2 });
    assert.equal(merged['kind'], 'FunnelsQuery');
  });
});
