import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { completionContext, formatTag, parseTagAt, scanTags, type TagParse } from '../../../../src/notebooks/markdown/tags';

function parsed(text: string, offset = 0) {
  const parse = parseTagAt(text, offset);
  assert.ok(parse.ok, parse.ok ? '' : parse.problem);
  return parse.tag;
}

function problemOf(text: string): Extract<TagParse, { ok: false }> {
  const parse = parseTagAt(text, 0);
  assert.equal(parse.ok, false, `expected a problem in ${text}`);
  return parse as Extract<TagParse, { ok: false }>;
}

/** JSON values as a JSON round trip gives them back (no -0, plain prototypes). */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('writing a tag', () => {
  test("PostHog's format: bare true, JSON strings, everything else in braces, props in order", () => {
    assert.equal(
      formatTag('Query', { query: { kind: 'SavedInsightNode', shortId: 'abc' }, hideFilters: true, title: 'Q3 "plan"', height: 300, id: null, open: false }),
      '<Query query={{"kind":"SavedInsightNode","shortId":"abc"}} hideFilters title="Q3 \\"plan\\"" height={300} id={null} open={false} />',
    );
    assert.equal(formatTag('Backlink', {}), '<Backlink />');
    assert.equal(formatTag('Image', { src: 'a', alt: undefined }), '<Image src="a" />');
  });

  test('a prop name that could not be read back is refused', () => {
    assert.throws(() => formatTag('Query', { 'has space': 1 }), /"has space" cannot be a prop of <Query>/);
  });
});

describe('reading a tag', () => {
  test('braces and quotes inside JSON values do not end the value', () => {
    const text = '<Query query={{"a":"}","b":"{\\"x\\"}"}} title="a /> b" /> after';
    const tag = parsed(text);
    assert.deepEqual(tag.props, { query: { a: '}', b: '{"x"}' }, title: 'a /> b' });
    assert.equal(text.slice(tag.end), ' after');
  });

  test('offsets locate the tag and each prop, name to value', () => {
    const text = 'See <ReplayTimestamp playbackTime={12} sessionRecordingId="s1" /> here';
    const tag = parsed(text, 4);
    assert.equal(text.slice(tag.start, tag.end), '<ReplayTimestamp playbackTime={12} sessionRecordingId="s1" />');
    const span = tag.propSpans.sessionRecordingId!;
    assert.equal(text.slice(span.start, span.end), 'sessionRecordingId="s1"');
    assert.equal(text.slice(span.valueStart, span.valueEnd), '"s1"');
  });

  test('a tag spans lines when a prop is pretty-printed JSON', () => {
    const text = '<Query\n  query={{\n    "kind": "InsightVizNode",\n    "source": { "kind": "TrendsQuery" }\n  }}\n  hideFilters\n/>\nafter';
    const tag = parsed(text);
    assert.deepEqual(tag.props, { query: { kind: 'InsightVizNode', source: { kind: 'TrendsQuery' } }, hideFilters: true });
    assert.equal(text.slice(tag.end), '\nafter');
  });

  test("what PostHog's reader also accepts: single quotes, bare values, an empty closing tag", () => {
    assert.deepEqual(parsed("<Query title='it\\'s' height=300 mode=wide flag={true} />").props, {
      title: "it's",
      height: 300,
      mode: 'wide',
      flag: true,
    });
    const paired = parsed('<Query id="x"></Query> tail');
    assert.deepEqual(paired.props, { id: 'x' });
    assert.equal(paired.end, 22);
    assert.equal(parsed('<Query id="x">\n</Query>').end, 23);
  });

  test('lower-case names and a lone "<" are not tags', () => {
    assert.equal(parseTagAt('<u>x</u>', 0).ok, false);
    assert.equal(parseTagAt('a < B', 2).ok, false);
    assert.equal(parseTagAt('<Query-x />', 0).ok, false);
  });

  test('round trip: what formatTag writes, parseTagAt reads back, for any JSON props', () => {
    const name = fc.stringMatching(/^[A-Z][A-Za-z0-9]{0,15}$/);
    const props = fc.dictionary(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,12}$/), fc.jsonValue(), { noNullPrototype: true, maxKeys: 6 });
    fc.assert(
      fc.property(name, props, fc.string(), (tagName, tagProps, before) => {
        const text = formatTag(tagName, tagProps);
        const prefix = `${before.replace(/</g, '')} `;
        const tag = parsed(`${prefix}${text} trailing`, prefix.length);
        assert.equal(tag.name, tagName);
        assert.deepEqual(tag.props, asJson(tagProps));
        assert.deepEqual(Object.keys(tag.props), Object.keys(tagProps));
        assert.equal(tag.end, prefix.length + text.length);
        assert.equal(formatTag(tag.name, tag.props), text);
      }),
    );
  });

  test('round trip: the same props written over several lines, JSON pretty-printed, read the same', () => {
    const props = fc.dictionary(fc.stringMatching(/^[a-z][A-Za-z0-9]{0,8}$/), fc.jsonValue(), { noNullPrototype: true, minKeys: 1, maxKeys: 5 });
    fc.assert(
      fc.property(props, (tagProps) => {
        const lines = Object.entries(tagProps).map(([key, value]) =>
          typeof value === 'string' ? `  ${key}=${JSON.stringify(value)}` : `  ${key}={${JSON.stringify(value, null, 2)}}`,
        );
        const text = `<Query\n${lines.join('\n')}\n/>`;
        assert.deepEqual(parsed(text).props, asJson(tagProps));
      }),
    );
  });
});

