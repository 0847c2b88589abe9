import type { Notebook } from '../../api';
import type { MarkdownIssue } from '../markdown';
import { type BaseSnapshot, markdownTextOf, renderMarkdown, snapshotOf } from '../saving/markdownSavePlan';
import { markdownOf, serializeNotebook } from '../model/notebookDocument';
import { ServedJsonVersions } from '../saving/jsonSavePlan';
import type { NotebookForm } from '../model/notebookPaths';

/** A read within this long after a fetch serves what that fetch got. */
export const FRESH_MS = 5_000;

/** One file's text of a notebook version. */
export interface FormText {
  readonly text: string;
  readonly bytes: Uint8Array;
  /** What the Markdown of a legacy notebook cannot hold exactly: checked when first asked, after the editor shows. */
  losses(): readonly MarkdownIssue[];
}

/**
 * PostHog's version of one notebook as its session knows it: the version the editors are given (`current`),
 * a newer one held back while an editor has unsaved changes (`held`), the files' texts of the current version,
 * the modification times VS Code is told, and the versions JSON editors were shown. Owned by NotebookSession,
 * which changes it only inside its queue.
 */
export class SessionVersion {
  private currentNotebook: Notebook;
  private heldNotebook: Notebook | undefined;
  private readonly texts = new Map<NotebookForm, FormText>();
  /** A save's own Markdown, served for the version it made instead of the conversion, so the user's spelling stays. */
  private written: { readonly version: number; readonly text: string } | undefined;
  private lastMtime = 0;
  private currentMtime: number;
  private fetchedAt = Date.now();
  /** The versions JSON editors were shown, for the read-only block check. */
  readonly shown: ServedJsonVersions;

  constructor(shortId: string, notebook: Notebook) {
    this.currentNotebook = notebook;
    this.currentMtime = this.nextMtime(Date.parse(notebook.last_modified_at) || Date.now());
    this.shown = new ServedJsonVersions(shortId);
  }

  get current(): Notebook {
    return this.currentNotebook;
  }

  /** A newer version held back while an editor has unsaved changes. */
  get held(): Notebook | undefined {
    return this.heldNotebook;
  }

  /** The modification time of the current version: above every one VS Code was told before. */
  get mtime(): number {
    return this.currentMtime;
  }

  get knownSince(): number {
    return this.fetchedAt;
  }

  /** The newest version known: the held one, else the current one. */
  latest(): Notebook {
    return this.heldNotebook ?? this.currentNotebook;
  }

  isFresh(now = Date.now()): boolean {
    return now - this.fetchedAt <= FRESH_MS;
  }

  /** A version fetched or saved becomes the one the editors are given (an older answer arriving late is ignored). */
  accept(notebook: Notebook): void {
    if (notebook.version < this.currentNotebook.version) {
      return;
    }
    const same = notebook.version === this.currentNotebook.version && serializeNotebook(notebook) === serializeNotebook(this.currentNotebook);
    this.currentNotebook = notebook;
    this.fetchedAt = Date.now();
    if (!same) {
      this.texts.clear();
      this.currentMtime = this.nextMtime(Date.parse(notebook.last_modified_at) || 0);
    }
  }

  hold(notebook: Notebook | undefined): void {
    this.heldNotebook = notebook;
  }

  /** A save made `notebook`; `ownMarkdown`: the Markdown it sent, which PostHog holds exactly. */
  acceptWritten(notebook: Notebook, ownMarkdown: string | undefined): void {
    this.accept(notebook);
    this.heldNotebook = undefined;
    this.shown.recordServed(notebook);
    if (ownMarkdown !== undefined) {
      this.written = { version: notebook.version, text: ownMarkdown };
      this.texts.delete('markdown');
    }
    this.currentMtime = this.nextMtime(this.currentMtime + 1);
  }

  /** The text of one of the notebook's files for the current version, made once per version. */
  textOf(form: NotebookForm): FormText {
    let text = this.texts.get(form);
    if (!text) {
      const current = this.currentNotebook;
      const own = form === 'markdown' && this.written?.version === current.version ? this.written.text : undefined;
      text = own !== undefined ? { text: own, bytes: new TextEncoder().encode(own), losses: () => [] } : renderForm(current, form);
      this.texts.set(form, text);
    }
    return text;
  }

  /** The current version's text of `form`, as an editor's base; recorded as shown to JSON editors. */
  served(form: NotebookForm, mtime = this.currentMtime): BaseSnapshot {
    this.shown.recordServed(this.currentNotebook);
    return snapshotOf(this.currentNotebook, this.textOf(form).text, mtime);
  }

  /** Strictly increasing modification times, each at least `floor`. */
  private nextMtime(floor: number): number {
    this.lastMtime = Math.max(this.lastMtime + 1, floor);
    return this.lastMtime;
  }
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

/** PostHog's text of `notebook` in `form` (e.g. for a diff against the editor). */
export function notebookText(notebook: Notebook, form: NotebookForm): string {
  return renderForm(notebook, form).text;
}
