import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { sameJson } from '../../../../src/notebooks/notebookDocument';
import { docToMarkdown, markdownToDoc } from '../../../../src/notebooks/markdown';
import { alignBlocks } from '../../../../src/notebooks/markdown/align';

type Node = Record<string, unknown>;
const text = (value: string, marks?: Node[]): Node => (marks ? { type: 'text', text: value, marks } : { type: 'text', text: value });
const p = (...content: Node[]): Node => (content.length > 0 ? { type: 'paragraph', content } : { type: 'paragraph' });
const doc = (...content: Node[]) => ({ type: 'doc', content });

function contentOf(markdown: string): unknown[] {
  const { doc: result, problems } = markdownToDoc(markdown);
  assert.deepEqual(problems, []);
  return result.content;
}

function problemsOf(markdown: string): string[] {
  return markdownToDoc(markdown).problems.map((problem) => `${problem.severity} ${problem.line}-${problem.endLine}: ${problem.message}`);
}

describe('docToMarkdown', () => {
  test('ends with one newline, and an empty document is empty text', () => {
    assert.equal(docToMarkdown(doc(p(text('a')))).markdown, 'a\n');
    assert.equal(docToMarkdown(doc()).markdown, '');
    assert.deepEqual(markdownToDoc('').doc, { type: 'doc', content: [] });
  });

  test('is deterministic', () => {
    const input = doc(p(text('x', [{ type: 'bold' }]), text(' y')), { type: 'ph-query', attrs: { query: { kind: 'HogQLQuery', query: 'select 1' }, nodeId: 'n' } });
    assert.equal(docToMarkdown(input).markdown, docToMarkdown(structuredClone(input)).markdown);
  });

  test('a loss names what cannot be held, at the lines of its block', () => {
    const input = doc(
      p(text('first')),
      { type: 'table', content: [{ type: 'tableRow', content: [{ type: 'tableHeader', attrs: { colspan: 2, rowspan: 1, colwidth: [120] }, content: [p(text('wide'))] }] }] },
      p(text('Link with a title', [{ type: 'link', attrs: { href: 'https://a.b', title: 'T' } }])),
    );
    const { markdown, losses } = docToMarkdown(input);
    assert.equal(markdown.split('\n')[2], '| wide |');
    assert.deepEqual(
      losses.map((loss) => [loss.line, loss.endLine, loss.severity]),
      [
        [2, 3, 'error'],
        [2, 3, 'error'],
        [5, 5, 'error'],
      ],
    );
    assert.match(losses[0]!.message, /^The table cell "wide" spans 2 columns/);
    assert.match(losses[1]!.message, /set column width \(\[120\]\)/);
    assert.match(losses[2]!.message, /^The link on "Link with a title" has attributes Markdown cannot hold/);
  });

  test('attrs the editor does not set are losses, not silent changes', () => {
    const { losses } = docToMarkdown(doc({ type: 'paragraph', attrs: { textAlign: 'center' }, content: [text('centred')] }));
    assert.equal(losses.length, 1);
    assert.match(losses[0]!.message, /The paragraph "centred" cannot be written in Markdown exactly \(attrs is \{"textAlign":"center"\}/);
  });

  test('for a Markdown notebook, empty paragraphs are left out as PostHog does, and are no loss', () => {
    const input = doc(p(), { type: 'heading', attrs: { level: 1 }, content: [text('T')] }, p(), p(text('x')), { type: 'blockquote', content: [p(), p(text('q'))] }, p());
    const { markdown, losses } = docToMarkdown(input, { forMarkdownNotebook: true });
    assert.equal(markdown, '# T\n\nx\n\n> q\n');
    assert.deepEqual(losses, []);
    assert.equal(docToMarkdown(input).markdown, '<p></p>\n\n# T\n\n<p></p>\n\nx\n\n> <p></p>\n>\n> q\n\n<p></p>\n');
  });

  test('for a Markdown notebook, a hard break between texts is two spaces ending the line, which PostHog\'s reader does not show, unlike a backslash', () => {
    const input = doc(p(text('first'), { type: 'hardBreak' }, text('second')), { type: 'bulletList', content: [{ type: 'listItem', content: [p(text('a'), { type: 'hardBreak' }, text('b'))] }] });
    const { markdown, losses } = docToMarkdown(input, { forMarkdownNotebook: true });
    assert.equal(markdown, 'first  \nsecond\n\n- a  \n  b\n');
    assert.deepEqual(losses, []);
    assert.deepEqual(markdownToDoc(markdown).doc, input);
    assert.equal(docToMarkdown(input).markdown, 'first\\\nsecond\n\n- a\\\n  b\n', 'a legacy notebook\'s file keeps the backslash, which trimming trailing spaces on save cannot break');
  });

  test('for a Markdown notebook, spaces at the edges of a bold run go outside it instead of becoming entities PostHog would show', () => {
    const bold = [{ type: 'bold' }];
    const input = doc(p(text('Signups '), text(' up 12% ', bold), text('this week')));
    assert.equal(docToMarkdown(input).markdown, 'Signups **&#32;up 12%&#32;**&#116;his week\n');
    const { markdown, losses } = docToMarkdown(input, { forMarkdownNotebook: true });
    assert.equal(markdown, 'Signups  **up 12%** this week\n');
    assert.deepEqual(losses, []);
    assert.deepEqual(markdownToDoc(markdown).doc, doc(p(text('Signups  '), text('up 12%', bold), text(' this week'))));
  });
});

describe('markdownToDoc reads what people type', () => {
  test('underscore emphasis, double underscore strong, and soft line breaks as spaces', () => {
    assert.deepEqual(contentOf('_em_ and __strong__\nnext line'), [
      p(text('em', [{ type: 'italic' }]), text(' and '), text('strong', [{ type: 'bold' }]), text(' next line')),
    ]);
  });

  test('"*" and "+" bullets, "1)" numbers and upper-case task marks', () => {
    const bullet = (value: string) => ({ type: 'listItem', content: [p(text(value))] });
    assert.deepEqual(contentOf('* a\n* b'), [{ type: 'bulletList', content: [bullet('a'), bullet('b')] }]);
    assert.deepEqual(contentOf('+ a'), [{ type: 'bulletList', content: [bullet('a')] }]);
    assert.deepEqual(contentOf('3) a'), [{ type: 'orderedList', attrs: { start: 3 }, content: [bullet('a')] }]);
    assert.deepEqual(contentOf('* [X] done\n* [ ] todo'), [
      {
        type: 'taskList',
        content: [
          { type: 'taskItem', attrs: { checked: true }, content: [p(text('done'))] },
          { type: 'taskItem', attrs: { checked: false }, content: [p(text('todo'))] },
        ],
      },
    ]);
  });

  test('setext headings, indented code, tilde fences and starred rules', () => {
    assert.deepEqual(contentOf('Title\n=====\n\nSub\n---\n\n    indented()\n\n~~~py\nfenced()\n~~~\n\n***'), [
      { type: 'heading', attrs: { level: 1 }, content: [text('Title')] },
      { type: 'heading', attrs: { level: 2 }, content: [text('Sub')] },
      { type: 'codeBlock', attrs: { language: null }, content: [text('indented()')] },
      { type: 'codeBlock', attrs: { language: 'py' }, content: [text('fenced()')] },
      { type: 'horizontalRule' },
    ]);
  });

  test('autolinks and reference links become links with the editor attrs', () => {
    assert.deepEqual(contentOf('<https://posthog.com> and [docs][d]\n\n[d]: https://posthog.com/docs'), [
      p(
        text('https://posthog.com', [{ type: 'link', attrs: { href: 'https://posthog.com' } }]),
        text(' and '),
        text('docs', [{ type: 'link', attrs: { href: 'https://posthog.com/docs' } }]),
      ),
    ]);
  });

  test('two trailing spaces are a hard break, and <br> too', () => {
    assert.deepEqual(contentOf('a  \nb<br/>c'), [p(text('a'), { type: 'hardBreak' }, text('b'), { type: 'hardBreak' }, text('c'))]);
  });

  test('a tag of an inline node alone on its line is a paragraph holding it', () => {
    assert.deepEqual(contentOf('<ReplayTimestamp playbackTime={1000} sessionRecordingId="s" />'), [
      p({ type: 'ph-replay-timestamp', attrs: { playbackTime: 1000, sessionRecordingId: 's' } }),
    ]);
  });

  test('an image alone in its paragraph is a notebook image', () => {
    assert.deepEqual(contentOf('![Chart](https://posthog.com/c.png)'), [{ type: 'ph-image', attrs: { src: 'https://posthog.com/c.png', alt: 'Chart' } }]);
  });
});

describe('markdownToDoc names what cannot become a node', () => {
  test('raw HTML, as a block or inside text', () => {
    assert.deepEqual(problemsOf('<div>x</div>\n\na <b>bold</b>'), [
      'error 0-0: Raw HTML has no notebook form; write it as Markdown or escape the "<" with a backslash.',
      'error 2-2: The HTML "<b>" has no notebook form; escape its "<" with a backslash.',
      'error 2-2: The HTML "</b>" has no notebook form; escape its "<" with a backslash.',
    ]);
    assert.deepEqual(markdownToDoc('<div>x</div>').doc.content, [p(text('<div>x</div>'))], 'kept as text, not dropped');
  });

  test('an image inside text, and titles on links or images', () => {
    assert.deepEqual(problemsOf('see ![x](y.png)'), ['error 0-0: An image must be a paragraph of its own to become a notebook image.']);
    assert.deepEqual(problemsOf('[a](b "title")'), ['error 0-0: A link title has no place in a notebook link; remove the title.']);
  });

  test('tags that do not read, unknown tags, and block tags inside text', () => {
    const [invalid] = problemsOf('<Query query={{not json}} />');
    assert.match(invalid!, /^error 0-0: /);
    assert.match(problemsOf('<Qurey id="x" />')[0]!, /^error 0-0: PostHog does not know the tag <Qurey>.*did you mean Query.*no notebook node/);
    assert.deepEqual(problemsOf('text <Recording id="x" /> more'), ['error 0-0: The tag <Recording> stands for a block: put it alone on its own line.']);
    assert.match(problemsOf('<Comment ref="c1" />')[0]!, /comment thread/);
  });

  test('a table row of another width', () => {
    assert.deepEqual(problemsOf('| a | b |\n| --- | --- |\n| 1 |\n| 1 | 2 | 3 |'), [
      'error 2-2: This table row has 1 cells but the table has 2 columns; give every row 2 cells.',
      'error 3-3: This table row has 3 cells but the table has 2 columns; give every row 2 cells.',
    ]);
  });

  test('column alignment is a warning: it is not content', () => {
    assert.deepEqual(
      markdownToDoc('| a |\n| :-: |\n| 1 |').problems.map((problem) => problem.severity),
      ['warning', 'warning'],
    );
  });
});

describe('markdownToDoc with the base it was made from', () => {
  const highlighted = p(text('marked', [{ type: 'highlight', attrs: { color: 'yellow' } }]), text(' text'));
  const base = doc(p(text('intro')), highlighted, p(text('outro')));

  test('an unknown mark survives an edit elsewhere', () => {
    const { markdown, losses } = docToMarkdown(base);
    assert.equal(losses.length, 1);
    const edited = markdown.replace('outro', 'the new outro');
    const result = markdownToDoc(edited, base);
    assert.deepEqual(result.problems, []);
    assert.ok(sameJson(result.doc, doc(p(text('intro')), highlighted, p(text('the new outro')))));
  });

  test('editing the block that held it is a problem at its lines', () => {
    const edited = docToMarkdown(base).markdown.replace('marked text', 'marked text, edited');
    const { problems } = markdownToDoc(edited, base);
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.line, 2);
    assert.equal(problems[0]!.severity, 'error');
    assert.match(problems[0]!.message, /^This block was the paragraph "marked text", which had what Markdown cannot hold \(the mark "highlight" on "marked" has no Markdown form\); saving would drop it/);
  });

  test('deleting that block is the user\'s choice, not a problem', () => {
    const edited = docToMarkdown(base).markdown.replace('marked text\n\n', '');
    const result = markdownToDoc(edited, base);
    assert.deepEqual(result.problems, []);
    assert.ok(sameJson(result.doc, doc(p(text('intro')), p(text('outro')))));
  });

  test('duplicated and moved blocks keep their own nodes, in order', () => {
    const other = p(text('marked', [{ type: 'highlight', attrs: { color: 'green' } }]), text(' text'));
    const twin = doc(highlighted, p(text('between')), other);
    const { markdown } = docToMarkdown(twin);
    assert.equal(markdown, 'marked text\n\nbetween\n\nmarked text\n');
    const swapped = markdownToDoc('between\n\nmarked text\n\nmarked text\n', twin);
    assert.deepEqual(swapped.problems, []);
    // The alignment keeps "between" and the last block; the first "marked text" is new text without a base node.
    assert.equal(swapped.doc.content.length, 3);
    assert.ok(sameJson(swapped.doc.content[2], other));
    const duplicated = markdownToDoc('marked text\n\nbetween\n\nmarked text\n\nmarked text\n', twin);
    assert.ok(sameJson(duplicated.doc.content.slice(0, 3), twin.content));
  });

  test('problems inside kept blocks are not reported again', () => {
    const cell = (value: string) => ({ type: 'tableCell', attrs: { colspan: 1, rowspan: 1, colwidth: null }, content: [p(text(value))] });
    const ragged = { type: 'table', content: [{ type: 'tableRow', content: [cell('a'), cell('b')] }, { type: 'tableRow', content: [cell('c')] }] };
    const odd = doc(ragged, p(text('x')));
    const { markdown, losses } = docToMarkdown(odd);
    assert.equal(losses.length, 1);
    assert.equal(markdownToDoc(markdown).problems.length, 1, 'the ragged row is a problem on its own');
    const result = markdownToDoc(`${markdown}\nmore\n`, odd);
    assert.deepEqual(result.problems, []);
    assert.ok(sameJson(result.doc.content.slice(0, 2), odd.content));
  });
});

