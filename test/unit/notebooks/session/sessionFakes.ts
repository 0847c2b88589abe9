import type { BaseSnapshot } from '../../../../src/notebooks/saving/markdownSavePlan';
import type { NotebookForm } from '../../../../src/notebooks/model/notebookPaths';
import type { BaseStore, EditorFacts, NotebookRef, NotebookSession, NotebookSessions, SessionLog, WriteOutcome } from '../../../../src/notebooks/session';

/** A notebook file's URI as the sessions key it (`name` before the short id, as a title gives one). */
export function notebookUri(ref: NotebookRef, form: NotebookForm, name = ''): string {
  return `posthog://${ref.connectionId}/${ref.projectId}/notebooks/${name}${ref.shortId}.${form === 'json' ? 'json' : 'md'}`;
}

/** The open editors, as VS Code would report them: each URI's text and whether it has unsaved changes. */
export class FakeEditors implements EditorFacts {
  readonly documents = new Map<string, { text: string; dirty: boolean }>();
  /** When false, replaceText refuses, as VS Code does when the user typed meanwhile. */
  acceptsEdits = true;

  openUris(): readonly string[] {
    return [...this.documents.keys()];
  }

  isOpen(uri: string): boolean {
    return this.documents.has(uri);
  }

  isDirty(uri: string): boolean {
    return this.documents.get(uri)?.dirty === true;
  }

  textOf(uri: string): string | undefined {
    return this.documents.get(uri)?.text;
  }

  async replaceText(uri: string, expected: string, text: string): Promise<boolean> {
    const document = this.documents.get(uri);
    if (!this.acceptsEdits || document?.text !== expected) {
      return false;
    }
    this.documents.set(uri, { text, dirty: true });
    return true;
  }

  /** When false (as if saves ran formatters), clean editors reload instead of taking changes in place. */
  savesUnchanged = false;
  /** Saves the session asked for: set by the test (they go through the session's write, as VS Code's do). */
  onSave: ((uri: string, text: string) => Promise<boolean>) | undefined;

  savesAsIs(): boolean {
    return this.savesUnchanged;
  }

  async save(uri: string): Promise<boolean> {
    const document = this.documents.get(uri);
    if (!document || !this.onSave) {
      return false;
    }
    const saved = await this.onSave(uri, document.text);
    if (saved && this.documents.get(uri)?.text === document.text) {
      this.documents.set(uri, { text: document.text, dirty: false });
    }
    return saved;
  }

  /** The user's edit: the editor holds `text`, unsaved. */
  type(uri: string, text: string): void {
    this.documents.set(uri, { text, dirty: true });
  }

  /** Opens the file as VS Code does: a read, then the editor shows the text. */
  async open(sessions: NotebookSessions, ref: NotebookRef, form: NotebookForm, name = ''): Promise<{ session: NotebookSession; uri: string }> {
    const session = sessions.get(ref) ?? (await sessions.fetch(ref));
    const uri = notebookUri(ref, form, name);
    this.documents.set(uri, { text: new TextDecoder().decode(session.read(uri, form)), dirty: false });
    session.editorOpened(uri);
    return { session, uri };
  }

  /** Saves the editor's text as VS Code does: the write, then a clean editor (when it was saved as it is). */
  async saveThrough(session: NotebookSession, uri: string, form: NotebookForm, text = this.textOf(uri)!): Promise<WriteOutcome> {
    const outcome = await session.write(uri, form, text, { overwrite: false });
    if ((outcome.kind === 'saved' || outcome.kind === 'unchanged') && this.textOf(uri) === text) {
      this.documents.set(uri, { text, dirty: false });
      session.editorChanged(uri);
    }
    return outcome;
  }

  /** The clean editor reloads what the file system now serves. */
  reload(session: NotebookSession, uri: string, form: NotebookForm): void {
    this.documents.set(uri, { text: new TextDecoder().decode(session.read(uri, form)), dirty: false });
    session.editorChanged(uri);
  }
}

export class MemoryBaseStore implements BaseStore {
  readonly bases = new Map<string, BaseSnapshot>();

  async save(key: string, base: BaseSnapshot): Promise<void> {
    this.bases.set(key, base);
  }

  async load(key: string): Promise<BaseSnapshot | undefined> {
    return this.bases.get(key);
  }

  async remove(key: string): Promise<void> {
    this.bases.delete(key);
  }
}

export class MemoryLog implements SessionLog {
  readonly lines: string[] = [];

  info(message: string): void {
    this.lines.push(message);
  }

  warn(message: string): void {
    this.lines.push(`warning: ${message}`);
  }
}
