import type { Notebook } from '../../api';
import {
  displayedVersion,
  type DocumentProblem,
  editableOf,
  type EditableNotebook,
  markdownOf,
  NotebookDocumentError,
  parseNotebookDocument,
  type ParsedNotebookDocument,
  READONLY_KEY,
  readonlyOf,
  type ReadonlyBlock,
  readonlyProblems,
  type SaveBody,
  sameJson,
  textContentOf,
} from '../model/notebookDocument';

export type SavePlan =
  /** Nothing differs from the version the text is based on: send nothing. */
  | { readonly kind: 'unchanged'; readonly displayed: number; readonly base: number }
  /**
   * One PATCH; `body.version` is the version the editor's text is based on, whose fields are `base` (undefined
   * when this window never saw that version: every difference then conflicts in a merge).
   */
  | { readonly kind: 'patch'; readonly displayed: number; readonly body: SaveBody; readonly full: EditableNotebook; readonly base?: EditableNotebook };

/** What an editor's JSON text derives from: a version's fields, and the version its read-only block shows. */
export interface JsonBase {
  readonly version: number;
  readonly editable: EditableNotebook;
  /** The version the text's read-only block shows (a text saved without a reload still shows the version it was read at). */
  readonly displayed: number;
}

interface ServedState {
  readonly editable: EditableNotebook;
  readonly readonlyBlocks: ReadonlyBlock[];
}

const KEPT_VERSIONS = 8;

/**
 * The versions of one notebook its JSON editors were shown, with their read-only blocks: a JSON document's
 * text must keep the block of one of them. The text shows the version it was read at until the editor
 * reloads; what it is based on is the editor's base (see session/editorBases.ts), or, for a text showing
 * another version (pasted from another editor), that version.
 */
export class ServedJsonVersions {
  private readonly served = new Map<number, ServedState>();

  constructor(readonly shortId: string) {}

  /** An editor was given this notebook's text (a read), or a save produced it. */
  recordServed(notebook: Notebook): void {
    this.remember(notebook);
  }

  /** The fields of a version this notebook's editors were given, if still kept. */
  editableAt(version: number): EditableNotebook | undefined {
    return this.served.get(version)?.editable;
  }

  knows(version: number): boolean {
    return this.served.has(version);
  }

  /**
   * Reads the text and decides what a save sends, against `editorBase` when the text shows the version that
   * base shows, else against the version it shows; throws NotebookDocumentError when it must be refused.
   */
  planSave(text: string, editorBase?: JsonBase): SavePlan {
    const parsed = parseNotebookDocument(text);
    const displayed = displayedVersion(parsed);
    const versionProblem = (message: string): never => {
      throw new NotebookDocumentError([
        {
          message,
          location: parsed.json.locate([READONLY_KEY, 'version']) ?? parsed.json.locateKey([READONLY_KEY]),
          field: `${READONLY_KEY}.version`,
        },
      ]);
    };
    if (displayed === undefined) {
      return versionProblem(`${READONLY_KEY}.version is read-only and must stay as it was (an integer); undo that change`);
    }
    const shown = this.served.get(displayed);
    if (this.served.size > 0) {
      if (!shown) {
        return versionProblem(
          `${READONLY_KEY}.version is read-only and was changed (this editor has version ${this.latestServedVersion()}); undo that change`,
        );
      }
      this.checkReadonly(parsed, shown);
    } else if (parsed.readonly?.['short_id'] !== this.shortId) {
      throw new NotebookDocumentError([
        {
          message: `${READONLY_KEY}.short_id is read-only and must be "${this.shortId}"`,
          location: parsed.json.locate([READONLY_KEY, 'short_id']),
          field: `${READONLY_KEY}.short_id`,
        },
      ]);
    }
    const fromEditor = editorBase?.displayed === displayed ? editorBase : undefined;
    const base = fromEditor?.version ?? displayed;
    const baseState = fromEditor?.editable ?? this.served.get(displayed)?.editable;
    const full = this.resolveTextContent(parsed, shown?.editable, baseState);
    if (baseState && sameJson(full, baseState)) {
      return { kind: 'unchanged', displayed, base };
    }
    const body: SaveBody = { content: full.content, version: base };
    if (!baseState || full.title !== baseState.title) {
      body.title = full.title;
    }
    if (!baseState || full.text_content !== baseState.text_content) {
      body.text_content = full.text_content;
    }
    return { kind: 'patch', displayed, body, full, base: baseState };
  }

  /**
   * text_content follows the content unless the user edited it (compared with what the text showed). A
   * Markdown notebook's text_content is its Markdown, always.
   */
  private resolveTextContent(
    parsed: ParsedNotebookDocument,
    shown: EditableNotebook | undefined,
    base: EditableNotebook | undefined,
  ): EditableNotebook {
    const { editable: edited, hasTextContent } = parsed;
    const textEdited = hasTextContent && (!shown || edited.text_content !== shown.text_content);
    const markdown = markdownOf(edited.content);
    if (markdown !== undefined) {
      if (textEdited && !sameAsStored(edited.text_content, markdown)) {
        throw new NotebookDocumentError([
          {
            message: 'a Markdown notebook\'s text_content is its Markdown and follows it on save: remove the text_content field',
            location: parsed.json.locateKey(['text_content']),
            field: 'text_content',
          },
        ]);
      }
      const stored = base?.text_content ?? null;
      return { ...edited, text_content: stored !== null && sameAsStored(stored, markdown) ? stored : markdown };
    }
    if (textEdited) {
      return edited;
    }
    const contentChanged = !shown || !sameJson(edited.content, shown.content);
    const text_content = contentChanged ? textContentOf(edited.content) : (shown?.text_content ?? null);
    return { ...edited, text_content };
  }

  private checkReadonly(parsed: ReturnType<typeof parseNotebookDocument>, shown: ServedState): void {
    let closest: DocumentProblem[] | undefined;
    for (const block of shown.readonlyBlocks) {
      const problems = readonlyProblems(parsed, block);
      if (problems.length === 0) {
        return;
      }
      closest = closest && closest.length <= problems.length ? closest : problems;
    }
    throw new NotebookDocumentError(closest ?? []);
  }

  private remember(notebook: Notebook): void {
    const block = readonlyOf(notebook);
    const previous = this.served.get(notebook.version);
    const blocks = previous ? previous.readonlyBlocks.filter((known) => !sameJson(known, block)) : [];
    this.served.delete(notebook.version);
    this.served.set(notebook.version, { editable: editableOf(notebook), readonlyBlocks: [...blocks, block].slice(-4) });
    while (this.served.size > KEPT_VERSIONS) {
      const oldest = this.served.keys().next().value as number;
      this.served.delete(oldest);
    }
  }

  private latestServedVersion(): number | undefined {
    return Math.max(...this.served.keys());
  }
}

/** PostHog trims text fields as it stores them: text equal but for outer whitespace is what it would keep. */
function sameAsStored(text: string | null, markdown: string): boolean {
  return (text ?? '').trim() === markdown.trim();
}
