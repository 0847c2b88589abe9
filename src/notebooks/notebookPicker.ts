import * as vscode from 'vscode';
import { errorText, type NotebookListItem } from '../api';
import { formatRelativeTime } from '../common/time';
import type { ConnectionSession } from '../connections';
import { type ExplorerNode, pickProject } from '../tree';
import { COMMANDS } from '../workbench/commandIds';
import type { CommandHandlers } from '../workbench/commands';
import { displayLanguage } from '../workbench/window';
import { LatestSearch } from './lists/latestSearch';
import { describeUser } from './model/notebookDocument';
import { notebookTitle } from './lists/notebookNodes';
import { mergeMatches, prefixMatches } from './lists/notebookSearch';
import { NotebookCommandGroup, type NotebookRef } from './notebookTargets';

const SEARCH_DEBOUNCE_MS = 250;
const SEARCH_LIMIT = 50;

type SearchItem = vscode.QuickPickItem & { readonly notebook?: NotebookListItem };

/** "Open Notebook": the notebook of an explorer item, or one found in a project from the palette. */
export class NotebookPicker extends NotebookCommandGroup {
  protected commands(): CommandHandlers {
    return {
      [COMMANDS.openNotebook]: (target?: ExplorerNode | vscode.Uri) => this.openNotebook(target),
    };
  }

  /** From a notebook item: opens it. From the palette: search a project's notebooks on the server. */
  async openNotebook(target?: ExplorerNode | vscode.Uri): Promise<vscode.TextEditor | undefined> {
    const ref = await this.targets.ref(target, { pick: target === undefined ? () => this.pickNotebook() : undefined });
    return ref && this.targets.show(this.targets.uriOf(ref, this.targets.preferredForm()));
  }

  /** A project from a list, then one of its notebooks from a search. */
  private async pickNotebook(): Promise<NotebookRef | undefined> {
    const choice = await pickProject(this.targets.connections, this.window, vscode.l10n.t('Open Notebook'));
    const notebook = choice && (await this.searchNotebook(choice.session, choice.project.id, choice.project.name));
    return notebook && { session: choice.session, projectId: choice.project.id, shortId: notebook.short_id, title: notebook.title };
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
    const loading = this.targets.lists.list(session.client, projectId).then((notebooks) => (loaded = notebooks));
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
}
