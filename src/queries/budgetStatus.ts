import * as vscode from 'vscode';
import { BUDGET_LIMITS } from '../api';
import { Disposable } from '../workbench/disposable';
import type { WindowApi } from '../workbench/window';
import type { QueryTarget } from './queryDocuments';
import type { QueryRunner } from './queryRunner';

/**
 * How many HogQL queries the key has left this hour, in the status bar while a notebook with queries or a
 * HogQL document is active. PostHog allows 120 an hour per key; the runs wait for room rather than fail.
 */
export class BudgetStatus extends Disposable {
  private readonly item: vscode.StatusBarItem;
  private showing = 0;

  constructor(
    private readonly window: WindowApi,
    private readonly runner: QueryRunner,
    private readonly targetOf: (document: vscode.TextDocument) => QueryTarget | undefined,
  ) {
    super();
    this.item = this._register(window.createStatusBarItem('posthogExplorer.queryBudget', vscode.StatusBarAlignment.Right, 90));
    this.item.name = vscode.l10n.t('PostHog HogQL Budget');
    this._register(window.editors.onDidChangeActive(() => void this.update()));
    this._register(runner.onDidSpendBudget(() => void this.update()));
    void this.update();
  }

  /** The HogQL queries left for the active document's key; undefined when none is shown. */
  async update(): Promise<number | undefined> {
    const showing = ++this.showing;
    const document = this.window.editors.activeSelection()?.document;
    const target = document && this.targetOf(document);
    const budget = target && (await this.runner.budgetOf(target.connectionId));
    if (showing !== this.showing) {
      return undefined;
    }
    if (!budget) {
      this.item.hide();
      return undefined;
    }
    const left = budget.left('hogql');
    const hourly = BUDGET_LIMITS.hogql[0]!.server;
    this.item.text = `$(pulse) ${vscode.l10n.t('HogQL {0} left', left)}`;
    this.item.tooltip = vscode.l10n.t(
      '{0} HogQL queries left this hour for this API key. PostHog allows {1} an hour per key; queries wait for room rather than fail.',
      left,
      hourly,
    );
    this.item.show();
    return left;
  }
}
