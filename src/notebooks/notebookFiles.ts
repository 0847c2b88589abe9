import * as vscode from 'vscode';
import { ConflictError, type Notebook, NOT_MODIFIED } from '../api';
import { projectItemKey } from '../common/keys';
import { Disposable } from '../workbench/disposable';
import type { ConnectionSession } from '../connections';
import { type CollectionItemTarget, type CollectionTarget, ModificationClock, type ProjectCollection, reloadAfterSave } from '../documents';
import { type NotebookPath, notebookFileName, notebookPath, notebookShortIdOf, parseNotebookPath, titleFromFileName } from './notebookPaths';
import type { ConflictResolver } from './conflicts';
import type { DeletedNotebooks } from './deletedNotebooks';
import { describeUser, serializeNotebook } from './notebookDocument';
import { NotebookHistory, type SavePlan } from './notebookHistory';

/** A read within this long after a stat (or poll) fetched the notebook serves what that fetch got. */
const FRESH_MS = 5_000;
const MAX_OVERWRITE_ATTEMPTS = 3;
const FORGET_CLOSED_MS = 10 * 60_000;

interface Entry {
  readonly key: string;
  readonly history: NotebookHistory;
  notebook: Notebook;
  text: Uint8Array;
  mtime: number;
  /** Above every mtime VS Code was told: a new snapshot goes higher. */
  readonly clock: ModificationClock;
  fetchedAt: number;
  /** The stat VS Code takes right after a save (see writeFile). */
  postWrite?: vscode.FileStat;
  /** A newer version seen by polling while the editor had unsaved changes. */
  remote?: Notebook;
  warnedVersion?: number;
  watchers: number;
}

export interface NotebooksChange {
  readonly session: ConnectionSession;
  readonly projectId: number;
}

/**
 * Notebooks as files (see ./notebookPaths.ts for the URIs). Keeps, per notebook, the snapshot the
 * editor saw: stat and read serve it, so opening costs one GET and saving one PATCH; polling (GET with
 * If-None-Match) moves it on for clean editors only, so a dirty editor meets the conflict dialog on
 * save rather than a silent overwrite.
 */
export class NotebookFileStore extends Disposable implements ProjectCollection {
  private readonly entries = new Map<string, Entry>();
  private readonly fetching = new Map<string, Promise<Notebook>>();
  private readonly allowedNames = new Map<string, Set<string>>();
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
    private readonly conflicts: ConflictResolver,
    private readonly window: Pick<typeof vscode.window, 'showWarningMessage'>,
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

  uriOf(connectionId: string, projectId: number, notebook: Pick<Notebook, 'short_id' | 'title'>): vscode.Uri {
    return vscode.Uri.from({ scheme: this.scheme, authority: connectionId, path: notebookPath(projectId, notebook.short_id, notebook.title) });
  }

  /** posthog://<connection>/<project>/notebooks/<shortId>.json: always the notebook, whatever its title. */
  bareUriOf(connectionId: string, projectId: number, shortId: string): vscode.Uri {
    return vscode.Uri.from({ scheme: this.scheme, authority: connectionId, path: `/${projectId}/notebooks/${shortId}.json` });
  }

  itemIdOf(fileName: string): string | undefined {
    return notebookShortIdOf(fileName);
  }

  async list({ session, projectId }: CollectionTarget): Promise<[string, vscode.FileType][]> {
    const notebooks = await session.model.notebooks(projectId);
    for (const notebook of notebooks) {
      this.allow(this.uriOf(session.connection.id, projectId, notebook));
    }
    return notebooks.map((notebook): [string, vscode.FileType] => [notebookFileName(notebook.title, notebook.short_id), vscode.FileType.File]);
  }

  async stat(target: CollectionItemTarget): Promise<vscode.FileStat> {
    const known = this.entries.get(keyOf(target));
    if (known?.postWrite) {
      const stat = known.postWrite;
      known.postWrite = undefined;
      reloadAfterSave(() => this.changed.fire([{ type: vscode.FileChangeType.Changed, uri: target.uri }]));
      return stat;
    }
    const entry = known && this.trusted(known) ? known : this.accept(target, await this.fetch(target));
    if (!this.isNameInUse(target.uri, entry)) {
      // Another title for the notebook: what a rename asks about before it moves the file. Saying it
      // exists would make VS Code delete the "existing" target first, i.e. the notebook itself.
      throw vscode.FileSystemError.FileNotFound(target.uri);
    }
    return statOf(entry);
  }

