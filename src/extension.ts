import * as vscode from 'vscode';
import { registerConnections } from './connections';
import { registerDocuments } from './documents';
import { registerEvents } from './events';
import { extendMarkdownIt, registerNotebooks } from './notebooks';
import { registerProjects } from './projects';
import { createServices } from './services';
import { registerExplorer } from './tree';
import { createLog, VSCODE_ENV, VSCODE_REGISTRY, vscodeWindow } from './workbench/window';

/** Each feature registers itself from its folder's entry point; the order is the order of the project's items. */
const FEATURES = [registerConnections, registerExplorer, registerDocuments, registerNotebooks, registerEvents, registerProjects];

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
  context.subscriptions.push(log, services, ...FEATURES.map((register) => register(services)));
  return { extendMarkdownIt };
}

export function deactivate(): void {}
