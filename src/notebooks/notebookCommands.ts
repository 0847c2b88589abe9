import * as vscode from 'vscode';
import { type ActivityPage, type NotebookListItem, PersonalApiKeyNotSupportedError, errorText } from '../api';
import { formatRelativeTime } from '../common/time';
import type { ConnectionManager, ConnectionSession } from '../connections';
import { commandTarget, type ExplorerNode, pickProject, ProjectNode, type TargetSources } from '../tree';
import { COMMANDS } from '../workbench/commandIds';
import { type CommandHandlers, CommandGroup } from '../workbench/commands';
import { confirm } from '../workbench/confirm';
import { displayLanguage, type WindowApi } from '../workbench/window';
import { describeActivity } from './activityFormat';
import { LatestSearch } from './latestSearch';
import { describeUser } from './notebookDocument';
import { mergeMatches, prefixMatches } from './notebookSearch';
import { type NotebookFileStore, replaceText } from './notebookFiles';
import { NotebookNode, NotebooksNode, notebookTitle } from './notebookNodes';
import { type NotebookForm, notebookFormOf, parseNotebookPath, titleFromFileName } from './notebookPaths';

const SEARCH_DEBOUNCE_MS = 250;
const SEARCH_LIMIT = 50;
const ACTIVITY_PAGE_SIZE = 20;

/** A notebook a command acts on: from a tree node, or from the URI of an open notebook editor (then `uri`). */
interface NotebookRef {
  readonly session: ConnectionSession;
  readonly projectId: number;
  readonly shortId: string;
  readonly title: string | null;
  readonly uri?: vscode.Uri;
}

export const OPEN_AS_SETTING = 'posthogExplorer.notebooks.openAs';

type SearchItem = vscode.QuickPickItem & { readonly notebook?: NotebookListItem };

/** Open, create, delete, rename notebooks and show their activity. */
export class NotebookCommands extends CommandGroup {
  constructor(
    private readonly files: NotebookFileStore,
    private readonly connections: ConnectionManager,
    private readonly window: WindowApi,
  ) {
    super();
  }

  protected commands(): CommandHandlers {
    return {
      [COMMANDS.openNotebook]: (target?: ExplorerNode | vscode.Uri) => this.openNotebook(target),
      [COMMANDS.createNotebook]: (node?: ExplorerNode) => this.createNotebook(node),
      [COMMANDS.deleteNotebook]: (target?: ExplorerNode | vscode.Uri) => this.deleteNotebook(target),
      [COMMANDS.renameNotebook]: (target?: ExplorerNode | vscode.Uri) => this.renameNotebook(target),
      [COMMANDS.showNotebookActivity]: (target?: ExplorerNode | vscode.Uri) => this.showNotebookActivity(target),
      [COMMANDS.openNotebookAsMarkdown]: (target?: ExplorerNode | vscode.Uri) => this.openNotebookAs('markdown', target),
      [COMMANDS.openNotebookAsJson]: (target?: ExplorerNode | vscode.Uri) => this.openNotebookAs('json', target),
      [COMMANDS.convertToMarkdownNotebook]: (target?: ExplorerNode | vscode.Uri) => this.convertToMarkdownNotebook(target),
      [COMMANDS.overwriteNotebook]: (target?: vscode.Uri) => this.overwriteNotebook(target),
      [COMMANDS.discardNotebookChanges]: (target?: vscode.Uri) => this.discardNotebookChanges(target),
    };
  }

  /** The file the explorer and "Open Notebook" open: the setting's, Markdown by default. */
  preferredForm(): NotebookForm {
    return vscode.workspace.getConfiguration().get<string>(OPEN_AS_SETTING) === 'json' ? 'json' : 'markdown';
  }

  /** Opens the notebook's Markdown or JSON file (from a notebook item, or beside the active notebook editor). */
  async openNotebookAs(form: NotebookForm, target?: ExplorerNode | vscode.Uri): Promise<vscode.TextEditor | undefined> {
    const ref = await this.notebookRef(target);
    return ref && this.show(this.uriOfRef(ref, form));
  }

