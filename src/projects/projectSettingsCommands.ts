import * as vscode from 'vscode';
import { errorText, type ProjectWritableField } from '../api';
import { projectDocumentPath } from '../common/documentPaths';
import type { ConnectionSession } from '../connections';
import type { ExplorerNode } from '../tree';
import { COMMANDS } from '../workbench/commandIds';
import type { CommandHandlers } from '../workbench/commands';
import { ProjectCommandGroup } from './projectCommandContext';
import { SETTINGS_DOCUMENT_NAME } from './projectSettingsDocument';
import { PROJECT_SWITCHES, switchIsOn } from './projectSwitches';

type SwitchItem = vscode.QuickPickItem & { readonly field: ProjectWritableField };

/** A project's settings and their history: the settings document, the feature switches, the activity pages. */
export class ProjectSettingsCommands extends ProjectCommandGroup {
  protected commands(): CommandHandlers {
    return {
      [COMMANDS.editProjectSettings]: (node?: ExplorerNode) => this.editProjectSettings(node),
      [COMMANDS.toggleProjectFeatures]: (node?: ExplorerNode) => this.toggleProjectFeatures(node),
      [COMMANDS.showProjectActivity]: (node?: ExplorerNode) => this.showProjectActivity(node),
      [COMMANDS.loadMoreProjectActivity]: (uri?: vscode.Uri) => this.loadMoreActivity(uri),
    };
  }

  /** Opens the full project as a JSON document of the posthog file system. */
  async editProjectSettings(node?: ExplorerNode): Promise<vscode.TextEditor | undefined> {
    const target = await this.context.projectTarget(node, vscode.l10n.t('Edit Project Settings'));
    if (!target) {
      return undefined;
    }
    try {
      return await this.window.editors.open(this.settingsUri(target));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      void this.window.showErrorMessage(vscode.l10n.t('Could not open the settings of "{0}": {1}', target.project.name, reason));
      return undefined;
    }
  }

  settingsUri(target: { session: ConnectionSession; project: { id: number } }): vscode.Uri {
    return this.context.deps.documents.uri(projectDocumentPath(target.project.id, SETTINGS_DOCUMENT_NAME), target.session.connection.id);
  }

  /** A multi-select of the common on/off settings; sends only the switches that changed. */
  async toggleProjectFeatures(node?: ExplorerNode): Promise<void> {
    const target = await this.context.projectTarget(node, vscode.l10n.t('Toggle Project Features'));
    if (!target) {
      return;
    }
    const operations = this.context.operations(target);
    try {
      const project = await operations.get(target.project.id);
      const items: SwitchItem[] = PROJECT_SWITCHES.map((item) => ({
        label: vscode.l10n.t(item.label),
        detail: vscode.l10n.t(item.detail),
        description: item.field,
        picked: switchIsOn(project, item),
        field: item.field,
      }));
      const chosen = await this.window.showQuickPick(items, {
        title: vscode.l10n.t('Features of {0}', project.name),
        placeHolder: vscode.l10n.t('Tick the features to turn on; untick to turn off'),
        canPickMany: true,
        matchOnDescription: true,
      });
      if (!chosen) {
        return;
      }
      const { changed } = await operations.setSwitches(project, new Set(chosen.map((item) => item.field)));
      if (Object.keys(changed).length === 0) {
        void this.window.showInformationMessage(vscode.l10n.t('Nothing changed.'));
        return;
      }
      this.context.projectChanged(target);
      const summary = PROJECT_SWITCHES.filter((item) => item.field in changed)
        .map((item) => `${vscode.l10n.t(item.label)}: ${(changed[item.field] === true) !== !!item.inverted ? vscode.l10n.t('on') : vscode.l10n.t('off')}`)
        .join(', ');
      void this.window.showInformationMessage(vscode.l10n.t('Updated {0}: {1}.', project.name, summary));
    } catch (error) {
      await this.context.failed(vscode.l10n.t('change the features of "{0}"', target.project.name), error, target);
    }
  }

  /** Opens a read-only Markdown page of who changed what and when; older pages load from the editor title. */
  async showProjectActivity(node?: ExplorerNode): Promise<vscode.Uri | undefined> {
    const target = await this.context.projectTarget(node, vscode.l10n.t('Show Project Activity'));
    if (!target) {
      return undefined;
    }
    const { session, project } = target;
    const operations = this.context.operations(target);
    try {
      const first = await this.context.progress(vscode.l10n.t('Loading activity…'), () => operations.activity(project.id, 1));
      const uri = this.context.deps.activity.open(session.connection.id, project.id, project.name, operations, first);
      await this.window.editors.open(uri);
      return uri;
    } catch (error) {
      await this.context.failed(vscode.l10n.t('read the activity of "{0}"', project.name), error, target);
      return undefined;
    }
  }

  /** Adds older entries to an activity page: the one given, or the active editor's. */
  async loadMoreActivity(uri?: vscode.Uri): Promise<void> {
    const { activity } = this.context.deps;
    const active = this.window.editors.activeUri();
    const target = uri ?? (active?.scheme === activity.scheme ? active : undefined);
    if (!target) {
      return;
    }
    if (!activity.hasMore(target)) {
      void this.window.showInformationMessage(vscode.l10n.t('All activity is shown.'));
      return;
    }
    try {
      await activity.loadMore(target);
    } catch (error) {
      void this.window.showErrorMessage(vscode.l10n.t('Could not load more activity: {0}', errorText(error)));
    }
  }
}
