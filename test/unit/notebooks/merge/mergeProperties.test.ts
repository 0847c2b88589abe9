import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { findConflictMarkers } from '../../../../src/notebooks/merge/conflictMarkers';
import { mergeNotebookJson } from '../../../../src/notebooks/merge/jsonMerge';
import { mergeMarkdown } from '../../../../src/notebooks/merge/markdownMerge';
import { type EditableNotebook, parseNotebookDocument, readonlyOf } from '../../../../src/notebooks/model/notebookDocument';
import { notebook } from '../fixtures';
import { acceptAll, LABELS } from './resolve';

type Owner = 'nobody' | 'ours' | 'theirs';
type BlockEdit = 'replace' | 'delete' | 'insertAfter';

const blockEdits = fc.array(
  fc.record({
    owner: fc.constantFrom<Owner>('nobody', 'ours', 'theirs'),
    edit: fc.constantFrom<BlockEdit>('replace', 'delete', 'insertAfter'),
    twoLines: fc.boolean(),
  }),
  { minLength: 1, maxLength: 12 },
);

/** The base's blocks with the edits of the blocks `side` owns (both sides' edits for "merged"). */
function editedBlocks(edits: readonly { owner: Owner; edit: BlockEdit; twoLines: boolean }[], side: 'base' | 'ours' | 'theirs' | 'merged'): string[] {
  return edits.flatMap(({ owner, edit, twoLines }, index) => {
    const original = twoLines ? `Block ${index}.\nIts second line.` : `Block ${index}.`;
    if (owner === 'nobody' || side === 'base' || (side !== 'merged' && side !== owner)) {
      return [original];
    }
    switch (edit) {
      case 'replace':
        return [`${owner} rewrote block ${index}.`];
      case 'delete':
        return [];
      case 'insertAfter':
        return [original, `${owner} inserted after block ${index}.`];
    }
  });
}

const text = (blocks: readonly string[]) => (blocks.length > 0 ? `${blocks.join('\n\n')}\n` : '');

const LINES = ['a', 'b', 'c', 'd', '', '', '- [ ] x', '- [x] x', '```', '# h', '  indented', 'e\r'];
const lines = fc.array(fc.constantFrom(...LINES), { maxLength: 14 });
const lineEdits = fc.array(fc.record({ at: fc.nat(), kind: fc.constantFrom('delete', 'insert', 'replace'), line: fc.constantFrom(...LINES) }), { maxLength: 5 });

function applyLineEdits(base: readonly string[], edits: readonly { at: number; kind: string; line: string }[]): string[] {
  const result = [...base];
  for (const { at, kind, line } of edits) {
    const index = at % (result.length + 1);
    if (kind === 'insert') {
      result.splice(index, 0, line);
    } else if (index < result.length) {
      result.splice(index, 1, ...(kind === 'replace' ? [line] : []));
    }
  }
  return result;
}

/** A side: edited from the base, or an unrelated text. */
const sideLines = fc.oneof(
  lineEdits.map((edits) => ({ edits })),
  lines.map((unrelated) => ({ unrelated })),
);

/** Three texts: the base and two sides. */
const threeTexts = fc.record({ base: lines, ours: sideLines, theirs: sideLines, newline: fc.boolean() }).map(({ base, ours, theirs, newline }) => {
  const side = (made: { edits: { at: number; kind: string; line: string }[] } | { unrelated: string[] }) =>
    'edits' in made ? applyLineEdits(base, made.edits) : made.unrelated;
  const join = (list: readonly string[]) => list.join('\n') + (newline ? '\n' : '');
  return { base: join(base), ours: join(side(ours)), theirs: join(side(theirs)) };
});

const nonBlankLines = (value: string) => value.split('\n').filter((line) => line.trim() !== '');

