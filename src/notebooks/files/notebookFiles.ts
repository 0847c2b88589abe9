import * as vscode from 'vscode';
import type { Notebook } from '../../api';
import type { ConnectionSession } from '../../connections';
import { oneSafeLine } from '../../common/text';
import { type CollectionItemTarget, type CollectionTarget, type ProjectCollection, reloadAfterSave } from '../../documents';
import { Disposable } from '../../workbench/disposable';
import type { DeletedNotebooks } from '../lists/deletedNotebooks';
import type { MarkdownIssue } from '../markdown';
import { describeUser, markdownOf, textContentOf } from '../model/notebookDocument';
import { markdownNotebookContent, newNotebookMarkdown } from './newNotebook';
import type { NotebookEditors } from './notebookEditors';
import type { NotebookLists } from '../lists/notebookLists';
import { isCurrentName, planRename, type RenameRefusal } from '../model/notebookNames';
import {
  bareNotebookFileName,
  NOTEBOOK_FORMS,
  type NotebookForm,
  notebookFileName,
  notebookFormOf,
  notebookPath,
  notebookShortIdOf,
  parseNotebookPath,
} from '../model/notebookPaths';
import { isViewOnly } from '../model/accessLevel';
import { NotebookRefusals } from './notebookRefusals';
import {
  type ConversionPlan,
  ContentRefusedError,
  type NotebookRef,
  type NotebookSession,
  type NotebookSessions,
  planConversion,
  sessionKey,
  UnconfirmedSaveError,
  type WriteOutcome,
} from '../session';

/** Members read to name a conversion's mentions: one page, as large as PostHog gives (a member beyond it is a named loss). */
const MEMBERS_READ = 1000;

export interface NotebooksChange {
  readonly session: ConnectionSession;
  readonly projectId: number;
}

/**
 * Notebooks as files (see ./notebookPaths.ts for the URIs): each notebook is a Markdown file and a JSON
 * document. The file system's side of each open notebook's session (./session): stat and read serve the
 * session's version, so opening costs one GET and saving one PATCH; a save that meets a newer version merges
 * three ways (what the editor was based on, its text, and PostHog's), and blocks changed on both sides come
 * back to the editor between conflict markers. File names are for display: a name finds its notebook by the
 * short id in it, a write or rename through a name the notebook does not have is refused, and the only
 * deletes are the ones the Delete Notebook command asks for.
 */
export class NotebookFileStore extends Disposable implements ProjectCollection {
  /** Names handed out (from the explorer's list or a search, whose title may be a little old), per notebook. */
  private readonly handedOut = new Map<string, Set<string>>();
  private readonly overwriteRequests = new Set<string>();
  private readonly deleteRequests = new Set<string>();
  private readonly titleRequests = new Map<string, string>();
  /** PostHog's refusals of saved content, at the node they concern. */
  readonly refusals = this._register(new NotebookRefusals());
  private readonly changed = this._register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  readonly onDidChange = this.changed.event;
  private readonly notebooksChanged = this._register(new vscode.EventEmitter<NotebooksChange>());
  /** A notebook was created, saved, renamed or deleted: the explorer refreshes the project. */
  readonly onDidChangeNotebooks = this.notebooksChanged.event;

  constructor(
    readonly scheme: string,
    private readonly connections: (connectionId: string) => Promise<ConnectionSession | undefined>,
    private readonly sessions: NotebookSessions,
    private readonly editors: NotebookEditors,
    private readonly deleted: DeletedNotebooks,
    private readonly lists: NotebookLists,
  ) {
    super();
    this._register(
      sessions.onDidChange(({ session, change }) => {
        if (change.kind === 'changed') {
          void this.reloadEditors(session);
        }
      }),
    );
  }

  /** The scheme of PostHog's read-only copies shown in diffs. */
  get remoteScheme(): string {
    return this.editors.remoteScheme;
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
    const known = this.sessions.get(refOf(target));
    const session = known?.isTrusted() ? known : await this.sessions.fetch(refOf(target));
    if (!this.isNameInUse(target.uri, session)) {
      // Another title for the notebook: what a rename asks about before it moves the file. Saying it
      // exists would make VS Code delete the "existing" target first, i.e. the notebook itself.
      throw vscode.FileSystemError.FileNotFound(target.uri);
    }
    const uri = target.uri.toString();
    return {
      type: vscode.FileType.File,
      ctime: session.ctime,
      mtime: await session.statMtime(uri),
      size: session.textOf(formOf(target.uri)).bytes.byteLength,
      // VS Code opens it read-only (the lock on its tab); notebookAccess.ts says why in the editor.
      permissions: isViewOnly(session.notebook.user_access_level) ? vscode.FilePermission.Readonly : undefined,
    };
  }

