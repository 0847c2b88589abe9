import type * as vscode from 'vscode';
import { scanTags } from '../notebooks';
import { mayHoldSqlCells, sqlCellTexts } from './sqlCells';
import { plainTextMap, type QueryTextMap } from './textOffsets';

export const HOGQL_LANGUAGE_ID = 'hogql';

/** Whether the document is one whose HogQL the extension checks and completes: a HogQL document or a notebook. */
export function holdsQueries(document: vscode.TextDocument, posthogScheme: string): boolean {
  return document.languageId === HOGQL_LANGUAGE_ID || isNotebookMarkdown(document, posthogScheme);
}

/** The HogQL texts a document holds: all of a HogQL document, or each SQL cell of a notebook. */
export function queryTexts(document: vscode.TextDocument, text: string, posthogScheme: string): QueryTextMap[] {
  if (document.languageId === HOGQL_LANGUAGE_ID) {
    return [plainTextMap(text)];
  }
  if (!isNotebookMarkdown(document, posthogScheme) || !mayHoldSqlCells(text)) {
    return [];
  }
  return sqlCellTexts(text, scanTags(text).tags);
}

/** The query text holding a document offset (the caret), and the caret's offset in it. */
export function queryAt(document: vscode.TextDocument, offset: number, posthogScheme: string): { map: QueryTextMap; caret: number } | undefined {
  for (const map of queryTexts(document, document.getText(), posthogScheme)) {
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
