import { mergeCommentThread } from './commentMerge';
import { conflictLines, type MergeLabels, textAroundConflicts } from './conflictMarkers';
import { joinLines, type MarkdownBlocks, splitBlocks, splitLines } from './markdownBlocks';
import { mergeRegions, narrowConflict, type Region, type Span } from './sequenceMerge';

/**
 * Three-way merge of Markdown, like git but block by block: blocks (runs of non-blank lines, a fenced code
 * block counting as one) are merged first; blocks changed by both sides are then merged line by line, and
 * only lines changed differently by both make a conflict, shown with git-style markers around the
 * conflicting blocks. A block moved by one side is a deletion at its old place and an insertion at the new
 * one: it merges when the other side changed other blocks; when the other side edited the moved block, its
 * old place is a conflict (moved away against edited) and the new place holds the unedited block.
 */
export interface MergeOutcome {
  readonly text: string;
  readonly conflicts: number;
  /** What the merge did, one short line each, for the log ("kept your change to lines 3-5"). */
  readonly changes: readonly string[];
}

/** Both sides' lines where they conflict; each side carries the blank lines that keep its blocks apart. */
export interface LineConflict {
  readonly ours: readonly string[];
  readonly theirs: readonly string[];
}

export type MergedLine = string | LineConflict;

/** A merge's lines before conflicts are written out (as markers in Markdown, as array elements in JSON). */
export interface MarkdownMerge {
  readonly lines: readonly MergedLine[];
  readonly endsWithNewline: boolean;
  readonly conflicts: number;
  readonly changes: readonly string[];
  /** "\r" when ours (or, if ours is one line, theirs or base) has CRLF line ends: ends the lines the merge adds. */
  readonly lineEnd: string;
}

export function mergeMarkdown(base: string, ours: string, theirs: string, labels: MergeLabels): MergeOutcome {
  const merge = mergeMarkdownLines(base, ours, theirs);
  return { text: markdownText(merge, labels), conflicts: merge.conflicts, changes: merge.changes };
}

export function markdownText(merge: MarkdownMerge, labels: MergeLabels): string {
  const lines = merge.conflicts === 0 ? merge.lines.filter((line) => typeof line === 'string') : conflictedLines(merge, labels);
  const last = merge.lines[merge.lines.length - 1];
  if (!merge.endsWithNewline && last !== undefined && typeof last !== 'string' && merge.lineEnd !== '') {
    // A closing marker ending a text without a final newline gets no line end either.
    lines[lines.length - 1] = (lines[lines.length - 1] ?? '').slice(0, -merge.lineEnd.length);
  }
  return joinLines(lines, merge.endsWithNewline);
}

/** A conflicted merge's lines: conflicts with their markers, the text between them as textAroundConflicts leaves it. */
function conflictedLines(merge: MarkdownMerge, labels: MergeLabels): string[] {
  const lines: string[] = [];
  let text: string[] = [];
  for (const line of [...merge.lines, undefined]) {
    if (typeof line === 'string') {
      text.push(line);
      continue;
    }
    lines.push(...textAroundConflicts(text));
    text = [];
    if (line) {
      lines.push(...conflictLines(line.ours, line.theirs, labels, merge.lineEnd));
    }
  }
  return lines;
}

export function mergeMarkdownLines(base: string, ours: string, theirs: string): MarkdownMerge {
  const lineEnd = lineEndOf([ours, theirs, base].find((text) => text.includes('\n')) ?? '');
  if (ours === theirs || ours === base || theirs === base) {
    const { lines, endsWithNewline } = splitLines(ours === base ? theirs : ours);
    return { lines, endsWithNewline, conflicts: 0, changes: [], lineEnd };
  }
  const sides: Sides = { base: splitBlocks(base), ours: splitBlocks(ours), theirs: splitBlocks(theirs) };
  const plan = new MergePlan(lineEnd);
  for (const region of mergeRegions(sides.base.keys, sides.ours.keys, sides.theirs.keys)) {
    planRegion(region, sides, plan);
  }
  const edges = {
    leading: pickChanged(sides, (side) => side.lines.slice(0, side.leadingBlankLines)),
    trailing: pickChanged(sides, trailingBlankLines),
    endsWithNewline: pickChanged(sides, (side) => side.endsWithNewline),
  };
  return plan.assemble(edges);
}

