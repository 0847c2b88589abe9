import { joinLines, type MarkdownMerge, mergeMarkdownLines, mergeRegions } from '../merge';
import type { TextSpan } from './markdownDiff';

/**
 * Another user's change meeting an editor with unsaved changes: merged into the editor's text at once where it
 * does not overlap the user's edits (three ways, like PostHog's web app: what the editor was based on, its
 * text, and PostHog's new text), held where it does.
 */

/** Lines of the editor's text, 0-based, end exclusive. */
export interface LineRange {
  readonly start: number;
  readonly end: number;
}

export type RemoteMergePlan =
  /** Nothing of theirs to bring in (the editor already has it, or theirs changed nothing). */
  | { readonly kind: 'unchanged'; readonly base: string }
  /** Every change of theirs merges: the editor takes `text`, based on theirs. */
  | { readonly kind: 'merged'; readonly text: string; readonly base: string }
  /**
   * Some changes of theirs overlap the user's (`held`, the editor's lines there): the others merge into `text`;
   * the editor is then based on `base`, PostHog's text with the held changes left out, which PostHog's version
   * does not hold as such, so a save merges with it (and marks the held places where both changed them).
   */
  | { readonly kind: 'partial'; readonly text: string; readonly base: string; readonly held: readonly LineRange[] }
  /** Every change of theirs overlaps the user's: the editor keeps its text and base until it saves. */
  | { readonly kind: 'held'; readonly held: readonly LineRange[] };

export function planRemoteMerge(base: string, ours: string, theirs: string): RemoteMergePlan {
  if (theirs === base || theirs === ours) {
    return { kind: 'unchanged', base: theirs };
  }
  const merge = mergeMarkdownLines(base, ours, theirs);
  if (merge.conflicts === 0) {
    return { kind: 'merged', text: joinLines(merge.lines as string[], merge.endsWithNewline), base: theirs };
  }
  const { text, held } = keepingOurs(merge);
  if (text === ours) {
    return { kind: 'held', held };
  }
  // PostHog's text without the held changes: the base's lines where the user edited, theirs' where they merged.
  const withoutHeld = mergeMarkdownLines(ours, base, text);
  if (withoutHeld.conflicts > 0) {
    return { kind: 'held', held };
  }
  return { kind: 'partial', text, base: joinLines(withoutHeld.lines as string[], withoutHeld.endsWithNewline), held };
}

/** The merge with every conflict resolved as the user's side ("Accept Current"), and where those places are. */
function keepingOurs(merge: MarkdownMerge): { text: string; held: LineRange[] } {
  const lines: string[] = [];
  const held: LineRange[] = [];
  for (const line of merge.lines) {
    if (typeof line === 'string') {
      lines.push(line);
      continue;
    }
    const first = line.ours.findIndex((text) => text.trim() !== '');
    const last = line.ours.length - 1 - [...line.ours].reverse().findIndex((text) => text.trim() !== '');
    held.push(first < 0 ? { start: lines.length, end: lines.length } : { start: lines.length + first, end: lines.length + last + 1 });
    lines.push(...line.ours);
  }
  return { text: joinLines(lines, merge.endsWithNewline), held };
}

/**
 * The edits that turn `from` into `to`, as small as lines then characters allow (offsets into `from`,
 * ascending): applied to an editor, they leave its cursor, selections and the rest of its text where they are.
 */
export function textEdits(from: string, to: string): TextSpan[] {
  if (from === to) {
    return [];
  }
  const fromLines = linesWithEnds(from);
  const toLines = linesWithEnds(to);
  const fromOffsets = offsetsOf(fromLines);
  const toOffsets = offsetsOf(toLines);
  const edits: TextSpan[] = [];
  for (const region of mergeRegions(fromLines, toLines, fromLines)) {
    if (region.kind === 'unchanged') {
      continue;
    }
    const start = fromOffsets[region.base.start]!;
    const end = fromOffsets[region.base.end]!;
    const replacement = to.slice(toOffsets[region.ours.start]!, toOffsets[region.ours.end]!);
    edits.push(trimmed(from, start, end, replacement));
  }
  return edits;
}

/** Lines each with its "\n" (the last one without, if the text does not end with one). */
function linesWithEnds(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  return lines[lines.length - 1] === '' ? lines.slice(0, -1) : lines;
}

function offsetsOf(lines: readonly string[]): number[] {
  const offsets = [0];
  for (const line of lines) {
    offsets.push(offsets[offsets.length - 1]! + line.length);
  }
  return offsets;
}

/** The replacement of from[start, end) narrowed to where it differs, never between the halves of a surrogate pair. */
function trimmed(from: string, start: number, end: number, replacement: string): TextSpan {
  let prefix = 0;
  const shorter = Math.min(end - start, replacement.length);
  while (prefix < shorter && from.charCodeAt(start + prefix) === replacement.charCodeAt(prefix)) {
    prefix++;
  }
  if (prefix > 0 && isHighSurrogate(from.charCodeAt(start + prefix - 1))) {
    prefix--;
  }
  let suffix = 0;
  while (suffix < shorter - prefix && from.charCodeAt(end - 1 - suffix) === replacement.charCodeAt(replacement.length - 1 - suffix)) {
    suffix++;
  }
  if (suffix > 0 && isLowSurrogate(from.charCodeAt(end - suffix))) {
    suffix--;
  }
  return { start: start + prefix, end: end - suffix, text: replacement.slice(prefix, replacement.length - suffix) };
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
