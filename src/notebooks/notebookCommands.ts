import * as vscode from 'vscode';
import { errorText, PersonalApiKeyNotSupportedError } from '../api';
import { formatRelativeTime } from '../common/time';
import { commandTarget, type ExplorerNode, pickProject, ProjectNode } from '../tree';
import { COMMANDS } from '../workbench/commandIds';
import type { CommandHandlers } from '../workbench/commands';
import { confirm } from '../workbench/confirm';
import { displayLanguage } from '../workbench/window';
import type { WindowApi } from '../workbench/window';
import type { HistoryEntry } from './history/notebookActivity';
import { NotebooksNode, notebookTitle } from './lists/notebookNodes';
import { notebookFormOf } from './model/notebookPaths';
import { NotebookCommandGroup, type NotebookTargets } from './notebookTargets';
import { labelOf, type NotebookTimeline } from './history/notebookTimeline';

type EntryPick = vscode.QuickPickItem & { readonly entry?: HistoryEntry };

/** What happens to a notebook on PostHog: create, rename and delete it, and show its activity. */
export class NotebookCommands extends NotebookCommandGroup {
  constructor(
    targets: NotebookTargets,
    window: WindowApi,
    private readonly history: NotebookTimeline,
  ) {
    super(targets, window);
  }

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

  /**
   * The notebook's history, newest first, a page at a time (the Timeline's, as a quick pick): a version picked
   * can be compared with the current text or restored, a save PostHog refused copied to a new notebook.
   */
  async showNotebookActivity(target?: ExplorerNode | vscode.Uri): Promise<void> {
    const ref = await this.targets.ref(target);
    if (!ref) {
      return;
    }
    const uri = ref.uri ?? this.targets.openDocumentsOf(ref)[0]?.uri ?? this.targets.uriOf(ref, this.targets.preferredForm());
    const pages = this.history.history({ connectionId: ref.session.connection.id, projectId: ref.projectId, shortId: ref.shortId });
    const loadMore = vscode.l10n.t('Load more…');
    const items: EntryPick[] = [];
    for (let page = 1; ; page++) {
      let answer: Awaited<ReturnType<typeof pages.page>>;
      try {
        answer = await this.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Loading activity…') }, () => pages.page(page));
      } catch (error) {
        const text =
          error instanceof PersonalApiKeyNotSupportedError
            ? vscode.l10n.t('PostHog does not let personal API keys read this activity. Open the notebook in PostHog to see it.')
            : errorText(error);
        void this.window.showErrorMessage(vscode.l10n.t('Could not load the activity of "{0}": {1}', notebookTitle(ref.title), text));
        return;
      }
      const now = new Date();
      items.push(...answer.entries.map((entry) => entryPick(entry, now)));
      const shown: EntryPick[] = items.length
        ? [...items, ...(answer.more ? [{ label: `$(fold-down) ${loadMore}`, alwaysShow: true }] : [])]
        : [{ label: vscode.l10n.t('No activity recorded for this notebook.') }];
      const picked = await this.window.showQuickPick(shown, {
        title: vscode.l10n.t('Activity of "{0}"', notebookTitle(ref.title)),
        placeHolder: vscode.l10n.t('Newest first. Pick a version to compare or restore it. Type to filter.'),
        matchOnDetail: true,
      });
      if (picked?.entry) {
        await this.actOn(uri, picked.entry);
        return;
      }
      if (!answer.more || !picked?.label.endsWith(loadMore)) {
        return;
      }
    }
  }

  /** What to do with a version picked from the activity. */
  private async actOn(uri: vscode.Uri, entry: HistoryEntry): Promise<void> {
    if (entry.content === undefined) {
      return;
    }
    type Action = vscode.QuickPickItem & { readonly run: () => Promise<unknown> };
    const compare: Action = { label: `$(diff) ${vscode.l10n.t('Compare with Current')}`, run: () => this.history.versions.compare(uri, entry) };
    const restore: Action = { label: `$(discard) ${vscode.l10n.t('Restore This Version…')}`, run: () => this.history.versions.restore(uri, entry) };
    const copy: Action = { label: `$(copy) ${vscode.l10n.t('Copy to a New Notebook')}`, run: () => this.history.versions.copyToNewNotebook(uri, entry) };
    const actions = entry.kind === 'rejected' ? [compare, copy] : [compare, restore];
    const picked = await this.window.showQuickPick(actions, { title: labelOf(entry), placeHolder: vscode.l10n.t('What to do with this version') });
    try {
      await picked?.run();
    } catch (error) {
      void this.window.showErrorMessage(errorText(error));
    }
  }
}

/** "$(edit) Ada · Saved · 3 minutes ago", the changes of other fields below. */
function entryPick(entry: HistoryEntry, now: Date): EntryPick {
  const when = formatRelativeTime(new Date(entry.at).toISOString(), now, displayLanguage());
  const note = entry.kind === 'rejected' ? vscode.l10n.t('Never stored: pick it to compare it or copy it to a new notebook.') : undefined;
  return {
    label: `${entry.author} · ${labelOf(entry)} · ${when}`,
    detail: [note, ...entry.changes].filter(Boolean).join('  ·  ') || undefined,
    entry,
  };
}
