import * as vscode from 'vscode';
import type { ProjectListItem } from '../api';
import { oneSafeLine } from '../common/text';
import type { WindowApi } from '../workbench/window';
import type { ConnectionManager, ConnectionSession } from '../connections';
import type { OrganizationSummary } from '../catalog';

export interface ProjectChoice {
  readonly session: ConnectionSession;
  readonly organization: OrganizationSummary;
  readonly project: ProjectListItem;
}

type ProjectItem = vscode.QuickPickItem & { readonly choice?: ProjectChoice };

/** A quick pick of the active connection's projects, grouped by organization, for commands run from the palette. */
export async function pickProject(
  connections: ConnectionManager,
  window: WindowApi,
  title: string,
): Promise<ProjectChoice | undefined> {
  const active = connections.store.active();
  const session = active && (await connections.session(active.id));
  if (!session) {
    window.offerSignIn();
    return undefined;
  }
  const items = loadProjectItems(session);
  const picked = await window.showQuickPick(items, {
    title,
    placeHolder: vscode.l10n.t('Choose a project'),
    matchOnDescription: true,
  });
  return picked?.choice;
}

async function loadProjectItems(session: ConnectionSession): Promise<ProjectItem[]> {
  const organizations = await session.model.organizations();
  const groups = await Promise.all(
    organizations.map(async (organization) => {
      const projects = await session.model.projects(organization.id);
      return [
        { label: oneSafeLine(organization.name), kind: vscode.QuickPickItemKind.Separator },
        ...projects.map((project) => ({
          label: oneSafeLine(project.name),
          description: `#${project.id}`,
          choice: { session, organization, project },
        })),
      ];
    }),
  );
  return groups.flat();
}
