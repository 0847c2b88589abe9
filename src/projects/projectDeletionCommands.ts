import * as vscode from 'vscode';
import { NotFoundError, type Project, ValidationError } from '../api';
import { mayDeleteProjects, type ProjectDeletion } from '../catalog';
import { oneSafeLine } from '../common/text';
import type { ConnectionSession } from '../connections';
import { commandTarget, type ExplorerNode, ProjectNode } from '../tree';
import { COMMANDS } from '../workbench/commandIds';
import type { CommandHandlers } from '../workbench/commands';
import { confirmByTyping } from '../workbench/confirm';
import { displayLanguage } from '../workbench/window';
import { ProjectCommandGroup, type ProjectTarget } from './projectCommandContext';
import type { DeletionOutcome } from './projectOperations';

type PendingItem = vscode.QuickPickItem & { readonly target?: ProjectTarget };

/**
 * Deleting a project as PostHog does it now: a project with events is scheduled for deletion 48 hours later
 * and stays readable until then, when a project admin can still cancel; one without events may go at once;
 * older servers delete at once.
 */
export class ProjectDeletionCommands extends ProjectCommandGroup {
  protected commands(): CommandHandlers {
    return {
      [COMMANDS.deleteProject]: (node?: ExplorerNode) => this.deleteProject(node),
      [COMMANDS.cancelProjectDeletion]: (node?: ExplorerNode) => this.cancelProjectDeletion(node),
    };
  }

  /** A modal warning saying what PostHog will do, the name typed; then what PostHog did, read back. */
  async deleteProject(node?: ExplorerNode): Promise<boolean> {
    const target = await this.context.projectTarget(node, vscode.l10n.t('Delete Project'));
    if (!target) {
      return false;
    }
    const { project } = target;
    const full = await this.context.operations(target).get(project.id).catch(() => undefined);
    if (!this.mayDelete(target, full)) {
      return false;
    }
    const confirmed = await confirmByTyping(
      this.window,
      {
        question: vscode.l10n.t('Delete the project "{0}"?', project.name),
        detail: deletionWarning(full),
        button: vscode.l10n.t('Delete Project…'),
      },
      {
        expected: project.name,
        title: vscode.l10n.t('Delete "{0}"', project.name),
        prompt: vscode.l10n.t('Type the project name to confirm: {0}', project.name),
        mismatch: vscode.l10n.t('Type the project name exactly: {0}', project.name),
      },
    );
    if (!confirmed) {
      return false;
    }
    let outcome: DeletionOutcome;
    try {
      outcome = await this.context.progress(vscode.l10n.t('Deleting "{0}"…', project.name), () => this.context.operations(target).delete(project.id));
    } catch (error) {
      await this.context.failed(vscode.l10n.t('delete "{0}"', project.name), error, target);
      return false;
    }
    await this.deleted(target, outcome, full);
    return true;
  }

  /** Stops a scheduled deletion: the project from the explorer, or a pick of the projects pending deletion. */
  async cancelProjectDeletion(node?: ExplorerNode): Promise<boolean> {
    const target = await commandTarget<ProjectTarget>(node, {
      node: (item) => (item instanceof ProjectNode ? { session: item.session, organization: item.organization, project: item.project } : undefined),
      pick: () => this.pickPendingProject(),
    });
    if (!target) {
      return false;
    }
    const { session, project } = target;
    try {
      await this.context.progress(vscode.l10n.t('Cancelling the deletion of "{0}"…', project.name), () =>
        this.context.operations(target).cancelDeletion(project.id),
      );
    } catch (error) {
      // "Not pending" or "already started": what the explorer shows is out of date.
      if (error instanceof ValidationError || error instanceof NotFoundError) {
        this.context.projectChanged(target);
      }
      await this.context.failed(vscode.l10n.t('cancel the deletion of "{0}"', project.name), error, target);
      return false;
    }
    session.model.noteDeletion(project.id, undefined);
    this.context.projectChanged(target);
    void this.window.showInformationMessage(vscode.l10n.t('Cancelled the deletion of "{0}". PostHog keeps the project and its data.', project.name));
    return true;
  }

  /** Tells what PostHog did, and shows it: the explorer marks a scheduled project, a gone one leaves it. */
  private async deleted(target: ProjectTarget, outcome: DeletionOutcome, before: Project | undefined): Promise<void> {
    const { session, organization, project } = target;
    if (outcome.kind === 'scheduled' || outcome.kind === 'deleting') {
      session.model.noteDeletion(project.id, outcome.deletion);
    } else {
      // Saved settings editors of the deleted project close; ones with unsaved edits stay, read-only and unsaveable.
      await this.window.editors.closeSaved(this.context.deps.settings.markDeleted(session.connection.id, project.id));
    }
    this.context.deps.tree.refreshOrganization(session, organization.id);
    void this.window.showInformationMessage(outcomeMessage(project.name, outcome, before));
  }

