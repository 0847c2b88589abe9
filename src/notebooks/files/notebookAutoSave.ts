import * as vscode from 'vscode';
import { Disposable } from '../../workbench/disposable';
import { findConflictMarkers } from '../merge';

/**
 * posthogExplorer.notebooks.autoSaveAfterTypingMs: a notebook's file is saved after this long without typing
 * (0: never), as PostHog's web app saves while its users type, so that co-editing from VS Code feels the same.
 * A text with conflict markers waits for the user (its save would be refused).
 */
export class NotebookAutoSave extends Disposable {
  private delayMs = 0;
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly isNotebook: (uri: vscode.Uri) => boolean) {
    super();
    this._register(vscode.workspace.onDidChangeTextDocument(({ document, contentChanges }) => contentChanges.length > 0 && this.typed(document)));
    this._register(vscode.workspace.onDidCloseTextDocument((document) => this.cancel(document.uri.toString())));
    this._register({ dispose: () => [...this.timers.keys()].forEach((key) => this.cancel(key)) });
  }

  setDelay(ms: number): void {
    this.delayMs = Number.isFinite(ms) && ms > 0 ? ms : 0;
    if (this.delayMs === 0) {
      [...this.timers.keys()].forEach((key) => this.cancel(key));
    }
  }

  private typed(document: vscode.TextDocument): void {
    if (this.delayMs === 0 || !this.isNotebook(document.uri)) {
      return;
    }
    const key = document.uri.toString();
    this.cancel(key);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        if (document.isDirty && !document.isClosed && findConflictMarkers(document.getText()).length === 0) {
          void document.save();
        }
      }, this.delayMs),
    );
  }

  private cancel(key: string): void {
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
  }
}
