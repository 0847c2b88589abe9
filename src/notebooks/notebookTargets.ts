import * as vscode from 'vscode';
import type { ConnectionManager, ConnectionSession } from '../connections';
import { commandTarget, type ExplorerNode, type TargetSources } from '../tree';
import { CommandGroup } from '../workbench/commands';
import type { WindowApi } from '../workbench/window';
import type { NotebookFileStore } from './files/notebookFiles';
import type { NotebookLists } from './lists/notebookLists';
import { NotebookNode } from './lists/notebookNodes';
import { type NotebookForm, parseNotebookPath, titleFromFileName } from './model/notebookPaths';

export const OPEN_AS_SETTING = 'posthogExplorer.notebooks.openAs';

/** A notebook a command acts on: from a tree node, or from the URI of an open notebook editor (then `uri`). */
export interface NotebookRef {
  readonly session: ConnectionSession;
  readonly projectId: number;
  readonly shortId: string;
  readonly title: string | null;
  readonly uri?: vscode.Uri;
}

type RefSources = Pick<TargetSources<NotebookRef>, 'activeDocument' | 'pick'>;

/** How the notebook commands find the notebook they act on, its files and its open documents, and open them. */
export class NotebookTargets {
  constructor(
    readonly files: NotebookFileStore,
    readonly connections: ConnectionManager,
    private readonly window: WindowApi,
    readonly lists: NotebookLists,
  ) {}

  /** The file the explorer and "Open Notebook" open: the setting's, Markdown by default. */
  preferredForm(): NotebookForm {
    return vscode.workspace.getConfiguration().get<string>(OPEN_AS_SETTING) === 'json' ? 'json' : 'markdown';
  }

  /** The notebook of a notebook item or a notebook document (by default, the active editor's when run from the palette). */
  ref(target: ExplorerNode | vscode.Uri | undefined, sources: RefSources = { activeDocument: () => this.window.editors.activeUri() }): Promise<NotebookRef | undefined> {
    return commandTarget<NotebookRef>(target, {
      ...sources,
      node: (node) =>
        node instanceof NotebookNode
          ? { session: node.session, projectId: node.project.id, shortId: node.notebook.short_id, title: node.notebook.title }
          : undefined,
      uri: (uri) => this.refOf(uri),
    });
  }

  /** The notebook's file in this form, under the title the ref knows. */
  uriOf(ref: NotebookRef, form: NotebookForm): vscode.Uri {
    return this.files.uriOf(ref.session.connection.id, ref.projectId, { short_id: ref.shortId, title: ref.title }, form);
  }

  /** Opens a notebook file in an editor. */
  show(uri: vscode.Uri): Promise<vscode.TextEditor> {
    this.files.allow(uri);
    return this.window.editors.open(uri);
  }

  /** The open editors' documents of the notebook (either file; their title part may be older). */
  openDocumentsOf(ref: NotebookRef): vscode.TextDocument[] {
    return vscode.workspace.textDocuments.filter((document) => {
      const path = document.uri.scheme === this.files.scheme ? parseNotebookPath(document.uri.authority, document.uri.path) : undefined;
      return path?.kind === 'notebook' && path.shortId === ref.shortId && path.projectId === ref.projectId && path.connectionId === ref.session.connection.id;
    });
  }

  /** The open notebook document of `uri`, or of the active editor. */
  openDocument(uri = this.window.editors.activeUri()): vscode.TextDocument | undefined {
    return uri && this.files.isNotebookUri(uri) ? vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri.toString()) : undefined;
  }

  private async refOf(uri: vscode.Uri): Promise<NotebookRef | undefined> {
    const path = uri.scheme === this.files.scheme ? parseNotebookPath(uri.authority, uri.path) : undefined;
    const session = path?.kind === 'notebook' ? await this.connections.session(path.connectionId) : undefined;
    if (path?.kind !== 'notebook' || !session) {
      return undefined;
    }
    // The title PostHog gave, when known: a file name only shows it (some characters replaced, long ones cut).
    const title = this.files.knownTitle(path) ?? notebookTitleOf(uri) ?? null;
    return { session, projectId: path.projectId, shortId: path.shortId, title, uri };
  }
}

/** The title a notebook file's name shows, if it has one (not a bare `shortId.md`). */
export function notebookTitleOf(uri: vscode.Uri): string | undefined {
  const path = parseNotebookPath(uri.authority, uri.path);
  const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
  return path?.kind === 'notebook' ? titleFromFileName(name, path.shortId) : undefined;
}

/** A group of notebook commands, finding their notebooks through the targets. */
export abstract class NotebookCommandGroup extends CommandGroup {
  constructor(
    protected readonly targets: NotebookTargets,
    protected readonly window: WindowApi,
  ) {
    super();
  }
}