  async read(target: CollectionItemTarget): Promise<Uint8Array> {
    let entry = this.entries.get(keyOf(target));
    if (!entry || Date.now() - entry.fetchedAt > FRESH_MS) {
      entry = this.accept(target, await this.fetch(target));
    }
    entry.history.recordServed(entry.notebook);
    return entry.text;
  }

  async write(target: CollectionItemTarget, content: Uint8Array, options: { create: boolean; overwrite: boolean }): Promise<void> {
    const key = keyOf(target);
    const existing = this.entries.get(key);
    if (!existing && options.create && !options.overwrite) {
      throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('Create notebooks with "PostHog: Create Notebook…".'));
    }
    const history = existing?.history ?? new NotebookHistory(target.itemId);
    const plan = history.planSave(new TextDecoder().decode(content));
    if (plan.kind === 'unchanged') {
      return;
    }
    const saved = await this.patch(target, plan, history, content);
    if (saved) {
      history.recordWritten(plan.displayed, saved);
      this.acceptWritten(target, saved, history, content);
      this.notebooksChanged.fire({ session: target.session, projectId: target.projectId });
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
    const title = titleFromFileName(newName, target.itemId);
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

  /** Creates a notebook (one POST) and returns its URI. */
  async create(session: ConnectionSession, projectId: number, title: string): Promise<vscode.Uri> {
    const notebook = await session.client.notebooks.create(projectId, {
      title,
      content: { type: 'doc', content: [{ type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: title }] }] },
      text_content: title,
    });
    const uri = this.uriOf(session.connection.id, projectId, notebook);
    this.accept({ uri, connectionId: session.connection.id, projectId, itemId: notebook.short_id, session }, notebook);
    this.notebooksChanged.fire({ session, projectId });
    return uri;
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
      const open = new Map<string, vscode.TextDocument>();
      for (const document of vscode.workspace.textDocuments) {
        const path = document.uri.scheme === this.scheme ? parseNotebookPath(document.uri.authority, document.uri.path) : undefined;
        if (path?.kind === 'notebook') {
          open.set(pathKey(path), document);
        }
      }
      this.forgetClosed(open);
      await Promise.all([...open].map(([key, document]) => this.pollOne(key, document).catch(() => undefined)));
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

  private async pollOne(key: string, document: vscode.TextDocument): Promise<void> {
    const entry = this.entries.get(key);
    const path = parseNotebookPath(document.uri.authority, document.uri.path);
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
    if (!document.isDirty) {
      entry.remote = undefined;
      this.setSnapshot(entry, latest);
      entry.fetchedAt = Date.now();
      this.changed.fire([{ type: vscode.FileChangeType.Changed, uri: document.uri }]);
      this.notebooksChanged.fire({ session, projectId: path.projectId });
      return;
    }
    entry.remote = latest;
    if (entry.warnedVersion !== latest.version) {
      entry.warnedVersion = latest.version;
      void this.warnRemoteChange(document, latest);
    }
  }

