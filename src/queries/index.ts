import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections';
import type { PostHogFileSystem } from '../documents';
import type { WorkbenchRegistry } from '../workbench/commands';
import { Disposable } from '../workbench/disposable';
import type { EnvApi, WindowApi } from '../workbench/window';
import { BudgetStatus } from './budgetStatus';
import { QueryCommands } from './queryCommands';
import { type DocumentTargets, HOGQL_LANGUAGE, QueryDocuments, type QueryTarget } from './queryDocuments';
import { QueryLenses } from './queryLenses';
import { QueryRunner } from './queryRunner';
import type { ResultsView } from '../results';

export { findQueryCards, type QueryCard } from './cards';
export { innerQuery, queryKindLabel } from './innerQuery';
export type { DocumentTargets, QueryTarget } from './queryDocuments';
export type { RunState } from './runController';

export interface QueriesServices {
  readonly connections: ConnectionManager;
  readonly documents: Pick<PostHogFileSystem, 'scheme'>;
  readonly window: WindowApi;
  readonly env: EnvApi;
  readonly registry: WorkbenchRegistry;
  readonly log: vscode.LogOutputChannel;
}

/**
 * Running a notebook's queries: lenses over each query card and SQL cell (Run, the last run's state, Open in
 * PostHog), Run Query / Run All Queries / Cancel Query, each run's state in the Results view, and the key's
 * HogQL budget in the status bar. Never edits or saves the notebook.
 */
export class QueriesFeature extends Disposable {
  readonly documents: QueryDocuments;
  readonly runner: QueryRunner;
  readonly lenses: QueryLenses;
  readonly commands: QueryCommands;
  readonly budget: BudgetStatus;

  constructor(services: QueriesServices, results: ResultsView, private readonly targets: DocumentTargets) {
    super();
    const scheme = services.documents.scheme;
    this.documents = new QueryDocuments(scheme);
    this.runner = this._register(new QueryRunner(services.connections, results, services.log));
    this.lenses = this._register(new QueryLenses(scheme, this.documents, this.runner.runs));
    this.commands = this._register(new QueryCommands(this.targets, this.documents, this.runner, services.connections, services.window, services.env).register(services.registry));
    this.budget = this._register(new BudgetStatus(services.window, this.runner, (document) => this.targetOf(document)));
    this._register(vscode.workspace.onDidChangeTextDocument((event) => this.documents.follow(event)));
    this._register(
      vscode.workspace.onDidCloseTextDocument((document) => {
        this.documents.forget(document.uri);
        this.runner.runs.forget(document.uri.toString());
      }),
    );
  }

  private targetOf(document: vscode.TextDocument): QueryTarget | undefined {
    const notebook = this.documents.notebookOf(document.uri);
    if (notebook) {
      return this.documents.cardsOf(document).length > 0 ? notebook : undefined;
    }
    return document.languageId === HOGQL_LANGUAGE ? this.targets.targetOf(document) : undefined;
  }
}

/** `targets` are src/hogql's HogQL documents' projects, handed over by the wiring (the features do not import each other). */
export function registerQueries(services: QueriesServices, results: ResultsView, targets: DocumentTargets): QueriesFeature {
  return new QueriesFeature(services, results, targets);
}
