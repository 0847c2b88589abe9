import type { BaseSnapshot } from '../../../../src/notebooks/markdownSave';
import type { BaseStore, EditorFacts, SessionLog } from '../../../../src/notebooks/session';

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