  /**
   * Makes a legacy notebook a Markdown notebook on PostHog, after a modal confirmation saying what that means
   * for PostHog's web app (it cannot be undone from here).
   */
  async convertToMarkdownNotebook(target?: ExplorerNode | vscode.Uri): Promise<boolean> {
    const ref = await this.notebookRef(target);
    if (!ref) {
      return false;
    }
    const title = notebookTitle(ref.title);
    if (this.openDocumentsOf(ref).some((document) => document.isDirty)) {
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
        this.files.convertToMarkdown(ref.session, ref.projectId, ref.shortId),
      );
      void this.window.showInformationMessage(vscode.l10n.t('"{0}" is now a Markdown notebook (version {1}).', title, saved.version));
      return true;
    } catch (error) {
      void this.window.showErrorMessage(vscode.l10n.t('Could not convert "{0}": {1}', title, errorText(error)));
      return false;
    }
  }

  /** Saves the editor's text over PostHog's version, newer or not, after a modal confirmation. */
  async overwriteNotebook(target?: vscode.Uri): Promise<boolean> {
    const document = await this.confirmedDocument(target, {
      question: (title) => vscode.l10n.t('Save your text of "{0}" over PostHog\'s version?', title),
      detail: vscode.l10n.t('Changes made on PostHog since your text was read are lost; nothing is merged.'),
      button: vscode.l10n.t('Overwrite'),
    });
    if (!document) {
      return false;
    }
    this.files.requestOverwrite(document.uri);
    return document.save();
  }

  /** Replaces the editor's text with PostHog's current version, after a modal confirmation. */
  async discardNotebookChanges(target?: vscode.Uri): Promise<boolean> {
    const document = await this.confirmedDocument(target, {
      question: (title) => vscode.l10n.t('Discard your changes to "{0}"?', title),
      detail: vscode.l10n.t("The editor takes PostHog's current version; your unsaved text is lost."),
      button: vscode.l10n.t('Discard My Changes'),
    });
    if (!document) {
      return false;
    }
    try {
      await replaceText(document.uri, await this.files.latestText(document.uri));
      return await document.save();
    } catch (error) {
      void this.window.showErrorMessage(vscode.l10n.t('Could not read PostHog\'s version: {0}', errorText(error)));
      return false;
    }
  }

  /** The open notebook document of `target` (or the active editor's), once the user confirmed a destructive action. */
  private async confirmedDocument(
    target: vscode.Uri | undefined,
    prompt: { question: (title: string) => string; detail: string; button: string },
  ): Promise<vscode.TextDocument | undefined> {
    const uri = target ?? this.window.editors.activeUri();
    const document =
      uri && this.files.isNotebookUri(uri) ? vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri.toString()) : undefined;
    if (!document) {
      return undefined;
    }
    const title = notebookTitle(notebookTitleOf(document.uri));
    return (await confirm(this.window, { ...prompt, question: prompt.question(title) })) ? document : undefined;
  }

  /** From a notebook item: opens it. From the palette: search a project's notebooks on the server. */
  async openNotebook(target?: ExplorerNode | vscode.Uri): Promise<vscode.TextEditor | undefined> {
    const ref = await this.notebookRef(target, { pick: target === undefined ? () => this.pickNotebook() : undefined });
    return ref && this.show(this.uriOfRef(ref, this.preferredForm()));
  }

  /** A project from a list, then one of its notebooks from a search. */
  private async pickNotebook(): Promise<NotebookRef | undefined> {
    const choice = await pickProject(this.connections, this.window, vscode.l10n.t('Open Notebook'));
    const notebook = choice && (await this.searchNotebook(choice.session, choice.project.id, choice.project.name));
    return notebook && { session: choice.session, projectId: choice.project.id, shortId: notebook.short_id, title: notebook.title };
  }

  async createNotebook(node?: ExplorerNode): Promise<vscode.TextEditor | undefined> {
    const project = await commandTarget(node, {
      node: (item) =>
        item instanceof NotebooksNode || item instanceof ProjectNode ? { session: item.session, projectId: item.project.id } : undefined,
      pick: () =>
        pickProject(this.connections, this.window, vscode.l10n.t('Create Notebook')).then(
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
      const uri = await this.files.create(project.session, project.projectId, title.trim(), this.preferredForm());
      return await this.show(uri);
    } catch (error) {
      void this.window.showErrorMessage(vscode.l10n.t('Could not create the notebook: {0}', errorText(error)));
      return undefined;
    }
  }

  /** Moves the notebook to PostHog's trash (PATCH deleted: true) after a modal confirmation. */
  async deleteNotebook(target?: ExplorerNode | vscode.Uri): Promise<boolean> {
    const ref = await this.notebookRef(target);
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
      await vscode.workspace.fs.delete(this.files.bareUriOf(ref.session.connection.id, ref.projectId, ref.shortId));
    } catch (error) {
      void this.window.showErrorMessage(vscode.l10n.t('Could not delete "{0}": {1}', title, errorText(error)));
      return false;
    }
    return true;
  }

  /** Renames the notebook (PATCH title); its open editor follows the new file name. */
  async renameNotebook(target?: ExplorerNode | vscode.Uri): Promise<boolean> {
    const ref = await this.notebookRef(target);
    if (!ref) {
      return false;
    }
    const title = await this.window.showInputBox({
      title: vscode.l10n.t('Rename Notebook'),
      value: ref.title ?? '',
      prompt: vscode.l10n.t('The new title'),
      validateInput: (value) => (value.trim() ? undefined : vscode.l10n.t('Give the notebook a title.')),
    });
    if (!title?.trim() || title.trim() === ref.title) {
      return false;
    }
    const from = ref.uri ?? this.openDocumentsOf(ref)[0]?.uri ?? this.uriOfRef(ref, this.preferredForm());
    this.files.allow(from);
    const to = this.files.uriOf(ref.session.connection.id, ref.projectId, { short_id: ref.shortId, title: title.trim() }, notebookFormOf(from.path) ?? 'json');
    const edit = new vscode.WorkspaceEdit();
    edit.renameFile(from, to, { overwrite: false });
    const applied = await vscode.workspace.applyEdit(edit);
    if (!applied) {
      void this.window.showErrorMessage(vscode.l10n.t('Could not rename "{0}".', notebookTitle(ref.title)));
    }
    return applied;
  }

  /** The notebook's activity, newest first, a page at a time. */
  async showNotebookActivity(target?: ExplorerNode | vscode.Uri): Promise<void> {
    const ref = await this.notebookRef(target);
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

  private async show(uri: vscode.Uri): Promise<vscode.TextEditor> {
    this.files.allow(uri);
    return this.window.editors.open(uri);
  }

  /**
   * Search as the user types: at once, the loaded notebooks (the explorer's list of the project) whose title
   * words start with what is typed; once typing pauses, PostHog's whole-word search of titles and text too.
   */
  private searchNotebook(session: ConnectionSession, projectId: number, projectName: string): Promise<NotebookListItem | undefined> {
    const pick = this.window.createQuickPick<SearchItem>();
    pick.title = vscode.l10n.t('Open Notebook from {0}', projectName);
    pick.placeholder = vscode.l10n.t('Type to search: title words starting with it, and whole words of titles and text on PostHog');
    pick.matchOnDescription = true;
    let loaded: NotebookListItem[] | undefined;
    const loading = session.model.notebooks(projectId).then((notebooks) => (loaded = notebooks));
    const show = (notebooks: readonly NotebookListItem[], settled: boolean, problem?: string) => {
      const items: SearchItem[] = notebooks.map((notebook) => ({
        label: notebookTitle(notebook.title),
        description: notebook.short_id,
        detail: [describeUser(notebook.last_modified_by), formatRelativeTime(notebook.last_modified_at, new Date(), displayLanguage())]
          .filter(Boolean)
          .join(' · '),
        notebook,
        alwaysShow: true,
      }));
      if (problem) {
        items.push({ label: `$(error) ${problem}`, alwaysShow: true });
      } else if (items.length === 0 && settled) {
        items.push({ label: vscode.l10n.t('No notebook matches'), alwaysShow: true });
      }
      pick.items = items;
    };
    const search = new LatestSearch<NotebookListItem[]>(
      async (query, signal) => {
        if (!query) {
          return loading;
        }
        const [all, found] = await Promise.all([
          loading.catch((): NotebookListItem[] => []),
          session.client.notebooks.list(projectId, { limit: SEARCH_LIMIT, search: query }, { signal }),
        ]);
        return mergeMatches(prefixMatches(all, query), found.results);
      },
      {
        onBusy: (busy) => (pick.busy = busy),
        onResults: (_query, notebooks) => show(notebooks, true),
        onError: (query, error) => show(query && loaded ? prefixMatches(loaded, query) : [], true, errorText(error)),
      },
      SEARCH_DEBOUNCE_MS,
    );
    return new Promise((resolve) => {
      pick.onDidChangeValue((value) => {
        const query = value.trim();
        if (loaded) {
          show(query ? prefixMatches(loaded, query) : loaded, false);
        }
        search.update(query);
      });
      pick.onDidAccept(() => {
        const notebook = pick.selectedItems[0]?.notebook;
        if (notebook) {
          resolve(notebook);
          pick.hide();
        }
      });
      pick.onDidHide(() => {
        search.dispose();
        pick.dispose();
        resolve(undefined);
      });
      search.update('', true);
      pick.show();
    });
  }

  /** The notebook of a notebook item or a notebook document (by default, the active editor's when run from the palette). */
  private notebookRef(
    target: ExplorerNode | vscode.Uri | undefined,
    options: Pick<TargetSources<NotebookRef>, 'activeDocument' | 'pick'> = { activeDocument: () => this.window.editors.activeUri() },
  ): Promise<NotebookRef | undefined> {
    return commandTarget<NotebookRef>(target, {
      ...options,
      node: (node) =>
        node instanceof NotebookNode
          ? { session: node.session, projectId: node.project.id, shortId: node.notebook.short_id, title: node.notebook.title }
          : undefined,
      uri: (uri) => this.notebookRefOf(uri),
    });
  }

  private async notebookRefOf(uri: vscode.Uri): Promise<NotebookRef | undefined> {
    const path = uri.scheme === this.files.scheme ? parseNotebookPath(uri.authority, uri.path) : undefined;
    const session = path?.kind === 'notebook' ? await this.connections.session(path.connectionId) : undefined;
    if (path?.kind !== 'notebook' || !session) {
      return undefined;
    }
    return { session, projectId: path.projectId, shortId: path.shortId, title: notebookTitleOf(uri) ?? null, uri };
  }

  private uriOfRef(ref: NotebookRef, form: NotebookForm): vscode.Uri {
    return this.files.uriOf(ref.session.connection.id, ref.projectId, { short_id: ref.shortId, title: ref.title }, form);
  }

  /** The open editors' documents of the notebook (either file; their title part may be older). */
  private openDocumentsOf(ref: NotebookRef): vscode.TextDocument[] {
    return vscode.workspace.textDocuments.filter((document) => {
      const path = document.uri.scheme === this.files.scheme ? parseNotebookPath(document.uri.authority, document.uri.path) : undefined;
      return path?.kind === 'notebook' && path.shortId === ref.shortId && path.projectId === ref.projectId && path.connectionId === ref.session.connection.id;
    });
  }
}

/** The title a notebook file's name shows, if it has one (not a bare `shortId.md`). */
function notebookTitleOf(uri: vscode.Uri): string | undefined {
  const path = parseNotebookPath(uri.authority, uri.path);
  const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
  return path?.kind === 'notebook' ? titleFromFileName(name, path.shortId) : undefined;
}
