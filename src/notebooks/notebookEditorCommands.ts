import * as vscode from 'vscode';
import { errorText } from '../api';
import type { ExplorerNode } from '../tree';
import { COMMANDS } from '../workbench/commandIds';
import type { CommandHandlers } from '../workbench/commands';
import { type Confirmation, confirm } from '../workbench/confirm';
import { notebookTitle } from './notebookNodes';
import type { NotebookForm } from './notebookPaths';
import { NotebookCommandGroup, notebookTitleOf } from './notebookTargets';

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
   * Makes a legacy notebook a Markdown notebook on PostHog, after a modal confirmation saying what that means
   * for PostHog's web app (it cannot be undone from here).
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
    const confirmed = await confirm(this.window, {
      question: vscode.l10n.t('Convert "{0}" to a Markdown notebook?', title),
      detail: vscode.l10n.t(
        "PostHog then stores it as Markdown (the form PostHog is moving notebooks to): its web app shows and edits it as a Markdown notebook, embedded insights, recordings and other PostHog nodes stay as tags, and empty paragraphs are dropped. Every editor opening it, in PostHog or here, sees the Markdown notebook. This cannot be undone from VS Code.",
      ),
      button: vscode.l10n.t('Convert'),
    });
    if (!confirmed) {
      return false;
    }
    try {
      const saved = await this.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Converting "{0}"…', title) }, () =>
        this.targets.files.convertToMarkdown(ref.session, ref.projectId, ref.shortId),
      );
      void this.window.showInformationMessage(vscode.l10n.t('"{0}" is now a Markdown notebook (version {1}).', title, saved.version));
      return true;
    } catch (error) {
      void this.window.showErrorMessage(vscode.l10n.t('Could not convert "{0}": {1}', title, errorText(error)));
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
