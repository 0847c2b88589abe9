import { sameJson } from '../model/notebookDocument';
import { parseMarkdownBlocks } from './legacyRead';
import { plainText, type PmNode } from './schema';
import { joinBlocks, placeDocBlocks } from './toMarkdown';

/**
 * The Markdown of a legacy document, each top-level node written the way `spelledText` already writes it
 * when a block of that text reads back as exactly that node (`_x_` stays `_x_`, `* item` stays `* item`),
 * the dialect's own spelling otherwise.
 *
 * A three-way merge compares PostHog's version with the text an editor was based on, which after a save is
 * the user's own spelling: written canonically, every paragraph the user spelled differently would look
 * changed on PostHog's side, and editing it would conflict with nobody.
 */
export function docToMarkdownSpelledAs(doc: unknown, spelledText: string): string {
  const placed = placeDocBlocks(doc);
  const canonical = joinBlocks(placed.map((block) => block.text));
  if (canonical === spelledText) {
    return canonical;
  }
  const spellings = spellingsOf(spelledText);
  const respelled = new Set<number>();
  const texts = placed.map((block, index) => {
    const spelling = takeSpelling(spellings, block.node);
    if (spelling === undefined || spelling === block.text) {
      return block.text;
    }
    respelled.add(index);
    return spelling;
  });
  if (respelled.size === 0) {
    return canonical;
  }
  const text = joinBlocks(texts);
  return readsBackAs(text, placed, respelled) ? text : canonical;
}

interface Spelling {
  readonly node: PmNode;
  readonly text: string;
}

/** The text's blocks by node type and plain text (a cheap key; a match is confirmed on the whole node). */
function spellingsOf(text: string): Map<string, Spelling[]> {
  const parsed = parseMarkdownBlocks(text);
  const spellings = new Map<string, Spelling[]>();
  for (const block of parsed.blocks) {
    const key = keyOf(block.node);
    const list = spellings.get(key) ?? [];
    list.push({ node: block.node, text: parsed.lines.slice(block.startLine, block.endLine).join('\n') });
    spellings.set(key, list);
  }
  return spellings;
}

/** The first unused spelling of `node`, in the text's order. */
function takeSpelling(spellings: Map<string, Spelling[]>, node: PmNode): string | undefined {
  const list = spellings.get(keyOf(node));
  const index = list?.findIndex((spelling) => sameJson(spelling.node, node)) ?? -1;
  return index === -1 ? undefined : list!.splice(index, 1)[0]!.text;
}

function keyOf(node: PmNode): string {
  return `${node.type}\u0000${plainText(node)}`;
}

/**
 * A block spelled in its own text may read differently beside other blocks (a reference link whose
 * definition is elsewhere, a list that joins the next one): the respelled text is used only when it has
 * as many blocks as the document and each respelled one reads back as its node. (The others are the
 * dialect's own text, whatever Markdown cannot hold of them included.)
 */
function readsBackAs(text: string, placed: readonly { node: PmNode }[], respelled: ReadonlySet<number>): boolean {
  const blocks = parseMarkdownBlocks(text).blocks;
  return blocks.length === placed.length && [...respelled].every((index) => sameJson(blocks[index]!.node, placed[index]!.node));
}
