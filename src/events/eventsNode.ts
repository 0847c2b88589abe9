import * as vscode from 'vscode';
import type { ProjectListItem } from '../api';
import { oneSafeLine } from '../common/text';
import type { ConnectionSession } from '../connections';
import { type ExplorerNode, type ProjectNode, type ProjectSection, SessionNode } from '../tree';
import { COMMANDS } from '../workbench/commandIds';

/** The Events item under every project. */
export const eventsSection: ProjectSection = {
  node: (project: ProjectNode) => new EventsNode(project, project.session, project.project),
};

/** Opens the project's events panel (posthogExplorer.browseEvents). */
export class EventsNode extends SessionNode {
  readonly id: string;

  constructor(
    parent: ExplorerNode,
    session: ConnectionSession,
    readonly project: ProjectListItem,
  ) {
    super(parent, session);
    this.id = `${session.connection.id}/project:${project.id}/events`;
  }

  treeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Events'), vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('pulse');
    item.tooltip = vscode.l10n.t('Browse the events of {0}', oneSafeLine(this.project.name));
    item.contextValue = 'events';
    item.command = { command: COMMANDS.browseEvents, title: vscode.l10n.t('Browse Events'), arguments: [this] };
    return item;
  }
}