  async read(target: CollectionItemTarget): Promise<Uint8Array> {
    const known = this.sessions.get(refOf(target));
    const session = known?.isFresh() ? known : await this.sessions.fetch(refOf(target));
    return session.read(target.uri.toString(), formOf(target.uri));
  }

  async write(target: CollectionItemTarget, content: Uint8Array): Promise<void> {
    const session = this.sessions.get(refOf(target)) ?? (await this.sessions.fetch(refOf(target)));
    const uri = target.uri.toString();
    if (!this.isNameInUse(target.uri, session)) {
      throw vscode.FileSystemError.NoPermissions(
        vscode.l10n.t(
          'Not saved: "{0}" is not a name of the notebook "{1}" (its file is "{2}" now), so its text cannot be told apart from an old copy. Open the notebook and save your changes there.',
          fileNameOf(target.uri),
          oneSafeLine(session.notebook.title ?? target.itemId),
          notebookFileName(session.notebook.title, target.itemId, formOf(target.uri)),
        ),
      );
    }
    const overwrite = this.overwriteRequests.delete(uri);
    this.refusals.clear(target.uri);
    let outcome: WriteOutcome;
    try {
      outcome = await session.write(uri, formOf(target.uri), new TextDecoder().decode(content), { overwrite });
    } catch (error) {
      if (error instanceof ContentRefusedError) {
        this.refusals.show(target.uri, error);
        throw new Error(vscode.l10n.t('Not saved: PostHog refused the content: {0} Your text is kept; the place is marked in the editor.', error.detail), {
          cause: error,
        });
      }
      if (error instanceof UnconfirmedSaveError) {
        throw new Error(unconfirmedSave(error), { cause: error });
      }
      throw error;
    }
    this.afterWrite(target, session, outcome);
  }

  /** The next save of `uri` replaces PostHog's version even if it is newer (no merge). */
  requestOverwrite(uri: vscode.Uri): void {
    this.overwriteRequests.add(uri.toString());
  }

  /** The next delete of `uri` moves the notebook to PostHog's trash (the Delete Notebook command asked first). */
  requestDelete(uri: vscode.Uri): void {
    this.deleteRequests.add(uri.toString());
  }

  /** A rename onto `uri` gives the notebook this title, as typed (Rename Notebook…); until disposed. */
  requestTitle(uri: vscode.Uri, title: string): vscode.Disposable {
    const key = uri.toString();
    this.titleRequests.set(key, title);
    return new vscode.Disposable(() => {
      if (this.titleRequests.get(key) === title) {
        this.titleRequests.delete(key);
      }
    });
  }

  /** Gives the notebook of `uri` this title, as typed, where its file name does not change (one PATCH). */
  async retitle(uri: vscode.Uri, title: string): Promise<void> {
    const target = await this.targetOf(uri);
    const session = this.sessions.get(refOf(target)) ?? (await this.sessions.fetch(refOf(target)));
    await session.retitle(title);
    this.handedOut.delete(sessionKey(refOf(target)));
    this.changed.fire(this.editors.documentsOf(refOf(target)).map((document) => ({ type: vscode.FileChangeType.Changed, uri: document.uri })));
    this.notebooksChanged.fire({ session: target.session, projectId: target.projectId });
  }

  /** The notebook's title as PostHog last told it, when an open notebook's session knows it. */
  knownTitle(ref: NotebookRef): string | null | undefined {
    return this.sessions.get(ref)?.notebook.title;
  }

  /** Problems of a notebook's Markdown editor text: conflict markers, and what a save of it would refuse or keep as is. */
  markdownIssues(document: vscode.TextDocument): readonly MarkdownIssue[] {
    const path = parseNotebookPath(document.uri.authority, document.uri.path);
    const session = path?.kind === 'notebook' ? this.sessions.get(path) : undefined;
    return session?.markdownIssues(document.uri.toString(), document.getText()) ?? [];
  }

