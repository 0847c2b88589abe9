import type { Notebook } from '../../api';
import { docToMarkdown, docToMarkdownText, type MarkdownIssue, markdownToDoc } from '../markdown';
import { findConflictMarkers } from '../merge';
import { editableOf, type EditableNotebook, EMPTY_DOC, isObject, MARKDOWN_NODE, markdownOf, sameJson, type SaveBody, textContentOf } from '../model/notebookDocument';

/**
 * A notebook's Markdown file: a Markdown notebook shows its Markdown verbatim; a legacy (ProseMirror)
 * notebook shows its content converted to PostHog's Markdown dialect, and a save converts it back, so the
 * notebook stays legacy.
 */
export interface MarkdownRendering {
  readonly markdown: string;
  /** What the Markdown cannot hold exactly (legacy notebooks only): a save that edits those blocks is refused. */
  readonly losses: readonly MarkdownIssue[];
}

/**
 * The Markdown file's text alone, without checking what a legacy notebook's Markdown cannot hold (that check
 * reads the text back, which doubles the cost; renderMarkdown does it, for the editor's diagnostics).
 */
export function markdownTextOf(content: unknown): string {
  return markdownOf(content) ?? docToMarkdownText(content ?? EMPTY_DOC);
}

/** `forMarkdownNotebook`: the Markdown a legacy notebook converted to a Markdown notebook gets (what PostHog's web app reads). */
export function renderMarkdown(content: unknown, options: { forMarkdownNotebook?: boolean } = {}): MarkdownRendering {
  const markdown = markdownOf(content);
  return markdown !== undefined ? { markdown, losses: [] } : docToMarkdown(content ?? EMPTY_DOC, options);
}

/** What an editor's text was based on: the version it was read at, and that version's fields and text. */
export interface BaseSnapshot {
  readonly version: number;
  readonly editable: EditableNotebook;
  /** The text the editor was given (Markdown or the JSON document, by the file). */
  readonly text: string;
  /** The modification time the editor was told with that text. */
  readonly mtime: number;
  /**
   * PostHog's `version` holds this text merged with others' changes (a save that merged): the text lacks
   * those, so a save of an edit of it merges with `version` rather than replacing it.
   */
  readonly merged?: boolean;
  /** A JSON document's text: the version its read-only block shows, when it is not `version`. */
  readonly displayed?: number;
}

export function snapshotOf(notebook: Notebook, text: string, mtime: number): BaseSnapshot {
  return { version: notebook.version, editable: editableOf(notebook), text, mtime };
}

export type MarkdownSavePlan =
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'patch'; readonly body: SaveBody; readonly full: EditableNotebook };

/** A save refused before anything is sent, with each reason at its place in the text. */
export class MarkdownSaveError extends Error {
  constructor(readonly issues: readonly MarkdownIssue[]) {
    super(describeIssues(issues));
  }
}

const MAX_LISTED = 5;

function describeIssues(issues: readonly MarkdownIssue[]): string {
  const listed = issues.slice(0, MAX_LISTED).map((issue) => `line ${issue.line + 1}: ${issue.message}`);
  const more = issues.length > MAX_LISTED ? ` (and ${issues.length - MAX_LISTED} more)` : '';
  return `Not saved: ${listed.join('; ')}${more}`;
}

/** Conflict markers left in a text, as issues: a save is refused while any remains. */
export function conflictMarkerIssues(text: string): MarkdownIssue[] {
  return findConflictMarkers(text).map(({ line, marker }) => ({
    line,
    endLine: line,
    severity: 'error',
    message: `the conflict marker "${marker}" is left from a merge: keep the side you want (Accept Current, Incoming or Both) and remove the markers`,
  }));
}

/**
 * The notebook's fields once the Markdown `text` replaces the content of `like` (the version the text is
 * based on, or PostHog's newer one after a merge): a Markdown notebook takes the text as its Markdown; a
 * legacy notebook takes the text converted back, unchanged blocks keeping their original nodes.
 */
export function editableFromMarkdown(text: string, like: EditableNotebook): EditableNotebook {
  const markers = conflictMarkerIssues(text);
  if (markers.length > 0) {
    throw new MarkdownSaveError(markers);
  }
  const stored = markdownOf(like.content);
  if (stored !== undefined) {
    const content = markdownContent(like.content, text);
    const text_content = like.text_content !== null && like.text_content.trim() === text.trim() ? like.text_content : text;
    return { title: like.title, content, text_content };
  }
  const { doc, problems } = markdownToDoc(text, like.content);
  const errors = problems.filter((problem) => problem.severity === 'error');
  if (errors.length > 0) {
    throw new MarkdownSaveError(errors);
  }
  if (sameJson(doc, like.content)) {
    return like;
  }
  const content = withDocumentFields(doc, like.content);
  return { title: like.title, content, text_content: textContentOf(content) };
}

/** The document-level fields beside `content` (which the Markdown cannot show, and which the editor flags) stay as they were. */
function withDocumentFields(doc: { type: 'doc'; content: unknown[] }, like: unknown): unknown {
  return isObject(like) ? { ...like, type: doc.type, content: doc.content } : doc;
}

/** Reads the editor's Markdown and decides what a save sends: nothing, or one PATCH based on `base`. */
export function planMarkdownSave(text: string, base: BaseSnapshot): MarkdownSavePlan {
  const full = editableFromMarkdown(text, base.editable);
  if (sameJson(full.content, base.editable.content)) {
    return { kind: 'unchanged' };
  }
  const body: SaveBody = { content: full.content, version: base.version };
  if (full.text_content !== base.editable.text_content) {
    body.text_content = full.text_content;
  }
  return { kind: 'patch', body, full };
}

/** The content of a Markdown notebook holding `markdown`, keeping the node's other attrs (its nodeId). */
function markdownContent(content: unknown, markdown: string): unknown {
  const doc = content as { content: { attrs?: Record<string, unknown> }[] };
  const node = doc.content[0];
  return { ...doc, content: [{ ...node, type: MARKDOWN_NODE, attrs: { ...node?.attrs, markdown } }] };
}
