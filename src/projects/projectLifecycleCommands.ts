import * as vscode from 'vscode';
import { ConflictError, errorText, type Project } from '../api';
import type { ExplorerNode } from '../tree';
import { COMMANDS } from '../workbench/commandIds';
import type { CommandHandlers } from '../workbench/commands';
import { mayCreateProjects } from '../catalog';
import { oneSafeLine } from '../common/text';
import { ProjectCommandGroup } from './projectCommandContext';
import { nameProblem } from './settingsText';

/** A project's life: create it in an organization, rename it (deleting it: ProjectDeletionCommands). */
export class ProjectLifecycleCommands extends ProjectCommandGroup {
  protected commands(): CommandHandlers {
    return {
      [COMMANDS.createProject]: (node?: ExplorerNode) => this.createProject(node),
      [COMMANDS.renameProject]: (node?: ExplorerNode) => this.renameProject(node),
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
