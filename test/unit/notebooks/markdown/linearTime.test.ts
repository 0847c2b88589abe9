import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { docToMarkdown, markdownToDoc, scanTags } from '../../../../src/notebooks/markdown';

/** The least CPU time of three runs, in milliseconds. */
function cpuMs(run: () => void): number {
  let best = Infinity;
  for (let attempt = 0; attempt < 3; attempt++) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

/** Eight times the input takes well under the 64 times a quadratic path would (the margin is for a busy machine). */
function assertLinear(what: string, run: (size: number) => void, size: number): void {
  const small = cpuMs(() => run(size));
  const large = cpuMs(() => run(size * 8));
  assert.ok(large < Math.max(small, 2) * 32, `${what}: ${small.toFixed(1)} ms, then ${large.toFixed(1)} ms for 8 times as much`);
}

const text = (value: string, marks?: Record<string, unknown>[]) => (marks ? { type: 'text', text: value, marks } : { type: 'text', text: value });
const paragraphOf = (count: number, piece: (index: number) => Record<string, unknown>) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: Array.from({ length: count }, (_, index) => piece(index)) }],
});

describe('notebook Markdown in linear time (issue 25: what the extension host runs on content)', () => {
  const adversarial: Record<string, (index: number) => Record<string, unknown>> = {
    links: (index) => (index % 2 ? text(' plain ') : text('link', [{ type: 'link', attrs: { href: `https://x.io/${index}` } }])),
    'bold and plain runs': (index) => (index % 2 ? text(' plain ') : text('bold', [{ type: 'bold' }])),
    'hard breaks': (index) => (index % 2 ? { type: 'hardBreak' } : text('line')),
    'code spans': (index) => (index % 2 ? text(' and ') : text('x`y', [{ type: 'code' }])),
  };
  for (const [what, piece] of Object.entries(adversarial)) {
    test(`a legacy notebook's paragraph of many ${what} is written and read back in linear time`, () => {
      assertLinear(`writing ${what}`, (size) => docToMarkdown(paragraphOf(size, piece)), 2_000);
      const markdown = (size: number) => docToMarkdown(paragraphOf(size, piece)).markdown;
      const texts = new Map([2_000, 16_000].map((size) => [size, markdown(size)]));
      assertLinear(`reading ${what}`, (size) => markdownToDoc(texts.get(size)!), 2_000);
    });
  }

  test('a legacy notebook of many blocks (tags, paragraphs, lists) is read back in linear time', () => {
    const blocks = ['<Query query={{"kind":"SavedInsightNode","shortId":"x"}} />', '<Recording id="r" />', 'A paragraph\nover two lines', '- item\n  - nested'];
    const text = (size: number) => Array.from({ length: size }, (_, index) => blocks[index % blocks.length]).join('\n\n');
    const texts = new Map([1_500, 12_000].map((size) => [size, text(size)]));
    assertLinear('reading many blocks', (size) => markdownToDoc(texts.get(size)!), 1_500);
  });

  test('the tag scanner, run after every edit, is linear on unclosed notes, long lines, code spans and many tags', () => {
    const patterns = ['<!-- a ', '<!--\n', 'x<String> ', '<A x={', 'a ` b ', '- <Qurey />\n', '<Query id="1" /> text '];
    for (const pattern of patterns) {
      assertLinear(JSON.stringify(pattern), (size) => scanTags(pattern.repeat(Math.ceil(size / pattern.length))), 20_000);
    }
  });
});
