import * as vscode from 'vscode';
import { errorText } from '../api';
import type { ConnectionManager, StateStore } from '../connections';
import type { PostHogFileSystem } from '../documents';
import type { WorkbenchRegistry } from '../workbench/commands';
import { Disposable } from '../workbench/disposable';
import type { WindowApi } from '../workbench/window';
import type { Timers } from './checkScheduler';
import { HogQLCommands } from './hogqlCommands';
import { HogQLCompletion } from './hogqlCompletion';
import { HogQLDiagnostics } from './hogqlDiagnostics';
import { diagnosticsDelayMs, schemaMaxAgeMs } from './hogqlSettings';
import { HogQLStatusBar } from './hogqlStatusBar';
import { HogQLTargets, type QueryTarget } from './hogqlTargets';
import { ProjectSchemaLoader } from './projectSchema';
import { SqlCells } from './queryTexts';
import { SchemaCache } from './schemaCache';

export { HogQLTargets, type QueryTarget } from './hogqlTargets';
export { DIAGNOSTIC_SOURCE } from './hogqlDiagnostics';
export { HOGQL_LANGUAGE_ID, type SqlCellSource } from './queryTexts';
export { DIAGNOSTICS_DELAY_SETTING, SCHEMA_MAX_AGE_SETTING } from './hogqlSettings';

export interface HogQLServices {
  readonly log: vscode.LogOutputChannel;
  readonly state: StateStore;
  readonly window: WindowApi;
  readonly registry: WorkbenchRegistry;
  readonly connections: ConnectionManager;
  readonly documents: Pick<PostHogFileSystem, 'scheme'>;
}

/** Characters after which completion opens by itself: a property after `properties.`, a table after `FROM `. */
const TRIGGER_CHARACTERS = ['.', ' '];

/** The HogQL language: documents bound to a project, completion from its schema, PostHog's checks as diagnostics. */
export class HogQLFeature extends Disposable {
  readonly targets: HogQLTargets;
  /** Notebooks' SQL cells: the wiring hands over src/queries' cards (`sqlCells.use`), read in one place. */
  readonly sqlCells = new SqlCells();
  readonly schemas: SchemaCache;
  readonly diagnostics: HogQLDiagnostics;
  readonly completion: HogQLCompletion;
  readonly statusBar: HogQLStatusBar;
  readonly commands: HogQLCommands;

  constructor(services: HogQLServices, options: { readonly timers?: Timers } = {}) {
    super();
    const { connections, log } = services;
    const scheme = services.documents.scheme;
    this.targets = this._register(new HogQLTargets(services.state, scheme));
    const loader = new ProjectSchemaLoader({
      clientOf: async (connectionId) => (await connections.session(connectionId))?.client,
      log: (message) => log.info(message),
    });
    this.schemas = new SchemaCache((key) => loader.load(parseSchemaKey(key)), {
      maxAgeMs: schemaMaxAgeMs,
      onError: (key, error) => log.warn(`HogQL schema of ${key} could not be loaded: ${errorText(error)}`),
      onClear: () => loader.forget(),
    });
    this.diagnostics = this._register(
      new HogQLDiagnostics({ connections, targets: this.targets, log, posthogScheme: scheme, cells: this.sqlCells, delayMs: diagnosticsDelayMs, ...(options.timers ? { timers: options.timers } : {}) }),
    );
    this.completion = new HogQLCompletion(this.targets, this.schemas, scheme, this.sqlCells);
    this._register(vscode.languages.registerCompletionItemProvider(this.completion.selector(), this.completion, ...TRIGGER_CHARACTERS));
    this.statusBar = this._register(new HogQLStatusBar(connections, this.targets, services.window));
    this.commands = this._register(new HogQLCommands(connections, services.window, this.targets, this.schemas).register(services.registry));
    this._register(vscode.workspace.onDidCloseTextDocument((document) => this.targets.forget(document.uri)));
  }
}

function parseSchemaKey(key: string): QueryTarget {
  const slash = key.lastIndexOf('/');
  return { connectionId: key.slice(0, slash), projectId: Number(key.slice(slash + 1)) };
}

export function registerHogQL(services: HogQLServices): HogQLFeature {
  return new HogQLFeature(services);
}
