import * as vscode from 'vscode';
import { Disposable } from '../workbench/disposable';
import type { BaseArchive } from './baseArchive';
import type { BaseSnapshot } from './markdownSave';

/**
 * What each notebook editor's text is based on, so that a save that meets a newer version merges against
 * the right base. The file system reports each text it serves (`served`); an editor that is clean holds the
 * last text served for its URI, so that becomes its base; once the editor has unsaved changes its base stays,
 * and is archived on disk so that it survives a window reload (VS Code restores the unsaved text itself).
 */
/**
 * How long a closed document's base is kept: VS Code closes and reopens a document when its language mode
 * changes, and the reopened editor (unsaved text included) must keep its base.
 */
const FORGET_AFTER_CLOSE_MS = 30_000;

export class EditorBases extends Disposable {
  private readonly lastServed = new Map<string, BaseSnapshot>();
  private readonly bases = new Map<string, BaseSnapshot>();
  private readonly archived = new Set<string>();
  private readonly closing = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(
    private readonly isNotebookUri: (uri: vscode.Uri) => boolean,
    private readonly archive: BaseArchive,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this._register(vscode.workspace.onDidOpenTextDocument((document) => this.follow(document)));
    this._register(vscode.workspace.onDidChangeTextDocument(({ document }) => this.follow(document)));
    this._register(vscode.workspace.onDidSaveTextDocument((document) => this.follow(document)));
    this._register(vscode.workspace.onDidCloseTextDocument((document) => this.forgetSoon(document.uri)));
    this._register({ dispose: () => this.closing.forEach((timer) => clearTimeout(timer)) });
  }

  /** The file system gave this text (and version) for `uri`. */
  served(uri: vscode.Uri, snapshot: BaseSnapshot): void {
    const key = uri.toString();
    this.lastServed.set(key, snapshot);
    const document = this.documentOf(key);
    if (document && !document.isDirty) {
      this.follow(document);
    }
  }

  /** What the editor of `uri` is based on: in memory, else archived by an earlier window, else the last text served. */
  async baseOf(uri: vscode.Uri): Promise<BaseSnapshot | undefined> {
    const key = uri.toString();
    const known = this.bases.get(key);
    if (known) {
      return known;
    }
    const archived = await this.archive.load(key).catch(() => undefined);
    if (archived) {
      this.bases.set(key, archived);
      this.archived.add(key);
      this.log.info(`Restored the base of ${uri.path} (version ${archived.version}) kept by an earlier window.`);
      return archived;
    }
    return this.lastServed.get(key);
  }

  /** What the editor of `uri` is based on, if known in this window (no disk read). */
  known(uri: vscode.Uri): BaseSnapshot | undefined {
    const key = uri.toString();
    return this.bases.get(key) ?? this.lastServed.get(key);
  }

  /** The modification time the editor of `uri` knows while it has unsaved changes (undefined when clean). */
  async dirtyMtime(uri: vscode.Uri): Promise<number | undefined> {
    const document = this.documentOf(uri.toString());
    return document?.isDirty ? (await this.baseOf(uri))?.mtime : undefined;
  }

  /** The editor now holds text based on `snapshot` (a merge put PostHog's newer version under the user's text). */
  async rebase(uri: vscode.Uri, snapshot: BaseSnapshot): Promise<void> {
    const key = uri.toString();
    this.bases.set(key, snapshot);
    await this.keep(key, snapshot);
  }

  private follow(document: vscode.TextDocument): void {
    if (!this.isNotebookUri(document.uri)) {
      return;
    }
    const key = document.uri.toString();
    clearTimeout(this.closing.get(key));
    this.closing.delete(key);
    if (!document.isDirty) {
      const served = this.lastServed.get(key);
      if (served) {
        this.bases.set(key, served);
      }
      if (this.archived.delete(key)) {
        void this.archive.remove(key).catch(() => undefined);
      }
      return;
    }
    const base = this.bases.get(key);
    if (base && !this.archived.has(key)) {
      void this.keep(key, base);
    }
  }

  private async keep(key: string, base: BaseSnapshot): Promise<void> {
    this.archived.add(key);
    try {
      await this.archive.save(key, base);
    } catch (error) {
      this.archived.delete(key);
      this.log.warn(`Could not keep the base of an unsaved notebook editor on disk: ${String(error)}`);
    }
  }

  private forgetSoon(uri: vscode.Uri): void {
    if (!this.isNotebookUri(uri)) {
      return;
    }
    const key = uri.toString();
    clearTimeout(this.closing.get(key));
    this.closing.set(
      key,
      setTimeout(() => this.forget(key), FORGET_AFTER_CLOSE_MS),
    );
  }

  private forget(key: string): void {
    this.closing.delete(key);
    if (this.documentOf(key)) {
      return;
    }
    this.lastServed.delete(key);
    this.bases.delete(key);
    if (this.archived.delete(key)) {
      void this.archive.remove(key).catch(() => undefined);
    }
  }

  private documentOf(key: string): vscode.TextDocument | undefined {
    return vscode.workspace.textDocuments.find((document) => document.uri.toString() === key);
  }
}
