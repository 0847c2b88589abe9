import * as vscode from 'vscode';
import { type CaretDecoration, type EditorsApi, VSCODE_EDITORS, type WindowApi } from '../../../src/workbench/window';

/** One prompt a flow showed, and what the script answered. */
export interface Prompt {
  readonly kind: 'quickPick' | 'inputBox';
  readonly title?: string;
  readonly placeHolder?: string;
  readonly labels: string[];
  /** For quick picks: each item as shown (separators included). */
  readonly items?: readonly { label: string; description?: string; detail?: string; separator?: boolean }[];
  /** For input boxes: what validateInput said of the scripted answer. */
  readonly validation?: string;
  /** For input boxes: that message's severity (a warning lets the answer through). */
  readonly severity?: 'error' | 'warning';
  /** For input boxes: the text under the box. */
  readonly prompt?: string;
}

type QuickPickAnswer = (labels: string[]) => string | undefined;
type Answer = { quickPick: QuickPickAnswer } | { inputBox: string | undefined };

/** Stands in for vscode.env: records what the features open in the browser and put on the clipboard. */
export class RecordingEnv {
  readonly opened: string[] = [];
  readonly clipboard = { text: '', writeText: async (text: string) => void (this.clipboard.text = text) };

  async openExternal(uri: vscode.Uri): Promise<boolean> {
    this.opened.push(uri.toString(true));
    return true;
  }
}

/**
 * Stands in for vscode.window's prompts in in-editor tests: it answers quick picks and input boxes
 * from a script, runs each input box's validation on the answer (as VS Code would before accepting
 * it), and records every message shown. Everything else the flows do stays real.
 */
export class ScriptedWindow {
  readonly prompts: Prompt[] = [];
  /** Every message shown: a modal one with its detail and buttons. */
  readonly messages: { severity: 'info' | 'warning' | 'error'; text: string; detail?: string; buttons?: string[] }[] = [];
  /** What the features asked a tree view to reveal. */
  readonly revealed: unknown[] = [];
  /** Answers for multi-select quick picks (canPickMany), in turn: the labels to leave ticked. */
  readonly manyAnswers: ((items: readonly vscode.QuickPickItem[]) => string[] | undefined)[] = [];
  /** Where save dialogs answer, in turn; none left is Cancel. */
  readonly saveTargets: vscode.Uri[] = [];
  /** The diff editors the features opened (they open for real too). */
  readonly diffs: { left: vscode.Uri; right: vscode.Uri; title: string }[] = [];
  /** What the features said in the status bar. */
  readonly statusMessages: string[] = [];
  /** Others' carets the features last showed in each document (they are shown for real too). */
  readonly carets = new Map<string, readonly CaretDecoration[]>();
  /** How many times a flow found no connection and offered to sign in. */
  signInOffers = 0;
  private readonly answers: Answer[] = [];
  private readonly messageChoices: { button: string | undefined; meanwhile?: () => Promise<unknown> }[] = [];

  /** Picks the first item whose label contains the text; undefined escapes. */
  pick(text: string | undefined): this {
    this.answers.push({
      quickPick: (labels) => (text === undefined ? undefined : labels.find((label) => label.includes(text))),
    });
    return this;
  }

  type(value: string | undefined): this {
    this.answers.push({ inputBox: value });
    return this;
  }

  /**
   * The button the next message with buttons gets (none by default); `meanwhile` runs while it is shown,
   * before the answer (what others do while a modal dialog waits for the user).
   */
  choose(button: string | undefined, meanwhile?: () => Promise<unknown>): this {
    this.messageChoices.push({ button, meanwhile });
    return this;
  }