describe('problems in a tag', () => {
  test('invalid JSON is reported at its column', () => {
    const text = '<Query query={{"kind":"X",}} />';
    const parse = problemOf(text);
    assert.equal(parse.problem, 'the props of <Query> are not valid JSON at column 27: trailing comma before "}"');
    assert.equal(parse.problemStart, 26);
    assert.equal(text[parse.problemStart], '}');
    assert.equal(parse.end, text.length);
  });

  test('the column is counted in its own line for a tag over several lines', () => {
    const text = '<Query query={{\n  "kind": "X"\n  "b": 1\n}} />';
    const parse = problemOf(text);
    assert.match(parse.problem, /^the props of <Query> are not valid JSON at column 3: expected "," or "}" after the value of "kind"/);
    assert.equal(text.slice(parse.problemStart, parse.problemEnd), '"');
    assert.equal(parse.problemStart, text.indexOf('"b"'));
  });

  test('a string prop with a bad escape is invalid JSON', () => {
    const parse = problemOf('<Query title="a\\qb" />');
    assert.equal(parse.problem, 'the props of <Query> are not valid JSON at column 16: invalid escape sequence in a string');
    assert.equal(parse.problemStart, 15);
  });

  test('a tag without "/>" is unclosed, up to the blank line that ends it', () => {
    const text = '<Query query={{"kind":"X"}}\n\nnext paragraph />';
    const parse = problemOf(text);
    assert.equal(parse.problem, 'unclosed tag <Query: it needs "/>"');
    assert.equal(parse.problemStart, 0);
    assert.equal(parse.end, text.indexOf('\n'));
    assert.equal(problemOf('<Query id="x"').problem, 'unclosed tag <Query: it needs "/>"');
    assert.equal(problemOf('<Query id="x" <Survey />').end, 14);
    assert.equal(problemOf('<Query id="x">').problem, 'unclosed tag <Query: it needs "/>"');
  });

  test('a prop given twice is named at its second place', () => {
    const parse = problemOf('<Query id="a" title="t" id="b" />');
    assert.equal(parse.problem, 'prop "id" is given twice in <Query>');
    assert.equal(parse.problemStart, 24);
    assert.equal(parse.problemEnd, 26);
    assert.equal(parse.end, 33);
  });

  test('`=` without a value', () => {
    const parse = problemOf('<Query id= />');
    assert.equal(parse.problem, '`=` without a value for prop "id" in <Query>');
    assert.equal(parse.problemStart, 9);
    assert.equal(problemOf('<Query id=\n\n"x" />').problem, '`=` without a value for prop "id" in <Query>');
  });

  test('unclosed values, empty braces, stray characters and content between tags', () => {
    assert.equal(problemOf('<Query title="abc />').problem, 'the props of <Query> are not valid JSON at column 21: the string is not closed with "');
    assert.equal(problemOf('<Query query={{"kind":"X"} />').problem, 'the value of prop "query" in <Query> has no closing "}"');
    assert.equal(problemOf("<Query title='abc />").problem, `the value of prop "title" in <Query> is not closed with '`);
    assert.equal(problemOf('<Query query={} />').problem, 'prop "query" in <Query> has empty braces: write a JSON value inside them');
    assert.equal(problemOf('<Query query={not json} />').problem, 'the props of <Query> are not valid JSON at column 15: expected a value but found "not"');
    const stray = problemOf('<Query id="a", />');
    assert.match(stray.problem, /^unexpected "," in <Query>/);
    assert.equal(stray.problemStart, 13);
    assert.equal(problemOf('<Query / >').problem, '"/" in <Query> must be followed by ">"');
    assert.equal(problemOf('<Query>text</Query>').problem, '<Query> cannot hold content (PostHog ignores it): write <Query … /> instead');
    assert.equal(problemOf('<Query>\ntext</Query>').problem, 'unclosed tag <Query: it needs "/>"');
  });

  test('the first problem is reported, and reading goes on to the end of the tag', () => {
    const text = '<Query a={x} a=1 b="ok" />';
    const parse = problemOf(text);
    assert.match(parse.problem, /not valid JSON at column 11/);
    assert.equal(parse.end, text.length);
  });
});

