import { alignBlocks } from './align';
import type { MarkdownIssue } from './issues';
import { issueAt, parseMarkdownBlocks, type ParsedBlock } from './legacyRead';
import { isNode, isObject, type PmNode, plainText, quote } from './schema';
import { lossesOfBlock, placeDocBlocks, type PlacedBlock } from './toMarkdown';

export interface MarkdownDoc {
  readonly doc: { type: 'doc'; content: unknown[] };
  readonly problems: MarkdownIssue[];
}

/**
 * Markdown (PostHog's dialect, or what people type: `_em_`, `__strong__`, `* item`, `1)`, setext headings,
 * indented code, autolinks, reference links) as a legacy ProseMirror document with the editor's default
 * attrs. A paragraph over several lines is one paragraph, each line break (a soft break) read as a space,
 * as Markdown renders it. Problems (errors, at their lines) name what cannot become a node without
 * losing it: raw HTML, an image inside text, a tag that does not read, a table row of another width…
 *
 * With `base`, the legacy document the text was made from: each top-level block whose text is exactly the
 * Markdown docToMarkdown wrote for one of base's top-level nodes keeps that node as it was (so what
 * Markdown cannot hold, like an unknown mark, survives edits elsewhere). Blocks are matched in order by a
 * sequence alignment (alignBlocks), so moved or duplicated blocks are handled. A block edited from one that Markdown
 * could not hold exactly gets a problem saying what saving would drop.
 */
export function markdownToDoc(markdown: string, base?: unknown): MarkdownDoc {
  try {
    return readAgainst(markdown, base);
  } catch (error) {
    // The reader recurses once per level of quotes and lists: thousands of levels exhaust the stack.
    if (error instanceof RangeError) {
      return { doc: { type: 'doc', content: [] }, problems: [tooDeepProblem(markdown)] };
    }
    throw error;
  }
}

function readAgainst(markdown: string, base: unknown): MarkdownDoc {
  const parsed = parseMarkdownBlocks(markdown);
  if (base === undefined) {
    return { doc: { type: 'doc', content: parsed.blocks.map((block) => block.node) }, problems: parsed.problems };
  }
  const written = placeDocBlocks(base);
  const texts = parsed.blocks.map((block) => parsed.lines.slice(block.startLine, block.endLine).join('\n'));
  const kept = keptBaseNodes(written, texts);
  const content = parsed.blocks.map((block, index) => kept.nodes.get(index) ?? block.node);
  const problems = [
    ...unkeptEntryProblems(base),
    ...parsed.problems.filter((problem) => !insideKeptBlock(problem, parsed.blocks, kept.nodes)),
    ...editedLossProblems(written, parsed.blocks, kept.edits),
  ];
  return { doc: { type: 'doc', content }, problems: problems.sort((a, b) => a.line - b.line) };
}

interface Edit {
  /** Indexes of base's blocks replaced… */
  readonly baseBlocks: number[];
  /** …by these blocks of the text. */
  readonly newBlocks: number[];
}

/** Which of the text's blocks are base's blocks unchanged (by index), and the runs of blocks that changed. */
function keptBaseNodes(written: PlacedBlock[], texts: string[]): { nodes: Map<number, unknown>; edits: Edit[] } {
  const nodes = new Map<number, unknown>();
  const edits: Edit[] = [];
  let baseAt = 0;
  let newAt = 0;
  const pairs = alignBlocks(
    written.map((block) => block.text),
    texts,
  );
  for (const [baseIndex, newIndex] of [...pairs, [written.length, texts.length] as const]) {
    if (baseIndex > baseAt || newIndex > newAt) {
      edits.push({ baseBlocks: range(baseAt, baseIndex - baseAt), newBlocks: range(newAt, newIndex - newAt) });
    }
    if (baseIndex < written.length) {
      nodes.set(newIndex, written[baseIndex]!.node);
    }
    baseAt = baseIndex + 1;
    newAt = newIndex + 1;
  }
  return { nodes, edits };
}

function range(start: number, length: number): number[] {
  return Array.from({ length }, (_, index) => start + index);
}

