import * as vscode from 'vscode';
import { projectKey } from '../common/keys';
import { oneSafeLine } from '../common/text';
import type { EnvApi, WindowApi } from '../workbench/window';
import type { ConnectionManager, ConnectionSession } from '../connections';
import { commandTarget, pickProject, ProjectNode } from '../tree';
import { COMMANDS } from '../workbench/commandIds';
import { type CommandHandlers, CommandGroup, type WorkbenchRegistry } from '../workbench/commands';
import { webviewOptions } from '../workbench/webviewOptions';
import { LEGACY_EVENTS_API_SETTING, SourceChoice } from './eventSource';
import { EVENTS_VIEW_TYPE, EventsPanel, type PanelProject } from './eventsPanel';
import { EventsNode } from './eventsNode';
import { PanelStateSchema } from './protocol';

/** The project whose events a panel shows. */
export interface EventsTarget {
  readonly session: ConnectionSession;
  readonly project: PanelProject;
}

/** "Browse Events": one webview panel per project, restored after a reload by the serializer. */
export class EventsCommands extends CommandGroup implements vscode.WebviewPanelSerializer {
  private readonly panels = new Map<string, EventsPanel>();
  /** Whether each connection's server has the Query API: learnt once, for the session, by all its panels. */
  private readonly sources: SourceChoice;

  constructor(
    private readonly connections: ConnectionManager,
    private readonly extensionUri: vscode.Uri,
    private readonly window: WindowApi,
    private readonly env: EnvApi,
  ) {
    super();
    this.sources = new SourceChoice(
      () => vscode.workspace.getConfiguration().get<boolean>(LEGACY_EVENTS_API_SETTING, false),
      (message) => connections.log.info(message),
    );
    this._register({ dispose: () => [...this.panels.values()].forEach((panel) => panel.dispose()) });
  }

  protected commands(): CommandHandlers {
    return {
      [COMMANDS.browseEvents]: (target?: unknown) => this.browseEvents(target),
      [COMMANDS.tailEvents]: (target?: unknown) => this.tailEvents(target),
    };
  }

  /** The commands, and the serializer that restores panels after a reload. */
  override register(registry: WorkbenchRegistry): this {
    super.register(registry);
    this._register(registry.registerWebviewPanelSerializer(EVENTS_VIEW_TYPE, this));
    return this;
  }

  /** Opens (or reveals) the events panel of the item's project, or of a project picked from a list. */
  async browseEvents(target?: unknown): Promise<EventsPanel | undefined> {
    const chosen = await commandTarget<EventsTarget>(target, {
      node: (node) => (node instanceof EventsNode || node instanceof ProjectNode ? node : undefined),
      pick: () => pickProject(this.connections, this.window, vscode.l10n.t('Browse Events')),
    });
    if (!chosen) {
      return undefined;
    }
    const project = { id: chosen.project.id, name: chosen.project.name };
    const existing = this.panels.get(projectKey(chosen.session.connection.id, project.id));
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    const panel = this.window.createWebviewPanel(
      EVENTS_VIEW_TYPE,
      vscode.l10n.t('Events: {0}', oneSafeLine(project.name)),
      vscode.ViewColumn.Active,
      webviewOptions(this.extensionUri),
    );
    return this.attach(panel, chosen.session, project);
  }

  /** Opens the events panel as Browse Events does, with Live on. */
  async tailEvents(target?: unknown): Promise<EventsPanel | undefined> {
    const panel = await this.browseEvents(target);
    panel?.live.set(true);
    return panel;
  }

  /** The panel of a project, when it is open. */
  panel(connectionId: string, projectId: number): EventsPanel | undefined {
    return this.panels.get(projectKey(connectionId, projectId));
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const parsed = PanelStateSchema.safeParse(state);
    const session = parsed.success ? await this.connections.session(parsed.data.connectionId) : undefined;
    if (!parsed.success || !session) {
      panel.webview.options = { enableScripts: false };
      panel.webview.html = `<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'"></head><body><p>${vscode.l10n.t(
        'This events panel cannot be restored: sign in again and browse the events from the PostHog view.',
      )}</p></body></html>`;
      return;
    }
    const { projectId, projectName, filters, scrollTop } = parsed.data;
    if (this.panels.has(projectKey(session.connection.id, projectId))) {
      panel.dispose();
      return;
    }
    this.attach(panel, session, { id: projectId, name: projectName }, { filters, scrollTop });
  }

  private attach(
    panel: vscode.WebviewPanel,
    session: ConnectionSession,
    project: PanelProject,
    restored?: ConstructorParameters<typeof EventsPanel>[4],
  ): EventsPanel {
    const eventsPanel = new EventsPanel(
      panel,
      session,
      project,
      {
        extensionUri: this.extensionUri,
        window: this.window,
        env: this.env,
        saveDialog: (options) => this.window.showSaveDialog(options),
        session: (connectionId) => this.connections.session(connectionId),
        sources: this.sources,
      },
      restored,
    );
    this.panels.set(eventsPanel.key, eventsPanel);
    eventsPanel.onDidDispose(() => {
      if (this.panels.get(eventsPanel.key) === eventsPanel) {
        this.panels.delete(eventsPanel.key);
      }
    });
    return eventsPanel;
  }
}
