import * as vscode from 'vscode';
import { parseNotebookPath } from '../notebooks';
import { findQueryCards, type QueryCard } from './cards';

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

/**
 * The query cards of notebook Markdown documents of the `posthog` file system, read once per version of the
 * text (the lenses ask on every change; commands ask again).
 */
export class QueryDocuments {
  private readonly read = new Map<string, { version: number; cards: QueryCard[] }>();

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
    const known = this.read.get(key);
    if (known?.version === document.version) {
      return known.cards;
    }
    const cards = findQueryCards(document.getText());
    this.read.set(key, { version: document.version, cards });
    return cards;
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
