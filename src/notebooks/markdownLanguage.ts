import * as vscode from 'vscode';
import { escapeMarkdown } from '../common/markdown';
import { Disposable } from '../workbench/disposable';
import { describeQuery, describeTag, kindLabel, QUERY_KINDS, shorten, TAGS, UNKNOWN_TAG } from './markdown/dialect';
import type { MarkdownIssue } from './markdown/issues';
import { completionContext, scanTags, type TagInfo, type TagScan } from './markdown/tags';

const REFRESH_DELAY_MS = 250;
const HOVER_VALUE_LENGTH = 80;
/** How much text before the cursor completion reads, to find the `<Query` it is in. */
const COMPLETION_LOOKBEHIND = 20_000;

/**
 * The props a new tag usually needs, as snippet text after its name (PostHog's node attributes). Tags not
 * listed get none.
 */
const TAG_SNIPPETS: Readonly<Record<string, string>> = {
  Query: ' query={{"kind":"SavedInsightNode","shortId":"${1:short id}"}}',
  Python: ' code="${1}"',
  Recording: ' id="${1:session id}"',
  FeatureFlag: ' id="${1:flag id}"',
  Experiment: ' id={${1:experiment id}}',
  EarlyAccessFeature: ' id="${1:feature id}"',
  Survey: ' id="${1:survey id}"',
  Person: ' id="${1:person id}"',
  Group: ' id="${1:group key}" groupTypeIndex={${2:0}}',
  Cohort: ' id={${1:cohort id}}',
  Backlink: ' href="${1:url}"',
  ReplayTimestamp: ' playbackTime={${1:0}} sessionRecordingId="${2:session id}"',
  Image: ' src="${1:url}"',
  Embed: ' src="${1:url}"',
  Latex: ' content="${1}"',
  [UNKNOWN_TAG]: ' nodeType="${1:ph-}"',
};

/**
 * Editor help for notebooks' Markdown: diagnostics for PostHog tags that do not read (plus what the caller
 * adds, e.g. what a conversion cannot keep), completion of tag names and query kinds, and hovers on tags.
 * It acts only on Markdown documents whose URI passes `isNotebookMarkdown`.
 */
export class NotebookMarkdownLanguage extends Disposable implements vscode.CompletionItemProvider, vscode.HoverProvider {
  readonly diagnostics: vscode.DiagnosticCollection;
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly scans = new Map<string, { readonly version: number; readonly scan: TagScan }>();

  constructor(
    private readonly isNotebookMarkdown: (uri: vscode.Uri) => boolean,
    private readonly extraIssues: (document: vscode.TextDocument) => readonly MarkdownIssue[],
  ) {
    super();
    this.diagnostics = this._register(vscode.languages.createDiagnosticCollection('posthog-notebook'));
    const selector: vscode.DocumentSelector = { language: 'markdown' };
    this._register(vscode.languages.registerCompletionItemProvider(selector, this, '<', '"'));
    this._register(vscode.languages.registerHoverProvider(selector, this));
    this._register(vscode.workspace.onDidOpenTextDocument((document) => this.refresh(document)));
    this._register(vscode.workspace.onDidChangeTextDocument((event) => this.refreshSoon(event.document)));
    this._register(vscode.workspace.onDidCloseTextDocument((document) => this.forget(document.uri)));
    this._register({ dispose: () => this.timers.forEach((timer) => clearTimeout(timer)) });
    vscode.workspace.textDocuments.forEach((document) => this.refresh(document));
  }

  /** Recomputes a document's diagnostics now (on open, after edits, and when the caller asks, e.g. after a refused save). */
  refresh(document: vscode.TextDocument): void {
    this.cancelRefresh(document.uri);
    if (!this.applies(document)) {
      this.diagnostics.delete(document.uri);
      return;
    }
    const tagProblems = this.scanOf(document).problems;
    // A legacy notebook's conversion back reports a broken tag too: once, at the tag, is enough.
    const extra = this.extraIssues(document).filter((issue) => !tagProblems.some((problem) => sameIssue(problem, issue)));
    const issues = [...tagProblems, ...extra];
    this.diagnostics.set(document.uri, issues.map((issue) => toDiagnostic(document, issue)));
  }

  provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] | undefined {
    if (!this.applies(document)) {
      return undefined;
    }
    const windowStart = document.positionAt(Math.max(0, document.offsetAt(position) - COMPLETION_LOOKBEHIND));
    const before = document.getText(new vscode.Range(windowStart, position));
    const context = completionContext(before);
    if (!context) {
      return undefined;
    }
    const range = new vscode.Range(position.translate(0, -context.typed.length), position);
    return context.kind === 'queryKind' ? queryKindItems(range) : tagItems(range);
  }

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    if (!this.applies(document)) {
      return undefined;
    }
    const offset = document.offsetAt(position);
    const tag = this.scanOf(document).tags.find((candidate) => candidate.start <= offset && offset < candidate.end);
    if (!tag) {
      return undefined;
    }
    return new vscode.Hover(tagHover(tag), new vscode.Range(tag.line, tag.column, tag.endLine, tag.endColumn));
  }

  private applies(document: vscode.TextDocument): boolean {
    return document.languageId === 'markdown' && this.isNotebookMarkdown(document.uri);
  }

  /** The document's tags and their problems, scanned once per version (diagnostics and hovers share it). */
  private scanOf(document: vscode.TextDocument): TagScan {
    const key = document.uri.toString();
    const cached = this.scans.get(key);
    if (cached?.version === document.version) {
      return cached.scan;
    }
    const scan = scanTags(document.getText());
    this.scans.set(key, { version: document.version, scan });
    return scan;
  }

  private refreshSoon(document: vscode.TextDocument): void {
    if (!this.applies(document)) {
      return;
    }
    this.cancelRefresh(document.uri);
    this.timers.set(
      document.uri.toString(),
      setTimeout(() => this.refresh(document), REFRESH_DELAY_MS),
    );
  }

  private cancelRefresh(uri: vscode.Uri): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
  }

  private forget(uri: vscode.Uri): void {
    this.cancelRefresh(uri);
    this.scans.delete(uri.toString());
    this.diagnostics.delete(uri);
  }
}

function toDiagnostic(document: vscode.TextDocument, issue: MarkdownIssue): vscode.Diagnostic {
  const lastLine = Math.max(0, document.lineCount - 1);
  const endLine = Math.min(issue.endLine, lastLine);
  const range = document.validateRange(
    new vscode.Range(
      Math.min(issue.line, lastLine),
      issue.column ?? 0,
      endLine,
      issue.endColumn ?? document.lineAt(endLine).range.end.character,
    ),
  );
  const diagnostic = new vscode.Diagnostic(
    range,
    issue.message,
    issue.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
  );
  diagnostic.source = 'PostHog';
  return diagnostic;
}

function tagItems(range: vscode.Range): vscode.CompletionItem[] {
  const definitions = [...TAGS, { tag: UNKNOWN_TAG, nodeType: vscode.l10n.t('any node type') }];
  return definitions.map((definition, index) => {
    const item = new vscode.CompletionItem(definition.tag, vscode.CompletionItemKind.Struct);
    item.detail = definition.nodeType;
    item.documentation = tagDescription(definition.tag);
    item.insertText = new vscode.SnippetString(`${definition.tag}${TAG_SNIPPETS[definition.tag] ?? '$0'} />`);
    item.range = range;
    item.sortText = String(index).padStart(3, '0');
    return item;
  });
}

function queryKindItems(range: vscode.Range): vscode.CompletionItem[] {
  return QUERY_KINDS.map((kind, index) => {
    const item = new vscode.CompletionItem(kind, vscode.CompletionItemKind.EnumMember);
    item.detail = kindLabel(kind);
    item.range = range;
    item.sortText = String(index).padStart(3, '0');
    return item;
  });
}

/** The dialect's English sentence, translated when a translation has it. */
function tagDescription(tag: string): string | undefined {
  const description = describeTag(tag);
  return description === undefined ? undefined : vscode.l10n.t(description);
}

function tagHover(tag: TagInfo): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString();
  const nodeType = tag.nodeType;
  markdown.appendMarkdown(`**${escapeMarkdown(`<${tag.name}>`)}**`);
  if (nodeType) {
    markdown.appendMarkdown(` · ${vscode.l10n.t('node type')} \`${nodeType.replace(/`/g, '')}\``);
  }
  const description = tagDescription(tag.name);
  if (description) {
    markdown.appendMarkdown(`\n\n${escapeMarkdown(description)}`);
  }
  const query = tag.name === 'Query' ? describeQuery(tag.props) : undefined;
  if (query) {
    markdown.appendMarkdown(`\n\n${escapeMarkdown(query)}`);
  }
  const props = Object.entries(tag.props).map(([key, value]) => {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return `- ${escapeMarkdown(key)}: ${escapeMarkdown(shorten(text, HOVER_VALUE_LENGTH))}`;
  });
  if (props.length > 0) {
    markdown.appendMarkdown(`\n\n${vscode.l10n.t('Props:')}\n\n${props.join('\n')}`);
  }
  return markdown;
}

function sameIssue(a: MarkdownIssue, b: MarkdownIssue): boolean {
  const sentence = (message: string) => message.replace(/\.$/, '').toLowerCase();
  return a.line === b.line && sentence(a.message) === sentence(b.message);
}
