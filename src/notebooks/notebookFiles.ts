import * as vscode from 'vscode';
import { ConflictError, type Notebook, NOT_MODIFIED } from '../api';
import { projectItemKey } from '../common/keys';
import { Disposable } from '../workbench/disposable';
import type { WindowApi } from '../workbench/window';
import type { ConnectionSession } from '../connections';
import { type CollectionItemTarget, type CollectionTarget, ModificationClock, type ProjectCollection, reloadAfterSave } from '../documents';
import type { DeletedNotebooks } from './deletedNotebooks';
import type { EditorBases } from './editorBases';
import type { NotebookLists } from './notebookLists';
import type { MarkdownIssue } from './markdown';
import {
  type BaseSnapshot,
  conflictMarkerIssues,
  editableFromMarkdown,
  MarkdownSaveError,
  markdownTextOf,
  planMarkdownSave,
  renderMarkdown,
  snapshotOf,
} from './markdownSave';
import {
  describeUser,
  type EditableNotebook,
  EMPTY_DOC,
  MARKDOWN_NODE,
  MARKDOWN_NODE_ID,
  markdownOf,
  NotebookDocumentError,
  type SaveBody,
  sameJson,
  serializeNotebook,
} from './notebookDocument';
import { NotebookHistory } from './notebookHistory';
import {
  bareNotebookFileName,
  NOTEBOOK_FORMS,
  type NotebookForm,
  type NotebookPath,
  notebookFileName,
  notebookFormOf,
  notebookPath,
  notebookShortIdOf,
  parseNotebookPath,
  titleFromFileName,
} from './notebookPaths';
import { mergeJsonSave, mergeLabels, mergeMarkdownSave, type SaveMergeOutcome } from './saveMerge';

/** A read within this long after a stat (or poll) fetched the notebook serves what that fetch got. */
const FRESH_MS = 5_000;
const MAX_SAVE_ATTEMPTS = 3;
const FORGET_CLOSED_MS = 10 * 60_000;
/** Above this, a legacy notebook's Markdown is converted back only on save, not for live diagnostics. */
const LIVE_CONVERSION_MAX_CHARS = 500_000;

/** One file's text of a notebook version. */
interface FormText {
  readonly text: string;
  readonly bytes: Uint8Array;
  /** What the Markdown of a legacy notebook cannot hold exactly: checked when first asked, after the editor shows. */
  losses(): readonly MarkdownIssue[];
}

interface Entry {
  readonly key: string;
  readonly history: NotebookHistory;
  notebook: Notebook;
  /** Each file's text of the snapshot, made when first asked for. */
  texts: Map<NotebookForm, FormText>;
  /** A save's own Markdown, served for the version it made instead of the conversion, so the user's spelling stays. */
  written?: { readonly version: number; readonly text: string };
  mtime: number;
  /** Above every mtime VS Code was told: a new snapshot goes higher. */
  readonly clock: ModificationClock;
  fetchedAt: number;
  /** A newer version seen by polling while an editor had unsaved changes. */
  remote?: Notebook;
  warnedVersion?: number;
  watchers: number;
}

/** A save on its way: what the editor's text asks for, and what it is based on (to merge with a newer version). */
interface PendingSave {
  readonly form: NotebookForm;
  readonly text: string;
  readonly body: SaveBody;
  /** The whole notebook as the editor has it. */
  readonly full: EditableNotebook;
  /** What the text is based on; for a JSON document without a known base, nothing (every difference then conflicts). */
  readonly base: BaseSnapshot | undefined;
  /** The version a JSON document's read-only block shows. */
  readonly displayed?: number;
}

export interface NotebooksChange {
  readonly session: ConnectionSession;
  readonly projectId: number;
}

/**
 * Notebooks as files (see ./notebookPaths.ts for the URIs): each notebook is a Markdown file and a JSON
 * document. Keeps, per notebook, the snapshot the editors saw: stat and read serve it, so opening costs one
 * GET and saving one PATCH; polling (GET with If-None-Match) moves it on for clean editors only. A save that
 * meets a newer version merges three ways (./saveMerge.ts): what the editor was based on, its text, and
 * PostHog's; blocks changed on both sides come back to the editor between conflict markers.
 */
