import * as vscode from 'vscode';
import type { BusyTracker } from '../common/busy';
import { COMMANDS } from '../workbench/commandIds';
import { Disposable } from '../workbench/disposable';
import type { WindowApi } from '../workbench/window';
import type { ConnectionManager } from './connectionManager';
import { connectionLabel } from './connectionStore';

/** The active connection in the status bar, spinning while the explorer syncs; a click switches. */
export class ConnectionStatusBar extends Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor(
    private readonly connections: ConnectionManager,
    private readonly busy: BusyTracker,
    window: Pick<WindowApi, 'createStatusBarItem'>,
  ) {
    super();
    this.item = this._register(window.createStatusBarItem('posthogExplorer.connection', vscode.StatusBarAlignment.Left, 10));
    this.item.name = vscode.l10n.t('PostHog Connection');
    this.item.command = COMMANDS.switchConnection;
    this._register(connections.onDidChange(() => this.update()));
    this._register(busy.onDidChange(() => this.update()));
    this.update();
  }

  private update(): void {
    const active = this.connections.store.active();
    if (!active) {
      this.item.hide();
      return;
    }
    const label = connectionLabel(active);
    const icon = this.busy.busy ? '$(sync~spin)' : '$(graph)';
    this.item.text = `${icon} ${label}`;
    this.item.tooltip = this.busy.busy
      ? vscode.l10n.t('PostHog: syncing with {0}…', label)
      : vscode.l10n.t('PostHog: {0}. Click to switch connection.', label);
    this.item.show();
  }
}