describe('alignBlocks', () => {
  const lcsLength = (a: string[], b: string[]): number => {
    const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
    for (let i = 1; i <= a.length; i++) {
      for (let j = 1; j <= b.length; j++) {
        table[i]![j] = a[i - 1] === b[j - 1] ? table[i - 1]![j - 1]! + 1 : Math.max(table[i - 1]![j]!, table[i]![j - 1]!);
      }
    }
    return table[a.length]![b.length]!;
  };

  test('pairs equal texts in order, as many as a longest common subsequence', () => {
    const blocks = fc.array(fc.constantFrom('a', 'b', 'c', 'd', '<p></p>'), { maxLength: 12 });
    fc.assert(
      fc.property(blocks, blocks, (a, b) => {
        const pairs = alignBlocks(a, b);
        pairs.forEach(([i, j], index) => {
          assert.equal(a[i], b[j]);
          if (index > 0) {
            assert.ok(i > pairs[index - 1]![0] && j > pairs[index - 1]![1]);
          }
        });
        assert.equal(pairs.length, lcsLength(a, b));
      }),
      { numRuns: 300 },
    );
  });

  test('keeps the blocks around a move, and duplicates in order', () => {
    const long = Array.from({ length: 3000 }, (_, index) => `block ${index}`);
    const moved = [...long.slice(1, 2000), long[0]!, ...long.slice(2000)];
    assert.equal(alignBlocks(long, moved).length, 2999, 'a long notebook aligns through its unique blocks');
    assert.deepEqual(alignBlocks(['a', 'b', 'c', 'd'], ['a', 'c', 'd', 'b']), [
      [0, 0],
      [2, 1],
      [3, 2],
    ]);
    assert.deepEqual(alignBlocks(['x', 'x'], ['x', 'y', 'x', 'x']), [
      [0, 0],
      [1, 3],
    ]);
  });
});