export class NotebookFileStore extends Disposable implements ProjectCollection {
  private readonly entries = new Map<string, Entry>();
  private readonly fetching = new Map<string, Promise<Notebook>>();
  private readonly saving = new Map<string, Promise<void>>();
  private readonly allowedNames = new Map<string, Set<string>>();
  private readonly overwriteRequests = new Set<string>();
  private readonly changed = this._register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  readonly onDidChange = this.changed.event;
  private readonly notebooksChanged = this._register(new vscode.EventEmitter<NotebooksChange>());
  /** A notebook was created, saved, renamed or deleted: the explorer refreshes the project. */
  readonly onDidChangeNotebooks = this.notebooksChanged.event;
  private readonly remoteCopies = new Map<string, string>();
  private readonly remoteCopiesChanged = this._register(new vscode.EventEmitter<vscode.Uri>());
  private pollTimer: NodeJS.Timeout | undefined;
  private polling = false;

  constructor(
    readonly scheme: string,
    private readonly sessions: (connectionId: string) => Promise<ConnectionSession | undefined>,
    private readonly deleted: DeletedNotebooks,
    private readonly lists: NotebookLists,
    private readonly bases: EditorBases,
    private readonly window: Pick<WindowApi, 'showWarningMessage' | 'editors'>,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this._register(
      vscode.workspace.registerTextDocumentContentProvider(this.remoteScheme, {
        onDidChange: this.remoteCopiesChanged.event,
        provideTextDocumentContent: (uri) => this.remoteCopies.get(uri.toString()),
      }),
    );
    this._register({ dispose: () => clearTimeout(this.pollTimer) });
  }

  get remoteScheme(): string {
    return `${this.scheme}-remote`;
  }

  uriOf(connectionId: string, projectId: number, notebook: Pick<Notebook, 'short_id' | 'title'>, form: NotebookForm): vscode.Uri {
    return vscode.Uri.from({ scheme: this.scheme, authority: connectionId, path: notebookPath(projectId, notebook.short_id, notebook.title, form) });
  }

  /** posthog://<connection>/<project>/notebooks/<shortId>.json (or .md): always the notebook, whatever its title. */
  bareUriOf(connectionId: string, projectId: number, shortId: string, form: NotebookForm = 'json'): vscode.Uri {
    return vscode.Uri.from({ scheme: this.scheme, authority: connectionId, path: `/${projectId}/notebooks/${bareNotebookFileName(shortId, form)}` });
  }

  /** Whether `uri` is one of the notebook files this store serves. */
  isNotebookUri(uri: vscode.Uri, form?: NotebookForm): boolean {
    const path = uri.scheme === this.scheme ? parseNotebookPath(uri.authority, uri.path) : undefined;
    return path?.kind === 'notebook' && (form === undefined || path.form === form);
  }

  itemIdOf(fileName: string): string | undefined {
    return notebookFormOf(fileName) && notebookShortIdOf(fileName);
  }

  async list({ session, projectId }: CollectionTarget): Promise<[string, vscode.FileType][]> {
    const notebooks = await this.lists.list(session.client, projectId);
    const files: [string, vscode.FileType][] = [];
    for (const notebook of notebooks) {
      for (const form of NOTEBOOK_FORMS) {
        this.allow(this.uriOf(session.connection.id, projectId, notebook, form));
        files.push([notebookFileName(notebook.title, notebook.short_id, form), vscode.FileType.File]);
      }
    }
    return files;
  }

  async stat(target: CollectionItemTarget): Promise<vscode.FileStat> {
    const form = formOf(target.uri);
    const known = this.entries.get(keyOf(target));
    const entry = known && this.trusted(known) ? known : this.accept(target, await this.fetch(target));
    if (!this.isNameInUse(target.uri, entry)) {
      // Another title for the notebook: what a rename asks about before it moves the file. Saying it
      // exists would make VS Code delete the "existing" target first, i.e. the notebook itself.
      throw vscode.FileSystemError.FileNotFound(target.uri);
    }
    // An editor with unsaved changes is told nothing newer than it was ever told: its save merges instead
    // of VS Code's "newer on disk" refusal, also after a reload restored the text, and also when another
    // save (the notebook's other file, a write through workspace.fs) moved the snapshot on meanwhile.
    const mtime = (await this.bases.dirtyMtime(target.uri)) ?? entry.mtime;
    return { type: vscode.FileType.File, ctime: ctimeOf(entry.notebook), mtime: Math.min(mtime, entry.mtime), size: this.textOf(entry, form).bytes.byteLength };
  }

