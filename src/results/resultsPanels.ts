import * as vscode from 'vscode';
import { errorText } from '../api';
import { oneSafeLine } from '../common/text';
import { COMMANDS } from '../workbench/commandIds';
import type { WorkbenchRegistry } from '../workbench/commands';
import { Disposable } from '../workbench/disposable';
import { webviewOptions } from '../workbench/webviewOptions';
import type { EnvApi, WindowApi } from '../workbench/window';
import { ResultsPanelStateSchema, type SavedSection } from './protocol';
import { RESULTS_VIEW_TYPE, ResultsPanel } from './resultsPanel';
import type { ResultSection, ResultSectionState, ResultsTarget, ResultsView } from './resultsView';

export interface ResultsServices {
  readonly extensionUri: vscode.Uri;
  readonly window: WindowApi;
  readonly env: EnvApi;
}

/**
 * The Results panels: one per notebook or HogQL document, opened beside its editor on the first show and
 * kept while hidden; after a window reload the serializer brings the panel back with the sections its
 * webview kept (restored, never run again on their own: a run spends the key's HogQL budget).
 */
export class ResultsPanels extends Disposable implements ResultsView, vscode.WebviewPanelSerializer {
  private readonly panels = new Map<string, ResultsPanel>();
  /** Where Run Query is, once the feature registered the serializer. */
  private registry: WorkbenchRegistry | undefined;
  private readonly cancelRequested = this._register(new vscode.EventEmitter<{ readonly uri: string; readonly sectionId: string }>());
  readonly onDidRequestCancel = this.cancelRequested.event;

  constructor(private readonly services: ResultsServices) {
    super();
    this._register({ dispose: () => [...this.panels.values()].forEach((panel) => panel.dispose()) });
  }

  /** The serializer that restores panels after a reload (registered once, by the feature). */
  register(registry: WorkbenchRegistry): this {
    this.registry = registry;
    this._register(registry.registerWebviewPanelSerializer(RESULTS_VIEW_TYPE, this));
    return this;
  }

  show(target: ResultsTarget, section: ResultSection, state: ResultSectionState): void {
    this.panelFor(target).show(section, state);
  }

  /** The panel of a document, when it is open. */
  panel(uri: vscode.Uri): ResultsPanel | undefined {
    return this.panels.get(uri.toString());
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const parsed = ResultsPanelStateSchema.safeParse(state);
    if (!parsed.success || this.panels.has(parsed.data.uri)) {
      panel.dispose();
      return;
    }
    this.attach(panel, { uri: vscode.Uri.parse(parsed.data.uri), title: parsed.data.title }, parsed.data.sections);
  }

  private panelFor(target: ResultsTarget): ResultsPanel {
    const existing = this.panels.get(target.uri.toString());
    if (existing) {
      return existing;
    }
    const panel = this.services.window.createWebviewPanel(
      RESULTS_VIEW_TYPE,
      vscode.l10n.t('Results: {0}', oneSafeLine(target.title)),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { ...webviewOptions(this.services.extensionUri), retainContextWhenHidden: true },
    );
    return this.attach(panel, target);
  }

  private runAgain(uri: vscode.Uri, sectionId: string): void {
    this.registry?.executeCommand(COMMANDS.runQuery, uri, sectionId).then(undefined, (error: unknown) => {
      void this.services.window.showErrorMessage(vscode.l10n.t('Could not run the query again: {0}', errorText(error)));
    });
  }

  private attach(panel: vscode.WebviewPanel, target: ResultsTarget, restored: readonly SavedSection[] = []): ResultsPanel {
    const key = target.uri.toString();
    const resultsPanel = new ResultsPanel(
      panel,
      target,
      {
        extensionUri: this.services.extensionUri,
        window: this.services.window,
        env: this.services.env,
        requestCancel: (sectionId) => this.cancelRequested.fire({ uri: key, sectionId }),
        runAgain: (sectionId) => this.runAgain(target.uri, sectionId),
      },
      restored,
    );
    this.panels.set(key, resultsPanel);
    resultsPanel.onDidDispose(() => {
      if (this.panels.get(key) === resultsPanel) this.panels.delete(key);
    });
    return resultsPanel;
  }
}
