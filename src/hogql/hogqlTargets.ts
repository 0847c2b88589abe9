import type * as vscode from 'vscode';
import { Emitter, type Event } from '../common/emitter';
import { parseDocumentPath } from '../common/documentPaths';
import type { StateStore } from '../connections';

/** Where a HogQL document's queries go: a project of a connection. */
export interface QueryTarget {
  readonly connectionId: string;
  readonly projectId: number;
}

/** Saved files' projects, remembered across sessions under this key. */
const REMEMBERED_KEY = 'posthogExplorer.hogql.targets';
/** At most this many saved files are remembered (the oldest forgotten first), so the state stays small. */
const REMEMBERED_LIMIT = 200;

type Remembered = Record<string, QueryTarget>;

/**
 * Which project each HogQL document belongs to. An untitled document is bound when it is created; a saved
 * `.hogql` file is bound once (the user picks its project) and remembered; a document of the `posthog:` file
 * system (a notebook with SQL cells) belongs to the project in its path.
 */
export class HogQLTargets {
  private readonly bound = new Map<string, QueryTarget>();
  private readonly changed = new Emitter<vscode.Uri>();
  /** A document's project was bound or changed. */
  readonly onDidChange: Event<vscode.Uri> = this.changed.event;

  constructor(
    private readonly state: StateStore,
    private readonly posthogScheme: string,
  ) {}

  bind(uri: vscode.Uri, target: QueryTarget): void {
    const key = uri.toString();
    this.bound.set(key, target);
    if (uri.scheme === 'file') {
      void this.remember(key, target);
    }
    this.changed.fire(uri);
  }

  /** The project a document's queries go to, or undefined: the caller then asks (and binds the answer). */
  targetOf(document: Pick<vscode.TextDocument, 'uri'>): QueryTarget | undefined {
    const { uri } = document;
    return this.bound.get(uri.toString()) ?? this.pathTarget(uri) ?? this.rememberedTarget(uri);
  }

  /** Forgets an untitled document's project once it is closed (a saved file's stays remembered). */
  forget(uri: vscode.Uri): void {
    if (uri.scheme === 'untitled') {
      this.bound.delete(uri.toString());
    }
  }

  dispose(): void {
    this.changed.dispose();
  }

  private pathTarget(uri: vscode.Uri): QueryTarget | undefined {
    if (uri.scheme !== this.posthogScheme) {
      return undefined;
    }
    const path = parseDocumentPath(uri.authority, uri.path);
    return path && path.kind !== 'connection' ? { connectionId: path.connectionId, projectId: path.projectId } : undefined;
  }

  private rememberedTarget(uri: vscode.Uri): QueryTarget | undefined {
    if (uri.scheme !== 'file') {
      return undefined;
    }
    const target = this.state.get<Remembered>(REMEMBERED_KEY)?.[uri.toString()];
    return isQueryTarget(target) ? target : undefined;
  }

  private async remember(key: string, target: QueryTarget): Promise<void> {
    const remembered = { ...(this.state.get<Remembered>(REMEMBERED_KEY) ?? {}) };
    delete remembered[key];
    remembered[key] = target;
    const keys = Object.keys(remembered);
    keys.slice(0, Math.max(0, keys.length - REMEMBERED_LIMIT)).forEach((old) => delete remembered[old]);
    await this.state.update(REMEMBERED_KEY, remembered);
  }
}

function isQueryTarget(value: unknown): value is QueryTarget {
  const target = value as Partial<QueryTarget> | undefined;
  return typeof target?.connectionId === 'string' && typeof target.projectId === 'number';
}