  /**
   * PostHog lets only the project's admins delete it. A member of the organization is one only if made the
   * project's admin, which the project read tells (effective_membership_level); if even that says no, the
   * command refuses plainly before asking anything. When it cannot tell, PostHog decides.
   */
  private mayDelete(target: ProjectTarget, full: Project | undefined): boolean {
    const { organization, project } = target;
    if (mayDeleteProjects(organization.membershipLevel) !== false || mayDeleteProjects(full?.effective_membership_level) !== false) {
      return true;
    }
    void this.window.showErrorMessage(
      vscode.l10n.t(
        'Could not delete "{0}": You don\'t have sufficient permissions in the project. Deleting a project needs admin rights in it, and you are a member of "{1}".',
        oneSafeLine(project.name),
        oneSafeLine(organization.name),
      ),
    );
    return false;
  }

  /** A quick pick of the active connection's projects pending deletion; says so when there are none. */
  private async pickPendingProject(): Promise<ProjectTarget | undefined> {
    const active = this.context.deps.connections.store.active();
    const session = active && (await this.context.deps.connections.session(active.id));
    if (!session) {
      this.window.offerSignIn();
      return undefined;
    }
    const items = await this.context.progress(vscode.l10n.t('Looking for projects scheduled for deletion…'), () => pendingItems(session));
    if (items.length === 0) {
      void this.window.showInformationMessage(vscode.l10n.t('No project of this connection is scheduled for deletion.'));
      return undefined;
    }
    const picked = await this.window.showQuickPick(items, {
      title: vscode.l10n.t('Cancel Project Deletion'),
      placeHolder: vscode.l10n.t('Choose a project scheduled for deletion'),
      matchOnDescription: true,
    });
    return picked?.target;
  }
}

/** The projects pending deletion, grouped by organization (organizations without one are left out). */
async function pendingItems(session: ConnectionSession): Promise<PendingItem[]> {
  const organizations = await session.model.organizations();
  const groups = await Promise.all(
    organizations.map(async (organization) => {
      const [projects, deletions] = await Promise.all([session.model.projects(organization.id), session.model.deletions(organization.id)]);
      const pending = projects.filter((project) => deletions.has(project.id));
      return pending.length === 0
        ? []
        : [
            { label: oneSafeLine(organization.name), kind: vscode.QuickPickItemKind.Separator },
            ...pending.map((project) => ({
              label: oneSafeLine(project.name),
              description: `#${project.id}`,
              detail: scheduleText(deletions.get(project.id)!),
              target: { session, organization, project },
            })),
          ];
    }),
  );
  return groups.flat();
}

/** What the modal says PostHog will do, for this project when its read told (events, an older server). */
function deletionWarning(project: Project | undefined): string {
  const data = vscode.l10n.t('PostHog deletes all of its data: events, persons, recordings, insights, dashboards, feature flags and notebooks.');
  // A server that sends no deletion_scheduled_at at all (not even null) predates scheduled deletions.
  if (project && project.deletion_scheduled_at === undefined) {
    return `${data} ${vscode.l10n.t('This PostHog server deletes a project at once: this cannot be undone.')}`;
  }
  const rule = vscode.l10n.t(
    'A project with events is scheduled for deletion 48 hours later, and a project admin can cancel it until then (Cancel Project Deletion); a project without events may be deleted at once. Once deleted, nothing can be restored.',
  );
  const facts =
    project?.ingested_event === true
      ? vscode.l10n.t('This project has events: it will be scheduled for deletion 48 hours from now.')
      : project?.ingested_event === false
        ? vscode.l10n.t('This project has no events: PostHog may delete it at once.')
        : '';
  return [data, facts, rule].filter(Boolean).join(' ');
}

function outcomeMessage(name: string, outcome: DeletionOutcome, before: Project | undefined): string {
  switch (outcome.kind) {
    case 'scheduled':
      return vscode.l10n.t(
        'PostHog scheduled "{0}" for deletion at {1}. Until then it stays in PostHog, and a project admin can cancel: Cancel Project Deletion.',
        name,
        formatTime(outcome.scheduledAt),
      );
    case 'deleting':
      return vscode.l10n.t('PostHog is deleting "{0}" now; the deletion can no longer be cancelled.', name);
    case 'gone':
      return before && before.deletion_scheduled_at === undefined
        ? vscode.l10n.t('Deleted the project "{0}". This PostHog server deletes projects at once; it removes the data in the background.', name)
        : vscode.l10n.t('Deleted the project "{0}". PostHog removes its data in the background.', name);
    case 'accepted':
      return vscode.l10n.t('PostHog accepted the deletion of "{0}". Refresh the explorer to see whether it is scheduled or gone.', name);
  }
}

function scheduleText(deletion: ProjectDeletion): string {
  return deletion.scheduledAt ? vscode.l10n.t('Deletion scheduled at {0}', formatTime(deletion.scheduledAt)) : vscode.l10n.t('Being deleted');
}

function formatTime(iso: string): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? iso : new Date(at).toLocaleString(displayLanguage(), { dateStyle: 'medium', timeStyle: 'short' });
}