  async read(target: CollectionItemTarget): Promise<Uint8Array> {
    let entry = this.entries.get(keyOf(target));
    if (!entry || Date.now() - entry.fetchedAt > FRESH_MS) {
      entry = this.accept(target, await this.fetch(target));
    }
    const form = formOf(target.uri);
    const text = this.textOf(entry, form);
    entry.history.recordServed(entry.notebook);
    this.bases.served(target.uri, snapshotOf(entry.notebook, text.text, entry.mtime));
    return text.bytes;
  }

  /** Saves one at a time per notebook (either file): each is planned once the one before has moved the bases on. */
  write(target: CollectionItemTarget, content: Uint8Array, options: { create: boolean; overwrite: boolean }): Promise<void> {
    const key = keyOf(target);
    const run = (this.saving.get(key) ?? Promise.resolve()).then(() => this.writeNow(target, content, options));
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.saving.set(key, settled);
    void settled.then(() => {
      if (this.saving.get(key) === settled) {
        this.saving.delete(key);
      }
    });
    return run;
  }

  private async writeNow(target: CollectionItemTarget, content: Uint8Array, options: { create: boolean; overwrite: boolean }): Promise<void> {
    const existing = this.entries.get(keyOf(target));
    if (!existing && options.create && !options.overwrite) {
      throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('Create notebooks with "PostHog: Create Notebook…".'));
    }
    const history = existing?.history ?? new NotebookHistory(target.itemId);
    const text = new TextDecoder().decode(content);
    const save = await this.planSave(target, text, history);
    if (!save) {
      return;
    }
    const overwrite = this.overwriteRequests.delete(target.uri.toString());
    const saved = await this.send(target, save, history, overwrite);
    if (save.displayed !== undefined && saved.own) {
      history.recordWritten(save.displayed, saved.notebook);
    }
    this.acceptWritten(target, saved.notebook, history, save, saved.own);
    this.notebooksChanged.fire({ session: target.session, projectId: target.projectId });
  }

  /** The next save of `uri` replaces PostHog's version even if it is newer (no merge). */
  requestOverwrite(uri: vscode.Uri): void {
    this.overwriteRequests.add(uri.toString());
  }

  /** Problems of a notebook's Markdown editor text: conflict markers, and what a save of it would refuse or keep as is. */
  markdownIssues(document: vscode.TextDocument): readonly MarkdownIssue[] {
    const text = document.getText();
    const markers = conflictMarkerIssues(text);
    const base = this.bases.known(document.uri);
    if (!base || markdownOf(base.editable.content) !== undefined) {
      return markers;
    }
    if (text === base.text) {
      const entry = this.entries.get(keyOfUri(document.uri));
      return [...markers, ...(entry && entry.notebook.version === base.version ? this.textOf(entry, 'markdown').losses() : [])];
    }
    if (text.length > LIVE_CONVERSION_MAX_CHARS) {
      return markers; // converting back takes a noticeable moment on every pause in typing; the save still checks
    }
    try {
      editableFromMarkdown(text, base.editable);
      return markers;
    } catch (error) {
      return error instanceof MarkdownSaveError ? error.issues : markers;
    }
  }

  async delete(target: CollectionItemTarget): Promise<void> {
    const known = this.entries.get(keyOf(target));
    if (known && !this.isCurrentName(target.uri, known)) {
      throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('Refusing to delete a notebook through a name it does not have.'));
    }
    const notebook = await target.session.client.notebooks.softDelete(target.projectId, target.itemId);
    await this.deleted.add(target.connectionId, target.projectId, {
      shortId: notebook.short_id,
      title: notebook.title ?? '',
      deletedAt: new Date().toISOString(),
    });
    this.entries.delete(keyOf(target));
    const openUris = this.openDocuments(keyOf(target)).map((document) => document.uri);
    this.changed.fire([target.uri, ...openUris].map((uri) => ({ type: vscode.FileChangeType.Deleted, uri })));
    this.notebooksChanged.fire({ session: target.session, projectId: target.projectId });
  }

  async rename(target: CollectionItemTarget, newUri: vscode.Uri): Promise<void> {
    const newName = newUri.path.slice(newUri.path.lastIndexOf('/') + 1);
    const renamedId = parseNotebookPath(newUri.authority, newUri.path);
    if (renamedId?.kind === 'notebook' && renamedId.shortId !== target.itemId && newName.includes('(')) {
      throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('The short id in a notebook file name cannot change.'));
    }
    if (notebookFormOf(newName) !== formOf(target.uri)) {
      throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('A notebook file keeps its extension (.md or .json).'));
    }
    const title = titleFromFileName(newName, target.itemId);
    if (title === undefined) {
      throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('Give the notebook a title: "Title ({0}).md".', target.itemId));
    }
    const notebook = await target.session.client.notebooks.update(target.projectId, target.itemId, { title });
    const entry = this.entries.get(keyOf(target));
    if (entry) {
      this.setSnapshot(entry, notebook);
    }
    this.changed.fire([
      { type: vscode.FileChangeType.Deleted, uri: target.uri },
      { type: vscode.FileChangeType.Created, uri: newUri },
    ]);
    this.notebooksChanged.fire({ session: target.session, projectId: target.projectId });
  }

  watch(target: CollectionItemTarget): vscode.Disposable {
    const entry = this.entries.get(keyOf(target));
    if (entry) {
      entry.watchers++;
    }
    return new vscode.Disposable(() => {
      if (entry) {
        entry.watchers--;
      }
    });
  }

  /** Creates a notebook (one POST) and returns the URI of its file in `form`. */
  async create(session: ConnectionSession, projectId: number, title: string, form: NotebookForm): Promise<vscode.Uri> {
    const notebook = await session.client.notebooks.create(projectId, {
      title,
      content: { type: 'doc', content: [{ type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: title }] }] },
      text_content: title,
    });
    const uri = this.uriOf(session.connection.id, projectId, notebook, form);
    this.accept({ connectionId: session.connection.id, projectId, itemId: notebook.short_id }, notebook);
    this.notebooksChanged.fire({ session, projectId });
    return uri;
  }

  /**
   * Makes a legacy notebook a Markdown notebook: its content becomes one ph-markdown-notebook node holding
   * its Markdown (as PostHog's own conversion does), saved with its version. Returns the saved notebook.
   */
  async convertToMarkdown(session: ConnectionSession, projectId: number, shortId: string): Promise<Notebook> {
    const notebooks = session.client.notebooks;
    const current = await notebooks.get(projectId, shortId);
    if (markdownOf(current.content) !== undefined) {
      return current;
    }
    const markdown = renderMarkdown(current.content, { forMarkdownNotebook: true }).markdown;
    const saved = await notebooks.update(projectId, shortId, {
      content: { type: 'doc', content: [{ type: MARKDOWN_NODE, attrs: { nodeId: MARKDOWN_NODE_ID, markdown } }] },
      text_content: markdown,
      version: current.version,
    });
    const entry = this.entries.get(projectItemKey(session.connection.id, projectId, shortId));
    if (entry) {
      this.setSnapshot(entry, saved);
      entry.fetchedAt = Date.now();
      this.changed.fire(this.openDocuments(entry.key).map((document) => ({ type: vscode.FileChangeType.Changed, uri: document.uri })));
    }
    this.notebooksChanged.fire({ session, projectId });
    return saved;
  }

  /** PostHog's current text of the notebook file `uri` (one GET); the store moves on to that version. */
  async latestText(uri: vscode.Uri): Promise<string> {
    const target = await this.targetOf(uri);
    const entry = this.accept(target, await target.session.client.notebooks.get(target.projectId, target.itemId));
    const text = this.textOf(entry, formOf(uri)).text;
    entry.history.recordServed(entry.notebook);
    const snapshot = snapshotOf(entry.notebook, text, (await this.bases.dirtyMtime(uri)) ?? entry.mtime);
    this.bases.served(uri, snapshot);
    await this.bases.rebase(uri, snapshot);
    return text;
  }

  /** Polls every open notebook every `seconds` (0 stops polling). */
  setPollInterval(seconds: number): void {
    clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
    if (seconds > 0) {
      const tick = () => {
        void this.pollOpenNotebooks().finally(() => {
          if (this.pollTimer !== undefined && !this.isDisposed) {
            this.pollTimer = setTimeout(tick, seconds * 1000);
          }
        });
      };
      this.pollTimer = setTimeout(tick, seconds * 1000);
    }
  }

  /** One round of polling: a conditional GET per open notebook; clean editors reload, dirty ones are warned. */
  async pollOpenNotebooks(): Promise<void> {
    if (this.polling) {
      return;
    }
    this.polling = true;
    try {
      const open = new Map<string, vscode.TextDocument[]>();
      for (const document of vscode.workspace.textDocuments) {
        const path = document.uri.scheme === this.scheme ? parseNotebookPath(document.uri.authority, document.uri.path) : undefined;
        if (path?.kind === 'notebook') {
          open.set(pathKey(path), [...(open.get(pathKey(path)) ?? []), document]);
        }
      }
      this.forgetClosed(open);
      await Promise.all([...open].map(([key, documents]) => this.pollOne(key, documents).catch(() => undefined)));
    } finally {
      this.polling = false;
    }
  }

  /** Snapshots of notebooks no editor shows any more go after a while, so memory does not grow with browsing. */
  private forgetClosed(open: ReadonlyMap<string, unknown>): void {
    for (const [key, entry] of this.entries) {
      if (!open.has(key) && entry.watchers <= 0 && Date.now() - entry.fetchedAt > FORGET_CLOSED_MS) {
        this.entries.delete(key);
      }
    }
  }

  private async pollOne(key: string, documents: readonly vscode.TextDocument[]): Promise<void> {
    const entry = this.entries.get(key);
    const [first] = documents;
    const path = first && parseNotebookPath(first.uri.authority, first.uri.path);
    const session = path && (await this.sessions(path.connectionId));
    if (!entry || path?.kind !== 'notebook' || !session) {
      return;
    }
    const known = entry.remote ?? entry.notebook;
    const answer = await session.client.notebooks.get(path.projectId, path.shortId, { ifNoneMatchVersion: known.version });
    const latest = answer === NOT_MODIFIED ? known : answer;
    if (latest.version === entry.notebook.version && latest.last_modified_at === entry.notebook.last_modified_at) {
      entry.remote = undefined;
      return;
    }
    const dirty = documents.find((document) => document.isDirty);
    if (!dirty) {
      entry.remote = undefined;
      this.setSnapshot(entry, latest);
      entry.fetchedAt = Date.now();
      this.changed.fire(documents.map((document) => ({ type: vscode.FileChangeType.Changed, uri: document.uri })));
      this.notebooksChanged.fire({ session, projectId: path.projectId });
      return;
    }
    entry.remote = latest;
    if (entry.warnedVersion !== latest.version) {
      entry.warnedVersion = latest.version;
      void this.warnRemoteChange(dirty, latest);
    }
  }

  private async warnRemoteChange(document: vscode.TextDocument, latest: Notebook): Promise<void> {
    const compare = vscode.l10n.t('Compare');
    const choice = await this.window.showWarningMessage(
      vscode.l10n.t(
        '"{0}" changed on PostHog (version {1}, by {2}) while you have unsaved changes. Saving will merge their changes with yours; anything you both changed will be marked for you to choose.',
        latest.title ?? '',
        latest.version,
        describeUser(latest.last_modified_by) ?? vscode.l10n.t('someone'),
      ),
      compare,
    );
    if (choice === compare) {
      await this.compare(document.uri, latest);
    }
  }

  /** Opens a diff: PostHog's notebook (read-only, in the file's form) on the left, the editor's text on the right. */
  async compare(uri: vscode.Uri, server: Notebook): Promise<void> {
    const left = uri.with({ scheme: this.remoteScheme, query: `version=${server.version}` });
    this.remoteCopies.set(left.toString(), renderForm(server, formOf(uri)).text);
    this.remoteCopiesChanged.fire(left);
    await this.window.editors.diff(left, uri, vscode.l10n.t('{0} (PostHog, version {1}) ↔ Yours', server.title ?? '', server.version));
  }

  /** Reads the editor's text: what a save sends and what it is based on; undefined when nothing changed. */
  private async planSave(target: CollectionItemTarget, text: string, history: NotebookHistory): Promise<PendingSave | undefined> {
    const form = formOf(target.uri);
    if (this.bases.isSuperseded(target.uri, text)) {
      this.log.info(`${target.uri.path}: this text was already saved or replaced by a merge; nothing to send.`);
      return undefined;
    }
    if (form === 'json') {
      const markers = conflictMarkerIssues(text);
      if (markers.length > 0) {
        throw new NotebookDocumentError(markers.map((issue) => ({ message: issue.message, location: { line: issue.line + 1, column: 1, offset: 0 } })));
      }
      const plan = history.planSave(text);
      if (plan.kind === 'unchanged') {
        return undefined;
      }
      const own = await this.bases.baseOf(target.uri);
      if (own?.merged && own.displayed === plan.displayed) {
        return sameJson(plan.full, own.editable) ? undefined : { form, text, body: { ...plan.body, version: own.version }, full: plan.full, base: own, displayed: plan.displayed };
      }
      const known = history.editableAt(plan.body.version);
      const archived = known ? undefined : own;
      const base = known
        ? { version: plan.body.version, editable: known, text: '', mtime: 0 }
        : archived?.version === plan.body.version
          ? archived
          : undefined;
      return { form, text, body: plan.body, full: plan.full, base, displayed: plan.displayed };
    }
    const base = (await this.bases.baseOf(target.uri)) ?? (await this.currentSnapshot(target));
    const plan = planMarkdownSave(text, base);
    return plan.kind === 'unchanged' ? undefined : { form, text, body: plan.body, full: plan.full, base };
  }

  /** For a Markdown file saved without a known base (it was never read here): PostHog's current version. */
  private async currentSnapshot(target: CollectionItemTarget): Promise<BaseSnapshot> {
    this.log.warn(`No base is known for ${target.uri.path}: merging against PostHog's current version.`);
    const entry = this.accept(target, await this.fetch(target));
    return snapshotOf(entry.notebook, this.textOf(entry, 'markdown').text, entry.mtime);
  }

  /**
   * One PATCH based on the text's version. When PostHog has a newer one: merge with it and save the merge
   * (or, if asked, overwrite it); when both sides changed the same blocks, the editor gets the merge with
   * conflict markers and the save is refused. `own` tells whether PostHog now holds exactly the editor's text.
   */
  private async send(target: CollectionItemTarget, save: PendingSave, history: NotebookHistory, overwrite: boolean): Promise<{ notebook: Notebook; own: boolean }> {
    const notebooks = target.session.client.notebooks;
    // A text based on a save that PostHog merged with others' changes lacks those changes: it merges, never replaces.
    if (!save.base?.merged || overwrite) {
      try {
        return { notebook: await notebooks.update(target.projectId, target.itemId, save.body), own: true };
      } catch (error) {
        if (!(error instanceof ConflictError)) {
          throw error;
        }
      }
    }
    for (let attempt = 1; attempt <= MAX_SAVE_ATTEMPTS; attempt++) {
      const server = await notebooks.get(target.projectId, target.itemId);
      const outcome: SaveMergeOutcome = overwrite ? { kind: 'merged', full: save.full, changes: [] } : this.merge(save, server);
      if (outcome.kind === 'alreadySaved') {
        this.log.info(`${target.uri.path}: PostHog already holds this text (version ${server.version}); nothing to merge.`);
        return { notebook: server, own: true };
      }
      if (outcome.kind === 'mergedOnPostHog') {
        this.log.info(`${target.uri.path}: version ${server.version} already holds your changes (${outcome.changes.join('; ')}); nothing sent, the editor takes it.`);
        return { notebook: server, own: false };
      }
      if (outcome.kind === 'conflicted') {
        await this.showConflicts(target, save, server, history, outcome);
        throw new Error(
          vscode.l10n.t(
            'Not saved: "{0}" was changed on PostHog (version {1}, by {2}). Your changes and theirs are merged in the editor, but {3} place(s) changed on both sides and are marked: keep what you want there, then save again.',
            server.title ?? target.itemId,
            server.version,
            describeUser(server.last_modified_by) ?? vscode.l10n.t('someone'),
            outcome.conflicts,
          ),
        );
      }
      const what = overwrite ? 'overwrote' : `merged with (${outcome.changes.join('; ')})`;
      try {
        const saved = await notebooks.update(target.projectId, target.itemId, bodyFor(save.form, outcome.full, server));
        this.log.info(`${target.uri.path}: saved over version ${server.version} by ${describeUser(server.last_modified_by) ?? 'someone'}, ${what}.`);
        return { notebook: saved, own: overwrite };
      } catch (error) {
        if (!(error instanceof ConflictError)) {
          throw error;
        }
      }
    }
    throw new Error(vscode.l10n.t('Not saved: the notebook keeps changing on PostHog. Try again.'));
  }

  private merge(save: PendingSave, server: Notebook): SaveMergeOutcome {
    const labels = mergeLabels(server, describeUser(server.last_modified_by));
    if (save.form === 'markdown' && save.base) {
      return mergeMarkdownSave(save.base, save.text, server, labels);
    }
    return mergeJsonSave(save.base?.editable ?? NO_BASE, save.full, server, labels);
  }

  /** The editor gets the merged text with conflict markers, based from now on PostHog's version. */
  private async showConflicts(
    target: CollectionItemTarget,
    save: PendingSave,
    server: Notebook,
    history: NotebookHistory,
    outcome: Extract<SaveMergeOutcome, { kind: 'conflicted' }>,
  ): Promise<void> {
    this.log.info(`${target.uri.path}: ${outcome.conflicts} conflict(s) with version ${server.version}; merged: ${outcome.changes.join('; ')}`);
    const known = (await this.bases.dirtyMtime(target.uri)) ?? save.base?.mtime;
    const entry = this.accept(target, server, history);
    history.recordServed(server);
    const theirs = outcome.base ?? this.textOf(entry, save.form).text;
    await this.bases.rebase(target.uri, snapshotOf(server, theirs, known ?? entry.mtime), save.text);
    setTimeout(() => void replaceText(target.uri, outcome.text), 0);
  }

  /** One GET per notebook at a time: VS Code asks for a stat from several places when it opens a file. */
  private fetch(target: CollectionItemTarget): Promise<Notebook> {
    const key = keyOf(target);
    let pending = this.fetching.get(key);
    if (!pending) {
      pending = target.session.client.notebooks.get(target.projectId, target.itemId);
      this.fetching.set(key, pending);
      const forget = () => this.fetching.delete(key);
      pending.then(forget, forget);
    }
    return pending;
  }

  private async targetOf(uri: vscode.Uri): Promise<CollectionItemTarget> {
    const path = parseNotebookPath(uri.authority, uri.path);
    const session = path?.kind === 'notebook' ? await this.sessions(path.connectionId) : undefined;
    if (path?.kind !== 'notebook' || !session) {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    return { uri, connectionId: path.connectionId, projectId: path.projectId, itemId: path.shortId, session };
  }

  /** A fetched notebook becomes the snapshot VS Code sees. */
  private accept(target: Pick<CollectionItemTarget, 'connectionId' | 'projectId' | 'itemId'>, notebook: Notebook, history?: NotebookHistory): Entry {
    const key = keyOf(target);
    let entry = this.entries.get(key);
    if (!entry) {
      const clock = new ModificationClock();
      entry = {
        key,
        history: history ?? new NotebookHistory(target.itemId),
        notebook,
        texts: new Map(),
        mtime: clock.next(Date.parse(notebook.last_modified_at) || Date.now()),
        clock,
        fetchedAt: Date.now(),
        watchers: 0,
      };
      this.entries.set(key, entry);
    } else {
      this.setSnapshot(entry, notebook);
    }
    entry.fetchedAt = Date.now();
    return entry;
  }

  /**
   * After a save the snapshot is the version PostHog now holds, with a newer mtime, and a change fires a
   * moment later: the editor, clean by then, reloads and shows that version. (The stat VS Code takes right
   * after the save still sees the editor dirty and so is told no newer mtime: a later save never looks
   * "modified since".) `own`: PostHog holds exactly the saved text, so it is what is served.
   */
  private acceptWritten(target: CollectionItemTarget, notebook: Notebook, history: NotebookHistory, save: PendingSave, own: boolean): void {
    const form = formOf(target.uri);
    const entry = this.accept(target, notebook, history);
    entry.remote = undefined;
    if (form === 'markdown' && own) {
      entry.written = { version: notebook.version, text: save.text };
      entry.texts.delete('markdown');
    }
    const mtime = entry.clock.next(entry.mtime + 1);
    entry.mtime = mtime;
    reloadAfterSave(() => this.changed.fire([{ type: vscode.FileChangeType.Changed, uri: target.uri }]));
    // The editor holds the text it saved until it reloads: based on the version that took it, merged with others' changes unless its own.
    const editable = own ? snapshotOf(notebook, save.text, mtime).editable : save.full;
    this.bases.written(target.uri, { version: notebook.version, editable, text: save.text, mtime, merged: !own, displayed: save.displayed });
  }

  private setSnapshot(entry: Entry, notebook: Notebook): void {
    const same = notebook.version === entry.notebook.version && serializeNotebook(notebook) === serializeNotebook(entry.notebook);
    entry.notebook = notebook;
    if (!same) {
      entry.texts.clear();
      entry.mtime = entry.clock.next(Date.parse(notebook.last_modified_at) || 0);
    }
  }

  /** The text of one of the notebook's files for the snapshot, made once per version. */
  private textOf(entry: Entry, form: NotebookForm): FormText {
    let text = entry.texts.get(form);
    if (!text) {
      const own = form === 'markdown' && entry.written?.version === entry.notebook.version ? entry.written.text : undefined;
      text = own !== undefined ? { text: own, bytes: new TextEncoder().encode(own), losses: () => [] } : renderForm(entry.notebook, form);
      entry.texts.set(form, text);
    }
    return text;
  }

  /** Whether stat may answer from the snapshot: just fetched, or open in an editor (polling keeps it current). */
  private trusted(entry: Entry): boolean {
    if (Date.now() - entry.fetchedAt <= FRESH_MS || entry.watchers > 0) {
      return true;
    }
    return this.openDocuments(entry.key).length > 0;
  }

  /**
   * Lets a name the extension handed out (from the explorer's list or a search, whose title may be a
   * little old) find its notebook. Other titles do not exist, see stat().
   */
  allow(uri: vscode.Uri): void {
    const path = parseNotebookPath(uri.authority, uri.path);
    if (path?.kind === 'notebook') {
      const key = pathKey(path);
      const names = this.allowedNames.get(key) ?? new Set<string>();
      names.add(uri.toString());
      this.allowedNames.set(key, names);
    }
  }

  /** The notebook's current file name, its bare `<shortId>.md`, a name handed out, or one an open editor uses. */
  private isNameInUse(uri: vscode.Uri, entry: Entry): boolean {
    return (
      this.isCurrentName(uri, entry) ||
      this.allowedNames.get(entry.key)?.has(uri.toString()) === true ||
      vscode.workspace.textDocuments.some((document) => document.uri.toString() === uri.toString())
    );
  }

  private isCurrentName(uri: vscode.Uri, entry: Entry): boolean {
    const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
    const { short_id, title } = entry.notebook;
    return NOTEBOOK_FORMS.some((form) => name === notebookFileName(title, short_id, form) || name === bareNotebookFileName(short_id, form));
  }

  private openDocuments(key: string): vscode.TextDocument[] {
    return vscode.workspace.textDocuments.filter((document) => {
      const path = document.uri.scheme === this.scheme ? parseNotebookPath(document.uri.authority, document.uri.path) : undefined;
      return path?.kind === 'notebook' && pathKey(path) === key;
    });
  }
}

