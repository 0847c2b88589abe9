import * as vscode from 'vscode';
import { COMMANDS } from './commandIds';
import type { WorkbenchRegistry } from './commands';

/**
 * The window seam: the one file that calls vscode.window and vscode.env (ESLint holds every other file of
 * src/ to it). Features take these interfaces from their services, so that in-editor tests can answer the
 * prompts and watch the editors, the clipboard and the browser while everything else stays real.
 */

/** A replaced span of a document's text, by offsets into the text it applies to. */
export interface TextSpanEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** Another person's caret in a document: a bar with their name, in one of a few colours. */
export interface CaretDecoration {
  readonly offset: number;
  readonly label: string;
  /** Which colour: the same person keeps theirs. */
  readonly colorIndex: number;
  /** Markdown, its server text escaped (markdownLine): shown untrusted, without HTML or icons. */
  readonly hover: string;
}

/** What commands do with editors: find the active one, open, compare and close documents, and what others do in them. */
export interface EditorsApi {
  /** The document of the active text editor, if any. */
  activeUri(): vscode.Uri | undefined;
  /** The active text editor's document and its primary selection (the caret when empty), if any. */
  activeSelection(): { readonly document: vscode.TextDocument; readonly selection: vscode.Selection } | undefined;
  /** Opens a document in a (non-preview) editor. */
  open(uri: vscode.Uri): Promise<vscode.TextEditor>;
  /** Opens a diff editor of two documents, `left` the older. */
  diff(left: vscode.Uri, right: vscode.Uri, title: string): Promise<void>;
  /** Closes the editor tabs of these documents, except those with unsaved changes. */
  closeSaved(uris: readonly vscode.Uri[]): Promise<void>;
  /**
   * Replaces the whole text of the open document of `uri` (it stays unsaved): only if it still is `expected`,
   * when given (VS Code refuses the edit if the user typed meanwhile). Resolves whether the text was replaced.
   */
  replaceText(uri: vscode.Uri, text: string, expected?: string): Promise<boolean>;
  /**
   * Applies the edits (offsets into `expected`, ascending) to the open document of `uri`, only while its text
   * is `expected`: the rest of the text, the cursors, selections and undo history stay. Resolves whether applied.
   */
  applyEdits(uri: vscode.Uri, expected: string, edits: readonly TextSpanEdit[]): Promise<boolean>;
  /** Shows others' carets in every editor of `uri` (and in those opened later); an empty list removes them. */
  showCarets(uri: vscode.Uri, carets: readonly CaretDecoration[]): void;
  /** The user moved the caret in the active editor (typing, clicking, keys): its document and the caret's offset. */
  onDidMoveCaret(listener: (uri: vscode.Uri, offset: number) => void): vscode.Disposable;
  /** Another editor (or none) became the active one. */
  onDidChangeActive(listener: (uri: vscode.Uri | undefined) => void): vscode.Disposable;
  /** Opens an untitled document holding `content` in `language` (a report to read, which the user may discard). */
  showUntitled(content: string, language: string): Promise<vscode.TextEditor>;
}

/** The prompts, panels and status bar of the window, and its editors. */
export interface WindowApi
  extends Pick<
    typeof vscode.window,
    | 'showQuickPick'
    | 'showInputBox'
    | 'showInformationMessage'
    | 'showWarningMessage'
    | 'showErrorMessage'
    | 'withProgress'
    | 'createTreeView'
    | 'showSaveDialog'
    | 'createQuickPick'
    | 'createWebviewPanel'
    | 'createStatusBarItem'
    | 'setStatusBarMessage'
    | 'state'
    | 'onDidChangeWindowState'
  > {
  readonly editors: EditorsApi;
  /** There is no connection to act on: starts the sign-in flow (the Sign In command). */
  offerSignIn(): void;
}

/** The vscode.env calls commands make (the browser, the clipboard); tests pass a recorder. */
export interface EnvApi {
  openExternal(uri: vscode.Uri): Thenable<boolean>;
  readonly clipboard: Pick<vscode.Clipboard, 'writeText'>;
}

/** Collaborators' colours: distinct on light and dark themes. */
const CARET_COLORS = ['#e5534b', '#3b82f6', '#2da44e', '#a371f7', '#d4a72c', '#0ea5b7'];

/** Others' carets as decorations: one decoration type per colour, each caret a bar and its name. */
class CaretDecorations {
  private types: vscode.TextEditorDecorationType[] | undefined;
  private readonly shown = new Map<string, readonly CaretDecoration[]>();
  private watching: vscode.Disposable | undefined;

  show(uri: vscode.Uri, carets: readonly CaretDecoration[]): void {
    const key = uri.toString();
    if (carets.length === 0) {
      this.shown.delete(key);
    } else {
      this.shown.set(key, carets);
    }
    this.watching ??= vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach((editor) => this.paint(editor)));
    vscode.window.visibleTextEditors.filter((editor) => editor.document.uri.toString() === key).forEach((editor) => this.paint(editor));
  }

  private paint(editor: vscode.TextEditor): void {
    const carets = this.shown.get(editor.document.uri.toString()) ?? [];
    const types = (this.types ??= CARET_COLORS.map((color) => caretType(color)));
    types.forEach((type, index) => {
      const mine = carets.filter((caret) => caret.colorIndex % types.length === index);
      editor.setDecorations(
        type,
        mine.map((caret) => {
          const position = editor.document.positionAt(caret.offset);
          return {
            range: new vscode.Range(position, position),
            hoverMessage: untrustedMarkdown(caret.hover),
            renderOptions: { after: { contentText: caret.label } },
          };
        }),
      );
    });
  }
}

