import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { readPostHogMarkdown } from '../../../../src/notebooks/markdown';
import { TAGS, UNKNOWN_TAG } from '../../../../src/notebooks/markdown/dialect';
import { formatTag } from '../../../../src/notebooks/markdown/tags';
import { posthogNotebookPlugin } from '../../../../src/notebooks/markdown/plugin';
import { readerCases } from './goldenCases';
import { readingStructure, renderedStructure } from './previewStructure';

type Token = MarkdownIt.Token;

/** As VS Code's preview: raw HTML allowed, the plugin on; `notebook` says which texts are notebooks. */
function markdownIt(notebook: (text: string) => boolean = () => true): MarkdownIt.MarkdownIt {
  return new MarkdownIt({ html: true }).use(posthogNotebookPlugin, { isNotebookText: notebook });
}

/** VS Code's source map (extensions/markdown-language-features: data-line and code-line on each block token with lines). */
function withSourceMap(md: MarkdownIt.MarkdownIt): MarkdownIt.MarkdownIt {
  md.core.ruler.push('source_map_data_attribute', (state) => {
    for (const token of state.tokens) {
      if (token.map && token.type !== 'inline') {
        token.attrSet('data-line', String(token.map[0]));
        token.attrJoin('class', 'code-line');
      }
    }
  });
  return md;
}

const render = (markdown: string) => markdownIt().render(markdown);

