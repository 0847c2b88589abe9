import * as vscode from 'vscode';
import type { ActivityEntry } from '../api';
import { oneSafeLine } from '../common/text';
import { Disposable } from '../workbench/disposable';
import { activityMarkdown } from './activityMarkdown';
import type { ActivityChunk, ProjectOperations } from './projectOperations';

interface ActivityState {
  readonly title: string;
  readonly operations: ProjectOperations;
  readonly projectId: number;
  entries: ActivityEntry[];
  page: number;
  total?: number;
  more: boolean;
}

/** Read-only Markdown pages of a project's activity (who changed what, and when), loaded a page at a time. */
export class ActivityDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly changed = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;
  private readonly states = new Map<string, ActivityState>();

  /** scheme: `posthog-activity` in the extension (the manifest's menus name it). */
  constructor(readonly scheme: string) {
    super();
  }

  register(): this {
    this._register(vscode.workspace.registerTextDocumentContentProvider(this.scheme, this));
    return this;
  }

  /** Remembers the first page (fetched by the caller, so that refusals surface before anything opens); returns the URI. */
  open(connectionId: string, projectId: number, projectName: string, operations: ProjectOperations, first: ActivityChunk): vscode.Uri {
    const uri = vscode.Uri.from({
      scheme: this.scheme,
      authority: connectionId,
      path: `/${projectId}/${fileSafe(projectName)} activity.md`,
    });
    this.states.set(uri.toString(), {
      title: vscode.l10n.t('Activity of {0}', projectName),
      operations,
      projectId,
      entries: [...first.entries],
      page: 1,
      total: first.total,
      more: first.more,
    });
    this.changed.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const state = this.states.get(uri.toString());
    if (!state) {
      return vscode.l10n.t('This activity page is no longer loaded. Run "Show Project Activity" again.');
    }
    return activityMarkdown(state.title, state.entries, state.total, state.more);
  }

  hasMore(uri: vscode.Uri): boolean {
    return this.states.get(uri.toString())?.more ?? false;
  }

  /** Appends the next (older) page. */
  async loadMore(uri: vscode.Uri): Promise<void> {
    const state = this.states.get(uri.toString());
    if (!state?.more) {
      return;
    }
    const next = await state.operations.activity(state.projectId, state.page + 1, state.entries.length);
    state.page++;
    state.entries.push(...next.entries);
    state.total = next.total ?? state.total;
    state.more = next.more;
    this.changed.fire(uri);
  }
}

function fileSafe(name: string): string {
  return oneSafeLine(name, 80).replace(/[/\\:*?"<>|#]+/g, '-') || 'Project';
}
