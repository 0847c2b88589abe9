import * as vscode from 'vscode';
import type { CommandId } from './commandIds';
import { Disposable } from './disposable';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- command arguments are whatever VS Code passes
export type Handler = (...args: any[]) => unknown;

/** A feature's commands by id (COMMANDS.<name>). */
export type CommandHandlers = Partial<Record<CommandId, Handler>>;

/**
 * Where features register what VS Code calls back: vscode.commands and vscode.window in the extension
 * (VSCODE_REGISTRY, in ./window.ts). In-editor tests pass a recorder, since the installed extension already
 * owns the ids.
 */
export interface WorkbenchRegistry {
  registerCommand(id: string, run: Handler): vscode.Disposable;
  registerWebviewPanelSerializer(viewType: string, serializer: vscode.WebviewPanelSerializer): vscode.Disposable;
  /** Sets a context key that menus' `when` clauses read. */
  setContext(key: string, value: unknown): void;
  /** Runs one of the extension's commands, as a menu would. */
  executeCommand(id: CommandId, ...args: unknown[]): Thenable<unknown>;
}

/** Registers a feature's commands, keyed by COMMANDS.<name>; one disposable releases them all. */
export function registerCommands(registry: WorkbenchRegistry, handlers: CommandHandlers): vscode.Disposable {
  return vscode.Disposable.from(
    ...Object.entries(handlers).map(([id, run]) => registry.registerCommand(id, run as Handler)),
  );
}

/**
 * A feature's commands: the handlers it lists in commands(), as methods that tests can also call
 * directly. register() is separate from construction so that a harness can leave it out.
 */
export abstract class CommandGroup extends Disposable {
  protected abstract commands(): CommandHandlers;

  register(registry: WorkbenchRegistry): this {
    this._register(registerCommands(registry, this.commands()));
    return this;
  }
}
