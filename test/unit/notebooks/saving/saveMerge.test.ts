import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { markdownToDoc } from '../../../../src/notebooks/markdown';
import { snapshotOf } from '../../../../src/notebooks/saving/markdownSavePlan';
import { editableOf, markdownOf } from '../../../../src/notebooks/model/notebookDocument';
import { mergeJsonSave, mergeLabels, mergeMarkdownSave } from '../../../../src/notebooks/saving/saveMerge';
import { notebook } from '../fixtures';
import { acceptAll } from '../merge/resolve';
import { paragraph } from '../../../api-server/content';

const BASE = '# Notes\n\nFirst paragraph.\n\nSecond paragraph.\n';

function markdownNotebook(markdown: string, version: number) {
  return notebook({
    version,
    content: { type: 'doc', content: [{ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown } }] },
    text_content: markdown,
  });
}


describe('a save that meets a newer version', () => {
  const base = snapshotOf(markdownNotebook(BASE, 3), BASE, 1);

  test('Markdown: changes to different paragraphs merge into PostHog\'s version', () => {
    const server = markdownNotebook(BASE.replace('Second paragraph.', 'Second, theirs.'), 4);
    const outcome = mergeMarkdownSave(base, BASE.replace('First paragraph.', 'First, mine.'), server, mergeLabels(server, 'Ann Lee <ann@example.com>'));
    assert.equal(outcome.kind, 'merged');
    if (outcome.kind !== 'merged') return;
    assert.equal(markdownOf(outcome.full.content), '# Notes\n\nFirst, mine.\n\nSecond, theirs.\n');
    assert.equal(outcome.full.text_content, '# Notes\n\nFirst, mine.\n\nSecond, theirs.\n');
    assert.ok(outcome.changes.length > 0, 'the log is told what was merged');
  });

  test('Markdown: the same paragraph changed on both sides comes back with markers naming PostHog\'s version', () => {
    const server = markdownNotebook(BASE.replace('First paragraph.', 'First, theirs.'), 4);
    const outcome = mergeMarkdownSave(base, BASE.replace('First paragraph.', 'First, mine.'), server, mergeLabels(server, 'Ann Lee'));
    assert.equal(outcome.kind, 'conflicted');
    if (outcome.kind !== 'conflicted') return;
    assert.equal(outcome.conflicts, 1);
    assert.equal(
      outcome.text,
      '# Notes\n\n<<<<<<< Yours\nFirst, mine.\n\n=======\nFirst, theirs.\n\n>>>>>>> PostHog (version 4 by Ann Lee)\nSecond paragraph.\n',
    );
  });

  test('Markdown: a retried save whose first attempt reached PostHog is already saved', () => {
    const mine = BASE.replace('First paragraph.', 'First, mine.');
    assert.deepEqual(mergeMarkdownSave(base, mine, markdownNotebook(mine, 4), mergeLabels(markdownNotebook(mine, 4), null)), { kind: 'alreadySaved' });
  });

  test('Markdown: when PostHog\'s version already is the merge (it has my change and one of its own), nothing is sent and the editor must take it', () => {
    const mine = BASE.replace('First paragraph.', 'First, mine.');
    const server = markdownNotebook(mine.replace('Second paragraph.', 'Second, theirs.'), 4);
    const outcome = mergeMarkdownSave(base, mine, server, mergeLabels(server, null));
    assert.equal(outcome.kind, 'mergedOnPostHog', 'not alreadySaved: the editor still lacks "Second, theirs."');
  });

  test('JSON: when PostHog\'s version already is the merge, the outcome says so rather than already saved', () => {
    const served = notebook({ version: 3, content: { type: 'doc', content: [paragraph('One'), paragraph('Two')] } });
    const ours = { ...editableOf(served), content: { type: 'doc', content: [paragraph('One, mine'), paragraph('Two')] } };
    const server = notebook({ version: 4, content: { type: 'doc', content: [paragraph('One, mine'), paragraph('Two, theirs')] } });
    assert.equal(mergeJsonSave(editableOf(served), ours, server, mergeLabels(server, null)).kind, 'mergedOnPostHog');
  });

  test('a collaborator\'s name with line breaks stays on the marker line: nothing of it survives Accept Current, Incoming or Both', () => {
    const server = markdownNotebook(BASE.replace('First paragraph.', 'First, theirs.'), 4);
    const name = 'Ann\n\nInjected after the marker\r\n<<<<<<< x\u202e';
    const outcome = mergeMarkdownSave(base, BASE.replace('First paragraph.', 'First, mine.'), server, mergeLabels(server, name));
    assert.equal(outcome.kind, 'conflicted');
    if (outcome.kind !== 'conflicted') return;
    assert.match(outcome.text, /\n>>>>>>> PostHog \(version 4 by Ann Injected after the marker <<<<<<< x\uFFFD\)\nSecond paragraph\.\n$/);
    for (const choice of ['ours', 'theirs', 'both'] as const) {
      assert.doesNotMatch(acceptAll(outcome.text, choice), /Injected|<<<<<<<|>>>>>>>/, choice);
    }
    assert.deepEqual(mergeLabels(server, 'x'.repeat(500)).theirs, `PostHog (version 4 by ${'x'.repeat(99)}…)`, 'a long name is cut');
  });

  test('JSON: different nodes merge, text_content follows the merged content, and an identical server is already saved', () => {
    const served = notebook({ version: 3, content: { type: 'doc', content: [paragraph('One'), paragraph('Two')] }, text_content: 'One\n\nTwo' });
    const ours = { ...editableOf(served), content: { type: 'doc', content: [paragraph('One, mine'), paragraph('Two')] } };
    const server = notebook({ version: 4, content: { type: 'doc', content: [paragraph('One'), paragraph('Two, theirs')] }, text_content: 'One\n\nTwo, theirs' });
    const outcome = mergeJsonSave(editableOf(served), ours, server, mergeLabels(server, null));
    assert.equal(outcome.kind, 'merged');
    if (outcome.kind !== 'merged') return;
    assert.deepEqual(outcome.full.content, { type: 'doc', content: [paragraph('One, mine'), paragraph('Two, theirs')] });
    assert.equal(outcome.full.text_content, 'One, mine\n\nTwo, theirs');
    const same = notebook({ version: 4, content: ours.content, text_content: 'One, mine\n\nTwo' });
    assert.deepEqual(mergeJsonSave(editableOf(served), ours, same, mergeLabels(same, null)), { kind: 'alreadySaved' });
  });

  test('JSON: the same node changed on both sides comes back as the document with markers, based on PostHog\'s version', () => {
    const served = notebook({ version: 3, content: { type: 'doc', content: [paragraph('One'), paragraph('Two')] } });
    const ours = { ...editableOf(served), content: { type: 'doc', content: [paragraph('One, mine'), paragraph('Two')] } };
    const server = notebook({ version: 4, content: { type: 'doc', content: [paragraph('One, theirs'), paragraph('Two')] } });
    const outcome = mergeJsonSave(editableOf(served), ours, server, mergeLabels(server, null));
    assert.equal(outcome.kind, 'conflicted');
    if (outcome.kind !== 'conflicted') return;
    assert.match(outcome.text, /^<<<<<<< Yours$/m);
    assert.match(outcome.text, /^>>>>>>> PostHog \(version 4\)$/m);
    assert.match(outcome.text, /"version": 4/);
  });
});

