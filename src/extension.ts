import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('PostHog', { log: true });
  context.subscriptions.push(
    log,
    vscode.commands.registerCommand('posthogExplorer.showLogs', () => log.show()),
  );
}

export function deactivate(): void {}
