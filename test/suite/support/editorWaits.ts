import * as vscode from 'vscode';

/** Polls `check` until it holds, failing after `timeoutMs` with what was waited for. */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The first value `event` fires that passes `test`, failing after `timeoutMs` with what was waited for. */
export function waitForEvent<T>(event: vscode.Event<T>, test: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error(`Timed out waiting for ${what}`));
    }, timeoutMs);
    const subscription = event((value) => {
      if (test(value)) {
        clearTimeout(timer);
        subscription.dispose();
        resolve(value);
      }
    });
  });
}

/** Closes every editor, reverting the unsaved ones first (of `scheme` only, when given) so no save prompt shows. */
export async function closeAllEditors(scheme?: string): Promise<void> {
  const unsaved = vscode.workspace.textDocuments.filter((document) => document.isDirty && (scheme === undefined || document.uri.scheme === scheme));
  for (const document of unsaved) {
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}
