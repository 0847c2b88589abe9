import * as vscode from 'vscode';
import { ExplorerNode } from './nodes';

/** How a command finds what it acts on; the first that answers wins, in this order. */
export interface TargetSources<T> {
  /** From the explorer item the command was run on (its context menu or inline button). */
  readonly node?: (node: ExplorerNode) => T | undefined;
  /** From a document's URI: the one the command was run on, or (with activeDocument) the active editor's. */
  readonly uri?: (uri: vscode.Uri) => T | undefined | Promise<T | undefined>;
  /**
   * Run without an argument (the palette, a key binding), the command acts on this document: the active
   * editor's (the window seam's `editors.activeUri`).
   */
  readonly activeDocument?: () => vscode.Uri | undefined;
  /** Otherwise, a titled quick pick (e.g. pickProject); absent when there is nothing to ask. */
  readonly pick?: () => Promise<T | undefined>;
}

/** The one way a command resolves its target: a tree item, the URI of a document, or a pick from the palette. */
export async function commandTarget<T>(argument: unknown, sources: TargetSources<T>): Promise<T | undefined> {
  const found = await fromArgument(argument ?? sources.activeDocument?.(), sources);
  return found ?? sources.pick?.();
}

function fromArgument<T>(argument: unknown, sources: TargetSources<T>): T | undefined | Promise<T | undefined> {
  if (argument instanceof ExplorerNode) {
    return sources.node?.(argument);
  }
  if (argument instanceof vscode.Uri) {
    return sources.uri?.(argument);
  }
  return undefined;
}
