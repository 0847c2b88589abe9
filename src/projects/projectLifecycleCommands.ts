import * as vscode from 'vscode';
import { ConflictError, errorText, type Project } from '../api';
import type { ExplorerNode } from '../tree';
import { COMMANDS } from '../workbench/commandIds';
import type { CommandHandlers } from '../workbench/commands';
import { confirmByTyping } from '../workbench/confirm';
import { mayCreateProjects, mayDeleteProjects } from '../catalog';
import { oneSafeLine } from '../common/text';
import { ProjectCommandGroup, type ProjectTarget } from './projectCommandContext';
import { nameProblem } from './settingsText';

/** A project's life: create it in an organization, rename it, delete it. */
export class ProjectLifecycleCommands extends ProjectCommandGroup {
  protected commands(): CommandHandlers {
    return {
      [COMMANDS.createProject]: (node?: ExplorerNode) => this.createProject(node),
      [COMMANDS.renameProject]: (node?: ExplorerNode) => this.renameProject(node),
      [COMMANDS.deleteProject]: (node?: ExplorerNode) => this.deleteProject(node),
    };
  }

  /** Asks for a name and creates the project; returns it (revealed in the explorer) or undefined. */
  async createProject(node?: ExplorerNode): Promise<Project | undefined> {
    const target = await this.context.organizationTarget(node);
    if (!target) {
      return undefined;
    }
    const { session, organization } = target;
    if (mayCreateProjects(organization) === false) {
      void this.window.showErrorMessage(
        vscode.l10n.t(
          'You need to be an organization admin or above to create new projects. You are a member of "{0}": one of its admins can create the project, or let members create projects.',
          oneSafeLine(organization.name),
        ),
      );
      return undefined;
    }
    let value = '';
    for (;;) {
      const name = await this.askName(vscode.l10n.t('New Project in {0}', organization.name), value);
      if (name === undefined) {
        return undefined;
      }
      try {
        const project = await this.context.progress(vscode.l10n.t('Creating "{0}"…', name), () => this.context.operations(target).create(name));
        this.context.deps.tree.refreshOrganization(session, organization.id);
        await this.context.deps.reveal?.(session.connection.id, organization.id, project.id);
        void this.window.showInformationMessage(vscode.l10n.t('Created the project "{0}".', project.name));
        return project;
      } catch (error) {
        if (!(await this.offerAnotherName(vscode.l10n.t('create the project'), error))) {
          return undefined;
        }
        value = name;
      }
    }
  }

  async renameProject(node?: ExplorerNode): Promise<Project | undefined> {
    const target = await this.context.projectTarget(node, vscode.l10n.t('Rename Project'));
    if (!target) {
      return undefined;
    }
    const { project } = target;
    let value = project.name;
    for (;;) {
      const name = await this.askName(vscode.l10n.t('Rename "{0}"', project.name), value);
      if (name === undefined || name === project.name) {
        return undefined;
      }
      try {
        const renamed = await this.context.operations(target).rename(project.id, name);
        this.context.projectChanged(target);
        void this.window.showInformationMessage(vscode.l10n.t('Renamed "{0}" to "{1}".', project.name, renamed.name));
        return renamed;
      } catch (error) {
        if (!(await this.offerAnotherName(vscode.l10n.t('rename the project'), error))) {
          return undefined;
        }
        value = name;
      }
    }
  }

  /** A modal warning, then the user types the project's name; on success the project leaves the tree. */
  async deleteProject(node?: ExplorerNode): Promise<boolean> {
    const target = await this.context.projectTarget(node, vscode.l10n.t('Delete Project'));
    if (!target) {
      return false;
    }
    const { session, organization, project } = target;
    if (!(await this.mayDelete(target))) {
      return false;
    }
    const confirmed = await confirmByTyping(
      this.window,
      {
        question: vscode.l10n.t('Delete the project "{0}"?', project.name),
        detail: vscode.l10n.t(
          'PostHog deletes all of its data: events, persons, recordings, insights, dashboards, feature flags and notebooks. This cannot be undone.',
        ),
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
    try {
      await this.context.progress(vscode.l10n.t('Deleting "{0}"…', project.name), () => this.context.operations(target).delete(project.id));
    } catch (error) {
      await this.context.failed(vscode.l10n.t('delete "{0}"', project.name), error, target);
      return false;
    }
    // Saved settings editors of the deleted project close; ones with unsaved edits stay, read-only and unsaveable.
    await this.window.editors.closeSaved(this.context.deps.settings.markDeleted(session.connection.id, project.id));
    this.context.deps.tree.refreshOrganization(session, organization.id);
    void this.window.showInformationMessage(vscode.l10n.t('Deleted the project "{0}". PostHog removes its data in the background.', project.name));
    return true;
  }

  /**
   * PostHog lets only the project's admins delete it. A member of the organization is one only if made
   * the project's admin, which the project tells (effective_membership_level); if even that says no, the
   * command refuses plainly before asking anything. When it cannot tell, PostHog decides.
   */
  private async mayDelete(target: ProjectTarget): Promise<boolean> {
    const { organization, project } = target;
    if (mayDeleteProjects(organization.membershipLevel) !== false) {
      return true;
    }
    const level = await this.context
      .operations(target)
      .get(project.id)
      .then((full) => full.effective_membership_level)
      .catch(() => undefined);
    if (mayDeleteProjects(level) !== false) {
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

  private async askName(title: string, value: string): Promise<string | undefined> {
    const name = await this.window.showInputBox({
      title,
      prompt: vscode.l10n.t('The project name: 1 to 200 characters, unique in the organization.'),
      value,
      placeHolder: vscode.l10n.t('e.g. Marketing site'),
      validateInput: (input) => {
        const problem = nameProblem(input);
        return problem && vscode.l10n.t('The name {0}.', problem);
      },
    });
    return name?.trim();
  }

  /** A duplicate name: say so and offer to choose another. True when the user wants to try again. */
  private async offerAnotherName(action: string, error: unknown): Promise<boolean> {
    if (error instanceof ConflictError) {
      const again = vscode.l10n.t('Choose Another Name');
      return (await this.window.showErrorMessage(errorText(error), again)) === again;
    }
    void this.window.showErrorMessage(vscode.l10n.t('Could not {0}: {1}', action, errorText(error)));
    return false;
  }
}
