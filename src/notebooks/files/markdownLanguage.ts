import * as vscode from 'vscode';
import { escapeMarkdown } from '../../common/markdown';
import { Disposable } from '../../workbench/disposable';
import {
  codeFenceAnchors,
  describeComment,
  describeProp,
  describeQuery,
  describeTag,
  kindLabel,
  propsOfTag,
  QUERY_KINDS,
  shorten,
  tagDefinition,
  TAGS,
  tagSnippet,
  VIEW_DESCRIPTIONS,
} from '../markdown/dialect';
import type { MarkdownIssue } from '../markdown/issues';
import { UNCLOSED_CODE_BLOCK, unclosedFenceLine } from '../markdown/posthogLines';
import { isReadAsComponent, type PostHogReading, postHogReading, readingIssues, TAG_AS_TEXT } from '../markdown/readingHelp';
import { completionContext, scanTags, type TagInfo, type TagScan } from '../markdown/tags';

const REFRESH_DELAY_MS = 250;
const HOVER_VALUE_LENGTH = 80;
/** How much text before the cursor completion reads, to find the `<Query` it is in. */
const COMPLETION_LOOKBEHIND = 20_000;

/**
 * Editor help for notebooks' Markdown: diagnostics for PostHog tags that do not read (plus what the caller
 * adds, e.g. what a conversion cannot keep), completion of tag names and query kinds, and hovers on tags.
 * It acts only on Markdown documents whose URI passes `isNotebookMarkdown`. In a Markdown notebook (whose text
 * PostHog reads as it is: `readByPostHog`), it follows PostHog's reading: a tag PostHog reads as text is said
 * so, a tag PostHog cannot read is an error at its lines, and tag names are offered only where a tag starts.
 * Nothing is offered inside a code block.
 */
export class NotebookMarkdownLanguage extends Disposable implements vscode.CompletionItemProvider, vscode.HoverProvider {
  readonly diagnostics: vscode.DiagnosticCollection;
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly scans = new Map<string, { readonly version: number; readonly scan: TagScan; reading?: PostHogReading }>();

  constructor(
    private readonly isNotebookMarkdown: (uri: vscode.Uri) => boolean,
    private readonly extraIssues: (document: vscode.TextDocument) => readonly MarkdownIssue[],
    private readonly readByPostHog: (document: vscode.TextDocument) => boolean = () => false,
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
    const scan = this.scanOf(document);
    const reading = this.readingOf(document);
    const tagProblems = [...scan.problems, ...(reading ? readingIssues(scan, reading) : []), ...fenceProblems(document.getText())];
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
    if (!context || isInCode(document, position)) {
      return undefined;
    }
    if (context.kind === 'tagName' && this.readByPostHog(document) && !startsTag(document.lineAt(position.line).text, position.character - context.typed.length)) {
      return undefined; // PostHog reads a tag only at the start of a line
    }
    const range = new vscode.Range(position.translate(0, -context.typed.length), position);
    switch (context.kind) {
      case 'queryKind':
        return queryKindItems(range);
      case 'propName':
        return propItems(context.tag, context.given, range);
      case 'viewName':
        return viewItems(context.tag, range);
      default:
        return tagItems(range);
    }
  }

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    if (!this.applies(document)) {
      return undefined;
    }
    const offset = document.offsetAt(position);
    const tag = this.scanOf(document).tags.find((candidate) => candidate.start <= offset && offset < candidate.end);
    if (!tag) {
      return anchorHover(document.lineAt(position.line).text, position);
    }
    const reading = this.readingOf(document);
    const asText = reading !== undefined && !isReadAsComponent(tag, reading);
    return new vscode.Hover(tagHover(tag, asText), new vscode.Range(tag.line, tag.column, tag.endLine, tag.endColumn));
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