  get api(): WindowApi {
    const api = {
      showQuickPick: async (items: unknown, options?: vscode.QuickPickOptions) => {
        const resolved = (await items) as (string | vscode.QuickPickItem)[];
        const labels = resolved.map((item) => (typeof item === 'string' ? item : item.label));
        const shown = resolved.map((item) =>
          typeof item === 'string'
            ? { label: item }
            : { label: item.label, description: item.description, detail: item.detail, separator: item.kind === vscode.QuickPickItemKind.Separator },
        );
        this.prompts.push({ kind: 'quickPick', title: options?.title, placeHolder: options?.placeHolder, labels, items: shown });
        if (options?.canPickMany) {
          return this.pickMany(resolved as vscode.QuickPickItem[]);
        }
        const answer = this.next('quickPick');
        const label = 'quickPick' in answer ? answer.quickPick(labels) : undefined;
        return label === undefined ? undefined : resolved[labels.indexOf(label)];
      },
      showInputBox: async (options?: vscode.InputBoxOptions) => {
        const answer = this.next('inputBox');
        const value = 'inputBox' in answer ? answer.inputBox : undefined;
        const problem = value === undefined ? undefined : await options?.validateInput?.(value);
        const validation = typeof problem === 'string' ? problem : problem?.message;
        const blocking = typeof problem === 'string' || problem?.severity === vscode.InputBoxValidationSeverity.Error;
        const severity = validation === undefined ? undefined : blocking ? 'error' : 'warning';
        this.prompts.push({ kind: 'inputBox', title: options?.title, placeHolder: options?.placeHolder, labels: [], validation, severity, prompt: options?.prompt });
        // VS Code keeps the box open on an error: the flow sees Escape.
        return blocking ? undefined : value;
      },
      showInformationMessage: (text: string, ...items: unknown[]) => this.message('info', text, items),
      showWarningMessage: (text: string, ...items: unknown[]) => this.message('warning', text, items),
      showErrorMessage: (text: string, ...items: unknown[]) => this.message('error', text, items),
      showSaveDialog: async () => this.saveTargets.shift(),
      // Editors, panels, the status bar item and the notebook search are real: tests read and type into them.
      editors: this.editors(),
      createQuickPick: () => vscode.window.createQuickPick(),
      createWebviewPanel: (...args: Parameters<typeof vscode.window.createWebviewPanel>) => vscode.window.createWebviewPanel(...args),
      createStatusBarItem: (...args: Parameters<typeof vscode.window.createStatusBarItem>) => vscode.window.createStatusBarItem(...args),
      setStatusBarMessage: (text: string) => {
        this.statusMessages.push(text);
        return new vscode.Disposable(() => undefined);
      },
      get state() {
        return vscode.window.state;
      },
      onDidChangeWindowState: vscode.window.onDidChangeWindowState,
      offerSignIn: () => void this.signInOffers++,
      createTreeView: () => ({ reveal: async (node: unknown) => void this.revealed.push(node), dispose: () => undefined }),
      withProgress: (_options: vscode.ProgressOptions, task: (progress: unknown, token: vscode.CancellationToken) => unknown) =>
        Promise.resolve(task({ report: () => undefined }, new vscode.CancellationTokenSource().token)),
    };
    return api as unknown as WindowApi;
  }

  private editors(): EditorsApi {
    return {
      ...VSCODE_EDITORS,
      diff: (left, right, title) => {
        this.diffs.push({ left, right, title });
        return VSCODE_EDITORS.diff(left, right, title);
      },
      showCarets: (uri, carets) => {
        this.carets.set(uri.toString(), carets);
        VSCODE_EDITORS.showCarets(uri, carets);
      },
    };
  }

  private pickMany(items: vscode.QuickPickItem[]): vscode.QuickPickItem[] | undefined {
    const answer = this.manyAnswers.shift();
    if (!answer) {
      throw new Error('The flow showed a multi-select the script did not expect');
    }
    const labels = answer(items);
    return labels && items.filter((item) => labels.includes(item.label));
  }

  private next(kind: 'quickPick' | 'inputBox'): Answer {
    const answer = this.answers.shift();
    if (!answer) {
      throw new Error(`The flow showed a ${kind} the script did not expect`);
    }
    if (!(kind in answer)) {
      throw new Error(`The flow showed a ${kind} where the script expected ${Object.keys(answer)[0]}`);
    }
    return answer;
  }

  private async message(severity: 'info' | 'warning' | 'error', text: string, items: unknown[]) {
    const buttons = items.filter((item) => typeof item === 'string') as string[];
    const options = items.find((item): item is vscode.MessageOptions => typeof item === 'object' && item !== null && !('title' in item));
    this.messages.push({ severity, text, ...(options?.detail !== undefined ? { detail: options.detail } : {}), ...(buttons.length > 0 ? { buttons } : {}) });
    if (buttons.length === 0) {
      return undefined;
    }
    const choice = this.messageChoices.shift();
    await choice?.meanwhile?.();
    return choice?.button;
  }
}
