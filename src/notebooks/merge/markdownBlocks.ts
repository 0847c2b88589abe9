/**
 * Markdown text as lines and blocks for merging. Lines are split on "\n" only, so a "\r" stays at the end of
 * its line and CRLF text comes back byte for byte. A block is a run of non-blank lines; a fenced code block
 * (``` or ~~~, up to the closing fence of the same character and at least the same length, or the end of
 * the text) is one block even with blank lines inside.
 */
export interface MarkdownLines {
  readonly lines: readonly string[];
  /** Whether the text ends with "\n" (its last line then is the one before it). */
  readonly endsWithNewline: boolean;
}

export interface Block {
  /** First line of the block. */
  readonly start: number;
  /** Line after the block's last line. */
  readonly end: number;
  /** Blank lines after the block, up to the next block or the end of the text. */
  readonly separatorEnd: number;
}

export interface MarkdownBlocks extends MarkdownLines {
  /** Blank lines before the first block. */
  readonly leadingBlankLines: number;
  readonly blocks: readonly Block[];
  /** Each block's lines joined with "\n", to compare blocks. */
  readonly keys: readonly string[];
}

export function splitLines(text: string): MarkdownLines {
  if (text === '') {
    return { lines: [], endsWithNewline: false };
  }
  const lines = text.split('\n');
  const endsWithNewline = text.endsWith('\n');
  if (endsWithNewline) {
    lines.pop();
  }
  return { lines, endsWithNewline };
}

export function joinLines(lines: readonly string[], endsWithNewline: boolean): string {
  return lines.join('\n') + (endsWithNewline && lines.length > 0 ? '\n' : '');
}

export function isBlank(line: string): boolean {
  return line.trim() === '';
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function splitBlocks(text: string): MarkdownBlocks {
  const { lines, endsWithNewline } = splitLines(text);
  let index = 0;
  while (index < lines.length && isBlank(lines[index] as string)) {
    index++;
  }
  const leadingBlankLines = index;
  const blocks: Block[] = [];
  while (index < lines.length) {
    const start = index;
    let openFence: string | undefined;
    while (index < lines.length && (openFence !== undefined || !isBlank(lines[index] as string))) {
      openFence = nextFenceState(openFence, lines[index] as string);
      index++;
    }
    const end = index;
    while (index < lines.length && isBlank(lines[index] as string)) {
      index++;
    }
    blocks.push({ start, end, separatorEnd: index });
  }
  return {
    lines,
    endsWithNewline,
    leadingBlankLines,
    blocks,
    keys: blocks.map((block) => lines.slice(block.start, block.end).join('\n')),
  };
}

/** The fence still open after a line: a new opening fence, undefined after its closing fence. */
export function nextFenceState(openFence: string | undefined, line: string): string | undefined {
  const fence = FENCE.exec(line)?.[1];
  if (openFence === undefined) {
    // An opening ``` fence's info string may not contain a backtick.
    return fence !== undefined && !(fence.startsWith('`') && line.slice(line.indexOf(fence) + fence.length).includes('`')) ? fence : undefined;
  }
  const closes = fence !== undefined && fence[0] === openFence[0] && fence.length >= openFence.length && isBlank(line.slice(line.indexOf(fence) + fence.length));
  return closes ? undefined : openFence;
}
