// A small stand-in for the `vscode` module, so that the glue between VS Code and the extension's logic (file
// system providers, editors' bookkeeping) runs under node's test runner. Import this module first in a unit
// test file: it answers every later `require('vscode')` of that process. It holds only what the glue under
// unit test uses; anything else is undefined, and the in-editor tier tests the real thing.
import Module from 'node:module';
import { URI, Utils } from 'vscode-uri';

type Listener<T> = (event: T) => unknown;

export class Disposable {
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((item) => item.dispose()));
  }
  constructor(private readonly onDispose: () => unknown) {}
  dispose(): void {
    this.onDispose();
  }
}

export class EventEmitter<T> {
  private listeners = new Set<Listener<T>>();
  readonly event = (listener: Listener<T>, thisArg?: unknown, disposables?: Disposable[]): Disposable => {
    const bound: Listener<T> = (value) => listener.call(thisArg, value);
    this.listeners.add(bound);
    const disposable = new Disposable(() => this.listeners.delete(bound));
    disposables?.push(disposable);
    return disposable;
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      listener(value);
    }
  }
  dispose(): void {
    this.listeners.clear();
  }
}

/** vscode.Uri's statics over Microsoft's own implementation (vscode-uri); `instanceof Uri` holds for its instances. */
const Uri = Object.assign(function Uri() {
  throw new Error('Use Uri.parse, Uri.file or Uri.from');
}, {
  parse: (value: string, strict?: boolean) => URI.parse(value, strict),
  file: (path: string) => URI.file(path),
  from: (parts: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }) => URI.from(parts),
  joinPath: (base: URI, ...segments: string[]) => Utils.joinPath(base, ...segments),
  isUri: (value: unknown) => URI.isUri(value),
});
Object.defineProperty(Uri, Symbol.hasInstance, { value: (value: unknown) => URI.isUri(value) });

export class FileSystemError extends Error {
  static FileNotFound = (subject?: string | URI) => new FileSystemError(subject, 'FileNotFound');
  static FileExists = (subject?: string | URI) => new FileSystemError(subject, 'FileExists');
  static FileNotADirectory = (subject?: string | URI) => new FileSystemError(subject, 'FileNotADirectory');
  static FileIsADirectory = (subject?: string | URI) => new FileSystemError(subject, 'FileIsADirectory');
  static NoPermissions = (subject?: string | URI) => new FileSystemError(subject, 'NoPermissions');
  static Unavailable = (subject?: string | URI) => new FileSystemError(subject, 'Unavailable');
  constructor(
    subject: string | URI | undefined,
    readonly code = 'Unknown',
  ) {
    super(typeof subject === 'string' ? subject : subject ? subject.toString() : code);
    this.name = `${code} (FileSystemError)`;
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(startLine: number, startCharacter: number, endLine: number, endCharacter: number) {
    this.start = new Position(startLine, startCharacter);
    this.end = new Position(endLine, endCharacter);
  }
}

export class Diagnostic {
  source?: string;
  constructor(
    readonly range: Range,
    readonly message: string,
    readonly severity = 0,
  ) {}
}

/** vscode.languages.createDiagnosticCollection: diagnostics by URI, as the Problems view would hold them. */
class DiagnosticCollection {
  private readonly byUri = new Map<string, readonly Diagnostic[]>();
  constructor(readonly name: string) {}
  set(uri: URI, diagnostics: readonly Diagnostic[]): void {
    this.byUri.set(uri.toString(), diagnostics);
  }
  get(uri: URI): readonly Diagnostic[] | undefined {
    return this.byUri.get(uri.toString());
  }
  delete(uri: URI): void {
    this.byUri.delete(uri.toString());
  }
  clear(): void {
    this.byUri.clear();
  }
  dispose(): void {
    this.byUri.clear();
  }
}

/** vscode.l10n.t: `{0}`-style and `{name}`-style arguments, untranslated. */
function t(message: string | { message: string; args?: unknown[] | Record<string, unknown> }, ...rest: unknown[]): string {
  const text = typeof message === 'string' ? message : message.message;
  const args = typeof message === 'string' ? (rest.length === 1 && typeof rest[0] === 'object' && rest[0] !== null && !Array.isArray(rest[0]) ? rest[0] : rest) : (message.args ?? []);
  return text.replace(/\{([^{}]+)\}/g, (whole, key: string) => {
    const value = (args as Record<string, unknown>)[key];
    return value === undefined ? whole : String(value);
  });
}

/** The workspace's events and settings, driven by the test. */
export class StandInWorkspace {
  textDocuments: unknown[] = [];
  readonly settings = new Map<string, unknown>();
  readonly opened = new EventEmitter<unknown>();
  readonly closed = new EventEmitter<unknown>();
  readonly saved = new EventEmitter<unknown>();
  readonly changedText = new EventEmitter<unknown>();
  readonly changedConfiguration = new EventEmitter<{ affectsConfiguration(section: string): boolean }>();
  readonly onDidOpenTextDocument = this.opened.event;
  readonly onDidCloseTextDocument = this.closed.event;
  readonly onDidSaveTextDocument = this.saved.event;
  readonly onDidChangeTextDocument = this.changedText.event;
  readonly onDidChangeConfiguration = this.changedConfiguration.event;
  getConfiguration(section?: string) {
    const key = (name: string) => (section ? `${section}.${name}` : name);
    return {
      get: <T>(name: string, fallback?: T): T | undefined => (this.settings.has(key(name)) ? (this.settings.get(key(name)) as T) : fallback),
      has: (name: string) => this.settings.has(key(name)),
    };
  }
  registerTextDocumentContentProvider(): Disposable {
    return new Disposable(() => undefined);
  }
  registerFileSystemProvider(): Disposable {
    return new Disposable(() => undefined);
  }
  asRelativePath(value: string | URI): string {
    return typeof value === 'string' ? value : value.path;
  }
  reset(): void {
    this.textDocuments = [];
    this.settings.clear();
  }
}

export const workspace = new StandInWorkspace();

/** vscode.MarkdownString: its text and the flags the extension sets. */
export class MarkdownString {
  isTrusted = false;
  supportHtml = false;
  supportThemeIcons = false;
  constructor(readonly value = '') {}
}

export const standIn = {
  Disposable,
  MarkdownString,
  EventEmitter,
  Uri,
  FileSystemError,
  FileType: { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 },
  FileChangeType: { Changed: 1, Created: 2, Deleted: 3 },
  FilePermission: { Readonly: 1 },
  StatusBarAlignment: { Left: 1, Right: 2 },
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  Position,
  Range,
  Diagnostic,
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  languages: { createDiagnosticCollection: (name: string) => new DiagnosticCollection(name) },
  l10n: { t },
  workspace,
};

type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;
const moduleWithLoader = Module as unknown as { _load: Loader };
const load = moduleWithLoader._load;
moduleWithLoader._load = function (this: unknown, request: string, parent: unknown, isMain: boolean) {
  return request === 'vscode' ? standIn : load.call(this, request, parent, isMain);
};
