import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { sameJson } from '../../../../src/notebooks/model/notebookDocument';
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
      p(text('Link with a title', [{ type: 'link', attrs: { href: 'https://a.b', title: 'T' } }])),
      p(text('marked', [{ type: 'highlight', attrs: { color: 'yellow' } }])),
    );
    const { losses } = docToMarkdown(input);
    assert.deepEqual(
      losses.map((loss) => [loss.line, loss.endLine, loss.severity]),
      [
        [2, 2, 'error'],
        [4, 4, 'error'],
      ],
    );
    assert.match(losses[0]!.message, /^The link on "Link with a title" has attributes Markdown cannot hold/);
    assert.match(losses[1]!.message, /^The mark "highlight" on "marked" has no Markdown form/);
  });

  test('a block PostHog cannot hold, and no spelling of the dialect holds exactly, is its node as a tag, nothing lost', () => {
    const wide = { type: 'table', content: [{ type: 'tableRow', content: [{ type: 'tableHeader', attrs: { colspan: 2, rowspan: 1, colwidth: [120] }, content: [p(text('wide'))] }] }] };
    const centred = { type: 'paragraph', attrs: { textAlign: 'center' }, content: [text('centred')] };
    const { markdown, losses } = docToMarkdown(doc(wide, centred));
    assert.deepEqual(losses, []);
    assert.match(markdown, /^<UnknownNode nodeType="table" nodeContent=\{\[/);
    assert.match(markdown.split('\n\n')[1]!, /^<UnknownNode nodeType="paragraph" textAlign="center" nodeContent=/);
    assert.ok(sameJson(markdownToDoc(markdown).doc, doc(wide, centred)));
  });

  test("the dialect is PostHog's: an empty paragraph is a line of one space, a line break a newline, lists flat, tags without TipTap's defaults", () => {
    const input = doc(
      p(),
      { type: 'heading', attrs: { level: 1 }, content: [text('T')] },
      p(text('first'), { type: 'hardBreak' }, text('second')),
      { type: 'bulletList', content: [{ type: 'listItem', content: [p(text('a')), { type: 'orderedList', attrs: { start: 3 }, content: [{ type: 'listItem', content: [p(text('b'))] }] }] }] },
      { type: 'ph-query', attrs: { query: { kind: 'SavedInsightNode', shortId: 'abc' }, nodeId: 'n1', height: null, title: null, __init: null } },
      { type: 'blockquote', content: [p(text('q'))] },
    );
    const { markdown, losses } = docToMarkdown(input);
    assert.equal(markdown, ' \n\n# T\n\nfirst\nsecond\n\n- a\n  3. b\n\n<Query query={{"kind":"SavedInsightNode","shortId":"abc"}} nodeId="n1" />\n\n> q\n');
    assert.deepEqual(losses, []);
    assert.deepEqual(markdownToDoc(markdown).doc, input);
  });

  test("what PostHog cannot hold keeps a spelling of the extension's own: <br>, escaped spaces at emphasis edges, quotes of blocks, tables without a header", () => {
    const bold = [{ type: 'bold' }];
    const cell = (type: string, value: string) => ({ type, attrs: { colspan: 1, rowspan: 1, colwidth: null }, content: [p(text(value))] });
    const input = doc(
      p(text('ends with a break'), { type: 'hardBreak' }),
      p(text('Signups '), text(' up 12% ', bold), text('this week')),
      { type: 'blockquote', content: [p(text('one')), p(text('two'))] },
      { type: 'table', content: [{ type: 'tableRow', content: [cell('tableCell', 'a'), cell('tableCell', 'b')] }] },
    );
    const { markdown, losses } = docToMarkdown(input);
    assert.equal(markdown, 'ends with a break<br>\n\nSignups **\\ up 12%\\ **this week\n\n> one\n>\n> two\n\n|  |  |\n| :---: | :---: |\n| a | b |\n');
    assert.deepEqual(losses, []);
    assert.deepEqual(markdownToDoc(markdown).doc, input);
  });

  test('for a Markdown notebook, the text is what PostHog\'s migration writes, corrected, with its losses', () => {
    const input = doc(p(), { type: 'heading', attrs: { level: 1 }, content: [text('T')] }, p(text('a'), { type: 'hardBreak' }, text('b')), { type: 'blockquote', content: [p(), p(text('q'))] });
    const { markdown, losses } = docToMarkdown(input, { forMarkdownNotebook: true });
    assert.equal(markdown, '# T\n\na\nb\n\n> \n> q\n');
    assert.deepEqual(losses, []);
  });
});