  private async warnRemoteChange(document: vscode.TextDocument, latest: Notebook): Promise<void> {
    const compare = vscode.l10n.t('Compare');
    const choice = await this.window.showWarningMessage(
      vscode.l10n.t(
        '"{0}" changed on PostHog (version {1}, by {2}) while you have unsaved changes. Saving will ask whether to overwrite it.',
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

  /** Opens a diff: PostHog's notebook (read-only) on the left, the editor's text on the right. */
  async compare(uri: vscode.Uri, server: Notebook): Promise<void> {
    const left = uri.with({ scheme: this.remoteScheme, query: `version=${server.version}` });
    this.remoteCopies.set(left.toString(), serializeNotebook(server));
    this.remoteCopiesChanged.fire(left);
    await vscode.commands.executeCommand(
      'vscode.diff',
      left,
      uri,
      vscode.l10n.t('{0} (PostHog, version {1}) ↔ Yours', server.title ?? '', server.version),
    );
  }

  private async patch(target: CollectionItemTarget, plan: Extract<SavePlan, { kind: 'patch' }>, history: NotebookHistory, content: Uint8Array): Promise<Notebook | undefined> {
    const notebooks = target.session.client.notebooks;
    try {
      return await notebooks.update(target.projectId, target.itemId, plan.body);
    } catch (error) {
      if (!(error instanceof ConflictError)) {
        throw error;
      }
    }
    for (let attempt = 1; attempt <= MAX_OVERWRITE_ATTEMPTS; attempt++) {
      const server = await notebooks.get(target.projectId, target.itemId);
      const choice = await this.conflicts.choose({
        title: server.title ?? target.itemId,
        yourVersion: plan.body.version,
        serverVersion: server.version,
        modifiedBy: describeUser(server.last_modified_by),
        modifiedAt: server.last_modified_at,
      });
      if (choice === 'discard') {
        history.recordServed(server);
        this.acceptWritten(target, server, history, content);
        return undefined;
      }
      if (choice === 'compare') {
        await this.compare(target.uri, server);
      }
      if (choice !== 'overwrite') {
        throw new Error(
          vscode.l10n.t(
            'Not saved: PostHog has a newer version ({0}) of this notebook than your text (version {1}). Save again to overwrite it or discard your changes.',
            server.version,
            plan.body.version,
          ),
        );
      }
      try {
        const { full } = plan;
        return await notebooks.update(target.projectId, target.itemId, { ...full, version: server.version });
      } catch (error) {
        if (!(error instanceof ConflictError)) {
          throw error;
        }
      }
    }
    throw new Error(vscode.l10n.t('Not saved: the notebook keeps changing on PostHog. Try again.'));
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

  /** A fetched notebook becomes the snapshot VS Code sees. */
  private accept(target: CollectionItemTarget, notebook: Notebook, history?: NotebookHistory): Entry {
    const key = keyOf(target);
    let entry = this.entries.get(key);
    if (!entry) {
      const text = encode(notebook);
      const clock = new ModificationClock();
      const mtime = clock.next(Date.parse(notebook.last_modified_at) || Date.now());
      entry = {
        key,
        history: history ?? new NotebookHistory(target.itemId),
        notebook,
        text,
        mtime,
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
   * After a save (or a discard) VS Code takes one stat and remembers it. That stat reports a newer
   * mtime than the snapshot's, so that the change fired next makes a clean editor reload (and show the
   * new version), while a later save never looks "modified since" to VS Code: its check only fires when
   * the remembered mtime is older than the file's.
   */
  private acceptWritten(target: CollectionItemTarget, notebook: Notebook, history: NotebookHistory, written: Uint8Array): void {
    const entry = this.accept(target, notebook, history);
    entry.remote = undefined;
    entry.postWrite = { type: vscode.FileType.File, ctime: ctimeOf(notebook), mtime: entry.clock.next(entry.mtime + 1), size: written.byteLength };
  }

  private setSnapshot(entry: Entry, notebook: Notebook): void {
    const text = encode(notebook);
    if (notebook.version === entry.notebook.version && Buffer.from(text).equals(Buffer.from(entry.text))) {
      entry.notebook = notebook;
      return;
    }
    entry.notebook = notebook;
    entry.text = text;
    entry.mtime = entry.clock.next(Date.parse(notebook.last_modified_at) || 0);
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

  /** The notebook's current file name, its bare `<shortId>.json`, a name handed out, or one an open editor uses. */
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
    return name === notebookFileName(title, short_id) || name === `${short_id}.json`;
  }

  private openDocuments(key: string): vscode.TextDocument[] {
    return vscode.workspace.textDocuments.filter((document) => {
      const path = document.uri.scheme === this.scheme ? parseNotebookPath(document.uri.authority, document.uri.path) : undefined;
      return path?.kind === 'notebook' && pathKey(path) === key;
    });
  }

}

function keyOf(target: Pick<CollectionItemTarget, 'connectionId' | 'projectId' | 'itemId'>): string {
  return projectItemKey(target.connectionId, target.projectId, target.itemId);
}

function pathKey(path: Extract<NotebookPath, { kind: 'notebook' }>): string {
  return projectItemKey(path.connectionId, path.projectId, path.shortId);
}

function encode(notebook: Notebook): Uint8Array {
  return new TextEncoder().encode(serializeNotebook(notebook));
}

function ctimeOf(notebook: Notebook): number {
  return Date.parse(notebook.created_at) || 0;
}

function statOf(entry: Entry): vscode.FileStat {
  return { type: vscode.FileType.File, ctime: ctimeOf(entry.notebook), mtime: entry.mtime, size: entry.text.byteLength };
}
