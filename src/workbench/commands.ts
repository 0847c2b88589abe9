import * as vscode from 'vscode';
import type { CommandId } from './commandIds';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- command arguments are whatever VS Code passes
type Handler = (...args: any[]) => unknown;

/**
 * Where features register what VS Code calls back: vscode.commands and vscode.window in the extension.
 * In-editor tests pass a recorder, since the installed extension already owns the ids.
 */
export interface WorkbenchRegistry {
  registerCommand(id: string, run: Handler): vscode.Disposable;
  registerWebviewPanelSerializer(viewType: string, serializer: vscode.WebviewPanelSerializer): vscode.Disposable;
  /** Sets a context key that menus' `when` clauses read. */
  setContext(key: string, value: unknown): void;
}

/** The registry of the running extension. */
export const VSCODE_REGISTRY: WorkbenchRegistry = {
  registerCommand: (id, run) => vscode.commands.registerCommand(id, run),
  registerWebviewPanelSerializer: (viewType, serializer) => vscode.window.registerWebviewPanelSerializer(viewType, serializer),
  setContext: (key, value) => void vscode.commands.executeCommand('setContext', key, value),
};

/** Registers a feature's commands, keyed by COMMANDS.<name>; one disposable releases them all. */
export function registerCommands(registry: WorkbenchRegistry, handlers: Partial<Record<CommandId, Handler>>): vscode.Disposable {
  return vscode.Disposable.from(
    ...Object.entries(handlers).map(([id, run]) => registry.registerCommand(id, run as Handler)),
  );
}
