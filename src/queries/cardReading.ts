import { type LinePosition, PostHogBlockReading, type RereadExtent } from '../notebooks';
import { cardBlockIndexes, type CardText, cardsOfBlocks, type QueryCard } from './cards';

/** A VS Code content change: a range of the text before it, and what replaced it. */
export interface TextChange {
  readonly range: { readonly start: LinePosition; readonly end: LinePosition };
  readonly text: string;
}

/**
 * A notebook's query cards that follow its edits: PostHog's reading of the text is kept, and an edit re-reads
 * only the blocks it can change (PostHogBlockReading), so that a keystroke in a big notebook costs its
 * neighbourhood, not the whole text. The cards always equal findQueryCards of the edited text.
 */
export class QueryCardReading {
  /** Which of the reading's blocks are cards, kept with each edit so that a big notebook's blocks are not searched again. */
  private cardIndexes: number[];

  private constructor(private readonly reading: PostHogBlockReading) {
    this.cardIndexes = cardBlockIndexes(reading.blocks, 0, reading.blocks.length);
  }

  static of(text: string): QueryCardReading {
    return new QueryCardReading(PostHogBlockReading.of(text));
  }

  /** Applies one event's changes, whose ranges all refer to the text before the event. */
  apply(changes: readonly TextChange[]): void {
    for (const change of [...changes].sort(lastFirst)) {
      this.followCards(this.reading.replace(change.range.start, change.range.end, change.text));
    }
  }

  private followCards(extent: RereadExtent): void {
    const replacedEnd = extent.fromBlock + extent.oldBlocks;
    const moved = extent.newBlocks - extent.oldBlocks;
    this.cardIndexes = [
      ...this.cardIndexes.filter((index) => index < extent.fromBlock),
      ...cardBlockIndexes(this.reading.blocks, extent.fromBlock, extent.fromBlock + extent.newBlocks),
      ...this.cardIndexes.filter((index) => index >= replacedEnd).map((index) => index + moved),
    ];
  }

  get lineCount(): number {
    return this.reading.lineCount;
  }

  /** The cards, with SQL cells' offsets in the text as `offsetOfLine` gives a line's start. */
  cards(offsetOfLine: (line: number) => number): QueryCard[] {
    const text: CardText = { lineText: (line) => this.reading.lineAt(line), offsetOfLine };
    return cardsOfBlocks(this.reading.blocks, text, this.cardIndexes);
  }
}

function lastFirst(a: TextChange, b: TextChange): number {
  return b.range.start.line - a.range.start.line || b.range.start.character - a.range.start.character;
}
