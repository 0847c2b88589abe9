import type * as vscode from 'vscode';

/**
 * The test runner extension's context, which its activate() publishes, so that suites exercise
 * VS Code's real SecretStorage rather than a stand-in.
 */
const KEY = '__posthogExplorerTestRunnerContext';

export function publishRunnerContext(context: vscode.ExtensionContext): void {
  (globalThis as Record<string, unknown>)[KEY] = context;
}

export function runnerSecrets(): vscode.SecretStorage {
  const context = (globalThis as Record<string, unknown>)[KEY] as vscode.ExtensionContext | undefined;
  if (!context) {
    throw new Error('The test runner extension has not published its context');
  }
  return context.secrets;
}
