import type * as vscode from 'vscode';
import type { WorkbenchRegistry } from '../workbench/commands';
import { Disposable } from '../workbench/disposable';
import { ResultsPanels, type ResultsServices } from './resultsPanels';

export { ResultsPanels, type ResultsServices } from './resultsPanels';
export type { ResultsPanel } from './resultsPanel';
export { RESULTS_VIEW_TYPE } from './resultsPanel';
export type { ResultSection, ResultSectionState, ResultsTarget, ResultsView } from './resultsView';

/** The Results panels that query runs show in, and their serializer. */
export class ResultsFeature extends Disposable {
  readonly panels: ResultsPanels;

  constructor(services: ResultsServices & { readonly registry: WorkbenchRegistry; readonly extensionUri: vscode.Uri }) {
    super();
    this.panels = this._register(new ResultsPanels(services).register(services.registry));
  }
}

export function registerResults(services: ResultsServices & { readonly registry: WorkbenchRegistry }): ResultsFeature {
  return new ResultsFeature(services);
}
