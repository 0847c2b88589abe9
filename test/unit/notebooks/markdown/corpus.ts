/**
 * Real-shaped legacy notebooks, as PostHog's TipTap editor saves them (default attrs included: a link's
 * href (PostHog's own link mark), a table cell's spans and width, a code block's language, an ordered list's
 * start, a task item's checked), for the converter's corpus test. `losses` lists what each cannot hold
 * in Markdown (text found in the loss messages); most hold everything.
 */
type Node = Record<string, unknown>;

export interface CorpusNotebook {
  readonly name: string;
  readonly doc: { type: 'doc'; content: Node[] };
  readonly losses?: readonly string[];
}

const mark = (type: string): Node => ({ type });
const link = (href: string): Node => ({ type: 'link', attrs: { href } });
const text = (value: string, ...marks: Node[]): Node => (marks.length > 0 ? { type: 'text', text: value, marks } : { type: 'text', text: value });
const bold = (value: string) => text(value, mark('bold'));
const italic = (value: string) => text(value, mark('italic'));
const code = (value: string) => text(value, mark('code'));
const br: Node = { type: 'hardBreak' };
const p = (...content: (string | Node)[]): Node =>
  content.length === 0 ? { type: 'paragraph' } : { type: 'paragraph', content: content.map((part) => (typeof part === 'string' ? text(part) : part)) };
const h = (level: number, value: string): Node => ({ type: 'heading', attrs: { level }, content: [text(value)] });
const li = (...content: Node[]): Node => ({ type: 'listItem', content });
const ul = (...items: Node[]): Node => ({ type: 'bulletList', content: items });
const ol = (start: number, ...items: Node[]): Node => ({ type: 'orderedList', attrs: { start }, content: items });
const task = (checked: boolean, ...content: Node[]): Node => ({ type: 'taskItem', attrs: { checked }, content });
const tasks = (...items: Node[]): Node => ({ type: 'taskList', content: items });
const codeBlock = (language: string | null, value: string): Node =>
  value === '' ? { type: 'codeBlock', attrs: { language } } : { type: 'codeBlock', attrs: { language }, content: [text(value)] };
const quote = (...content: Node[]): Node => ({ type: 'blockquote', content });
const hr: Node = { type: 'horizontalRule' };
const cellAttrs = { colspan: 1, rowspan: 1, colwidth: null };
const th = (...content: (string | Node)[]): Node => ({ type: 'tableHeader', attrs: cellAttrs, content: [p(...content)] });
const td = (...content: (string | Node)[]): Node => ({ type: 'tableCell', attrs: cellAttrs, content: [p(...content)] });
const tr = (...cells: Node[]): Node => ({ type: 'tableRow', content: cells });
const table = (...rows: Node[]): Node => ({ type: 'table', content: rows });
const doc = (...content: Node[]) => ({ type: 'doc' as const, content });

const query = (query: Node, nodeId: string): Node => ({ type: 'ph-query', attrs: { query, nodeId, height: null, title: null, __init: null } });
const recording = (id: string, nodeId: string): Node => ({ type: 'ph-recording', attrs: { id, nodeId, height: null, title: null, __init: null, noInspector: false } });
const timestamp = (playbackTime: number, sessionRecordingId: string): Node => ({ type: 'ph-replay-timestamp', attrs: { playbackTime, sessionRecordingId } });

const SESSION = '0191c2a7-5e2b-7c1d-9f3e-2a6b8c4d1e0f';

