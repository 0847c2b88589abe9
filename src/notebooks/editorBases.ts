import { createHash } from 'node:crypto';
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
/** How many texts an editor held before (saved, or replaced by a reload or a merge) are remembered. */
const SUPERSEDED_KEPT = 8;

export class EditorBases extends Disposable {
  private readonly lastServed = new Map<string, BaseSnapshot>();
  private readonly bases = new Map<string, BaseSnapshot>();
  private readonly archived = new Set<string>();
  private readonly closing = new Map<string, ReturnType<typeof setTimeout>>();
  /** Digests of texts each editor held before its base moved on: a save of one of them carries no change. */
  private readonly superseded = new Map<string, string[]>();
  /** The modification time of the first text served for each URI. */
  private readonly firstServed = new Map<string, number>();

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

  /** The file system gave this text (and version) for `uri`: an editor that takes it (clean, and then showing it) is based on it. */
  served(uri: vscode.Uri, snapshot: BaseSnapshot): void {
    const key = uri.toString();
    this.lastServed.set(key, snapshot);
    this.firstServed.set(key, Math.min(snapshot.mtime, this.firstServed.get(key) ?? snapshot.mtime));
    const document = this.documentOf(key);
    if (document && !document.isDirty) {
      this.follow(document);
    }
  }

  /** A save wrote `snapshot.text` to `uri`: the text the editor now holds, based on the version that took it. */
  written(uri: vscode.Uri, snapshot: BaseSnapshot): void {
    const key = uri.toString();
    this.lastServed.set(key, snapshot);
    this.setBase(key, snapshot);
  }

  /** Whether `text` is one the editor of `uri` held before its base moved on (saved, reloaded, merged): it carries no change of its own. */
  isSuperseded(uri: vscode.Uri, text: string): boolean {
    return this.superseded.get(uri.toString())?.includes(digest(text)) === true;
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

  /**
   * A modification time no later than any the editor of `uri` was told, while it has unsaved changes
   * (undefined when clean): its base's, or the first served here if lower (a save from elsewhere, e.g.
   * the other file of the notebook or a write through workspace.fs, may have moved the base on since).
   */
  async dirtyMtime(uri: vscode.Uri): Promise<number | undefined> {
    const key = uri.toString();
    if (!this.documentOf(key)?.isDirty) {
      return undefined;
    }
    const known = [(await this.baseOf(uri))?.mtime, this.firstServed.get(key)].filter((mtime): mtime is number => mtime !== undefined);
    return known.length > 0 ? Math.min(...known) : undefined;
  }

  /**
   * The editor now holds text based on `snapshot` (a merge put PostHog's newer version under the user's
   * text); `replaced`, the text it held before, can no longer carry a change of its own.
   */
  async rebase(uri: vscode.Uri, snapshot: BaseSnapshot, replaced?: string): Promise<void> {
    const key = uri.toString();
    if (replaced !== undefined) {
      this.supersede(key, replaced);
    }
    this.setBase(key, snapshot);
    await this.keep(key, snapshot);
  }

  private setBase(key: string, next: BaseSnapshot): void {
    const previous = this.bases.get(key);
    if (previous && previous.text !== next.text) {
      this.supersede(key, previous.text);
    }
    this.bases.set(key, next);
    if (this.documentOf(key)?.isDirty) {
      void this.keep(key, next);
    }
  }

  private supersede(key: string, text: string): void {
    const texts = this.superseded.get(key) ?? [];
    this.superseded.set(key, [digest(text), ...texts].slice(0, SUPERSEDED_KEPT));
  }

  /** A clean editor is based on the last text served once it shows exactly that text (VS Code may not have taken a read yet). */
  private follow(document: vscode.TextDocument): void {
    if (!this.isNotebookUri(document.uri)) {
      return;
    }
    const key = document.uri.toString();
    clearTimeout(this.closing.get(key));
    this.closing.delete(key);
    if (!document.isDirty) {
      const served = this.lastServed.get(key);
      if (served && this.bases.get(key) !== served && document.getText() === served.text) {
        this.setBase(key, served);
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
    this.superseded.delete(key);
    this.firstServed.delete(key);
    if (this.archived.delete(key)) {
      void this.archive.remove(key).catch(() => undefined);
    }
  }

  private documentOf(key: string): vscode.TextDocument | undefined {
    return vscode.workspace.textDocuments.find((document) => document.uri.toString() === key);
  }
}

function digest(text: string): string {
  return `${text.length}:${createHash('sha256').update(text).digest('base64')}`;
}
