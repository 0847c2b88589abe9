import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { TAGS, UNKNOWN_TAG } from '../../../../src/notebooks/markdown/dialect';
import { formatTag, scanTags } from '../../../../src/notebooks/markdown/tags';
import { BLOCK_TAG_TOKEN, INLINE_TAG_TOKEN, posthogTagsPlugin, type TagTokenMeta } from '../../../../src/notebooks/markdown/plugin';

type Token = MarkdownIt.Token;

/** As VS Code's preview: raw HTML allowed, the plugin on. */
function markdownIt(appliesTo?: (env: unknown) => boolean): MarkdownIt.MarkdownIt {
  return new MarkdownIt({ html: true }).use(posthogTagsPlugin, appliesTo ? { appliesTo } : {});
}

function allTokens(tokens: Token[]): Token[] {
  return tokens.flatMap((token) => [token, ...allTokens(token.children ?? [])]);
}

function tagTokens(markdown: string, type: string): Token[] {
  return allTokens(markdownIt().parse(markdown, {})).filter((token) => token.type === type);
}

const metaOf = (token: Token | undefined) => token?.meta as TagTokenMeta;

describe('markdown-it plugin: tokens', () => {
  test('a tag alone on its line is one block token with its lines and the parsed tag', () => {
    const markdown = '# Title\n\n<Query query={{"kind":"SavedInsightNode","shortId":"Xk3pQ9aZ"}} hideFilters />\n\nAfter.';
    const [token, ...others] = tagTokens(markdown, BLOCK_TAG_TOKEN);
    assert.equal(others.length, 0);
    assert.deepEqual(token!.map, [2, 3]);
    assert.equal(token!.block, true);
    assert.equal(token!.content, '<Query query={{"kind":"SavedInsightNode","shortId":"Xk3pQ9aZ"}} hideFilters />');
    assert.deepEqual(metaOf(token).tag?.props, { query: { kind: 'SavedInsightNode', shortId: 'Xk3pQ9aZ' }, hideFilters: true });
    assert.equal(metaOf(token).problem, undefined);
  });

  test('a tag over several lines maps all of them, and the paragraph after it is its own', () => {
    const markdown = 'Intro\n<Query query={{\n  "kind": "InsightVizNode",\n  "source": {"kind": "TrendsQuery"}\n}} />\nText right after.';
    const tokens = markdownIt().parse(markdown, {});
    const tag = tokens.find((token) => token.type === BLOCK_TAG_TOKEN);
    assert.deepEqual(tag!.map, [1, 5]);
    assert.deepEqual(
      tokens.filter((token) => token.type === 'paragraph_open').map((token) => token.map),
      [
        [0, 1],
        [5, 6],
      ],
    );
  });

  test('tags in lists and quotes are blocks too', () => {
    const tokens = tagTokens('- <Recording id="r1" />\n\n> <Survey id="s1" />', BLOCK_TAG_TOKEN);
    assert.deepEqual(
      tokens.map((token) => [metaOf(token).tag?.name, token.map]),
      [
        ['Recording', [0, 1]],
        ['Survey', [2, 3]],
      ],
    );
  });

  test('a tag inside a line of text is an inline token with the same meta', () => {
    const markdown = 'At <ReplayTimestamp playbackTime={12} /> it breaks; see <Backlink href="/insights/abc" />.';
    assert.equal(tagTokens(markdown, BLOCK_TAG_TOKEN).length, 0);
    const inline = tagTokens(markdown, INLINE_TAG_TOKEN);
    assert.deepEqual(
      inline.map((token) => [token.content, metaOf(token).tag?.props]),
      [
        ['<ReplayTimestamp playbackTime={12} />', { playbackTime: 12 }],
        ['<Backlink href="/insights/abc" />', { href: '/insights/abc' }],
      ],
    );
  });

  test('a tag inside a link label stays inside the link', () => {
    const inline = allTokens(markdownIt().parse('[see <Cohort id={1} /> here](https://example.com)', {})).map((token) => token.type);
    assert.deepEqual(
      inline.filter((type) => type.startsWith('link') || type === INLINE_TAG_TOKEN),
      ['link_open', INLINE_TAG_TOKEN, 'link_close'],
    );
  });

  test('a tag with text after it on its line is inline, not a block', () => {
    assert.equal(tagTokens('<Cohort id={3} /> is the cohort', BLOCK_TAG_TOKEN).length, 0);
    assert.equal(tagTokens('<Cohort id={3} /> is the cohort', INLINE_TAG_TOKEN).length, 1);
  });

  test('code, lower-case HTML and prose with angle brackets are left alone', () => {
    const markdown = '```\n<Query id="x" />\n```\n\n    <Query id="x" />\n\n`<Query id="x" />` <u>u</u> List<String>';
    assert.equal(tagTokens(markdown, BLOCK_TAG_TOKEN).length, 0);
    assert.equal(tagTokens(markdown, INLINE_TAG_TOKEN).length, 0);
  });

  test('an invalid tag is a token saying what is wrong, up to its paragraph end', () => {
    const [broken] = tagTokens('<Query query={{"kind":"X",}} />\nNext line, its own paragraph', BLOCK_TAG_TOKEN);
    assert.deepEqual(broken!.map, [0, 1]);
    assert.equal(metaOf(broken).tag, undefined);
    assert.match(metaOf(broken).problem!, /^the props of <Query> are not valid JSON at column 27/);
    const [unclosed] = tagTokens('<Query query={{"kind":"X"}}\nmore text\n\nNext', BLOCK_TAG_TOKEN);
    assert.deepEqual(unclosed!.map, [0, 2]);
    assert.equal(metaOf(unclosed).problem, 'unclosed tag <Query: it needs "/>"');
    const [unknown] = tagTokens('<Qurey id="x" />', BLOCK_TAG_TOKEN);
    assert.equal(metaOf(unknown).tag?.name, 'Qurey');
    assert.match(metaOf(unknown).problem!, /^PostHog does not know the tag <Qurey> and will show it as unknown \(did you mean Query\?\)$/);
  });
});