function insideKeptBlock(problem: MarkdownIssue, blocks: ParsedBlock[], kept: Map<number, unknown>): boolean {
  return blocks.some((block, index) => kept.has(index) && problem.line >= block.startLine && problem.line < block.endLine);
}

/**
 * A base block Markdown could not hold exactly, replaced by edited text: saving would drop what it held.
 * (A block deleted outright is the user's choice and needs no problem.)
 */
/** The longest piece of an entry quoted in a problem. */
const ENTRY_PREVIEW_CHARS = 60;
/** The most entries a problem names. */
const ENTRIES_NAMED = 5;

/**
 * What of `base` the Markdown has no place for at all, so that a document made from the text would drop it: a
 * content that is not a document, and top-level entries that are not nodes (null, 5, a string, a node whose
 * type is not a string). Each is an error: the save is refused rather than losing them.
 */
function unkeptEntryProblems(base: unknown): MarkdownIssue[] {
  const fix = 'saving the Markdown would drop it, so it is refused: edit the notebook in the JSON form.';
  if (!isObject(base) || !Array.isArray(base['content'])) {
    return [issueAt(0, 0, `The notebook's content is ${preview(base)}, not a document; ${fix}`, 'error')];
  }
  const unkept = base['content'].flatMap((entry, index) => (isNode(entry) ? [] : [`${preview(entry)} (entry ${index + 1})`]));
  if (unkept.length === 0) {
    return [];
  }
  const named = unkept.length > ENTRIES_NAMED ? `${unkept.slice(0, ENTRIES_NAMED).join(', ')} and ${unkept.length - ENTRIES_NAMED} more` : unkept.join(', ');
  return [issueAt(0, 0, `The notebook's content holds what is not a node: ${named}; ${fix}`, 'error')];
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > ENTRY_PREVIEW_CHARS ? `${text.slice(0, ENTRY_PREVIEW_CHARS)}…` : text;
}

function editedLossProblems(written: PlacedBlock[], blocks: ParsedBlock[], edits: Edit[]): MarkdownIssue[] {
  const problems: MarkdownIssue[] = [];
  for (const edit of edits) {
    if (edit.newBlocks.length === 0) {
      continue;
    }
    edit.baseBlocks.forEach((baseIndex, position) => {
      const original = written[baseIndex]!;
      const losses = lossesOfBlock(original);
      if (losses.length === 0) {
        return;
      }
      const block = blocks[edit.newBlocks[Math.min(position, edit.newBlocks.length - 1)]!]!;
      const what = describeBlock(original.node);
      const message = `${what} had what Markdown cannot hold (${losses.join('; ')}); saving would drop it: undo your change to it, or edit the notebook in the JSON form.`;
      problems.push(issueAt(block.startLine, block.endLine - 1, message, 'error'));
    });
  }
  return problems;
}

function describeBlock(node: unknown): string {
  const block = node as PmNode;
  const text = typeof block?.type === 'string' ? plainText(block) : '';
  const type = typeof block?.type === 'string' ? block.type : 'block';
  return text.trim() === '' ? `This block was a ${type} that` : `This block was the ${type} ${quote(text)}, which`;
}

/** Where the nesting is deepest: the line with the longest run of quote markers, list markers and indentation. */
function tooDeepProblem(markdown: string): MarkdownIssue {
  let deepest = 0;
  let deepestLength = -1;
  let line = 0;
  for (let start = 0; start <= markdown.length; line++) {
    const end = markdown.indexOf('\n', start);
    const stop = end === -1 ? markdown.length : end;
    let index = start;
    while (index < stop && NESTING_CHARACTERS.has(markdown.charCodeAt(index))) index++;
    if (index - start > deepestLength) {
      deepestLength = index - start;
      deepest = line;
    }
    start = stop + 1;
  }
  return { line: deepest, endLine: deepest, message: 'quotes or lists nest too deeply to read: keep them to a few hundred levels', severity: 'error' };
}

/** `>`, spaces, tabs, and list markers (`-`, `*`, `+`). */
const NESTING_CHARACTERS = new Set([0x3e, 0x20, 0x09, 0x2d, 0x2a, 0x2b]);