/** "\r" for CRLF text, else "". */
function lineEndOf(text: string): string {
  return text.includes('\r\n') ? '\r' : '';
}

interface Sides {
  readonly base: MarkdownBlocks;
  readonly ours: MarkdownBlocks;
  readonly theirs: MarkdownBlocks;
}

type SideName = keyof Sides;

/** Ours' value where ours changed it from base, else theirs'. */
function pickChanged<T>(sides: Sides, valueOf: (side: MarkdownBlocks, name: SideName) => T): T {
  const ours = valueOf(sides.ours, 'ours');
  return JSON.stringify(ours) !== JSON.stringify(valueOf(sides.base, 'base')) ? ours : valueOf(sides.theirs, 'theirs');
}

function trailingBlankLines(side: MarkdownBlocks): readonly string[] {
  const last = side.blocks[side.blocks.length - 1];
  return last ? side.lines.slice(last.end) : [];
}

/** A block's lines. */
function blockLines(side: MarkdownBlocks, index: number): readonly string[] {
  const block = side.blocks[index];
  return block ? side.lines.slice(block.start, block.end) : [];
}

/** The blank lines after a block, or undefined for the last block (the text's end follows it). */
function separatorAfter(side: MarkdownBlocks, index: number): readonly string[] | undefined {
  const block = side.blocks[index];
  return block && index < side.blocks.length - 1 ? side.lines.slice(block.end, block.separatorEnd) : undefined;
}

/** The lines of a run of blocks, with the blank lines between them. */
function spanLines(side: MarkdownBlocks, span: Span): readonly string[] {
  const first = side.blocks[span.start];
  const last = side.blocks[span.end - 1];
  return first && last && span.end > span.start ? side.lines.slice(first.start, last.end) : [];
}

function planRegion(region: Region, sides: Sides, plan: MergePlan, narrowed = false): void {
  switch (region.kind) {
    case 'unchanged':
      for (let offset = 0; offset < region.base.end - region.base.start; offset++) {
        const separator = pickChanged(sides, (side, name) => separatorAfter(side, region[name].start + offset));
        plan.text(blockLines(sides.base, region.base.start + offset), separator);
      }
      return;
    case 'ours':
    case 'theirs':
    case 'both': {
      const name = region.kind === 'theirs' ? 'theirs' : 'ours';
      plan.note(region.kind, () => takeBlocks(sides[name], region[name], plan));
      return;
    }
    case 'conflict':
      if (narrowed) {
        plan.note('conflict', () => plan.conflict(spanLines(sides.ours, region.ours), spanLines(sides.theirs, region.theirs)));
      } else {
        planConflictRegion(region, sides, plan);
      }
      return;
  }
}

function takeBlocks(side: MarkdownBlocks, span: Span, plan: MergePlan): void {
  for (let index = span.start; index < span.end; index++) {
    plan.text(blockLines(side, index), separatorAfter(side, index));
  }
}

/**
 * Blocks both sides changed: merged line by line, block by block when both sides still have as many blocks
 * as the base (so only the blocks that really conflict get markers), else as one run of lines, and failing
 * that narrowed to the blocks that differ.
 */
