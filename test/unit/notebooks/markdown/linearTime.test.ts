import { describe, test } from 'node:test';
import { docToMarkdown, markdownToDoc, scanTags } from '../../../../src/notebooks/markdown';
import { assertLinear, GROWTH } from './linearCheck';

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
      const texts = new Map([2_000, 2_000 * GROWTH].map((size) => [size, markdown(size)]));
      assertLinear(`reading ${what}`, (size) => markdownToDoc(texts.get(size)!), 2_000);
    });
  }

  test('a legacy notebook of many blocks (tags, paragraphs, lists) is read back in linear time', () => {
    const blocks = ['<Query query={{"kind":"SavedInsightNode","shortId":"x"}} />', '<Recording id="r" />', 'A paragraph\nover two lines', '- item\n  - nested'];
    const text = (size: number) => Array.from({ length: size }, (_, index) => blocks[index % blocks.length]).join('\n\n');
    const texts = new Map([1_500, 1_500 * GROWTH].map((size) => [size, text(size)]));
    assertLinear('reading many blocks', (size) => markdownToDoc(texts.get(size)!), 1_500);
  });

  test('the tag scanner, run after every edit, is linear on unclosed notes, long lines, code spans and many tags', () => {
    const patterns = ['<!-- a ', '<!--\n', 'x<String> ', '<A x={', 'a ` b ', '- <Qurey />\n', '<Query id="1" /> text '];
    for (const pattern of patterns) {
      assertLinear(JSON.stringify(pattern), (size) => scanTags(pattern.repeat(Math.ceil(size / pattern.length))), 20_000);
    }
  });
});
