import * as vscode from 'vscode';
import type { ConnectionManager } from '../connections';
import { oneSafeLine } from '../common/text';
import { COMMANDS } from '../workbench/commandIds';
import { Disposable } from '../workbench/disposable';
import type { WindowApi } from '../workbench/window';
import type { HogQLTargets, QueryTarget } from './hogqlTargets';
import { HOGQL_LANGUAGE_ID } from './queryTexts';

/** While a HogQL document is active: the project its queries go to (click to change), or that it has none. */
export class HogQLStatusBar extends Disposable {
  private readonly item: vscode.StatusBarItem;
  /** Counts updates, so that a slow name lookup never overwrites a newer one. */
  private generation = 0;

  constructor(
    private readonly connections: ConnectionManager,
    private readonly targets: HogQLTargets,
    private readonly window: Pick<WindowApi, 'createStatusBarItem' | 'editors'>,
  ) {
    super();
    this.item = this._register(window.createStatusBarItem('posthogExplorer.hogqlProject', vscode.StatusBarAlignment.Right, 100));
    this.item.name = vscode.l10n.t('PostHog HogQL Project');
    this._register(window.editors.onDidChangeActive(() => void this.update()));
    this._register(vscode.workspace.onDidOpenTextDocument(() => void this.update()));
    this._register(targets.onDidChange(() => void this.update()));
    this._register(connections.onDidChange(() => void this.update()));
    void this.update();
  }

  /** What the item says now (for tests), or undefined when hidden. */
  get shown(): { readonly text: string; readonly tooltip: string } | undefined {
    return this.visible ? { text: this.item.text, tooltip: String(this.item.tooltip ?? '') } : undefined;
  }

  private visible = false;

  async update(): Promise<void> {
    const generation = ++this.generation;
    const uri = this.window.editors.activeUri();
    const document = uri && vscode.workspace.textDocuments.find((open) => open.uri.toString() === uri.toString());
    if (!document || document.languageId !== HOGQL_LANGUAGE_ID) {
      this.visible = false;
      this.item.hide();
      return;
    }
    this.item.command = { command: COMMANDS.chooseHogQLProject, title: vscode.l10n.t('Choose Project'), arguments: [document.uri] };
    const target = this.targets.targetOf(document);
    const text = target ? await this.describe(target) : undefined;
    if (generation !== this.generation) {
      return;
    }
    if (target && text) {
      this.item.text = `$(database) ${text.name}`;
      this.item.tooltip = vscode.l10n.t('HogQL: checked and run in {0} (#{1}) on {2}. Click to change the project.', text.name, target.projectId, text.host);
      this.item.backgroundColor = undefined;
    } else {
      this.item.text = `$(database) ${vscode.l10n.t('HogQL: no project')}`;
      this.item.tooltip = vscode.l10n.t('This HogQL document has no PostHog project, so nothing is checked or run. Click to choose one.');
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    }
    this.visible = true;
    this.item.show();
  }

  private async describe(target: QueryTarget): Promise<{ name: string; host: string } | undefined> {
    const session = await this.connections.session(target.connectionId);
    if (!session) {
      return undefined;
    }
    const host = new URL(session.client.baseUrl).host;
    const name = await projectName(session.model, target.projectId).catch(() => undefined);
    return { name: name === undefined ? vscode.l10n.t('Project #{0}', target.projectId) : oneSafeLine(name), host };
  }
}

async function projectName(model: { organizations(): Promise<readonly { id: string }[]>; projects(organizationId: string): Promise<readonly { id: number; name: string }[]> }, projectId: number): Promise<string | undefined> {
  for (const organization of await model.organizations()) {
    const project = (await model.projects(organization.id)).find((candidate) => candidate.id === projectId);
    if (project) {
      return project.name;
    }
  }
  return undefined;
}