describe('merge properties', () => {
  test('edits of different blocks merge cleanly and keep both sides’ edits', () => {
    fc.assert(
      fc.property(blockEdits, (edits) => {
        const outcome = mergeMarkdown(text(editedBlocks(edits, 'base')), text(editedBlocks(edits, 'ours')), text(editedBlocks(edits, 'theirs')), LABELS);
        assert.equal(outcome.conflicts, 0);
        assert.equal(outcome.text, text(editedBlocks(edits, 'merged')));
      }),
      { numRuns: 300 },
    );
  });

  test('taking ours in every conflict invents no line, and every conflict has its three markers', () => {
    fc.assert(
      fc.property(threeTexts, ({ base, ours, theirs }) => {
        const outcome = mergeMarkdown(base, ours, theirs, LABELS);
        const known = new Set([base, ours, theirs].flatMap(nonBlankLines));
        for (const choice of ['ours', 'theirs', 'both'] as const) {
          for (const line of nonBlankLines(acceptAll(outcome.text, choice))) {
            assert.ok(known.has(line), `invented line ${JSON.stringify(line)}`);
          }
        }
        assert.equal(findConflictMarkers(outcome.text).length, outcome.conflicts * 3);
      }),
      { numRuns: 500 },
    );
  });

  test('when both sides are the same text, or one side is the base, the merge is the changed text', () => {
    fc.assert(
      fc.property(threeTexts, ({ base, ours }) => {
        assert.equal(mergeMarkdown(base, ours, ours, LABELS).text, ours);
        assert.equal(mergeMarkdown(base, base, ours, LABELS).text, ours);
        assert.equal(mergeMarkdown(base, ours, base, LABELS).text, ours);
      }),
    );
  });

  test('accepting either side of every JSON conflict leaves a valid notebook document', () => {
    const readonly = readonlyOf(notebook({ version: 7 }));
    const legacy = (texts: readonly string[]): EditableNotebook => ({
      title: 'T',
      content: { type: 'doc', content: texts.map((line) => ({ type: 'paragraph', attrs: { line } })) },
      text_content: null,
    });
    const markdownNotebook = (markdown: string): EditableNotebook => ({
      title: 'T',
      content: { type: 'doc', content: [{ type: 'ph-markdown-notebook', attrs: { markdown } }] },
      text_content: markdown,
    });
    fc.assert(
      fc.property(threeTexts, fc.boolean(), ({ base, ours, theirs }, asMarkdown) => {
        const form = (value: string) => (asMarkdown ? markdownNotebook(value) : legacy(value.split('\n')));
        const outcome = mergeNotebookJson(form(base), form(ours), form(theirs), LABELS);
        const rendered = outcome.render(readonly);
        assert.equal(outcome.merged === undefined, outcome.conflicts > 0);
        assert.equal(findConflictMarkers(rendered).length, outcome.conflicts * 3);
        for (const choice of ['ours', 'theirs'] as const) {
          assert.doesNotThrow(() => parseNotebookDocument(acceptAll(rendered, choice)), `accepting ${choice} in\n${rendered}`);
        }
        if (!conflictIsWholeArrayEnd(rendered)) {
          assert.doesNotThrow(() => parseNotebookDocument(acceptAll(rendered, 'both')), `accepting both in\n${rendered}`);
        }
      }),
      { numRuns: 300 },
    );
  });
});

/**
 * Whether a conflict ends an array with no element of its own before it (it is the whole array, or follows
 * another conflict): there both sides' elements cannot be separated by a comma, so Accept Both is invalid.
 */
function conflictIsWholeArrayEnd(rendered: string): boolean {
  const lines = rendered.split('\n');
  return lines.some((line, index) => {
    if (!line.startsWith('<<<<<<<')) {
      return false;
    }
    const end = lines.findIndex((other, at) => at > index && other.startsWith('>>>>>>>'));
    const before = lines[index - 1] ?? '';
    const startsArray = before.trimEnd().endsWith('[') || before.startsWith('>>>>>>>');
    return startsArray && (lines[end + 1] ?? '').trim().startsWith(']');
  });
}