describe('the preview of a notebook: what PostHog shows', () => {
  test('a line break in a paragraph is a hard break; a setext underline, `#x` and an indented line are text', () => {
    assert.equal(render('one\ntwo'), '<p>one<br>\ntwo</p>\n');
    assert.equal(render('Title\n====='), '<p>Title<br>\n=====</p>\n');
    assert.equal(render('#NoSpace'), '<p>#NoSpace</p>\n');
    assert.equal(render('    indented'), '<p>    indented</p>\n');
  });

  test('lists are one line per item, nested by depth, numbered from the first number; tasks have checkboxes', () => {
    assert.equal(render('3. a\n   - b\n4. c'), '<ol start="3">\n<li>a\n<ul>\n<li>b</li>\n</ul>\n</li>\n<li>c</li>\n</ol>\n');
    assert.equal(render('- a\ncontinued'), '<ul>\n<li>a</li>\n</ul>\n<p>continued</p>\n');
    assert.equal(
      render('- [x] done\n- [ ] open'),
      '<ul>\n<li class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" disabled checked>done</li>\n' +
        '<li class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" disabled>open</li>\n</ul>\n',
    );
  });

  test('a quote holds inline text only: a fence or a heading in it stays text (PostHog reads ``` there as an empty code span and `)', () => {
    assert.equal(render('> a\n> ```js\n> # b'), '<blockquote>\n<p>a<br>\n`js<br>\n# b</p>\n</blockquote>\n');
  });

  test('entities are shown as written and HTML is text, escaped', () => {
    assert.equal(render('AT&amp;T <b>bold</b> <script>x</script>'), '<p>AT&amp;amp;T &lt;b&gt;bold&lt;/b&gt; &lt;script&gt;x&lt;/script&gt;</p>\n');
  });

  test("emphasis pairs as PostHog pairs it, underline, mentions and comment highlights included", () => {
    assert.equal(render('***x***'), readingHtml('***x***'));
    assert.equal(
      render('<u>u</u> <mention id="5">@Ann</mention> <ref id="c1">seen</ref> [l](https://x.io/a_(b))'),
      '<p><u>u</u> <span class="posthog-mention" data-mention="5">@Ann</span> <mark class="posthog-ref" data-ref="c1">seen</mark> <a href="https://x.io/a_(b)">l</a></p>\n',
    );
    assert.equal(render('[local](./file.md)'), '<p>local</p>\n', 'a link PostHog does not keep shows its label only');
  });

  test('tags are cards of their name, what they show and their main props, all escaped', () => {
    assert.equal(
      render('<Query query={{"kind":"SavedInsightNode","shortId":"Xk3pQ9aZ"}} title="Signups" hideFilters />'),
      '<div class="posthog-tag"><span class="posthog-tag-name">Query</span> <span class="posthog-tag-summary">Saved insight Xk3pQ9aZ</span> ' +
        '<span class="posthog-tag-props"><span class="posthog-tag-prop"><span class="posthog-tag-prop-name">title</span> Signups</span></span></div>\n',
    );
    const html = render('<Survey id="<script>alert(1)</script>" name={"<img src=x onerror=alert(1)>"} />');
    assert.doesNotMatch(html, /<script>|<img/);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(render('<Qurey id="x" />'), /class="posthog-tag posthog-tag-unknown".*shows it as unknown/);
    assert.match(render('<!-- a note -->'), /<div class="posthog-tag"><span class="posthog-tag-name">Comment<\/span> <span class="posthog-tag-note">a note<\/span><\/div>/);
    assert.equal(render('---'), '<hr>\n');
  });

  test('a tag PostHog cannot read stays its raw lines, marked with PostHog\'s error', () => {
    assert.equal(render('<Cohort id={3} /> is the cohort'), '<p class="posthog-unread" title="Unclosed component tag">&lt;Cohort id={3} /&gt; is the cohort</p>\n');
  });

  test('every block and list item carries its lines, for the preview\'s scroll sync', () => {
    const html = withSourceMap(markdownIt()).render('# T\n\nText\nmore\n\n- a\n  - b\n\n| h |\n|---|\n| c |\n\n<Cohort id={7} />\n\n```\ncode\n```');
    for (const expected of ['<h1 data-line="0"', '<p data-line="2"', '<ul data-line="5"', '<li data-line="5"', '<li data-line="6"', '<table data-line="8"', '<tr data-line="10"', '<div class="posthog-tag code-line" data-line="12"', '<pre><code data-line="14"']) {
      assert.ok(html.includes(expected.replace(/"$/, '"')), `${expected} in ${html}`);
    }
  });

  test('the golden reader cases: the preview shows the structure of PostHog\'s reading', () => {
    const md = markdownIt();
    let compared = 0;
    for (const entry of readerCases()) {
      assert.deepEqual(renderedStructure(md.render(entry.markdown)), readingStructure(readPostHogMarkdown(entry.markdown)), entry.id);
      compared++;
    }
    assert.ok(compared > 1000);
  });

  test('what a tag holds never reaches the preview as HTML (property)', () => {
    const tag = fc.record({
      name: fc.constantFrom(...TAGS.map((definition) => definition.tag).filter((name) => name !== UNKNOWN_TAG)),
      props: fc.dictionary(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,10}$/), fc.jsonValue(), { noNullPrototype: true, maxKeys: 4 }),
    });
    fc.assert(
      fc.property(fc.array(fc.oneof(tag.map(({ name, props }) => formatTag(name, props)), fc.string()), { maxLength: 6 }), (blocks) => {
        const html = render(blocks.join('\n\n'));
        const structure = renderedStructure(html);
        const tags = new Set(JSON.stringify(structure).match(/"tag":"[a-z0-9#]+"/g) ?? []);
        const allowed = ['p', 'br', 'card', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'input', 'blockquote', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'pre', 'hr', 'img', 'strong', 'em', 's', 'u', 'code', 'a', 'mark', 'span'];
        for (const found of tags) {
          assert.ok(allowed.includes(found.slice(7, -1)), `${found} in ${html}`);
        }
      }),
    );
  });
});

/** The HTML of PostHog's reading through the plugin, for checks written as "the same as". */
function readingHtml(markdown: string): string {
  const nodes = readPostHogMarkdown(markdown).nodes;
  assert.equal(nodes.length, 1);
  return render(markdown);
}

describe('other Markdown files: VS Code\'s usual rendering', () => {
  const ORDINARY = [
    '# Title\n\nSetext\n======\n\n- a\n\n  continued\n\n> quote\n> ```js\n> code\n> ```',
    '<Query query={{"kind":"X",}} />\nNext line, its own paragraph',
    '<Query query={{"kind":"SavedInsightNode","shortId":"a"}} />\n\nAt <ReplayTimestamp playbackTime={1} /> x\n\n<Qurey />',
    'Broken <Query query={{"kind": "<img src=x onerror=alert(1)>"}} and text',
    '<Cohort id={7} />\n\nAT&amp;T <b>bold</b>',
  ];

  test('render exactly as markdown-it alone does: broken tags are escaped where markdown-it escapes them (issue 25, point 8)', () => {
    const plain = new MarkdownIt({ html: true });
    const md = markdownIt(() => false);
    for (const markdown of ORDINARY) {
      assert.equal(md.render(markdown), plain.render(markdown), markdown);
    }
    assert.doesNotMatch(md.render(ORDINARY[1]!), /<Query/, 'markdown-it reads no HTML there, so the tag is text');
  });

  test('the plugin asks once per parse whether the text is a notebook, and a nested parse does not ask again', () => {
    const asked: string[] = [];
    const md = markdownIt((text) => {
      asked.push(text);
      return false;
    });
    md.parse('> - a\n>   - b\n\npara\n\n1. x', {});
    assert.equal(asked.length, 1);
  });

  test('parsing a notebook makes ordinary tokens with their lines (what the outline and folding read)', () => {
    const tokens: Token[] = markdownIt().parse('# One\n\nSetext\n---\n\n## Two', {});
    assert.deepEqual(
      tokens.filter((token) => token.type === 'heading_open').map((token) => [token.tag, token.map, token.markup]),
      [
        ['h1', [0, 1], '#'],
        ['h2', [5, 6], '##'],
      ],
    );
  });
});
