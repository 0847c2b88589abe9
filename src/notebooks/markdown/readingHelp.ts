import type { MarkdownIssue } from './issues';
import { readPostHogBlocks } from './posthogReader';
import type { TagInfo, TagScan } from './tags';

/**
 * What the editor's help of a Markdown notebook takes from PostHog's reading of its text (readPostHogBlocks),
 * so that it says what PostHog will do: the lines where PostHog reads a component (a tag anywhere else is text
 * to PostHog), and the tags PostHog could not read ("Unclosed component tag", "Invalid notebook component
 * tag"), whose lines it shows as text.
 */
export interface PostHogReading {
  /** The first line of each component PostHog reads from a written tag (0-based). */
  readonly componentLines: ReadonlySet<number>;
  /** Tags PostHog could not read: their lines (0-based, `endLine` exclusive) and PostHog's message. */
  readonly unread: readonly { readonly line: number; readonly endLine: number; readonly message: string }[];
}

export function postHogReading(text: string): PostHogReading {
  const componentLines = new Set<number>();
  const unread: { line: number; endLine: number; message: string }[] = [];
  for (const block of readPostHogBlocks(text).blocks) {
    if (block.error && block.error.message !== 'Unclosed code block') {
      unread.push({ line: block.line, endLine: block.endLine, message: block.error.message });
    } else if (block.node.type === 'component' && block.node.raw !== undefined) {
      componentLines.add(block.line);
    }
  }
  return { componentLines, unread };
}

/** Whether PostHog reads the scanned tag as a component (it starts a component's first line). */
export function isReadAsComponent(tag: TagInfo, reading: PostHogReading): boolean {
  return reading.componentLines.has(tag.line);
}

/** Said of a well-formed tag PostHog reads as text (inside a paragraph, a list item, a quote, a table). */
export const TAG_AS_TEXT =
  'PostHog shows this tag as text, not as a card: a tag must start a line of its own, outside lists, quotes and tables, with a blank line or another block before it';

const UNREAD_HINTS: Readonly<Record<string, string>> = {
  'Unclosed component tag':
    'PostHog shows these lines as text: a tag ends with "/>" (or its closing tag) at the end of a line, before any blank line, with nothing after it on that line',
  'Invalid notebook component tag': 'PostHog shows these lines as text: it cannot read them as a tag',
};

/**
 * The problems PostHog's reading adds to the tag scan's: a tag it reads as text is a warning at the tag; a
 * tag it cannot read is an error at its lines, unless the scan already says what is wrong there.
 */
export function readingIssues(scan: TagScan, reading: PostHogReading): MarkdownIssue[] {
  const issues: MarkdownIssue[] = [];
  for (const block of reading.unread) {
    const explained = scan.problems.some((problem) => problem.severity === 'error' && problem.line >= block.line && problem.line < block.endLine);
    if (!explained) {
      issues.push({ line: block.line, endLine: block.endLine - 1, severity: 'error', message: `${block.message}: ${UNREAD_HINTS[block.message] ?? 'PostHog shows these lines as text'}` });
    }
  }
  const unreadLine = (line: number) => reading.unread.some((block) => line >= block.line && line < block.endLine);
  for (const tag of scan.tags) {
    if (!isReadAsComponent(tag, reading) && !unreadLine(tag.line)) {
      issues.push({ line: tag.line, column: tag.column, endLine: tag.endLine, endColumn: tag.endColumn, severity: 'warning', message: TAG_AS_TEXT });
    }
  }
  return issues;
}
