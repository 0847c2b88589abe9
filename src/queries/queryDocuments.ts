import * as vscode from 'vscode';
import { parseNotebookPath } from '../notebooks';
import { QueryCardReading } from './cardReading';
import { cardTagAppears, mayHoldQueryCards, type QueryCard } from './cards';

/** Where a document's queries go: a project of a connection (the contract HogQL's document targets keep). */
export interface QueryTarget {
  readonly connectionId: string;
  readonly projectId: number;
}

/** Which project each HogQL document belongs to (src/hogql's HogQLTargets, handed over by the wiring). */
export interface DocumentTargets {
  bind(uri: vscode.Uri, target: QueryTarget): void;
  targetOf(document: vscode.TextDocument): QueryTarget | undefined;
}

/** A notebook's Markdown file: its project and short id. */
export interface NotebookRef extends QueryTarget {
  readonly shortId: string;
}

export const HOGQL_LANGUAGE = 'hogql';

/** What is known of a document at a version: PostHog's reading of its text, kept while it may hold cards. */
interface KnownDocument {
  version: number;
  readonly reading: QueryCardReading | undefined;
  cards: QueryCard[] | undefined;
}

/**
 * The query cards of notebook Markdown documents of the `posthog` file system: the lenses, the commands and
 * the budget's status all ask here. The lenses ask on every change, so a document's reading follows its edits
 * (`follow`, re-reading only the blocks an edit can change) instead of reading a big notebook again.
 */
export class QueryDocuments {
  private readonly read = new Map<string, KnownDocument>();
  private wholeReads = 0;

  constructor(private readonly scheme: string) {}

  notebookOf(uri: vscode.Uri): NotebookRef | undefined {
    const path = uri.scheme === this.scheme ? parseNotebookPath(uri.authority, uri.path) : undefined;
    return path?.kind === 'notebook' && path.form === 'markdown' ? { connectionId: path.connectionId, projectId: path.projectId, shortId: path.shortId } : undefined;
  }

  cardsOf(document: vscode.TextDocument): QueryCard[] {
    if (!this.notebookOf(document.uri)) {
      return [];
    }
    const key = document.uri.toString();
    let known = this.read.get(key);
    if (known?.version !== document.version) {
      known = readWhole(document);
      this.read.set(key, known);
      this.wholeReads++;
    }
    known.cards ??= known.reading?.cards((line) => document.offsetAt(new vscode.Position(line, 0))) ?? [];
    return known.cards;
  }

  /** The SQL cells as tags (src/hogql's SqlCellSource): name, the code as written, where its value starts. */
  sqlCellTagsOf(document: vscode.TextDocument): { name: string; props: Record<string, unknown>; propSpans: Record<string, { valueStart: number }> }[] {
    return this.cardsOf(document).flatMap((card) =>
      card.sql?.written ? [{ name: card.tag, props: { code: card.sql.written.code }, propSpans: { code: { valueStart: card.sql.written.valueStart } } }] : [],
    );
  }

  /** How many times a document's whole text was read (the first time, when a card tag first appears, or when its edits could not be followed). */
  get readsOfWholeText(): number {
    return this.wholeReads;
  }

  /** Applies an edit to the document's reading, if it has one of the version before; else forgets it. */
  follow(event: vscode.TextDocumentChangeEvent): void {
    const { document } = event;
    const key = document.uri.toString();
    const known = this.read.get(key);
    if (!known || known.version === document.version) {
      return;
    }
    if (known.version !== document.version - 1 || event.contentChanges.length === 0) {
      this.read.delete(key);
      return;
    }
    if (!known.reading) {
      this.followWithoutCards(known, event);
      return;
    }
    try {
      known.reading.apply(event.contentChanges);
    } catch (error) {
      // A reading an edit broke half-way is not kept: the next ask reads the whole text.
      this.read.delete(key);
      throw error;
    }
    if (known.reading.lineCount !== document.lineCount) {
      // Line breaks counted differently than the editor does: read the text again rather than misplace cards.
      this.read.delete(key);
      return;
    }
    known.version = document.version;
    known.cards = undefined;
  }

  /** A text without a card tag keeps that answer unless the edit's own text made a tag start a line. */
  private followWithoutCards(known: KnownDocument, event: vscode.TextDocumentChangeEvent): void {
    if (cardTagTyped(event)) {
      this.read.delete(event.document.uri.toString());
      return;
    }
    known.version = event.document.version;
  }

  /** The card on a line, if any. */
  cardAt(document: vscode.TextDocument, line: number): QueryCard | undefined {
    return this.cardsOf(document).find((card) => card.range.startLine <= line && line < card.range.endLine);
  }

  cardById(document: vscode.TextDocument, cardId: string): QueryCard | undefined {
    return this.cardsOf(document).find((card) => card.id === cardId);
  }

  forget(uri: vscode.Uri): void {
    this.read.delete(uri.toString());
  }
}

/** The whole text read; a text without a card tag is not read (most notebooks), and read once one is typed. */
function readWhole(document: vscode.TextDocument): KnownDocument {
  const text = document.getText();
  return { version: document.version, reading: mayHoldQueryCards(text) ? QueryCardReading.of(text) : undefined, cards: undefined };
}

/** Whether one of an event's changes made a card tag start a line: only the changed lines are looked at. */
function cardTagTyped({ document, contentChanges }: vscode.TextDocumentChangeEvent): boolean {
  const lines = { lineText: (line: number) => document.lineAt(line).text };
  // The changes' offsets refer to the text before the event: each moves by the changes before it.
  let moved = 0;
  return [...contentChanges]
    .sort((a, b) => a.rangeOffset - b.rangeOffset)
    .some((change) => {
      const start = change.rangeOffset + moved;
      moved += change.text.length - change.rangeLength;
      return cardTagAppears(lines, document.positionAt(start), document.positionAt(start + change.text.length));
    });
}
