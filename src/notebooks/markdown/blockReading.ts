import type { PhLocatedBlock } from './posthogReader';
import { postHogLines, readPostHogBlocksFrom } from './posthogReader';

/** A position in the text: 0-based line, and character in that line (VS Code's Position). */
export interface LinePosition {
  readonly line: number;
  readonly character: number;
}

/**
 * What an edit re-read: the lines read again, and how many old blocks, from block `fromBlock` on, were replaced
 * by how many new ones.
 */
export interface RereadExtent {
  readonly fromBlock: number;
  readonly fromLine: number;
  readonly toLine: number;
  readonly oldBlocks: number;
  readonly newBlocks: number;
}

/**
 * PostHog's reading of a text (readPostHogBlocks) that follows the text's edits, re-reading only the blocks an
 * edit can change. Its blocks always equal readPostHogBlocks of the edited text.
 *
 * Why this is sound: PostHog's reader keeps no state from one block to the next (only the line it is at), and
 * a block's reading depends on its lines up to its reach, never on lines before it. So the blocks whose reach
 * ends before the edit read the same, and once the new reading is at a line after the edit where the old
 * reading also was (a block's start or a blank line between blocks), the rest reads as before, shifted. Code
 * left open and `<!--` without a `-->` ending a line reach the end of the text: an edit after them re-reads
 * from them on (and, for an open fence, to the end).
 *
 * An edit costs the blocks it re-reads plus a pass over the blocks after it, whose lines it moves in place: the
 * blocks given out are valid until the next edit.
 */
export class PostHogBlockReading {
  private constructor(
    private lines: string[],
    private trimmed: string[],
    private blockList: PhLocatedBlock[],
    private reaches: number[],
  ) {}

  static of(text: string): PostHogBlockReading {
    const lines = postHogLines(text);
    const trimmed = lines.map((line) => line.trim());
    const { blocks, reaches } = readPostHogBlocksFrom(lines, trimmed, 0, () => false);
    return new PostHogBlockReading(lines, trimmed, blocks, reaches);
  }

  get blocks(): readonly PhLocatedBlock[] {
    return this.blockList;
  }

  get lineCount(): number {
    return this.lines.length;
  }

  lineAt(line: number): string {
    return this.lines[line]!;
  }

  /**
   * Replaces the text from `start` to `end` with `text` (a VS Code content change) and re-reads what it can
   * change. Several changes of one event apply from the last to the first.
   */
  replace(start: LinePosition, end: LinePosition, text: string): RereadExtent {
    const before = this.lines[start.line]!.slice(0, start.character);
    const after = this.lines[end.line]!.slice(end.character);
    const inserted = postHogLines(`${before}${text}${after}`);
    return this.replaceLines(start.line, end.line + 1, inserted);
  }

  /** Old lines [from, to) become `inserted` (at least one line: an edit always rewrites a line it touches). */
  private replaceLines(from: number, to: number, inserted: string[]): RereadExtent {
    const delta = inserted.length - (to - from);
    const firstChanged = this.firstBlockReaching(from);
    const restart = Math.min(from, this.blockList[firstChanged]?.line ?? from);
    const oldBlocks = this.blockList;
    const oldReaches = this.reaches;
    this.lines = spliced(this.lines, from, to, inserted);
    this.trimmed = spliced(this.trimmed, from, to, inserted.map((line) => line.trim()));
    const editEnd = from + inserted.length;
    let resumeAt = oldBlocks.length;
    const read = readPostHogBlocksFrom(this.lines, this.trimmed, restart, (index) => {
      if (index < editEnd) {
        return false;
      }
      const resume = resumptionAt(oldBlocks, firstChanged, index - delta);
      resumeAt = resume ?? oldBlocks.length;
      return resume !== undefined;
    });
    if (read.end >= this.lines.length) {
      resumeAt = oldBlocks.length;
    }
    if (delta !== 0) {
      for (let index = resumeAt; index < oldBlocks.length; index++) {
        moveBlock(oldBlocks[index]!, delta);
        oldReaches[index]! += delta;
      }
    }
    this.blockList = spliced(oldBlocks, firstChanged, resumeAt, read.blocks);
    this.reaches = spliced(oldReaches, firstChanged, resumeAt, read.reaches);
    return { fromBlock: firstChanged, fromLine: restart, toLine: read.end, oldBlocks: resumeAt - firstChanged, newBlocks: read.blocks.length };
  }

  /** The first block whose reading looked at `line` or after (blocks after it too may, but start later). */
  private firstBlockReaching(line: number): number {
    const found = this.reaches.findIndex((reach) => reach >= line);
    return found === -1 ? this.blockList.length : found;
  }
}

/**
 * Whether the old reading was at old line `line` (the start of a block, or a blank line between blocks), and
 * if so the index of the first old block from there on. Blocks before `from` are not searched.
 */
function resumptionAt(blocks: readonly PhLocatedBlock[], from: number, line: number): number | undefined {
  let low = from;
  let high = blocks.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (blocks[middle]!.line < line) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  const previous = blocks[low - 1];
  return previous !== undefined && low - 1 >= from && previous.endLine > line ? undefined : low;
}

/** `items` with [from, to) replaced, in place unless too many come in to pass them as arguments. */
function spliced<T>(items: T[], from: number, to: number, inserted: T[]): T[] {
  if (inserted.length <= MAX_SPLICED_ITEMS) {
    items.splice(from, to - from, ...inserted);
    return items;
  }
  return items.slice(0, from).concat(inserted, items.slice(to));
}

/** Spread arguments past tens of thousands overflow the stack. */
const MAX_SPLICED_ITEMS = 10_000;

type Mutable<T> = { -readonly [Key in keyof T]: T[Key] };

/** The reading's own blocks (and errors) move with their lines, without a copy of each per keystroke. */
function moveBlock(block: PhLocatedBlock, delta: number): void {
  const movable = block as Mutable<PhLocatedBlock>;
  movable.line += delta;
  movable.endLine += delta;
  if (block.error) {
    (block.error as Mutable<NonNullable<PhLocatedBlock['error']>>).line += delta;
  }
}