function planConflictRegion(region: Region, sides: Sides, plan: MergePlan): void {
  const count = region.base.end - region.base.start;
  const pairwise = region.ours.end - region.ours.start === count && region.theirs.end - region.theirs.start === count;
  const spans = pairwise
    ? Array.from({ length: count }, (_, offset) => spanTriple(region, offset))
    : [{ base: region.base, ours: region.ours, theirs: region.theirs }];
  for (const span of spans) {
    const lines = { base: spanLines(sides.base, span.base), ours: spanLines(sides.ours, span.ours), theirs: spanLines(sides.theirs, span.theirs) };
    const separator = span.ours.end > span.ours.start ? separatorAfter(sides.ours, span.ours.end - 1) : separatorAfter(sides.theirs, span.theirs.end - 1);
    const merged = mergeLines(lines.base, lines.ours, lines.theirs);
    const thread = merged ? undefined : mergeCommentThread(lines.base, lines.ours, lines.theirs);
    if (merged) {
      plan.note('lines', () => plan.text(merged, separator));
    } else if (thread) {
      plan.note('replies', () => plan.text(thread, separator));
    } else if (pairwise) {
      plan.note('conflict', () => plan.conflict(lines.ours, lines.theirs));
    } else {
      for (const narrowed of narrowConflict(region, sides.base.keys, sides.ours.keys, sides.theirs.keys)) {
        planRegion(narrowed, sides, plan, true);
      }
    }
  }
}

function spanTriple(region: Region, offset: number): { base: Span; ours: Span; theirs: Span } {
  const one = (span: Span): Span => ({ start: span.start + offset, end: span.start + offset + 1 });
  return { base: one(region.base), ours: one(region.ours), theirs: one(region.theirs) };
}

/** The line-by-line merge of the three, or undefined if both sides changed the same lines differently. */
function mergeLines(base: readonly string[], ours: readonly string[], theirs: readonly string[]): string[] | undefined {
  if (base.length === 1 && ours.length === 1 && theirs.length === 1) {
    // A paragraph of one line both sides changed (the usual case): a conflict unless one side kept it or both agree.
    return ours[0] === theirs[0] || theirs[0] === base[0] ? [...ours] : ours[0] === base[0] ? [...theirs] : undefined;
  }
  const merged: string[] = [];
  for (const region of mergeRegions(base, ours, theirs)) {
    if (region.kind === 'conflict') {
      return undefined;
    }
    const [lines, span] = region.kind === 'unchanged' ? [base, region.base] : region.kind === 'theirs' ? [theirs, region.theirs] : [ours, region.ours];
    merged.push(...lines.slice(span.start, span.end));
  }
  return merged;
}

type NoteKind = 'ours' | 'theirs' | 'both' | 'lines' | 'replies' | 'conflict';

type Piece =
  | { readonly kind: 'text'; readonly lines: readonly string[]; readonly separator: readonly string[] | undefined }
  | { readonly kind: 'conflict'; readonly ours: readonly string[]; readonly theirs: readonly string[] };

interface Note {
  readonly kind: NoteKind;
  readonly firstPiece: number;
  readonly endPiece: number;
}

/** The merged blocks in order, then laid out with the blank lines between them. */
class MergePlan {
  private readonly pieces: Piece[] = [];
  private readonly notes: Note[] = [];

  constructor(private readonly lineEnd: string) {}

  text(lines: readonly string[], separator: readonly string[] | undefined): void {
    if (lines.length > 0) {
      this.pieces.push({ kind: 'text', lines, separator });
    }
  }

  conflict(ours: readonly string[], theirs: readonly string[]): void {
    const previous = this.pieces[this.pieces.length - 1];
    if (previous?.kind === 'conflict') {
      // Adjacent conflicts make one, so no side is split between two marker pairs.
      const join = (a: readonly string[], b: readonly string[]) => (a.length > 0 && b.length > 0 ? [...a, this.lineEnd, ...b] : [...a, ...b]);
      this.pieces[this.pieces.length - 1] = { kind: 'conflict', ours: join(previous.ours, ours), theirs: join(previous.theirs, theirs) };
      return;
    }
    this.pieces.push({ kind: 'conflict', ours, theirs });
  }