describe('markdown-it plugin and scan agree', () => {
  test('every tag PostHog would write, between paragraphs, is one block token and one scanned tag with its props', () => {
    const tag = fc.record({
      name: fc.constantFrom(...TAGS.map((definition) => definition.tag).filter((tag) => tag !== UNKNOWN_TAG)),
      props: fc.dictionary(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,10}$/), fc.jsonValue(), { noNullPrototype: true, maxKeys: 4 }),
    });
    const paragraph = fc.stringMatching(/^[A-Za-z][A-Za-z ,.]{0,40}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(paragraph, tag), { minLength: 1, maxLength: 5 }), (blocks) => {
        const markdown = blocks.map(([text, { name, props }]) => `${text}\n\n${formatTag(name, props)}`).join('\n\n');
        const expected = blocks.map(([, { name, props }]) => ({ name, props: JSON.parse(JSON.stringify(props)) as unknown }));
        const tokens = tagTokens(markdown, BLOCK_TAG_TOKEN);
        assert.deepEqual(
          tokens.map((token) => ({ name: metaOf(token).tag?.name, props: metaOf(token).tag?.props })),
          expected,
        );
        assert.deepEqual(
          tokens.map((token) => token.map),
          blocks.map((_, index) => [index * 4 + 2, index * 4 + 3]),
        );
        const scan = scanTags(markdown);
        assert.deepEqual(scan.problems, []);
        assert.deepEqual(
          scan.tags.map(({ name, props, line }) => ({ name, props, line })),
          expected.map((tagExpected, index) => ({ ...tagExpected, line: index * 4 + 2 })),
        );
      }),
    );
  });
});