describe('a legacy notebook saved in the user\'s own Markdown spelling', () => {
  const spelled = '# Notes\n\nSome __bold__ words.\n\n* one\n* two\n\nLast paragraph.\n';
  const served = notebook({ version: 3, content: markdownToDoc(spelled).doc });
  const base = snapshotOf(served, spelled, 1);
  const theirsDoc = markdownToDoc(spelled.replace('Last paragraph.', 'Last, theirs.')).doc;
  const server = notebook({ version: 4, content: theirsDoc });

  test('editing a paragraph PostHog did not change merges, although PostHog writes it **bold** and the user __bold__', () => {
    const ours = spelled.replace('Some __bold__ words.', 'Some __bold__ words, mine.');
    const outcome = mergeMarkdownSave(base, ours, server, mergeLabels(server, null));
    assert.equal(outcome.kind, 'merged');
    if (outcome.kind !== 'merged') return;
    assert.deepEqual(outcome.full.content, markdownToDoc('# Notes\n\nSome **bold** words, mine.\n\n- one\n- two\n\nLast, theirs.\n').doc);
  });

  test('a conflict shows PostHog\'s untouched blocks in the user\'s spelling', () => {
    const ours = spelled.replace('Last paragraph.', 'Last, mine.');
    const outcome = mergeMarkdownSave(base, ours, server, mergeLabels(server, null));
    assert.equal(outcome.kind, 'conflicted');
    if (outcome.kind !== 'conflicted') return;
    assert.equal(outcome.conflicts, 1);
    assert.ok(outcome.text.startsWith('# Notes\n\nSome __bold__ words.\n\n* one\n* two\n'), outcome.text);
    assert.ok(outcome.base?.startsWith('# Notes\n\nSome __bold__ words.\n'), 'the editor is based on PostHog\'s version as the merge read it');
    assert.match(outcome.text, /<<<<<<< Yours\n+Last, mine\.\n+=======\n+Last, theirs\.\n+>>>>>>> /);
  });
});