  /** Records what `add` adds to the plan, for the log. */
  note(kind: NoteKind, add: () => void): void {
    const firstPiece = this.pieces.length;
    add();
    this.notes.push({ kind, firstPiece, endPiece: this.pieces.length });
  }

  /**
   * The lines: between blocks the blank lines that followed the block in its text (one blank line if it was
   * last there). Each side of a conflict carries a blank line next to its blocks, inside the markers, so that
   * accepting one side, the other, or both keeps blocks apart: after the blocks when something follows the
   * conflict, before them when the conflict ends the text.
   */
  assemble(edges: { leading: readonly string[]; trailing: readonly string[]; endsWithNewline: boolean }): MarkdownMerge {
    const lines: MergedLine[] = [...edges.leading];
    const pieceStartLines: number[] = [];
    const pieceEndLines: number[] = [];
    let textLine = edges.leading.length;
    const emit = (line: MergedLine): void => {
      lines.push(line);
      textLine += typeof line === 'string' ? 1 : line.ours.length + line.theirs.length + 3;
    };
    const blank = this.lineEnd;
    this.pieces.forEach((piece, index) => {
      pieceStartLines.push(textLine);
      const next = this.pieces[index + 1];
      const isLast = next === undefined;
      if (piece.kind === 'text') {
        piece.lines.forEach(emit);
        pieceEndLines.push(textLine);
        const nextEndsText = next?.kind === 'conflict' && index + 2 === this.pieces.length;
        if (!isLast && !nextEndsText) {
          (piece.separator ?? [blank]).forEach(emit);
        }
        return;
      }
      const withBlank = (side: readonly string[], where: 'after' | 'before') =>
        side.length === 0 ? side : where === 'after' ? [...side, blank] : [blank, ...side];
      if (!isLast) {
        emit({ ours: withBlank(piece.ours, 'after'), theirs: withBlank(piece.theirs, 'after') });
      } else if (index > 0) {
        emit({ ours: withBlank(piece.ours, 'before'), theirs: withBlank(piece.theirs, 'before') });
      } else {
        // The whole text is one conflict: a blank line after ours keeps Accept Both's blocks apart.
        emit({ ours: piece.theirs.length > 0 ? withBlank(piece.ours, 'after') : piece.ours, theirs: piece.theirs });
      }
      pieceEndLines.push(textLine);
    });
    pieceStartLines.push(textLine);
    edges.trailing.forEach(emit);
    const conflicts = this.pieces.filter((piece) => piece.kind === 'conflict').length;
    const changes = this.notes.map((note) => describeNote(note, pieceStartLines, pieceEndLines, textLine));
    return { lines, endsWithNewline: edges.endsWithNewline, conflicts, changes, lineEnd: this.lineEnd };
  }
}

const WHO = { ours: 'kept your', theirs: "took PostHog's", both: 'both made the same', lines: 'merged both changes', replies: 'united the replies', conflict: 'conflict' } as const;

function describeNote(note: Note, pieceStartLines: readonly number[], pieceEndLines: readonly number[], lineCount: number): string {
  const first = (pieceStartLines[note.firstPiece] ?? lineCount) + 1;
  if (note.firstPiece === note.endPiece) {
    const where = first > lineCount ? 'at the end' : `at line ${first}`;
    return note.kind === 'both' ? `both deleted the same lines ${where}` : `${WHO[note.kind]} deletion ${where}`;
  }
  const last = pieceEndLines[note.endPiece - 1] ?? lineCount;
  const lines = first >= last ? `line ${first}` : `lines ${first}-${last}`;
  switch (note.kind) {
    case 'conflict':
      return `conflict at ${lines}`;
    case 'lines':
      return `merged both changes to ${lines} line by line`;
    case 'replies':
      return `united both sides' replies to the comment thread at ${lines}`;
    default:
      return `${WHO[note.kind]} change to ${lines}`;
  }
}
