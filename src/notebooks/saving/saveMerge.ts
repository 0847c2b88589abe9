import type { Notebook } from '../../api';
import { oneSafeLine } from '../../common/text';
import { mergeMarkdown, type MergeLabels, mergeNotebookJson, OURS_LABEL, THEIRS_LABEL } from '../merge';
import { docToMarkdownSpelledAs } from '../markdown';
import { type BaseSnapshot, editableFromMarkdown } from './markdownSavePlan';
import { editableOf, type EditableNotebook, EMPTY_DOC, markdownOf, readonlyOf, sameJson, textContentOf } from '../model/notebookDocument';

/**
 * What a save that met a newer version on PostHog does, decided three ways like git: from the text the
 * editor was based on (base), the editor's (ours) and PostHog's (theirs).
 */
export type SaveMergeOutcome =
  /** PostHog already holds exactly the user's notebook (e.g. a retried save that had reached it). */
  | { readonly kind: 'alreadySaved' }
  /**
   * PostHog's version already is the merge (it has the user's changes, and more of its own): nothing is sent,
   * and the editor must take PostHog's version, or its next save would undo those other changes.
   */
  | { readonly kind: 'mergedOnPostHog'; readonly changes: readonly string[] }
  /** Both sides' changes merged cleanly: save `full` over PostHog's version. */
  | { readonly kind: 'merged'; readonly full: EditableNotebook; readonly changes: readonly string[] }
  /**
   * Some blocks changed on both sides: the editor gets `text`, with conflict markers, based on PostHog's
   * version as `base` (the text the merge read it as), or as the file shows it when undefined.
   */
  | { readonly kind: 'conflicted'; readonly text: string; readonly base?: string; readonly conflicts: number; readonly changes: readonly string[] };

/** The sides' names in conflict markers; `modifiedBy` comes from PostHog and is made one safe line. */
export function mergeLabels(server: Notebook, modifiedBy: string | null): MergeLabels {
  const by = modifiedBy ? oneSafeLine(modifiedBy, MAX_NAME_LENGTH) : '';
  return { ours: OURS_LABEL, theirs: `${THEIRS_LABEL} (version ${server.version}${by ? ` by ${by}` : ''})` };
}

const MAX_NAME_LENGTH = 100;

/** PostHog's version as the Markdown file shows it: a legacy notebook's unchanged blocks in the spelling of `spelledAs`. */
export function serverMarkdown(server: Pick<Notebook, 'content'>, spelledAs: string): string {
  return markdownOf(server.content) ?? docToMarkdownSpelledAs(server.content ?? EMPTY_DOC, spelledAs);
}

/** A save of the Markdown file: `ours` is the editor's Markdown, `base` what it was read as. */
export function mergeMarkdownSave(base: BaseSnapshot, ours: string, server: Notebook, labels: MergeLabels): SaveMergeOutcome {
  const theirs = serverMarkdown(server, base.text);
  const serverEditable = editableOf(server);
  if (ours === theirs) {
    return { kind: 'alreadySaved' };
  }
  const merged = mergeMarkdown(base.text, ours, theirs, labels);
  if (merged.conflicts > 0) {
    return { kind: 'conflicted', text: merged.text, base: theirs, conflicts: merged.conflicts, changes: merged.changes };
  }
  const full = editableFromMarkdown(merged.text, serverEditable);
  if (!sameJson(full.content, serverEditable.content)) {
    return { kind: 'merged', full, changes: merged.changes };
  }
  return merged.text === ours ? { kind: 'alreadySaved' } : { kind: 'mergedOnPostHog', changes: merged.changes };
}

/** A save of the JSON document: `ours` is the editor's notebook, `base` the version it was based on. */
export function mergeJsonSave(base: EditableNotebook, ours: EditableNotebook, server: Notebook, labels: MergeLabels): SaveMergeOutcome {
  const theirs = editableOf(server);
  if (sameFields(ours, theirs)) {
    return { kind: 'alreadySaved' };
  }
  const outcome = mergeNotebookJson(base, ours, theirs, labels);
  if (!outcome.merged) {
    return { kind: 'conflicted', text: outcome.render(readonlyOf(server)), conflicts: outcome.conflicts, changes: outcome.changes };
  }
  const full = withTextContent(outcome.merged, theirs);
  if (!sameFields(full, theirs)) {
    return { kind: 'merged', full, changes: outcome.changes };
  }
  return sameFields(full, ours) ? { kind: 'alreadySaved' } : { kind: 'mergedOnPostHog', changes: outcome.changes };
}

/** text_content follows merged content as PostHog keeps it: the Markdown, or the content's plain text. */
function withTextContent(merged: EditableNotebook, theirs: EditableNotebook): EditableNotebook {
  if (sameJson(merged.content, theirs.content)) {
    return { ...merged, text_content: theirs.text_content };
  }
  return { ...merged, text_content: markdownOf(merged.content) ?? textContentOf(merged.content) };
}

function sameFields(a: EditableNotebook, b: EditableNotebook): boolean {
  return a.title === b.title && sameJson(a.content, b.content);
}