describe('markdownToDoc reads what people type, as PostHog reads it', () => {
  test('underscore emphasis and double underscore strong; a newline in a paragraph is a line break', () => {
    assert.deepEqual(contentOf('_em_ and __strong__\nnext line'), [
      p(text('em', [{ type: 'italic' }]), text(' and '), text('strong', [{ type: 'bold' }]), { type: 'hardBreak' }, text('next line')),
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

  test('no setext headings, indented code or tilde fences (PostHog has none: `~~` is strike there); starred rules are rules', () => {
    assert.deepEqual(contentOf('Title\n=====\n\n    indented()\n\n~~~py\nfenced()\n~~~\n\n***'), [
      p(text('Title'), { type: 'hardBreak' }, text('=====')),
      p(text('    indented()')),
      p(text('~py', [{ type: 'strike' }]), { type: 'hardBreak' }, text('fenced()', [{ type: 'strike' }]), { type: 'hardBreak' }, text('~', [{ type: 'strike' }])),
      { type: 'horizontalRule' },
    ]);
  });

  test('autolinks, reference links and entities are text, as PostHog shows them; links keep any address', () => {
    assert.deepEqual(contentOf('<https://posthog.com> and [docs][d] &amp;'), [p(text('<https://posthog.com> and [docs][d] &amp;'))]);
    assert.deepEqual(contentOf('[home](/home)'), [p(text('home', [{ type: 'link', attrs: { href: '/home' } }]))]);
  });

  test('<br> is a line break, and so is a newline; two trailing spaces are kept as text', () => {
    assert.deepEqual(contentOf('a  \nb<br/>c'), [p(text('a  '), { type: 'hardBreak' }, text('b'), { type: 'hardBreak' }, text('c'))]);
  });

  test('a tag of an inline node alone on its line is a paragraph holding it', () => {
    assert.deepEqual(contentOf('<ReplayTimestamp playbackTime={1000} sessionRecordingId="s" />'), [
      p({ type: 'ph-replay-timestamp', attrs: { playbackTime: 1000, sessionRecordingId: 's' } }),
    ]);
  });

  test('an image alone in its paragraph is a notebook image', () => {
    assert.deepEqual(contentOf('![Chart](https://posthog.com/c.png)'), [{ type: 'ph-image', attrs: { src: 'https://posthog.com/c.png', alt: 'Chart' } }]);
  });

  test('quotes in quotes: each level is a quote of its lines without one marker, however the levels are spelled', () => {
    const quoteLine = fc
      .tuple(fc.array(fc.constantFrom('>', '> ', ' >', '>\t', '  > '), { minLength: 1, maxLength: 5 }), fc.constantFrom('', 'x', '- item', '# T', '**b**', '>'))
      .map(([markers, rest]) => markers.join('') + rest);
    fc.assert(
      fc.property(fc.array(quoteLine, { minLength: 1, maxLength: 6 }), (lines) => {
        const inner = lines.map((line) => line.trimStart().replace(/^>[ \t]?/, '')).join('\n');
        const innerContent = markdownToDoc(inner).doc.content;
        assert.deepEqual(markdownToDoc(lines.join('\n')).doc.content, [{ type: 'blockquote', content: innerContent.length > 0 ? innerContent : [p()] }]);
      }),
      { numRuns: 300 },
    );
    assert.deepEqual(contentOf('>>> deep\n> >\n> > a'), [
      { type: 'blockquote', content: [{ type: 'blockquote', content: [{ type: 'blockquote', content: [p(text('deep'))] }, p(text('a'))] }] },
    ]);
  });
});

describe('markdownToDoc names what cannot become a node', () => {
  test('HTML other than <br>, <u>, <ref> and <mention> is text, as PostHog shows it; a note is a problem', () => {
    assert.deepEqual(markdownToDoc('<div>x</div>\n\na <b>bold</b>').doc.content, [p(text('<div>x</div>')), p(text('a <b>bold</b>'))]);
    assert.deepEqual(problemsOf('<!-- a note -->'), ['error 0-0: A note (<!-- … -->) has no place in a legacy notebook; write it as text, or convert the notebook to a Markdown notebook.']);
  });

  test('a mention needs a member number; a code block needs its closing fence', () => {
    assert.deepEqual(contentOf('Ask <mention id="42">@Lee</mention>'), [p(text('Ask '), { type: 'ph-mention', attrs: { id: 42 } })]);
    assert.match(problemsOf('<mention id="lee">@Lee</mention>')[0]!, /needs a member's number/);
    assert.match(problemsOf('```\ncode')[0]!, /^error 0-1: Unclosed code block: end it/);
  });

  test('tags that do not read, unknown tags, and block tags inside text', () => {
    const [invalid] = problemsOf('<Query query={{not json}} />');
    assert.match(invalid!, /^error 0-0: /);
    assert.match(problemsOf('<Qurey id="x" />')[0]!, /^error 0-0: PostHog does not know the tag <Qurey>.*did you mean Query.*no notebook node/);
    assert.deepEqual(problemsOf('text <Recording id="x" /> more'), ['error 0-0: The tag <Recording> stands for a block: put it alone on its own line.']);
    assert.match(problemsOf('<Comment ref="c1" />')[0]!, /comment thread/);
  });

  test('column alignment is a warning: it is not content', () => {
    assert.deepEqual(
      markdownToDoc('| a |\n| :---: |\n| 1 |').problems.map((problem) => problem.severity),
      ['warning'],
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
    const mentioned = doc(p(text('Ask '), { type: 'ph-mention', attrs: { id: 1, label: 'Lee' } }), p(text('x')));
    const { markdown, losses } = docToMarkdown(mentioned);
    assert.deepEqual(losses, []);
    const broken = `${markdown.replace('x', '<Qurey />')}`;
    assert.equal(markdownToDoc(broken).problems.length, 1, 'the unknown tag is a problem on its own');
    const result = markdownToDoc(`${markdown}\nmore\n`, mentioned);
    assert.deepEqual(result.problems, []);
    assert.ok(sameJson(result.doc.content.slice(0, 2), mentioned.content));
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