  /** Whether the notebook of `uri`, as its session knows it, is a Markdown notebook (PostHog reads its Markdown as it is). */
  isMarkdownNotebook(uri: vscode.Uri): boolean {
    const path = parseNotebookPath(uri.authority, uri.path);
    const session = path?.kind === 'notebook' ? this.sessions.get(path) : undefined;
    return session !== undefined && markdownOf(session.notebook.content) !== undefined;
  }

  async delete(target: CollectionItemTarget): Promise<void> {
    const requested = this.deleteRequests.delete(target.uri.toString());
    const known = this.sessions.get(refOf(target));
    if (known && !isCurrentName(fileNameOf(target.uri), known.notebook)) {
      throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('Refusing to delete a notebook through a name it does not have.'));
    }
    if (!requested) {
      // Also what VS Code does first when a rename is told to replace an existing file: never another notebook.
      throw vscode.FileSystemError.NoPermissions(
        vscode.l10n.t('Notebooks are not deleted or replaced through their files: use "PostHog: Delete Notebook…" (it asks first; PostHog keeps deleted notebooks).'),
      );
    }
    const notebook = await target.session.client.notebooks.softDelete(target.projectId, target.itemId);
    await this.deleted.add(target.connectionId, target.projectId, {
      shortId: notebook.short_id,
      title: notebook.title ?? '',
      deletedAt: new Date().toISOString(),
    });
    const openUris = this.editors.documentsOf(refOf(target)).map((document) => document.uri);
    this.sessions.forget(refOf(target));
    this.changed.fire([target.uri, ...openUris].map((uri) => ({ type: vscode.FileChangeType.Deleted, uri })));
    this.notebooksChanged.fire({ session: target.session, projectId: target.projectId });
  }

  async rename(target: CollectionItemTarget, newUri: vscode.Uri): Promise<void> {
    const known = this.sessions.get(refOf(target));
    const session = known?.isTrusted() ? known : await this.sessions.fetch(refOf(target));
    const plan = planRename(session.notebook, formOf(target.uri), fileNameOf(newUri), this.titleRequests.get(newUri.toString()));
    if (plan.kind === 'refuse') {
      throw vscode.FileSystemError.NoPermissions(renameRefusal(plan.reason, session.notebook, formOf(target.uri)));
    }
    if (plan.kind === 'retitle') {
      await session.retitle(plan.title);
      this.handedOut.delete(sessionKey(refOf(target)));
    }
    await session.renamed(target.uri.toString(), newUri.toString());
    this.changed.fire([
      { type: vscode.FileChangeType.Deleted, uri: target.uri },
      { type: vscode.FileChangeType.Created, uri: newUri },
    ]);
    this.notebooksChanged.fire({ session: target.session, projectId: target.projectId });
  }

  watch(target: CollectionItemTarget): vscode.Disposable {
    return new vscode.Disposable(this.sessions.get(refOf(target))?.watch() ?? (() => undefined));
  }

  /**
   * Creates a notebook (one POST) and returns the URI of its Markdown file (of its file in `form` if PostHog
   * answered a legacy notebook). Without `content` it is what PostHog now makes of every new notebook: a
   * Markdown notebook, its title as a heading; with it (a copy of another version), that content.
   */
  async create(session: ConnectionSession, projectId: number, title: string, form: NotebookForm, content?: unknown): Promise<vscode.Uri> {
    const markdown = content === undefined ? newNotebookMarkdown(title) : undefined;
    const notebook = await session.client.notebooks.create(
      projectId,
      markdown !== undefined
        ? { title, content: markdownNotebookContent(markdown), text_content: markdown }
        : { title, content, text_content: markdownOf(content) ?? textContentOf(content) },
    );
    await this.sessions.accept({ connectionId: session.connection.id, projectId, shortId: notebook.short_id }, notebook);
    this.notebooksChanged.fire({ session, projectId });
    return this.uriOf(session.connection.id, projectId, notebook, markdownOf(notebook.content) !== undefined ? 'markdown' : form);
  }

  /**
   * What converting the notebook to a Markdown notebook would write, and lose (one GET, its comments when it
   * has highlights, and its organization's members when it mentions someone without a name: one request when
   * the explorer has listed the project, else two); nothing is changed.
   */
  async planConversion(session: ConnectionSession, projectId: number, shortId: string): Promise<ConversionPlan> {
    const notebookSession = await this.sessions.fetch({ connectionId: session.connection.id, projectId, shortId });
    return planConversion(
      notebookSession.notebook,
      () => session.client.comments.listAll(projectId, { scope: 'Notebook', item_id: shortId }),
      async () => (await session.client.organizations.members(await this.organizationOf(session, projectId), MEMBERS_READ)).results,
    );
  }

  /** The project's organization: known from the explorer's lists (no request), else read from the project. */
  private async organizationOf(session: ConnectionSession, projectId: number): Promise<string> {
    return session.model.organizationOf(projectId) ?? (await session.client.projects.getById(projectId)).organization;
  }

  /** Makes a legacy notebook the Markdown notebook of `plan` on PostHog (one PATCH, on the plan's version); its open editors reload. */
  async convertToMarkdown(session: ConnectionSession, projectId: number, plan: ConversionPlan): Promise<Notebook> {
    const ref = { connectionId: session.connection.id, projectId, shortId: plan.notebook.short_id };
    const notebookSession = this.sessions.get(ref) ?? (await this.sessions.fetch(ref));
    const saved = await notebookSession.convertToMarkdown(plan.markdown, plan.notebook.version);
    this.notebooksChanged.fire({ session, projectId });
    return saved;
  }

  /** PostHog's current text of the notebook file `uri` (one GET); the editor of `uri` is about to take it instead of its own. */
  async latestText(uri: vscode.Uri): Promise<string> {
    const target = await this.targetOf(uri);
    const session = this.sessions.get(refOf(target)) ?? (await this.sessions.fetch(refOf(target)));
    return session.takeLatest(uri.toString(), formOf(uri));
  }

  /** Polls every open notebook every `seconds` (0 stops polling). */
  setPollInterval(seconds: number): void {
    this.sessions.setPollInterval(seconds);
  }

  /** One round of polling: a conditional GET per open notebook; clean editors reload, and a newer version is merged into unsaved ones where it does not overlap their changes (held where it does). */
  pollOpenNotebooks(): Promise<void> {
    return this.sessions.checkOpenNotebooks();
  }

  /**
   * Lets a name the extension handed out (from the explorer's list or a search, whose title may be a
   * little old) find its notebook. Other titles do not exist, see stat().
   */
  allow(uri: vscode.Uri): void {
    const path = parseNotebookPath(uri.authority, uri.path);
    if (path?.kind === 'notebook') {
      const key = sessionKey(path);
      const names = this.handedOut.get(key) ?? new Set<string>();
      names.add(uri.toString());
      this.handedOut.set(key, names);
    }
  }

  /** What a write did, as VS Code sees it: a refusal says why; after a save the editor reloads PostHog's version. */
  private afterWrite(target: CollectionItemTarget, session: NotebookSession, outcome: WriteOutcome): void {
    if (outcome.kind === 'saved') {
      reloadAfterSave(() => this.changed.fire([{ type: vscode.FileChangeType.Changed, uri: target.uri }]));
      this.notebooksChanged.fire({ session: target.session, projectId: target.projectId });
      return;
    }
    const refusal = writeRefusal(outcome, oneSafeLine(session.notebook.title ?? target.itemId), target);
    if (refusal) {
      throw refusal;
    }
  }

  /** PostHog's version of the notebook moved on with every editor clean: they reload. */
  private async reloadEditors(session: NotebookSession): Promise<void> {
    const uris = this.editors.documentsOf(session.ref).map((document) => document.uri);
    this.changed.fire(uris.map((uri) => ({ type: vscode.FileChangeType.Changed, uri })));
    const connection = await this.connections(session.ref.connectionId);
    if (connection) {
      this.notebooksChanged.fire({ session: connection, projectId: session.ref.projectId });
    }
  }

  /** The notebook's current file names, a name handed out, or one an open editor uses; other titles do not exist. */
  private isNameInUse(uri: vscode.Uri, session: NotebookSession): boolean {
    return session.isNameInUse(uri.toString(), fileNameOf(uri)) || this.handedOut.get(sessionKey(session.ref))?.has(uri.toString()) === true;
  }

  private async targetOf(uri: vscode.Uri): Promise<CollectionItemTarget> {
    const path = parseNotebookPath(uri.authority, uri.path);
    const session = path?.kind === 'notebook' ? await this.connections(path.connectionId) : undefined;
    if (path?.kind !== 'notebook' || !session) {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    return { uri, connectionId: path.connectionId, projectId: path.projectId, itemId: path.shortId, session };
  }
}