export const CORPUS: readonly CorpusNotebook[] = [
  {
    name: 'meeting notes',
    doc: doc(
      h(1, 'Growth sync, 14 March'),
      p(bold('Attendees:'), ' Priya, Tomás, Lena'),
      p(),
      h(2, 'Decisions'),
      ul(li(p('Ship the ', italic('annual'), ' plan toggle on Monday')), li(p('Keep the old pricing page for EU visitors'))),
      h(2, 'Action items'),
      tasks(task(true, p('Priya: write the launch post')), task(false, p('Tomás: check the ', code('plan_selected'), ' event'))),
      p(),
    ),
  },
  {
    name: 'funnel investigation with Query tags',
    doc: doc(
      h(1, 'Onboarding funnel investigation'),
      p('Where do new users drop off between ', code('signed_up'), ' and their first upload?'),
      query(
        {
          kind: 'InsightVizNode',
          source: { kind: 'FunnelsQuery', series: [{ kind: 'EventsNode', event: 'signed_up' }, { kind: 'EventsNode', event: 'uploaded_file' }], funnelsFilter: { funnelWindowInterval: 14 } },
        },
        'b9f4c1de-7a39-4c1e-a3b2-1f0e9d8c7b6a',
      ),
      query({ kind: 'SavedInsightNode', shortId: 'Xk3pQ9aZ' }, '5c2d8e7f-1b3a-4d6e-9f8a-7b6c5d4e3f2a'),
      h(2, 'Sessions worth watching'),
      recording(SESSION, '0d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a'),
      p(timestamp(83_000, SESSION), ' the user hesitates on the plan picker'),
    ),
  },
  {
    name: 'runbook with code blocks and a table',
    doc: doc(
      h(1, 'Runbook: ingestion lag'),
      ol(1, li(p('Check the lag:')), li(p('Restart the consumer if it is stuck'))),
      codeBlock('bash', 'kubectl -n posthog get pods | grep plugin-server\n\nkubectl logs deploy/plugin-server --since=10m'),
      codeBlock('sql', "SELECT count()\nFROM events\nWHERE timestamp > now() - INTERVAL 1 HOUR\n-- a ``` fence inside\n"),
      codeBlock(null, ''),
      table(tr(th('Symptom'), th('Action')), tr(td('Lag > 5 min'), td('Page the ', bold('on-call'))), tr(td('Pipe | in text'), td(code('a|b')))),
      hr,
      p('Owner: ', text('infra', link('https://posthog.com/handbook/engineering/infrastructure'))),
    ),
  },
  {
    name: 'nested task lists',
    doc: doc(
      tasks(
        task(false, p('Launch checklist'), tasks(task(true, p('Changelog')), task(false, p('Docs'), tasks(task(false, p('Screenshots')))))),
        task(true, p()),
      ),
    ),
  },
  {
    name: 'nested lists with several blocks per item',
    doc: doc(
      ul(
        li(p('First'), ul(li(p('Second level'), ol(3, li(p('Third')), li(p('Fourth')))))),
        li(p('Item with code:'), codeBlock('python', 'print("hi")'), p('and a second paragraph')),
        li(p(), ul(li(p('only a nested list under an empty item')))),
      ),
      ul(li(p('A second list right after the first'))),
      ol(1, li(p('one'))),
      ol(2, li(p('two, a list of its own'))),
    ),
  },
  {
    name: 'links with TipTap attrs',
    doc: doc(
      p('See ', text('the docs', link('https://posthog.com/docs')), ', ', text('bold link', link('https://posthog.com/a_(b)'), mark('bold')), ' and ', text('a relative one', link('/insights/Xk3pQ9aZ')), '.'),
      p(text('query string', link('https://us.posthog.com/replay?filters=%7B%7D&a=1&b=2')), ' and ', text('spaces', link('https://example.com/a file.pdf'))),
    ),
  },
  {
    name: 'hard breaks',
    doc: doc(
      p('Line one', br, 'line two', br, br, 'after an empty line'),
      p('ends with a break', br),
      p(bold('bold'), br, italic('italic')),
      h(3, 'Heading'),
      ul(li(p('item', br, 'continued'))),
    ),
  },
  {
    name: 'empty paragraphs everywhere',
    doc: doc(p(), p(), h(1, 'Title'), p(), p('text'), quote(p(), p('quoted')), ul(li(p(), p('second paragraph of an item'))), p()),
  },
  {
    name: 'inline replay timestamps',
    doc: doc(
      p(timestamp(0, SESSION), ' start of the session'),
      p('Then at ', timestamp(125_500, SESSION), ' the error, and at ', timestamp(130_000, SESSION)),
      p(timestamp(61_000, SESSION)),
      p('a', br, timestamp(5_000, SESSION)),
    ),
  },
  {
    name: 'unknown node and unknown mark',
    doc: doc(
      { type: 'callout', attrs: { emoji: '💡' }, content: [p('A tip inside a callout')] },
      { type: 'ph-future-widget', attrs: { nodeId: 'x1', options: { a: [1, 2] } } },
      { type: 'ph-query', attrs: { query: { kind: 'HogQLQuery', query: 'select 1' } }, marks: [{ type: 'comment', attrs: { id: 'c1' } }], meta: { v: 2 } },
      p('This is ', text('highlighted', { type: 'highlight', attrs: { color: 'yellow' } }), ' text'),
      p('A pasted ', text('link', { type: 'link', attrs: { href: 'https://posthog.com', target: '_blank' } }), ' keeps its target only in JSON'),
      p('An unknown inline node: ', { type: 'emoji', attrs: { name: 'rocket' } }, ' done'),
    ),
    losses: ['the mark "highlight" on "highlighted" has no Markdown form', 'the link on "link" has attributes Markdown cannot hold'],
  },
  {
    name: 'unicode, emoji and CRLF in text',
    doc: doc(
      h(2, 'Ünïcødé 🚀 and 中文'),
      p('Emoji 👩🏽‍💻 in the middle, खबर, עברית, e\u0301'),
      p('Windows line end\r\nin a text node, a tab\there, a no-break\u00a0space'),
      p('\u00a0leading no-break space and trailing\u00a0'),
      codeBlock('text', 'unicode in code: → ✓ 😀'),
    ),
  },
  {
    name: 'text that looks like Markdown',
    doc: doc(
      p('# not a heading'),
      p('- not a list'),
      p('1. not a list either, nor 2) this'),
      p('> not a quote'),
      p('---'),
      p('<Query query={{}} /> is just text, and so is <p></p>'),
      p('*stars*, _underscores_, snake_case_name, `ticks`, [brackets](x), |pipes|, ~~tildes~~, &amp; entities, \\ backslash'),
      p('   leading spaces and trailing   '),
      p('+ plus', br, '= equals', br, '    four spaces'),
      p('!', text('not an image', link('https://posthog.com/a.png'))),
    ),
  },
  {
    name: 'quotes with lists and code',
    doc: doc(quote(p('Quoted ', bold('text')), ul(li(p('a quoted list'))), codeBlock('js', 'const a = 1;')), quote(quote(p('nested quote')))),
  },
  {
    name: 'tables with and without a header',
    doc: doc(
      table(tr(td('no'), td('header')), tr(td('second'), td('row'))),
      table(tr(th(), th()), tr(td('empty'), td('header cells'))),
      table(tr(th('Marks'), th(italic('in'), ' cells')), tr(td(text('link', link('https://posthog.com'))), td(code('x'), ' and ', bold('y')))),
    ),
  },
  {
    name: 'marks at word edges and nested',
    doc: doc(
      p(bold('bold '), 'then plain, ', italic(' italic with spaces '), '.'),
      p(text('all', mark('bold'), mark('italic')), text(' three', mark('bold'), mark('italic'), mark('strike')), text(' marks', mark('bold'))),
      p('intra', bold('word'), 'bold and ', text('under', mark('underline')), 'line'),
      p(text('(parenthesised)', mark('bold')), 'after'),
    ),
  },
  {
    name: 'headings, rules and images',
    doc: doc(
      h(1, 'One'),
      h(2, 'Two'),
      h(3, 'Three #3'),
      h(4, 'Four'),
      h(5, 'Five'),
      h(6, 'Six'),
      hr,
      { type: 'ph-image', attrs: { src: 'https://posthog.com/logo.png', alt: 'The logo' } },
      { type: 'ph-image', attrs: { file: null, src: 'https://posthog.com/chart.png', width: 400, height: null, nodeId: 'img1' } },
    ),
  },
  {
    name: 'backlinks and mentions',
    doc: doc(
      p('See ', { type: 'ph-backlink', attrs: { href: '/insights/Xk3pQ9aZ', type: 'insight', title: 'Signups' } }, ' for the numbers.'),
      p({ type: 'ph-mention', attrs: { id: 42 } }, ' please review'),
    ),
  },
];