const NO_BASE: EditableNotebook = { title: null, content: EMPTY_DOC, text_content: null };

/** The PATCH that saves `full` over PostHog's `server` version; a Markdown file has no title, so it keeps PostHog's. */
function bodyFor(form: NotebookForm, full: EditableNotebook, server: Notebook): SaveBody {
  const body: SaveBody = { content: full.content, text_content: full.text_content, version: server.version };
  if (form === 'json' && full.title !== (server.title ?? null)) {
    body.title = full.title;
  }
  return body;
}

function renderForm(notebook: Notebook, form: NotebookForm): FormText {
  const text = form === 'json' ? serializeNotebook(notebook) : markdownTextOf(notebook.content);
  let losses: readonly MarkdownIssue[] | undefined;
  return {
    text,
    bytes: new TextEncoder().encode(text),
    losses: () => (losses ??= form === 'json' || markdownOf(notebook.content) !== undefined ? [] : renderMarkdown(notebook.content).losses),
  };
}

/** Replaces the whole text of the open editor of `uri` (it stays unsaved). */
export async function replaceText(uri: vscode.Uri, text: string): Promise<void> {
  const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri.toString());
  if (!document) {
    return;
  }
  const edit = new vscode.WorkspaceEdit();
  edit.replace(uri, new vscode.Range(0, 0, document.lineCount, 0), text);
  await vscode.workspace.applyEdit(edit);
}

function formOf(uri: vscode.Uri): NotebookForm {
  return notebookFormOf(uri.path) ?? 'json';
}

function keyOf(target: Pick<CollectionItemTarget, 'connectionId' | 'projectId' | 'itemId'>): string {
  return projectItemKey(target.connectionId, target.projectId, target.itemId);
}

function keyOfUri(uri: vscode.Uri): string {
  const path = parseNotebookPath(uri.authority, uri.path);
  return path?.kind === 'notebook' ? pathKey(path) : '';
}

function pathKey(path: Extract<NotebookPath, { kind: 'notebook' }>): string {
  return projectItemKey(path.connectionId, path.projectId, path.shortId);
}

function ctimeOf(notebook: Notebook): number {
  return Date.parse(notebook.created_at) || 0;
}
