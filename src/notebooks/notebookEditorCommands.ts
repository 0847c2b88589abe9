import * as vscode from 'vscode';
import { ConflictError, errorText } from '../api';
import type { ExplorerNode } from '../tree';
import { COMMANDS } from '../workbench/commandIds';
import type { CommandHandlers } from '../workbench/commands';
import { type Confirmation, confirm, confirmOrOther } from '../workbench/confirm';
import { conversionDetail, LISTED_LOSSES, lossReport } from './files/conversionPrompt';
import { notebookTitle } from './lists/notebookNodes';
import type { NotebookForm } from './model/notebookPaths';
import { NotebookCommandGroup, notebookTitleOf } from './notebookTargets';
import type { ConversionPlan } from './session';

/**
 * The commands of a notebook editor's title bar that act on its file: open the other file beside it, convert
 * the notebook to a Markdown notebook, save the text over PostHog's version, or discard it for PostHog's.
 */
export class NotebookEditorCommands extends NotebookCommandGroup {
  protected commands(): CommandHandlers {
    return {
      [COMMANDS.openNotebookAsMarkdown]: (target?: ExplorerNode | vscode.Uri) => this.openNotebookAs('markdown', target),
      [COMMANDS.openNotebookAsJson]: (target?: ExplorerNode | vscode.Uri) => this.openNotebookAs('json', target),
      [COMMANDS.convertToMarkdownNotebook]: (target?: ExplorerNode | vscode.Uri) => this.convertToMarkdownNotebook(target),
      [COMMANDS.overwriteNotebook]: (target?: vscode.Uri) => this.overwriteNotebook(target),
      [COMMANDS.discardNotebookChanges]: (target?: vscode.Uri) => this.discardNotebookChanges(target),
    };
  }

  /** Opens the notebook's Markdown or JSON file (from a notebook item, or beside the active notebook editor). */
  async openNotebookAs(form: NotebookForm, target?: ExplorerNode | vscode.Uri): Promise<vscode.TextEditor | undefined> {
    const ref = await this.targets.ref(target);
    return ref && this.targets.show(this.targets.uriOf(ref, form));
  }

  /**
   * Makes a legacy notebook a Markdown notebook on PostHog. First the conversion is made here (the notebook and
   * its comments read, nothing changed), then a modal confirmation says what that means for PostHog's web app
   * (it cannot be undone from here), what becomes of its discussion threads, and every loss with its kind and
   * line; with many losses it sums them up and "Show All Losses" opens the full list instead of converting.
   */
  async convertToMarkdownNotebook(target?: ExplorerNode | vscode.Uri): Promise<boolean> {
    const ref = await this.targets.ref(target);
    if (!ref) {
      return false;
    }
    const title = notebookTitle(ref.title);
    if (this.targets.openDocumentsOf(ref).some((document) => document.isDirty)) {
      void this.window.showWarningMessage(vscode.l10n.t('"{0}" has unsaved changes: save or discard them before converting it.', title));
      return false;
    }
    let plan: ConversionPlan;
    try {
      plan = await this.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Reading "{0}" to convert it…', title) }, () =>
        this.targets.files.planConversion(ref.session, ref.projectId, ref.shortId),
      );
    } catch (error) {
      void this.window.showErrorMessage(vscode.l10n.t('Could not read "{0}": {1}', title, errorText(error)));
      return false;
    }
    if (plan.alreadyMarkdown) {
      void this.window.showInformationMessage(vscode.l10n.t('"{0}" is already a Markdown notebook.', title));
      return false;
    }
    const confirmation = { question: vscode.l10n.t('Convert "{0}" to a Markdown notebook?', title), detail: conversionDetail(plan), button: vscode.l10n.t('Convert') };
    const showAll = vscode.l10n.t('Show All Losses');
    const answer = plan.losses.length > LISTED_LOSSES ? await confirmOrOther(this.window, confirmation, showAll) : (await confirm(this.window, confirmation)) ? 'confirmed' : undefined;
    if (answer === 'other') {
      await this.window.editors.showUntitled(lossReport(title, plan), 'markdown');
      return false;
    }
    if (answer !== 'confirmed') {
      return false;
    }
    try {
      const saved = await this.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Converting "{0}"…', title) }, () =>
        this.targets.files.convertToMarkdown(ref.session, ref.projectId, plan),
      );
      void this.window.showInformationMessage(vscode.l10n.t('"{0}" is now a Markdown notebook (version {1}).', title, saved.version));
      return true;
    } catch (error) {
      const changed = error instanceof ConflictError ? vscode.l10n.t(' It changed on PostHog since it was read: nothing was converted; convert it again.') : '';
      void this.window.showErrorMessage(vscode.l10n.t('Could not convert "{0}": {1}', title, errorText(error)) + changed);
      return false;
    }
  }

  /** Saves the editor's text over PostHog's version, newer or not, after a modal confirmation. */
  overwriteNotebook(target?: vscode.Uri): Promise<boolean> {
    const prompt = {
      question: (title: string) => vscode.l10n.t('Save your text of "{0}" over PostHog\'s version?', title),
      detail: vscode.l10n.t('Changes made on PostHog since your text was read are lost; nothing is merged.'),
      button: vscode.l10n.t('Overwrite'),
    };
    return this.onConfirmedDocument(target, prompt, (document) => {
      this.targets.files.requestOverwrite(document.uri);
      return document.save();
    });
  }

  /** Replaces the editor's text with PostHog's current version, after a modal confirmation. */
  discardNotebookChanges(target?: vscode.Uri): Promise<boolean> {
    const prompt = {
      question: (title: string) => vscode.l10n.t('Discard your changes to "{0}"?', title),
      detail: vscode.l10n.t("The editor takes PostHog's current version; your unsaved text is lost."),
      button: vscode.l10n.t('Discard My Changes'),
    };
    return this.onConfirmedDocument(target, prompt, async (document) => {
      try {
        await this.window.editors.replaceText(document.uri, await this.targets.files.latestText(document.uri));
        return await document.save();
      } catch (error) {
        void this.window.showErrorMessage(vscode.l10n.t('Could not read PostHog\'s version: {0}', errorText(error)));
        return false;
      }
    });
  }

  /** Runs a destructive action on the open notebook document of `target` (or the active editor's) once the user confirmed it. */
  private async onConfirmedDocument(
    target: vscode.Uri | undefined,
    prompt: Omit<Confirmation, 'question'> & { question: (title: string) => string },
    action: (document: vscode.TextDocument) => Thenable<boolean>,
  ): Promise<boolean> {
    const document = this.targets.openDocument(target);
    if (!document) {
      return false;
    }
    const question = prompt.question(notebookTitle(notebookTitleOf(document.uri)));
    return (await confirm(this.window, { ...prompt, question })) ? action(document) : false;
  }
}
