import * as vscode from 'vscode';
import { Disposable } from '../common/disposable';
import type { WindowApi } from '../common/window';
import type { ConnectionManager, ConnectionSession } from '../connections/connectionManager';
import { pickProject } from '../tree/pickProject';
import { EVENTS_VIEW_TYPE, EventsPanel, panelKey, type PanelProject, webviewOptions } from './eventsPanel';
import type { SaveDialog } from './exportEvents';
import { PanelStateSchema } from './protocol';

/** What the tree passes: the Events item or a project item (both carry a session and a project). */
export interface EventsTarget {
  readonly session: ConnectionSession;
  readonly project: PanelProject;
}

function isEventsTarget(value: unknown): value is EventsTarget {
  const candidate = value as Partial<EventsTarget> | undefined;
  return typeof candidate?.project?.id === 'number' && typeof candidate.session?.connection?.id === 'string';
}

/** "Browse Events": one webview panel per project, restored after a reload by the serializer. */
export class EventsCommands extends Disposable implements vscode.WebviewPanelSerializer {
  private readonly panels = new Map<string, EventsPanel>();

  constructor(
    private readonly connections: ConnectionManager,
    private readonly extensionUri: vscode.Uri,
    private readonly window: WindowApi,
    private readonly saveDialog: SaveDialog = (options) => vscode.window.showSaveDialog(options),
  ) {
    super();
    this._register({ dispose: () => [...this.panels.values()].forEach((panel) => panel.dispose()) });
  }

  register(): this {
    this._register(vscode.commands.registerCommand('posthogExplorer.browseEvents', (target?: unknown) => this.browseEvents(target)));
    this._register(vscode.commands.registerCommand('posthogExplorer.tailEvents', (target?: unknown) => this.tailEvents(target)));
    this._register(vscode.window.registerWebviewPanelSerializer(EVENTS_VIEW_TYPE, this));
    return this;
  }

  /** Opens (or reveals) the events panel of the item's project, or of a project picked from a list. */
  async browseEvents(target?: unknown): Promise<EventsPanel | undefined> {
    let chosen: EventsTarget | undefined = isEventsTarget(target) ? target : undefined;
    if (!chosen) {
      const choice = await pickProject(this.connections, this.window, vscode.l10n.t('Browse Events'));
      chosen = choice && { session: choice.session, project: choice.project };
    }
    if (!chosen) {
      return undefined;
    }
    const project = { id: chosen.project.id, name: chosen.project.name };
    const existing = this.panels.get(panelKey(chosen.session.connection.id, project.id));
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      EVENTS_VIEW_TYPE,
      vscode.l10n.t('Events: {0}', project.name),
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
    return this.panels.get(panelKey(connectionId, projectId));
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
    if (this.panels.has(panelKey(session.connection.id, projectId))) {
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
        saveDialog: this.saveDialog,
        session: (connectionId) => this.connections.session(connectionId),
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
