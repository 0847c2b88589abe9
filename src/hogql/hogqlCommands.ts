import * as vscode from 'vscode';
import { errorText } from '../api';
import type { ConnectionManager } from '../connections';
import { commandTarget, pickProject, ProjectNode } from '../tree';
import { COMMANDS } from '../workbench/commandIds';
import { type CommandHandlers, CommandGroup } from '../workbench/commands';
import type { WindowApi } from '../workbench/window';
import { schemaKey } from './hogqlCompletion';
import type { HogQLTargets, QueryTarget } from './hogqlTargets';
import { HOGQL_LANGUAGE_ID } from './queryTexts';
import type { SchemaCache } from './schemaCache';

/** What a new HogQL document starts with: a query that runs as is. */
const STARTER_QUERY = 'SELECT event, count() AS total\nFROM events\nWHERE timestamp > now() - INTERVAL 7 DAY\nGROUP BY event\nORDER BY total DESC\nLIMIT 100\n';

/** New HogQL Query, the project of a HogQL document, and reloading the schema completion uses. */
export class HogQLCommands extends CommandGroup {
  constructor(
    private readonly connections: ConnectionManager,
    private readonly window: WindowApi,
    private readonly targets: HogQLTargets,
    private readonly schemas: SchemaCache,
  ) {
    super();
  }

  protected commands(): CommandHandlers {
    return {
      [COMMANDS.newHogQLQuery]: (target?: unknown) => this.newQuery(target),
      [COMMANDS.chooseHogQLProject]: (uri?: unknown) => this.chooseProject(uri),
      [COMMANDS.refreshHogQLSchema]: () => this.refreshSchema(),
    };
  }

  /** Opens an untitled HogQL document bound to the item's project, the active document's, or one picked. */
  async newQuery(target?: unknown): Promise<vscode.TextEditor | undefined> {
    const chosen = await commandTarget<QueryTarget>(target, {
      node: (node) => (node instanceof ProjectNode ? { connectionId: node.session.connection.id, projectId: node.project.id } : undefined),
      uri: (uri) => this.targets.targetOf({ uri }),
      activeDocument: () => this.window.editors.activeUri(),
      pick: () => this.pick(vscode.l10n.t('New HogQL Query')),
    });
    if (!chosen) {
      return undefined;
    }
    const editor = await this.window.editors.showUntitled(STARTER_QUERY, HOGQL_LANGUAGE_ID);
    this.targets.bind(editor.document.uri, chosen);
    this.schemas.peek(schemaKey(chosen));
    return editor;
  }

  /** Binds a HogQL document (the given one, or the active one) to a project picked from a list. */
  async chooseProject(uri?: unknown): Promise<QueryTarget | undefined> {
    const documentUri = uri instanceof vscode.Uri ? uri : this.window.editors.activeUri();
    if (!documentUri) {
      return undefined;
    }
    const chosen = await this.pick(vscode.l10n.t('Choose the Project of this HogQL Document'));
    if (chosen) {
      this.targets.bind(documentUri, chosen);
    }
    return chosen;
  }

  /** Loads again the schema and property names of the active document's project (all projects' are forgotten). */
  async refreshSchema(): Promise<void> {
    const uri = this.window.editors.activeUri();
    const target = uri && this.targets.targetOf({ uri });
    this.schemas.clear();
    if (!target) {
      return;
    }
    await this.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Loading the HogQL schema…') }, () => this.schemas.refresh(schemaKey(target)));
    const failed = this.schemas.lastError(schemaKey(target));
    if (failed !== undefined) {
      void this.window.showErrorMessage(vscode.l10n.t('Could not load the HogQL schema: {0}', errorText(failed)));
    }
  }

  private async pick(title: string): Promise<QueryTarget | undefined> {
    const choice = await pickProject(this.connections, this.window, title);
    return choice && { connectionId: choice.session.connection.id, projectId: choice.project.id };
  }
}