describe("scanning a notebook's Markdown", () => {
  const notebook = [
    '# Weekly review', // 0
    '', // 1
    '<Query query={{"kind":"SavedInsightNode","shortId":"Xk3pQ9aZ"}} hideFilters />', // 2
    '', // 3
    'At <ReplayTimestamp playbackTime={12} /> the user clicks.', // 4
    '', // 5
    '<Recording', // 6
    '  id="0190abc"', // 7
    '/>', // 8
  ].join('\n');

  test('finds block and inline tags with their lines, columns and node types', () => {
    const { tags, problems } = scanTags(notebook);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      tags.map(({ name, nodeType, line, column, endLine, endColumn }) => ({ name, nodeType, line, column, endLine, endColumn })),
      [
        { name: 'Query', nodeType: 'ph-query', line: 2, column: 0, endLine: 2, endColumn: 78 },
        { name: 'ReplayTimestamp', nodeType: 'ph-replay-timestamp', line: 4, column: 3, endLine: 4, endColumn: 40 },
        { name: 'Recording', nodeType: 'ph-recording', line: 6, column: 0, endLine: 8, endColumn: 2 },
      ],
    );
    assert.deepEqual(tags[0]!.props, { query: { kind: 'SavedInsightNode', shortId: 'Xk3pQ9aZ' }, hideFilters: true });
  });

  test('skips code: backtick fences (in quotes too) and code spans, notes and escaped tags; PostHog has no tilde fences', () => {
    assert.deepEqual(
      scanTags('~~~\n<Qurey />\n~~~').problems.map((problem) => [problem.line, problem.severity]),
      [[1, 'warning']],
    );
    const markdown = [
      '```md',
      '<Query query={broken} />',
      '```',
      '',
      'Write `<Query x= />` or ``<Survey `x` />`` in text, and \\<Query x= />.',
      '',
      '<!-- <Query x= /> -->',
      '',
      '> ```',
      '> <Query x= />',
      '> ```',
    ].join('\n');
    assert.deepEqual(scanTags(markdown), { tags: [], problems: [] });
  });

  test('lower-case HTML and prose with angle brackets are not tags', () => {
    const markdown = 'Some <u>underlined</u> text, a <mention id="5">@ana</mention>, a <br> and List<String> or Map<K, V>.';
    assert.deepEqual(scanTags(markdown), { tags: [], problems: [] });
  });

  test('an unknown tag name is a warning that PostHog will show it as unknown, with a suggestion', () => {
    const { tags, problems } = scanTags('Intro\n\n<Qurey query={{"kind":"TrendsQuery"}} />\n');
    assert.equal(tags.length, 1);
    assert.equal(tags[0]!.nodeType, undefined);
    assert.equal(problems.length, 1);
    const [problem] = problems;
    assert.equal(problem!.message, 'PostHog does not know the tag <Qurey> and will show it as unknown (did you mean Query?)');
    assert.deepEqual({ ...problem, message: '' }, { line: 2, column: 1, endLine: 2, endColumn: 6, message: '', severity: 'warning' });
    assert.doesNotMatch(scanTags('<Zzzzzzzz />').problems[0]!.message, /did you mean/);
    assert.deepEqual(scanTags('<SQLV2 code="select 1" />\n\n<Prompt question="Why?" />\n\n<Insight id="abc" view="summary" />').problems, []);
  });

  test('a tag that does not read is an error at its place', () => {
    const [problem] = scanTags('Intro\n\n<Query query={{"kind":"TrendsQuery"}}\nmore\n\nafter').problems;
    assert.equal(problem!.severity, 'error');
    assert.equal(problem!.line, 2);
  });

  test('an UnknownNode needs a string nodeType', () => {
    const kept = scanTags('<UnknownNode nodeType="ph-poll" question="?" />');
    assert.deepEqual(kept.problems, []);
    assert.equal(kept.tags[0]!.nodeType, 'ph-poll');
    const [missing] = scanTags('<UnknownNode question="?" />').problems;
    assert.match(missing!.message, /^<UnknownNode> needs the type of the node it keeps as a string prop/);
    const [notString] = scanTags('<UnknownNode nodeType={3} />').problems;
    assert.deepEqual({ ...notString, message: '' }, { line: 0, column: 13, endLine: 0, endColumn: 25, message: '', severity: 'warning' });
  });

  test('syntax problems are placed where they are, and scanning goes on after them', () => {
    const markdown = [
      'Text', // 0
      '', // 1
      '<Query query={{"kind":"X",}} />', // 2
      '', // 3
      '<Survey id="s1"', // 4
      '', // 5
      'Inline <Backlink href="a" href="b" /> and <Cohort id={7} />.', // 6
    ].join('\n');
    const { tags, problems } = scanTags(markdown);
    assert.deepEqual(
      tags.map((tag) => tag.name),
      ['Cohort'],
    );
    assert.deepEqual(
      problems.map(({ line, column, endLine, endColumn, message }) => ({ line, column, endLine, endColumn, message })),
      [
        { line: 2, column: 26, endLine: 2, endColumn: 27, message: 'the props of <Query> are not valid JSON at column 27: trailing comma before "}"' },
        { line: 4, column: 0, endLine: 4, endColumn: 15, message: 'unclosed tag <Survey: it needs "/>"' },
        { line: 6, column: 26, endLine: 6, endColumn: 30, message: 'prop "href" is given twice in <Backlink>' },
      ],
    );
  });

  test('a broken tag inside text is reported when its name is one of PostHog’s', () => {
    const { problems } = scanTags('See <Backlink href="a" and more');
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.message, 'unclosed tag <Backlink: it needs "/>"');
  });

  test('Windows line ends keep lines and columns', () => {
    const { tags } = scanTags('# T\r\n\r\n<Survey id="s1" />\r\n');
    assert.deepEqual([tags[0]!.line, tags[0]!.column, tags[0]!.endColumn], [2, 0, 18]);
  });
});

