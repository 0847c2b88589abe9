import { quoteBefore, type QueryTextMap, writtenValueMap } from './textOffsets';

/** Notebook code cells holding HogQL: the legacy HogQLSQL and the current SQLV2 (posthog-behaviour.md, "Tags"). */
const SQL_CELL_TAGS = new Set(['HogQLSQL', 'SQLV2']);
const SQL_CELL_HINT = /<(?:HogQLSQL|SQLV2)\b/;

/** A tag as the notebooks' reader (scanTags) finds it: its name, props and where each prop is written. */
export interface ScannedTag {
  readonly name: string;
  readonly props: Record<string, unknown>;
  readonly propSpans: Record<string, { readonly valueStart: number }>;
}

/** Whether the Markdown may hold SQL cells (a cheap test before reading its tags). */
export function mayHoldSqlCells(markdown: string): boolean {
  return SQL_CELL_HINT.test(markdown);
}

/**
 * The HogQL of each SQL cell among a notebook's tags (scanTags), mapped to where its characters are written
 * (the `code` prop's value, escapes and all). Cells whose code is not a quoted string are left out. vscode-free.
 */
export function sqlCellTexts(markdown: string, tags: readonly ScannedTag[]): QueryTextMap[] {
  return tags.flatMap((tag) => {
    const code = tag.props['code'];
    const span = tag.propSpans['code'];
    if (!SQL_CELL_TAGS.has(tag.name) || typeof code !== 'string' || !span) {
      return [];
    }
    const opening = markdown.startsWith('{"', span.valueStart) ? 2 : 1;
    const start = span.valueStart + opening;
    return markdown[start - 1] === '"' || markdown[start - 1] === "'" ? [writtenValueMap(markdown, start, code, quoteBefore(markdown, start))] : [];
  });
}
