import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { readPostHogMarkdown, unclosedFenceLine } from '../../../../src/notebooks/markdown';
import { readPostHogInline } from '../../../../src/notebooks/markdown/posthogInline';
import { canonical, firstDifference, readerCases } from './goldenCases';
import { assertLinear } from './linearCheck';
import { referenceInline } from './posthogInlineReference';

describe("PostHog's Markdown reader: the golden cases", () => {
  const cases = readerCases();
  const sources = [...new Set(cases.map((entry) => entry.source))];

  test('there are golden reader cases to run', () => {
    assert.ok(cases.length >= 1000, `only ${cases.length} reader cases`);
  });

  for (const source of sources) {
    const ofSource = cases.filter((entry) => entry.source === source);
    test(`every ${source} case reads as PostHog reads it (${ofSource.length} cases)`, () => {
      const failures = ofSource.flatMap((entry) => {
        const difference = firstDifference(readPostHogMarkdown(entry.markdown), entry.expected);
        return difference ? [`${entry.id}: ${difference}`] : [];
      });
      assert.deepEqual(failures.slice(0, 10), [], `${failures.length} of ${ofSource.length} differ`);
    });
  }
});

describe("PostHog's Markdown reader: rules", () => {
  test('a paragraph line is a hard break, entities and HTML stay text, links keep only http(s)', () => {
    const doc = readPostHogMarkdown('a &amp; <br>\n[x](mailto:a@b.c) [y](https://e.com/a_(b))');
    assert.equal(
      canonical(doc.nodes),
      canonical([
        {
          type: 'paragraph',
          children: [
            { type: 'text', text: 'a &amp; <br>' },
            { type: 'hardBreak' },
            { type: 'text', text: 'x ' },
            { type: 'text', text: 'y', marks: [{ type: 'link', href: 'https://e.com/a_(b)' }] },
          ],
        },
      ]),
    );
  });

  test('a closing tag that is a prefix of the opening name reads as that shorter tag, as in PostHog', () => {
    const doc = readPostHogMarkdown('<FooBar a></Foo>\nx />');
    assert.equal(doc.nodes[0]?.type, 'component');
    const component = doc.nodes[0] as { tagName: string; props: unknown };
    assert.equal(component.tagName, 'FooBar');
    const prefix = readPostHogMarkdown('<Foo></Foo>x</F>');
    assert.equal(canonical(prefix.nodes), canonical([{ type: 'component', tagName: 'F', props: { oo: true }, raw: '<Foo></Foo>x</F>' }]));
  });

  test('an unclosed tag is an error at its line and stays a paragraph of its raw lines', () => {
    const doc = readPostHogMarkdown('text\n\n<Query query={{"kind":"X"}}\nmore\n\nafter');
    assert.equal(canonical(doc.errors), canonical([{ message: 'Unclosed component tag', raw: '<Query query={{"kind":"X"}}\nmore', line: 3 }]));
    assert.equal(
      canonical(doc.nodes[1]),
      canonical({ type: 'paragraph', children: [{ type: 'text', text: '<Query query={{"kind":"X"}}' }, { type: 'hardBreak' }, { type: 'text', text: 'more' }] }),
    );
  });

  test('a fence never closed is PostHog\'s "Unclosed code block", found by the quick check of lines too', () => {
    const text = 'Intro\n\n```sql\nselect 1\n```\n\n````\ncode\n```\n';
    assert.deepEqual(readPostHogMarkdown(text).errors.map((error) => [error.message, error.line]), [['Unclosed code block', 7]]);
    assert.equal(unclosedFenceLine(text), 6);
    assert.equal(unclosedFenceLine('```\nx\n```'), undefined);
  });

  test('a props string ending in an escaped backslash is PostHog\'s "Unclosed expression prop value"', () => {
    const doc = readPostHogMarkdown('<Python code={"a\\\\"} />');
    assert.equal(canonical((doc.nodes[0] as { errors?: unknown }).errors), canonical(['Unclosed expression prop value']));
  });
});

const INLINE_PIECES = [
  'a', 'b', '1', ' ', '\n', '*', '**', '_', '__', '~', '~~', '`', '[', ']', '(', ')', '](', '\\', '<', '>', '<u>', '</u>',
  '<ref id="r1">', "<ref id='r\\'2'>", '</ref>', '<mention id="5">', '</mention>', 'https://x.io/', 'http://y', '•', '#', '|', '\u00a0', 'é',
];
const inlineText = fc.array(fc.constantFrom(...INLINE_PIECES), { maxLength: 40 }).map((pieces) => pieces.join(''));

const BLOCK_PIECES = [...INLINE_PIECES, '\n\n', ' \n', '- ', '1. ', '  - ', '> ', '>', '# ', '```', '| a | b |\n| --- | :-: |\n', '---', '<!--', '-->', '<Query ', '/>', '![a](b)', '\t'];
const markdownText = fc.array(fc.constantFrom(...BLOCK_PIECES), { maxLength: 40 }).map((pieces) => pieces.join(''));

describe("PostHog's Markdown reader: properties", () => {
  test('inline text reads as the plain formulation of PostHog\'s rules reads it', () => {
    fc.assert(
      fc.property(inlineText, (text) => {
        assert.equal(canonical(readPostHogInline(text)), canonical(referenceInline(text)), JSON.stringify(text));
      }),
      { numRuns: 5000 },
    );
  });

  test('any text reads without throwing, its errors at lines of the text', () => {
    fc.assert(
      fc.property(markdownText, (text) => {
        const doc = readPostHogMarkdown(text);
        assert.ok(Array.isArray(doc.nodes) && Array.isArray(doc.errors));
        for (const error of doc.errors) {
          assert.ok(error.line >= 1 && error.line <= text.split(/\r\n?|\n/).length, JSON.stringify(error));
        }
      }),
      { numRuns: 2000 },
    );
  });

  test('reading takes time in proportion to the text, even where PostHog searches to the end from every delimiter', () => {
    const patterns = ['*a ', '**a ', '_a ', '[](', '[', '<ref id="x">', '<u>', '*a `*` ', '<!--\n', '- a\n', '| a |\n|---|\n', 'a\n'];
    for (const pattern of patterns) {
      assertLinear(JSON.stringify(pattern), (size) => readPostHogMarkdown(pattern.repeat(Math.ceil(size / pattern.length))), 40_000);
    }
  });
});
