import * as vscode from 'vscode';
import { registerFeatures } from './features';
import { extendMarkdownIt } from './notebooks';
import { createServices } from './services';
import { createLog, VSCODE_ENV, VSCODE_REGISTRY, vscodeWindow } from './workbench/window';

/** What the extension gives VS Code: the Markdown preview's plugin (see `markdown.markdownItPlugins`). */
export interface ExtensionApi {
  extendMarkdownIt: typeof extendMarkdownIt;
}

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const log = createLog();
  const services = createServices({
    log,
    state: context.globalState,
    secrets: context.secrets,
    extensionUri: context.extensionUri,
    storageUri: context.globalStorageUri,
    window: vscodeWindow(),
    env: VSCODE_ENV,
    registry: VSCODE_REGISTRY,
    environment: process.env,
  });
  context.subscriptions.push(log, services, ...Object.values(registerFeatures(services)));
  return { extendMarkdownIt };
}

export function deactivate(): void {}