/** Why a write that saved nothing failed, as VS Code shows it (undefined when there was nothing to save). */
function writeRefusal(outcome: WriteOutcome, title: string, target: CollectionItemTarget): Error | undefined {
  switch (outcome.kind) {
    case 'unchanged':
    case 'saved':
      return undefined;
    case 'noBase':
      return new Error(
        vscode.l10n.t(
          'Not saved: this window does not know which version of "{0}" the text of "{1}" is based on, so saving it could undo changes made on PostHog since. Open the notebook and copy your changes in, or save over PostHog\'s version ("PostHog: Save over PostHog\'s Version…").',
          title,
          fileNameOf(target.uri),
        ),
      );
    case 'viewOnly':
      return vscode.FileSystemError.NoPermissions(viewOnlyRefusal(title, outcome.level));
    case 'conflicted':
      return new Error(
        outcome.marked
          ? vscode.l10n.t(
              'Not saved: "{0}" was changed on PostHog (version {1}, by {2}). Your changes and theirs are merged in the editor, but {3} place(s) changed on both sides and are marked: keep what you want there, then save again.',
              oneSafeLine(outcome.server.title ?? target.itemId),
              outcome.server.version,
              outcome.byPostHog ? 'PostHog' : (describeUser(outcome.server.last_modified_by) ?? vscode.l10n.t('someone')),
              outcome.conflicts,
            )
          : vscode.l10n.t(
              'Not saved: "{0}" was changed on PostHog (version {1}, by {2}) in {3} place(s) you changed too. Save again to see both sides marked in the editor.',
              oneSafeLine(outcome.server.title ?? target.itemId),
              outcome.server.version,
              outcome.byPostHog ? 'PostHog' : (describeUser(outcome.server.last_modified_by) ?? vscode.l10n.t('someone')),
              outcome.conflicts,
            ),
      );
    case 'keepsChanging':
      return new Error(vscode.l10n.t('Not saved: the notebook keeps changing on PostHog. Try again.'));
  }
}