describe('markdown-it plugin: cards', () => {
  test('a block tag renders as a card of its name, what it shows and its main props', () => {
    const html = markdownIt().render('<Query query={{"kind":"SavedInsightNode","shortId":"Xk3pQ9aZ"}} title="Signups" hideFilters />');
    assert.equal(
      html,
      '<div class="posthog-tag"><span class="posthog-tag-name">Query</span> <span class="posthog-tag-summary">Saved insight Xk3pQ9aZ</span> ' +
        '<span class="posthog-tag-props"><span class="posthog-tag-prop"><span class="posthog-tag-prop-name">title</span> Signups</span></span></div>\n',
    );
  });

  test('an inline tag renders as an inline card', () => {
    const html = markdownIt().render('At <ReplayTimestamp playbackTime={12} /> it breaks.');
    assert.match(html, /^<p>At <span class="posthog-tag"><span class="posthog-tag-name">ReplayTimestamp<\/span> .*playbackTime<\/span> 12<\/span><\/span><\/span> it breaks\.<\/p>\n$/);
  });

  test('props are escaped: a card never carries raw HTML', () => {
    const html = markdownIt().render('<Survey id="<script>alert(1)</script>" name={"<img src=x onerror=alert(1)>"} />\n\nSee <Cohort id="<b>x</b>" />');
    assert.doesNotMatch(html, /<script>|<img|<b>/);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(html, /&lt;b&gt;x&lt;\/b&gt;/);
  });

  test('an invalid tag renders as a card saying what is wrong, with its source escaped', () => {
    const html = markdownIt().render('<Query query={{"kind":"<X>",}} />');
    assert.match(html, /^<div class="posthog-tag posthog-tag-invalid"><span class="posthog-tag-name">Query<\/span> <span class="posthog-tag-problem">the props of &lt;Query&gt; are not valid JSON at column 29: trailing comma before &quot;}&quot;<\/span>/);
    assert.match(html, /<code class="posthog-tag-source">&lt;Query query=\{\{&quot;kind&quot;:&quot;&lt;X&gt;&quot;,\}\} \/&gt;<\/code>/);
  });

  test("the block card keeps the attributes VS Code's preview adds for scroll sync", () => {
    const md = markdownIt();
    md.core.ruler.push('line_numbers', (state) => {
      for (const token of state.tokens) {
        if (token.map && token.block && token.nesting >= 0) {
          token.attrJoin('class', 'code-line');
          token.attrSet('data-line', String(token.map[0]));
        }
      }
    });
    const html = md.render('Intro\n\n<Cohort id={7} />');
    assert.match(html, /<div class="posthog-tag code-line" data-line="2"><span class="posthog-tag-name">Cohort<\/span>/);
  });

  test('where the plugin does not apply, the text renders as markdown-it renders it', () => {
    const markdown = '# T\n\n<Query query={{"kind":"SavedInsightNode","shortId":"a"}} />\n\nAt <ReplayTimestamp playbackTime={1} /> x\n\n<Qurey />';
    const envs: unknown[] = [];
    const md = markdownIt((env) => {
      envs.push(env);
      return (env as { currentDocument?: string } | undefined)?.currentDocument?.startsWith('posthog:') === true;
    });
    const plain = new MarkdownIt({ html: true }).render(markdown);
    assert.equal(md.render(markdown, { currentDocument: 'file:///notes.md' }), plain);
    assert.notEqual(md.render(markdown, { currentDocument: 'posthog:/1/notebooks/a.md' }), plain);
    assert.ok(envs.some((env) => (env as { currentDocument?: string }).currentDocument === 'file:///notes.md'));
  });

  test("parsed without a document (as VS Code's preview parses) and rendered for one, cards are drawn only for a notebook", () => {
    const markdown = '<Cohort id={7} />\n\nAt <ReplayTimestamp playbackTime={1} /> x';
    const md = markdownIt((env) => (env as { currentDocument?: string }).currentDocument?.startsWith('posthog:') === true);
    const tokens = md.parse(markdown, {});
    const notebook = md.renderer.render(tokens, md.options, { currentDocument: 'posthog:/1/notebooks/a.md' });
    assert.match(notebook, /class="posthog-tag[^"]*"><span class="posthog-tag-name">Cohort/);
    assert.match(notebook, /<span class="posthog-tag[^"]*"><span class="posthog-tag-name">ReplayTimestamp/);
    const other = md.renderer.render(tokens, md.options, { currentDocument: 'file:///notes.md' });
    assert.ok(!other.includes('posthog-tag'), other);
    assert.match(other, /<Cohort id=\{7\} \/>/);
  });
});
