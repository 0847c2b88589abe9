import * as vscode from 'vscode';
import { type ActivityPage, errorText, PersonalApiKeyNotSupportedError } from '../api';
import { commandTarget, type ExplorerNode, pickProject, ProjectNode } from '../tree';
import { COMMANDS } from '../workbench/commandIds';
import type { CommandHandlers } from '../workbench/commands';
import { confirm } from '../workbench/confirm';
import { displayLanguage } from '../workbench/window';
import { describeActivity } from './activityFormat';
import { NotebooksNode, notebookTitle } from './notebookNodes';
import { notebookFormOf } from './notebookPaths';
import { NotebookCommandGroup } from './notebookTargets';

const ACTIVITY_PAGE_SIZE = 20;

/** What happens to a notebook on PostHog: create, rename and delete it, and show its activity. */
export class NotebookCommands extends NotebookCommandGroup {
  protected commands(): CommandHandlers {
    return {
      [COMMANDS.createNotebook]: (node?: ExplorerNode) => this.createNotebook(node),
      [COMMANDS.deleteNotebook]: (target?: ExplorerNode | vscode.Uri) => this.deleteNotebook(target),
      [COMMANDS.renameNotebook]: (target?: ExplorerNode | vscode.Uri) => this.renameNotebook(target),
      [COMMANDS.showNotebookActivity]: (target?: ExplorerNode | vscode.Uri) => this.showNotebookActivity(target),
    };
  }

  async createNotebook(node?: ExplorerNode): Promise<vscode.TextEditor | undefined> {
    const project = await commandTarget(node, {
      node: (item) =>
        item instanceof NotebooksNode || item instanceof ProjectNode ? { session: item.session, projectId: item.project.id } : undefined,
      pick: () =>
        pickProject(this.targets.connections, this.window, vscode.l10n.t('Create Notebook')).then(
          (choice) => choice && { session: choice.session, projectId: choice.project.id },
        ),
    });
    if (!project) {
      return undefined;
    }
    const title = await this.window.showInputBox({
      title: vscode.l10n.t('Create Notebook'),
      prompt: vscode.l10n.t('The title of the new notebook'),
      validateInput: (value) => (value.trim() ? undefined : vscode.l10n.t('Give the notebook a title.')),
    });
    if (!title?.trim()) {
      return undefined;
    }
    try {
      const uri = await this.targets.files.create(project.session, project.projectId, title.trim(), this.targets.preferredForm());
      return await this.targets.show(uri);
    } catch (error) {
      void this.window.showErrorMessage(vscode.l10n.t('Could not create the notebook: {0}', errorText(error)));
      return undefined;
    }
  }

  /** Moves the notebook to PostHog's trash (PATCH deleted: true) after a modal confirmation. */
  async deleteNotebook(target?: ExplorerNode | vscode.Uri): Promise<boolean> {
    const ref = await this.targets.ref(target);
    if (!ref) {
      return false;
    }
    const title = notebookTitle(ref.title);
    const confirmed = await confirm(this.window, {
      question: vscode.l10n.t('Delete the notebook "{0}"?', title),
      detail: vscode.l10n.t('PostHog keeps deleted notebooks: show them with "Show Deleted Notebooks" in the explorer to restore this one.'),
      button: vscode.l10n.t('Delete'),
    });
    if (!confirmed) {
      return false;
    }
    try {
      const uri = this.targets.files.bareUriOf(ref.session.connection.id, ref.projectId, ref.shortId);
      this.targets.files.requestDelete(uri);
      await vscode.workspace.fs.delete(uri);
    } catch (error) {
      void this.window.showErrorMessage(vscode.l10n.t('Could not delete "{0}": {1}', title, errorText(error)));
      return false;
    }
    return true;
  }

  /**
   * Renames the notebook (PATCH title, sent as typed: a file name only shows it); its open editor follows the
   * new file name.
   */
  async renameNotebook(target?: ExplorerNode | vscode.Uri): Promise<boolean> {
    const ref = await this.targets.ref(target);
    if (!ref) {
      return false;
    }
    const typed = await this.window.showInputBox({
      title: vscode.l10n.t('Rename Notebook'),
      value: ref.title ?? '',
      prompt: vscode.l10n.t('The new title'),
      validateInput: (value) => (value.trim() ? undefined : vscode.l10n.t('Give the notebook a title.')),
    });
    const title = typed?.trim();
    if (!title || title === ref.title) {
      return false;
    }
    const { files } = this.targets;
    const from = ref.uri ?? this.targets.openDocumentsOf(ref)[0]?.uri ?? this.targets.uriOf(ref, this.targets.preferredForm());
    files.allow(from);
    const to = files.uriOf(ref.session.connection.id, ref.projectId, { short_id: ref.shortId, title }, notebookFormOf(from.path) ?? 'json');
    try {
      if (to.toString() === from.toString()) {
        await files.retitle(from, title); // the file name stays (it shows the title the same way)
        return true;
      }
      const edit = new vscode.WorkspaceEdit();
      edit.renameFile(from, to, { overwrite: false });
      const request = files.requestTitle(to, title);
      let applied: boolean;
      try {
        applied = await vscode.workspace.applyEdit(edit);
      } finally {
        request.dispose();
      }
      if (!applied) {
        void this.window.showErrorMessage(vscode.l10n.t('Could not rename "{0}".', notebookTitle(ref.title)));
      }
      return applied;
    } catch (error) {
      void this.window.showErrorMessage(vscode.l10n.t('Could not rename "{0}": {1}', notebookTitle(ref.title), errorText(error)));
      return false;
    }
  }

  /** The notebook's activity, newest first, a page at a time. */
  async showNotebookActivity(target?: ExplorerNode | vscode.Uri): Promise<void> {
    const ref = await this.targets.ref(target);
    if (!ref) {
      return;
    }
    const loadMore = vscode.l10n.t('Load more…');
    const items: vscode.QuickPickItem[] = [];
    for (let page = 1; ; page++) {
      let answer: ActivityPage | undefined;
      try {
        const result = await this.window.withProgress(
          { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Loading activity…') },
          () => ref.session.client.notebooks.activity(ref.projectId, ref.shortId, { page, limit: ACTIVITY_PAGE_SIZE }),
        );
        answer = 'results' in result ? result : { results: [] };
      } catch (error) {
        const text =
          error instanceof PersonalApiKeyNotSupportedError
            ? vscode.l10n.t('PostHog does not let personal API keys read this activity. Open the notebook in PostHog to see it.')
            : errorText(error);
        void this.window.showErrorMessage(vscode.l10n.t('Could not load the activity of "{0}": {1}', notebookTitle(ref.title), text));
        return;
      }
      const now = new Date();
      for (const entry of answer.results) {
        const line = describeActivity(entry, now, displayLanguage());
        items.push({ label: line.label, detail: line.changes.join('  ·  ') || undefined });
      }
      const more = Boolean(answer.next);
      const shown = items.length
        ? [...items, ...(more ? [{ label: `$(fold-down) ${loadMore}`, alwaysShow: true }] : [])]
        : [{ label: vscode.l10n.t('No activity recorded for this notebook.') }];
      const picked = await this.window.showQuickPick(shown, {
        title: vscode.l10n.t('Activity of "{0}"', notebookTitle(ref.title)),
        placeHolder: vscode.l10n.t('Newest first. Type to filter.'),
        matchOnDetail: true,
      });
      if (!more || !picked?.label.endsWith(loadMore)) {
        return;
      }
    }
  }
}
