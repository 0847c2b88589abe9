import * as vscode from 'vscode';
import type { ExplorerNode } from '../tree';
import { COMMANDS } from '../workbench/commandIds';
import type { CommandHandlers } from '../workbench/commands';
import { confirm } from '../workbench/confirm';
import { ProjectCommandGroup } from './projectCommandContext';

/** How events reach a project: its token (reset it, copy it) and PostHog's demo data generation. */
export class ProjectIngestionCommands extends ProjectCommandGroup {
  protected commands(): CommandHandlers {
    return {
      [COMMANDS.resetProjectToken]: (node?: ExplorerNode) => this.resetProjectToken(node),
      [COMMANDS.copyProjectToken]: (node?: ExplorerNode) => this.copyProjectToken(node),
      [COMMANDS.checkDemoData]: (node?: ExplorerNode) => this.checkDemoData(node),
    };
  }

  /** A modal warning, then the new token with a Copy button. Returns the new token. */
  async resetProjectToken(node?: ExplorerNode): Promise<string | undefined> {
    const target = await this.context.projectTarget(node, vscode.l10n.t('Reset Project Token'));
    if (!target) {
      return undefined;
    }
    const { project } = target;
    const confirmed = await confirm(this.window, {
      question: vscode.l10n.t('Reset the project token of "{0}"?', project.name),
      detail: vscode.l10n.t(
        'Every SDK, snippet and integration that sends events with the current token stops sending until it is given the new token.',
      ),
      button: vscode.l10n.t('Reset Token'),
    });
    if (!confirmed) {
      return undefined;
    }
    let token: string;
    try {
      token = await this.context.progress(vscode.l10n.t('Resetting the token…'), () => this.context.operations(target).resetToken(project.id));
    } catch (error) {
      await this.context.failed(vscode.l10n.t('reset the project token'), error, target);
      return undefined;
    }
    this.context.projectChanged(target);
    const copy = vscode.l10n.t('Copy');
    const choice = await this.window.showInformationMessage(vscode.l10n.t('New project token of "{0}": {1}', project.name, token), copy);
    if (choice === copy) {
      await this.context.deps.env.clipboard.writeText(token);
    }
    return token;
  }

  async copyProjectToken(node?: ExplorerNode): Promise<string | undefined> {
    const target = await this.context.projectTarget(node, vscode.l10n.t('Copy Project Token'));
    if (!target) {
      return undefined;
    }
    let token = target.project.api_token;
    try {
      // The listed token may be stale after a reset elsewhere.
      token = (await this.context.operations(target).get(target.project.id)).api_token;
    } catch {
      // Copy what the list said.
    }
    await this.context.deps.env.clipboard.writeText(token);
    void this.window.showInformationMessage(vscode.l10n.t('Copied the project token of "{0}".', target.project.name));
    return token;
  }

  async checkDemoData(node?: ExplorerNode): Promise<boolean | undefined> {
    const target = await this.context.projectTarget(node, vscode.l10n.t('Check Demo Data'));
    if (!target) {
      return undefined;
    }
    try {
      const generating = await this.context.operations(target).isGeneratingDemoData(target.project.id);
      void this.window.showInformationMessage(
        generating
          ? vscode.l10n.t('PostHog is generating demo data for "{0}".', target.project.name)
          : vscode.l10n.t('PostHog is not generating demo data for "{0}".', target.project.name),
      );
      return generating;
    } catch (error) {
      await this.context.failed(vscode.l10n.t('check for demo data'), error, target);
      return undefined;
    }
  }
}
