import * as vscode from 'vscode';
import type MarkdownIt from 'markdown-it';
import type { StateStore, ConnectionManager } from '../connections';
import type { PostHogFileSystem } from '../documents';
import type { ExplorerTreeProvider } from '../tree';
import type { WorkbenchRegistry } from '../workbench/commands';
import { Disposable } from '../workbench/disposable';
import type { WindowApi } from '../workbench/window';
import { BaseArchive } from './saving/baseArchive';
import { DeletedNotebooks } from './lists/deletedNotebooks';
import { posthogNotebookPlugin } from './markdown';
import { NotebookMarkdownLanguage } from './files/markdownLanguage';
import { NotebookAutoSave } from './files/notebookAutoSave';
import { NotebookAccessLens } from './files/notebookAccess';
import { NotebookCommands } from './notebookCommands';
import { NotebookEditorCommands } from './notebookEditorCommands';
import { NotebookEditors } from './files/notebookEditors';
import { NotebookFileStore } from './files/notebookFiles';
import { NotebookListCommands } from './notebookListCommands';
import { NotebookLists } from './lists/notebookLists';
import { NotebooksSection } from './lists/notebookNodes';
import { NOTEBOOKS_FOLDER, parseNotebookPath } from './model/notebookPaths';
import { NotebookPicker } from './notebookPicker';
import { NotebookPresence } from './files/notebookPresence';
import { NotebookTargets } from './notebookTargets';
import { NotebookTimeline } from './history/notebookTimeline';
import { NotebookVersions } from './history/notebookVersions';
import { DEFAULT_POLL_SECONDS, NotebookSessions } from './session';

/** PostHog's reading of a notebook's Markdown, for features that look into notebooks (query cards). */
export {
  type LinePosition,
  parseTagAt,
  PostHogBlockReading,
  postHogLines,
  readPostHogBlocks,
  type RereadExtent,
  scanTags,
  type PhBlock,
  type PhComponent,
  type PhLocatedBlock,
  type PhPropValue,
  type TagInfo,
} from './markdown';
export { parseNotebookPath, type NotebookPath } from './model/notebookPaths';

export const POLL_INTERVAL_SETTING = 'posthogExplorer.notebooks.pollIntervalSeconds';
export const AUTO_SAVE_SETTING = 'posthogExplorer.notebooks.autoSaveAfterTypingMs';
export const SHARE_CARET_SETTING = 'posthogExplorer.notebooks.shareCaret';

export interface NotebooksServices {
  readonly state: StateStore;
  readonly connections: ConnectionManager;
  readonly tree: ExplorerTreeProvider;
  readonly documents: PostHogFileSystem;
  readonly window: WindowApi;
  readonly registry: WorkbenchRegistry;
  readonly log: vscode.LogOutputChannel;
  /** Where the extension keeps files of its own (the bases of unsaved notebook editors). */
  readonly storageUri: vscode.Uri;
}

/**
 * Notebooks: the Notebooks item under each project (filters, deleted notebooks), notebooks as Markdown and
 * JSON files in the `posthog` file system (edited live with PostHog's other users: its stream of changes,
 * merging saves, others' carets), editor help for their Markdown, and their commands.
 */
export class NotebooksFeature extends Disposable {
  readonly deleted: DeletedNotebooks;
  /** Each project's notebook lists, cached per connection. */
  readonly lists: NotebookLists;
  readonly section: NotebooksSection;
  /** Each open notebook's session: PostHog's version, each editor's base, its live updates and its saves. */
  readonly sessions: NotebookSessions;
  readonly editors: NotebookEditors;
  readonly presence: NotebookPresence;
  readonly autoSave: NotebookAutoSave;
  readonly files: NotebookFileStore;
  readonly language: NotebookMarkdownLanguage;
  readonly commands: NotebookCommands;
  readonly editorCommands: NotebookEditorCommands;
  readonly picker: NotebookPicker;
  readonly listCommands: NotebookListCommands;
  /** Versions from a notebook's history: compare, restore, copy to a new notebook. */
  readonly versions: NotebookVersions;
  /** Each notebook's history in VS Code's Timeline view (where VS Code lets the extension use that API). */
  readonly timeline: NotebookTimeline;

