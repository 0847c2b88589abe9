import type * as vscode from 'vscode';
import { scanTags } from '../notebooks';
import { mayHoldSqlCells, type ScannedTag, sqlCellTexts } from './sqlCells';
import { plainTextMap, type QueryTextMap } from './textOffsets';

export const HOGQL_LANGUAGE_ID = 'hogql';

/** Whether the document is one whose HogQL the extension checks and completes: a HogQL document or a notebook. */
export function holdsQueries(document: vscode.TextDocument, posthogScheme: string): boolean {
  return document.languageId === HOGQL_LANGUAGE_ID || isNotebookMarkdown(document, posthogScheme);
}

/** A notebook's SQL cells as tags, for the document as it is now (src/queries' cards, which the lenses read). */
export interface SqlCellSource {
  sqlCellTagsOf(document: vscode.TextDocument): readonly ScannedTag[];
}

/**
 * Where notebooks' SQL cells come from: the query cards of src/queries once the wiring hands them over
 * (`use`), so that what the lenses run is what is checked and completed, and a keystroke does not scan the
 * whole notebook again; until then, or for a text that is no longer the document's, a scan of the text's tags.
 */
export class SqlCells {
  private source: SqlCellSource | undefined;

  use(source: SqlCellSource): void {
    this.source = source;
  }

  tagsOf(document: vscode.TextDocument, text: string, isCurrent: boolean): readonly ScannedTag[] {
    return this.source && isCurrent ? this.source.sqlCellTagsOf(document) : scanTags(text).tags;
  }
}

/** The HogQL texts a document holds: all of a HogQL document, or each SQL cell of a notebook. */
export function queryTexts(document: vscode.TextDocument, text: string, posthogScheme: string, cells: SqlCells, isCurrent = text === document.getText()): QueryTextMap[] {
  if (document.languageId === HOGQL_LANGUAGE_ID) {
    return [plainTextMap(text)];
  }
  if (!isNotebookMarkdown(document, posthogScheme) || !mayHoldSqlCells(text)) {
    return [];
  }
  return sqlCellTexts(text, cells.tagsOf(document, text, isCurrent));
}

/** The query text holding a document offset (the caret), and the caret's offset in it. */
export function queryAt(document: vscode.TextDocument, offset: number, posthogScheme: string, cells: SqlCells): { map: QueryTextMap; caret: number } | undefined {
  for (const map of queryTexts(document, document.getText(), posthogScheme, cells, true)) {
    const caret = map.fromDocument(offset);
    if (caret !== undefined) {
      return { map, caret };
    }
  }
  return undefined;
}

function isNotebookMarkdown(document: vscode.TextDocument, posthogScheme: string): boolean {
  return document.uri.scheme === posthogScheme && document.languageId === 'markdown';
}