/** Markdown whose server text was escaped (markdownLine): nothing in it is trusted, HTML or an icon. */
export function untrustedMarkdown(markdown: string): vscode.MarkdownString {
  const shown = new vscode.MarkdownString(markdown);
  shown.isTrusted = false;
  shown.supportHtml = false;
  shown.supportThemeIcons = false;
  return shown;
}

function caretType(color: string): vscode.TextEditorDecorationType {
  return vscode.window.createTextEditorDecorationType({
    rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
    overviewRulerColor: color,
    overviewRulerLane: vscode.OverviewRulerLane.Full,
    before: { contentText: '\u200b', border: `1px solid ${color}`, margin: '0 -1px 0 0', height: '1.2em' },
    after: { color: '#ffffff', backgroundColor: color, margin: '0 0 0 1px', textDecoration: 'none; font-size: 0.8em; border-radius: 2px; padding: 0 3px; vertical-align: super' },
  });
}

const CARETS = new CaretDecorations();

/** VS Code's editors. */
export const VSCODE_EDITORS: EditorsApi = {
  activeUri: () => vscode.window.activeTextEditor?.document.uri,
  activeSelection: () => {
    const editor = vscode.window.activeTextEditor;
    return editor && { document: editor.document, selection: editor.selection };
  },
  open: async (uri) => vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false }),
  diff: async (left, right, title) => {
    await vscode.commands.executeCommand('vscode.diff', left, right, title);
  },
  closeSaved: async (uris) => {
    const closing = new Set(uris.map((uri) => uri.toString()));
    const tabs = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter((tab) => tab.input instanceof vscode.TabInputText && closing.has(tab.input.uri.toString()) && !tab.isDirty);
    if (tabs.length > 0) {
      await vscode.window.tabGroups.close(tabs, true);
    }
  },
  replaceText: async (uri, text, expected) => {
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri.toString());
    if (!document || (expected !== undefined && document.getText() !== expected)) {
      return false;
    }
    // The edit carries the document's version: VS Code applies it only to the text just compared.
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(0, 0, document.lineCount, 0), text);
    return vscode.workspace.applyEdit(edit);
  },
  applyEdits: async (uri, expected, edits) => {
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri.toString());
    if (!document || document.getText() !== expected) {
      return false;
    }
    if (edits.length === 0) {
      return true;
    }
    // As replaceText: applied only to the version of the document just compared.
    const edit = new vscode.WorkspaceEdit();
    for (const span of edits) {
      edit.replace(uri, new vscode.Range(document.positionAt(span.start), document.positionAt(span.end)), span.text);
    }
    return vscode.workspace.applyEdit(edit);
  },
  showCarets: (uri, carets) => CARETS.show(uri, carets),
  onDidChangeActive: (listener) => vscode.window.onDidChangeActiveTextEditor((editor) => listener(editor?.document.uri)),
  onDidMoveCaret: (listener) =>
    vscode.window.onDidChangeTextEditorSelection((event) => {
      if (event.kind !== undefined && event.textEditor === vscode.window.activeTextEditor) {
        listener(event.textEditor.document.uri, event.textEditor.document.offsetAt(event.selections[0]?.active ?? new vscode.Position(0, 0)));
      }
    }),
  showUntitled: async (content, language) => vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content, language }), { preview: false }),
};

/** VS Code's window, as the running extension's features see it. */
export function vscodeWindow(): WindowApi {
  const { window } = vscode;
  return {
    showQuickPick: window.showQuickPick.bind(window),
    showInputBox: window.showInputBox.bind(window),
    showInformationMessage: window.showInformationMessage.bind(window),
    showWarningMessage: window.showWarningMessage.bind(window),
    showErrorMessage: window.showErrorMessage.bind(window),
    withProgress: window.withProgress.bind(window),
    createTreeView: window.createTreeView.bind(window),
    showSaveDialog: window.showSaveDialog.bind(window),
    createQuickPick: window.createQuickPick.bind(window),
    createWebviewPanel: window.createWebviewPanel.bind(window),
    createStatusBarItem: window.createStatusBarItem.bind(window),
    setStatusBarMessage: window.setStatusBarMessage.bind(window),
    get state() {
      return window.state;
    },
    onDidChangeWindowState: window.onDidChangeWindowState,
    editors: VSCODE_EDITORS,
    offerSignIn: () => void vscode.commands.executeCommand(COMMANDS.signIn),
  };
}

/** VS Code's browser and clipboard. */
export const VSCODE_ENV: EnvApi = vscode.env;

/** VS Code's display language (e.g. `en`, `de`), for dates and numbers; fixed while the window runs. */
export function displayLanguage(): string {
  return vscode.env.language;
}

/** The extension's log: the "PostHog" output channel. */
export function createLog(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel('PostHog', { log: true });
}

/** The registry of the running extension: vscode.commands and vscode.window. */
export const VSCODE_REGISTRY: WorkbenchRegistry = {
  registerCommand: (id, run) => vscode.commands.registerCommand(id, run),
  registerWebviewPanelSerializer: (viewType, serializer) => vscode.window.registerWebviewPanelSerializer(viewType, serializer),
  setContext: (key, value) => void vscode.commands.executeCommand('setContext', key, value),
  executeCommand: (id, ...args) => vscode.commands.executeCommand(id, ...args),
};

/** An AbortSignal that aborts when VS Code cancels the token. */
export function abortSignalFor(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) {
    controller.abort();
  } else {
    token.onCancellationRequested(() => controller.abort());
  }
  return controller.signal;
}