/** Why a save of a view-only notebook is refused (nothing is sent). */
export function viewOnlyRefusal(title: string, level: string): string {
  return vscode.l10n.t(
    'Not saved: you have {0} access to "{1}" on PostHog, and only its editors may change it. Ask someone who manages the notebook for editor access.',
    level || 'viewer',
    title,
  );
}

/** Why a save whose answer did not confirm it failed (the editor keeps its text, unsaved). */
function unconfirmedSave(error: UnconfirmedSaveError): string {
  return error.otherText
    ? vscode.l10n.t('Not saved: PostHog answered with version {0} holding other text than was sent, so the save is not taken as done. Your text is kept in the editor; save again.', error.answeredVersion)
    : vscode.l10n.t(
        'Not saved: PostHog answered a save sent at version {0} with version {1}, not a newer one, so the save is not taken as done. Your text is kept in the editor; save again.',
        error.sentVersion ?? '?',
        error.answeredVersion,
      );
}

function renameRefusal(reason: RenameRefusal, notebook: Pick<Notebook, 'short_id' | 'title'>, form: NotebookForm): string {
  const example = notebookFileName(notebook.title, notebook.short_id, form);
  switch (reason) {
    case 'otherNotebook':
      return vscode.l10n.t('A notebook\'s file name keeps its short id in brackets, e.g. "{0}": a name without it, or with another notebook\'s, would name another notebook.', example);
    case 'otherForm':
      return vscode.l10n.t('A notebook file keeps its extension (.md or .json).');
    case 'noTitle':
      return vscode.l10n.t('Give the notebook a title: "Title ({0}){1}".', notebook.short_id, example.slice(example.lastIndexOf('.')));
  }
}

function refOf(target: Pick<CollectionItemTarget, 'connectionId' | 'projectId' | 'itemId'>): NotebookRef {
  return { connectionId: target.connectionId, projectId: target.projectId, shortId: target.itemId };
}

function formOf(uri: vscode.Uri): NotebookForm {
  return notebookFormOf(uri.path) ?? 'json';
}

function fileNameOf(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1);
}