  /** PostHog's reading of a Markdown notebook's text, read once per version; none for a legacy notebook's file. */
  private readingOf(document: vscode.TextDocument): PostHogReading | undefined {
    if (!this.readByPostHog(document)) {
      return undefined;
    }
    this.scanOf(document);
    const cached = this.scans.get(document.uri.toString())!;
    cached.reading ??= postHogReading(document.getText());
    return cached.reading;
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

/** Whether the position is inside one of PostHog's code blocks (a fence opened above it and not closed before it). */
function isInCode(document: vscode.TextDocument, position: vscode.Position): boolean {
  return unclosedFenceLine(document.getText(new vscode.Range(0, 0, position.line, 0))) !== undefined;
}

/** Whether a `<` at `column` starts its line (only whitespace before it), where PostHog reads a tag. */
function startsTag(line: string, column: number): boolean {
  return line.slice(0, Math.max(0, column - 1)).trim() === '';
}

/** PostHog's "Unclosed code block": the code runs to the end of the text. */
function fenceProblems(text: string): MarkdownIssue[] {
  const line = unclosedFenceLine(text);
  return line === undefined ? [] : [{ line, endLine: line, message: vscode.l10n.t('{0}.', UNCLOSED_CODE_BLOCK), severity: 'error' }];
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
  return TAGS.filter((definition) => definition.writtenAs !== '---').map((definition, index) => {
    const item = new vscode.CompletionItem(definition.tag, vscode.CompletionItemKind.Struct);
    item.detail = definition.nodeType ?? vscode.l10n.t('no node type');
    item.documentation = tagDescription(definition.tag);
    item.insertText = new vscode.SnippetString(`${definition.tag}${tagSnippet(definition.tag) || '$0'} />`);
    item.range = range;
    item.sortText = String(index).padStart(3, '0');
    return item;
  });
}

/** The props a tag reads that are not given yet: its own, then the card shell's. */
function propItems(tag: string, given: readonly string[], range: vscode.Range): vscode.CompletionItem[] {
  return propsOfTag(tag)
    .filter((prop) => !given.includes(prop.name))
    .map((prop, index) => {
      const item = new vscode.CompletionItem(prop.name, vscode.CompletionItemKind.Property);
      item.documentation = vscode.l10n.t(prop.description);
      item.insertText = new vscode.SnippetString(prop.snippet === undefined ? prop.name : `${prop.name}=${prop.snippet}`);
      item.range = range;
      item.sortText = String(index).padStart(3, '0');
      return item;
    });
}

function viewItems(tag: string, range: vscode.Range): vscode.CompletionItem[] {
  return (tagDefinition(tag)?.views ?? []).map((view, index) => {
    const item = new vscode.CompletionItem(view, vscode.CompletionItemKind.EnumMember);
    item.detail = index === 0 ? vscode.l10n.t('the default view') : undefined;
    const description = VIEW_DESCRIPTIONS[view];
    item.documentation = description === undefined ? undefined : vscode.l10n.t(description);
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

function tagHover(tag: TagInfo, asText: boolean): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString();
  if (asText) {
    markdown.appendMarkdown(`${escapeMarkdown(vscode.l10n.t(TAG_AS_TEXT))}.\n\n`);
  }
  const nodeType = tag.nodeType;
  markdown.appendMarkdown(`**${escapeMarkdown(`<${tag.name}>`)}**`);
  if (nodeType) {
    markdown.appendMarkdown(` · ${vscode.l10n.t('node type')} \`${nodeType.replace(/`/g, '')}\``);
  }
  const description = tagDescription(tag.name);
  if (description) {
    markdown.appendMarkdown(`\n\n${escapeMarkdown(description)}`);
  }
  const summary = tag.name === 'Query' ? describeQuery(tag.props) : tag.name === 'Comment' ? describeComment(tag.props) : undefined;
  if (summary) {
    markdown.appendMarkdown(`\n\n${escapeMarkdown(summary)}`);
  }
  const props = Object.entries(tag.props).map(([key, value]) => {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    const view = key === 'view' && typeof value === 'string' ? VIEW_DESCRIPTIONS[value] : undefined;
    const about = view ?? describeProp(tag.name, key);
    return `- ${escapeMarkdown(key)}: ${escapeMarkdown(shorten(text, HOVER_VALUE_LENGTH))}${about ? ` — ${escapeMarkdown(vscode.l10n.t(about))}` : ''}`;
  });
  if (props.length > 0) {
    markdown.appendMarkdown(`\n\n${vscode.l10n.t('Props:')}\n\n${props.join('\n')}`);
  }
  return markdown;
}

/** On a code fence's `ref=<id>:<start>-<end>`: the discussion thread anchored to that part of the code. */
function anchorHover(line: string, position: vscode.Position): vscode.Hover | undefined {
  const fence = /^(\s*`{3,})(.*)$/.exec(line);
  if (!fence) {
    return undefined;
  }
  const infoStart = fence[1]!.length;
  for (const anchor of codeFenceAnchors(fence[2]!)) {
    const token = `ref=${anchor.id}:${anchor.start}-${anchor.end}`;
    const at = line.indexOf(token, infoStart);
    if (at !== -1 && position.character >= at && position.character < at + token.length) {
      const text = vscode.l10n.t('A discussion thread (<Comment ref="{0}">) on characters {1} to {2} of this code.', anchor.id, anchor.start, anchor.end);
      return new vscode.Hover(new vscode.MarkdownString(escapeMarkdown(text)), new vscode.Range(position.line, at, position.line, at + token.length));
    }
  }
  return undefined;
}

function sameIssue(a: MarkdownIssue, b: MarkdownIssue): boolean {
  const sentence = (message: string) => message.replace(/\.$/, '').toLowerCase();
  return a.line === b.line && sentence(a.message) === sentence(b.message);
}