describe('what completion offers', () => {
  test('tag names after "<", in text or at a line start, with what was typed', () => {
    assert.deepEqual(completionContext('# T\n\n<'), { kind: 'tagName', typed: '' });
    assert.deepEqual(completionContext('See <Repl'), { kind: 'tagName', typed: 'Repl' });
    assert.equal(completionContext('Escaped \\<Qu'), undefined);
    assert.equal(completionContext('a <Query id="x" /> b'), undefined);
    assert.equal(completionContext('closing </'), undefined);
  });

  test('prop names inside a tag, with those already given, and named views in view="…"', () => {
    assert.deepEqual(completionContext('<FeatureFlag '), { kind: 'propName', tag: 'FeatureFlag', typed: '', given: [] });
    assert.deepEqual(completionContext('<FeatureFlag id={42} vi'), { kind: 'propName', tag: 'FeatureFlag', typed: 'vi', given: ['id'] });
    assert.deepEqual(completionContext('<Query query={{"kind":"X"}}\n  hideFilters '), { kind: 'propName', tag: 'Query', typed: '', given: ['query', 'hideFilters'] });
    assert.deepEqual(completionContext('<FeatureFlag id={42} view="con'), { kind: 'viewName', tag: 'FeatureFlag', typed: 'con' });
    assert.equal(completionContext('<Query query={{"ki'), undefined, 'inside a value');
    assert.equal(completionContext('<Query query='), undefined);
    assert.equal(completionContext('<Query title="Q3 pl'), undefined, 'inside a text value');
    assert.equal(completionContext('<Query id="x" /> '), undefined, 'after the tag');
    assert.equal(completionContext('<Query id="x"\n\ntext '), undefined, 'a blank line ends a tag');
  });

  test('query kinds in a "kind" value inside a <Query>, even over several lines', () => {
    assert.deepEqual(completionContext('<Query query={{"kind":"'), { kind: 'queryKind', typed: '' });
    assert.deepEqual(completionContext('<Query query={{\n  "source": { "kind": "Tre'), { kind: 'queryKind', typed: 'Tre' });
    assert.equal(completionContext('<Query query={{"kind":"X"}} />\n\n<Python x={{"kind":"'), undefined);
    assert.equal(completionContext('{"kind":"'), undefined);
  });
});
