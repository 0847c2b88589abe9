import * as vscode from 'vscode';
import { completionSpot } from './completionSpot';
import { type HogQLSuggestion, suggestionsFor } from './completions';
import type { HogQLTargets } from './hogqlTargets';
import { HOGQL_LANGUAGE_ID, queryAt, type SqlCells } from './queryTexts';
import type { SchemaCache } from './schemaCache';

const ITEM_KINDS: Record<HogQLSuggestion['kind'], vscode.CompletionItemKind> = {
  table: vscode.CompletionItemKind.Class,
  field: vscode.CompletionItemKind.Field,
  property: vscode.CompletionItemKind.Property,
  keyword: vscode.CompletionItemKind.Keyword,
};

/** Tables, fields and property names from the project's cached schema: answers at once, never waits for PostHog. */
export class HogQLCompletion implements vscode.CompletionItemProvider {
  constructor(
    private readonly targets: HogQLTargets,
    private readonly schemas: SchemaCache,
    private readonly posthogScheme: string,
    private readonly cells: SqlCells,
  ) {}

  /** Where it completes: HogQL documents, and notebooks' Markdown (inside SQL cells only). */
  selector(): vscode.DocumentSelector {
    return [{ language: HOGQL_LANGUAGE_ID }, { language: 'markdown', scheme: this.posthogScheme }];
  }

  provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): vscode.CompletionList | undefined {
    const target = this.targets.targetOf(document);
    const query = target && queryAt(document, document.offsetAt(position), this.posthogScheme, this.cells);
    if (!target || !query) {
      return undefined;
    }
    const schema = this.schemas.peek(schemaKey(target));
    if (!schema) {
      // Loading in the background: VS Code asks again as the user types on.
      return new vscode.CompletionList([], true);
    }
    const spot = completionSpot(query.map.text, query.caret);
    const start = document.positionAt(query.map.toDocument(query.caret - spot.prefix.length));
    const range = new vscode.Range(start, position);
    return new vscode.CompletionList(suggestionsFor(spot, schema).map((suggestion) => itemOf(suggestion, range)));
  }
}

export function schemaKey(target: { readonly connectionId: string; readonly projectId: number }): string {
  return `${target.connectionId}/${target.projectId}`;
}

function itemOf(suggestion: HogQLSuggestion, range: vscode.Range): vscode.CompletionItem {
  const item = new vscode.CompletionItem({ label: suggestion.label, description: suggestion.detail }, ITEM_KINDS[suggestion.kind]);
  item.range = range;
  item.detail = suggestion.detail;
  return item;
}
