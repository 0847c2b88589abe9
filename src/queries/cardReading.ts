import { type LinePosition, PostHogBlockReading } from '../notebooks';
import { type CardText, cardsOfBlocks, type QueryCard } from './cards';

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
  private constructor(private readonly reading: PostHogBlockReading) {}

  static of(text: string): QueryCardReading {
    return new QueryCardReading(PostHogBlockReading.of(text));
  }

  /** Applies one event's changes, whose ranges all refer to the text before the event. */
  apply(changes: readonly TextChange[]): void {
    for (const change of [...changes].sort(lastFirst)) {
      this.reading.replace(change.range.start, change.range.end, change.text);
    }
  }

  get lineCount(): number {
    return this.reading.lineCount;
  }

  /** The cards, with SQL cells' offsets in the text as `offsetOfLine` gives a line's start. */
  cards(offsetOfLine: (line: number) => number): QueryCard[] {
    const text: CardText = { lineText: (line) => this.reading.lineAt(line), offsetOfLine };
    return cardsOfBlocks(this.reading.blocks, text);
  }
}

function lastFirst(a: TextChange, b: TextChange): number {
  return b.range.start.line - a.range.start.line || b.range.start.character - a.range.start.character;
}