/** Exact Markdown for a few of the corpus notebooks. */
export const EXPECTED_MARKDOWN: Readonly<Record<string, string>> = {
  'meeting notes': [
    '# Growth sync, 14 March',
    '',
    '**Attendees:** Priya, Tomás, Lena',
    '',
    ' ',
    '',
    '## Decisions',
    '',
    '- Ship the *annual* plan toggle on Monday',
    '- Keep the old pricing page for EU visitors',
    '',
    '## Action items',
    '',
    '- [x] Priya: write the launch post',
    '- [ ] Tomás: check the `plan_selected` event',
    '',
    ' ',
    '',
  ].join('\n'),
  'hard breaks': [
    'Line one',
    'line two<br>',
    'after an empty line',
    '',
    'ends with a break<br>',
    '',
    '**bold**',
    '*italic*',
    '',
    '### Heading',
    '',
    '- item<br>continued',
    '',
  ].join('\n'),
  'inline replay timestamps': [
    `<ReplayTimestamp playbackTime={0} sessionRecordingId="${SESSION}" /> start of the session`,
    '',
    `Then at <ReplayTimestamp playbackTime={125500} sessionRecordingId="${SESSION}" /> the error, and at <ReplayTimestamp playbackTime={130000} sessionRecordingId="${SESSION}" />`,
    '',
    `<ReplayTimestamp playbackTime={61000} sessionRecordingId="${SESSION}" />`,
    '',
    `a<br><ReplayTimestamp playbackTime={5000} sessionRecordingId="${SESSION}" />`,
    '',
  ].join('\n'),
};
