import * as vscode from 'vscode';
import { escapeIcons, oneSafeLine } from '../common/text';
import { COMMANDS } from '../workbench/commandIds';
import { Disposable } from '../workbench/disposable';
import type { QueryCard } from './cards';
import type { QueryDocuments } from './queryDocuments';
import type { QueryRunController, RunState } from './runController';

/**
 * Above each query card and SQL cell of a notebook's Markdown: Run (Cancel while it runs), the last run's
 * state, and Open in PostHog. The lenses follow the runs' states and the text's edits.
 */
export class QueryLenses extends Disposable implements vscode.CodeLensProvider {
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(
    scheme: string,
    private readonly documents: QueryDocuments,
    private readonly runs: Pick<QueryRunController, 'stateOf' | 'onDidChange'>,
  ) {
    super();
    this._register(vscode.languages.registerCodeLensProvider({ scheme }, this));
    this._register(runs.onDidChange(() => this.changed.fire()));
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const documentUri = document.uri.toString();
    return this.documents.cardsOf(document).flatMap((card) => {
      const range = new vscode.Range(card.range.startLine, 0, card.range.startLine, 0);
      const state = this.runs.stateOf({ documentUri, cardId: card.id });
      return cardLenses(document.uri, card, state).map((command) => new vscode.CodeLens(range, command));
    });
  }
}

function cardLenses(uri: vscode.Uri, card: QueryCard, state: RunState | undefined): vscode.Command[] {
  const args = [uri, card.id];
  const open: vscode.Command = { title: vscode.l10n.t('$(link-external) Open in PostHog'), command: COMMANDS.openQueryInPostHog, arguments: args };
  if (!card.query) {
    return [{ title: vscode.l10n.t('$(info) A saved insight: shown in PostHog'), command: '' }, open];
  }
  const run: vscode.Command =
    state?.state === 'running'
      ? { title: vscode.l10n.t('$(debug-stop) Cancel'), command: COMMANDS.cancelQuery, arguments: args }
      : { title: vscode.l10n.t('$(play) Run'), command: COMMANDS.runQuery, arguments: args };
  const shown = state && stateLine(state);
  return shown ? [run, { title: shown, command: '' }, open] : [run, open];
}

/** The last run in a few words: running…, "N rows in T s", PostHog's error (short), cancelled. */
export function stateLine(state: RunState): string {
  switch (state.state) {
    case 'running':
      return state.waitingUntil
        ? vscode.l10n.t('$(watch) Waiting for the key\'s HogQL budget until {0}', new Date(state.waitingUntil).toLocaleTimeString())
        : vscode.l10n.t('$(sync~spin) Running…');
    case 'done':
      if (state.rows === undefined) {
        return vscode.l10n.t('$(check) Done in {0} s', seconds(state.durationMs));
      }
      return state.rows === 1
        ? vscode.l10n.t('$(check) 1 row in {0} s', seconds(state.durationMs))
        : vscode.l10n.t('$(check) {0} rows in {1} s', state.rows, seconds(state.durationMs));
    case 'failed':
      return vscode.l10n.t('$(error) {0}', escapeIcons(oneSafeLine(state.message, 80)));
    case 'cancelled':
      return vscode.l10n.t('$(circle-slash) Cancelled');
  }
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(ms < 10_000 ? 2 : 1);
}