  constructor(services: NotebooksServices) {
    super();
    const { connections, tree, window, registry } = services;
    this.deleted = new DeletedNotebooks(services.state);
    this.lists = new NotebookLists();
    this.section = new NotebooksSection(tree, registry, this.deleted, this.lists);
    this._register(tree.registerProjectSection(this.section));
    const scheme = services.documents.scheme;
    const archive = new BaseArchive(vscode.Uri.joinPath(services.storageUri, 'notebook-bases').fsPath);
    this.editors = this._register(new NotebookEditors(scheme, window));
    this.sessions = new NotebookSessions({
      calls: async (connectionId) => {
        const session = await connections.session(connectionId);
        if (!session) {
          throw new Error(vscode.l10n.t('Not signed in to this PostHog connection ({0}). Sign in, then open the file again.', connectionId));
        }
        return session.client.notebooks;
      },
      editors: (ref) => this.editors.factsFor(ref),
      archive,
      log: services.log,
    });
    this._register({ dispose: () => this.sessions.dispose() });
    this.editors.attach(this.sessions);
    this.files = this._register(
      new NotebookFileStore(scheme, (connectionId) => connections.session(connectionId), this.sessions, this.editors, this.deleted, this.lists),
    );
    this.presence = this._register(new NotebookPresence(scheme, this.sessions, this.editors, window, services.log));
    this.autoSave = this._register(new NotebookAutoSave((uri) => this.files.isNotebookUri(uri)));
    this.sessions.setWindowFocused(window.state.focused);
    this._register(window.onDidChangeWindowState((state) => this.sessions.setWindowFocused(state.focused)));
    this.language = this._register(
      new NotebookMarkdownLanguage(
        (uri) => this.files.isNotebookUri(uri, 'markdown'),
        (document) => this.files.markdownIssues(document),
        (document) => this.files.isMarkdownNotebook(document.uri),
      ),
    );
    this._register(services.documents.registerCollection(NOTEBOOKS_FOLDER, this.files));
    this._register(this.files.onDidChangeNotebooks((change) => tree.refreshProject(change.session, change.projectId)));
    this._register(new NotebookAccessLens(scheme, this.sessions, connections));
    this.versions = this._register(new NotebookVersions(this.files, this.sessions, connections, window));
    this.timeline = this._register(new NotebookTimeline(this.files, this.sessions, connections, this.versions, window, services.log).register(registry));
    const targets = new NotebookTargets(this.files, connections, window, this.lists);
    this.commands = this._register(new NotebookCommands(targets, window, this.timeline).register(registry));
    this.editorCommands = this._register(new NotebookEditorCommands(targets, window).register(registry));
    this.picker = this._register(new NotebookPicker(targets, window).register(registry));
    this.listCommands = this._register(new NotebookListCommands(this.section, tree, connections, window).register(registry));
    this.applySettings();
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if ([POLL_INTERVAL_SETTING, AUTO_SAVE_SETTING, SHARE_CARET_SETTING].some((setting) => event.affectsConfiguration(setting))) {
          this.applySettings();
        }
      }),
    );
  }

  private applySettings(): void {
    const settings = vscode.workspace.getConfiguration();
    this.files.setPollInterval(settings.get<number>(POLL_INTERVAL_SETTING, DEFAULT_POLL_SECONDS));
    this.autoSave.setDelay(settings.get<number>(AUTO_SAVE_SETTING, 0));
    this.presence.setShareCaret(settings.get<boolean>(SHARE_CARET_SETTING, true));
  }
}

export function registerNotebooks(services: NotebooksServices): NotebooksFeature {
  return new NotebooksFeature(services);
}

/**
 * The Markdown preview's markdown-it, extended (contributes `markdown.markdownItPlugins`): a notebook's
 * Markdown file is read as PostHog reads it, its tags drawn as cards, never as raw HTML; other Markdown files
 * keep VS Code's usual rendering. VS Code parses without naming the document, so a notebook is recognised by
 * its text: the text of an open notebook Markdown file.
 */
export function extendMarkdownIt(md: MarkdownIt.MarkdownIt): MarkdownIt.MarkdownIt {
  return md.use(posthogNotebookPlugin, { isNotebookText: isOpenNotebookText });
}

function isOpenNotebookText(text: string): boolean {
  return vscode.workspace.textDocuments.some((document) => isNotebookMarkdownUri(document.uri) && sameNormalisedText(document, text));
}

/** Whether the document holds the text as markdown-it normalises it (line ends as `\n`, NUL as U+FFFD). */
function sameNormalisedText(document: vscode.TextDocument, text: string): boolean {
  if (document.eol === vscode.EndOfLine.LF && document.offsetAt(document.lineAt(document.lineCount - 1).range.end) !== text.length) {
    return false;
  }
  return document.getText().replace(/\r\n?/g, '\n').replace(/\0/g, '\uFFFD') === text;
}

/** Whether a URI is a notebook's Markdown file (the Markdown extension may hand over its own URI type). */
function isNotebookMarkdownUri(uri: unknown): boolean {
  const { scheme, authority, path } = (uri ?? {}) as Partial<Record<'scheme' | 'authority' | 'path', unknown>>;
  if (typeof scheme !== 'string' || !scheme.startsWith('posthog') || typeof authority !== 'string' || typeof path !== 'string') {
    return false;
  }
  const parsed = parseNotebookPath(authority, path);
  return parsed?.kind === 'notebook' && parsed.form === 'markdown';
}
