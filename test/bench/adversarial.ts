// Hostile notebook content (issue 25): every text transform the extension host runs on a notebook's content,
// on inputs of 1-5 MB built to make a quadratic path show (many inline pieces, breaks, code spans, unclosed
// comments, one huge line, look-alikes of conflict markers). Each must take under a second of CPU: the
// extension host is shared by every extension, and a transform that takes longer freezes them all.
import { docToMarkdown, markdownToDoc, readPostHogMarkdown, scanTags, toPostHogMarkdown } from '../../src/notebooks/markdown';
import { findConflictMarkers, mergeMarkdown } from '../../src/notebooks/merge';
import { type Figure, leastCpuMs } from './results';

const SECTION = 'Hostile content, 1-5 MB (CPU time, least of 2 runs)';
const BUDGET_MS = 1_000;
const LABELS = { ours: 'Yours', theirs: 'PostHog (version 2 by someone)' };

type Piece = (index: number) => Record<string, unknown>;

const text = (value: string, marks?: Record<string, unknown>[]) => (marks ? { type: 'text', text: value, marks } : { type: 'text', text: value });

/** A legacy notebook whose one paragraph holds `count` inline pieces. */
function paragraphOf(count: number, piece: Piece): unknown {
  return { type: 'doc', content: [{ type: 'paragraph', content: Array.from({ length: count }, (_, index) => piece(index)) }] };
}

const PIECES: Record<string, { count: number; piece: Piece }> = {
  'links (40,000)': { count: 40_000, piece: (index) => (index % 2 ? text(' plain ') : text('link', [{ type: 'link', attrs: { href: `https://x.io/${index}` } }])) },
  'bold and plain runs (200,000)': { count: 200_000, piece: (index) => (index % 2 ? text(' plain ') : text('bold', [{ type: 'bold' }])) },
  'hard breaks (200,000)': { count: 200_000, piece: (index) => (index % 2 ? { type: 'hardBreak' } : text('line')) },
  'code spans with backticks (100,000)': { count: 100_000, piece: (index) => (index % 2 ? text(' and ') : text('x`y', [{ type: 'code' }])) },
};

/** Markdown texts a file can hold, each aimed at one path. */
const TEXTS: Record<string, string> = {
  'unclosed <!-- notes (1 MB)': '<!-- a\n'.repeat(150_000),
  'one line of 2 MB': 'word *em _under ~~strike `code [link](https://x.io) '.repeat(40_000),
  'emphasis openers never closed (2 MB)': '**_~~*'.repeat(350_000),
  'brackets and parentheses (2 MB)': '[(['.repeat(700_000),
  'a tag never closed, then 1 MB of lines': `<Query query={{"kind":"x"\n${'text line\n'.repeat(100_000)}`,
  'list items 1 level deeper each (1 MB)': Array.from({ length: 40_000 }, (_, index) => `${' '.repeat(2 * (index % 200))}- item ${index}`).join('\n'),
  'conflict look-alikes (2 MB)': '=======\n>>>>>>> x\n<<<<<<< y\n|||||||\n```\n'.repeat(50_000),
};

function figure(what: string, ms: number, bytes: number): Figure {
  return {
    section: SECTION,
    what,
    value: ms,
    unit: 'ms',
    budget: `< ${BUDGET_MS} ms`,
    pass: ms < BUDGET_MS,
    note: `${(bytes / 1024 / 1024).toFixed(1)} MB`,
  };
}

/** Every paragraph edited on one side and every other on the other: the merge's worst ordinary case. */
function mergeInput(blocks: number): { base: string; ours: string; theirs: string } {
  const paragraphs = Array.from({ length: blocks }, (_, index) => `Paragraph ${index} of the notebook, with some words in it.`);
  const edit = (every: number, mark: string) => paragraphs.map((line, index) => (index % every === 0 ? `${line} ${mark}` : line)).join('\n\n');
  return { base: paragraphs.join('\n\n'), ours: edit(2, 'mine'), theirs: edit(3, 'theirs') };
}

export function benchAdversarial(): Figure[] {
  const figures: Figure[] = [];
  for (const [name, { count, piece }] of Object.entries(PIECES)) {
    const doc = paragraphOf(count, piece);
    const bytes = JSON.stringify(doc).length;
    let markdown = '';
    figures.push(figure(`legacy paragraph of ${name}: open (to the Markdown file)`, leastCpuMs(() => (markdown = docToMarkdown(doc).markdown)), bytes));
    figures.push(figure(`legacy paragraph of ${name}: save (the file read back)`, leastCpuMs(() => markdownToDoc(markdown, doc)), markdown.length));
    figures.push(figure(`legacy paragraph of ${name}: Convert to Markdown Notebook`, leastCpuMs(() => toPostHogMarkdown(doc)), bytes));
  }
  for (const [name, markdown] of Object.entries(TEXTS)) {
    figures.push(figure(`${name}: PostHog's reader`, leastCpuMs(() => readPostHogMarkdown(markdown)), markdown.length));
    figures.push(figure(`${name}: the tag scanner (after every edit)`, leastCpuMs(() => scanTags(markdown)), markdown.length));
    figures.push(figure(`${name}: read as a legacy notebook's file`, leastCpuMs(() => markdownToDoc(markdown)), markdown.length));
    figures.push(figure(`${name}: conflict marker check`, leastCpuMs(() => findConflictMarkers(markdown)), markdown.length));
  }
  const { base, ours, theirs } = mergeInput(40_000);
  figures.push(figure('three-way merge, 40,000 paragraphs, every 2nd and every 3rd changed', leastCpuMs(() => mergeMarkdown(base, ours, theirs, LABELS)), ours.length));
  return figures;
}
