import fc from 'fast-check';
import type { PhBlock, PhInline, PhMark, PhText } from '../../../../src/notebooks/markdown';

/**
 * Legacy notebooks built from the constructs of PostHog's dialect cases (test/fixtures/posthog-dialect, "Loss
 * cases"), each block with what it is meant to read as in PostHog's model, or the kind of loss it holds:
 * - constructs PostHog holds, among them the near misses (a single break, a labelled mention, a link with only
 *   its address, `\n` code, headings 1 to 6, a quote or callout holding a paragraph, a list and a paragraph, `~`
 *   at a strike's edge, `!` before a link, empty paragraphs), each with its reading;
 * - constructs it cannot hold (two breaks in a row or one at a paragraph's end, a mention without a label, a
 *   merged table cell, a link's target or rel, CR line ends in code, a heading below level 6), each with its kind.
 */
type Node = Record<string, unknown>;

export interface ConstructBlock {
  readonly node: Node;
  /** The kind of loss the block holds; a callout always holds one ('callout') and still reads as meant. */
  readonly kind?: string;
  /** What PostHog reads for the block, when it can be read as meant. */
  readonly expected?: PhBlock[];
}

interface Run {
  readonly nodes: Node[];
  readonly expected: PhInline[];
  readonly kind?: string;
}

const WORDS = ['signup', 'funnel', 'drop', 'Tuesday', 'insight', 'users', 'café', '42%', '$pageview', 'e.g.', '🚀'];
const words = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((list) => list.join(' '));
const MARK_RANK = ['code', 'bold', 'italic', 'underline', 'strike', 'link', 'mention'];
const HREFS = ['https://posthog.com', 'https://us.posthog.com/insights/abc'];

const text = (value: string, marks: Node[] = []): Node => (marks.length > 0 ? { type: 'text', text: value, marks } : { type: 'text', text: value });
const read = (value: string, marks: PhMark[] = []): PhText => (marks.length > 0 ? { type: 'text', text: value, marks: [...marks].sort((a, b) => MARK_RANK.indexOf(a.type) - MARK_RANK.indexOf(b.type)) } : { type: 'text', text: value });
const run = (nodes: Node[], expected: PhInline[], kind?: string): Run => (kind ? { nodes, expected, kind } : { nodes, expected });

const plainRun = words.map((value) => run([text(value)], [read(value)]));
const markedRun = fc
  .tuple(words, fc.oneof(fc.constant(['code']), fc.subarray(['bold', 'italic', 'strike'], { minLength: 1 })), fc.option(fc.constantFrom(...HREFS), { nil: undefined }))
  .map(([value, types, href]) =>
    run(
      [text(value, [...(href ? [{ type: 'link', attrs: { href } }] : []), ...types.map((type) => ({ type }))])],
      [read(value, [...types.map((type) => ({ type }) as PhMark), ...(href ? [{ type: 'link', href } as PhMark] : [])])],
    ),
  );
/** A `~` at a struck text's edge, or a plain `~` right before a strike (tilde-at-edge). */
const tildeRun = fc.oneof(
  fc.constantFrom('approx~', '~30 users', '~7 days~').map((value) => run([text(value, [{ type: 'strike' }])], [read(value, [{ type: 'strike' }])])),
  fc.constant(run([text('about 5~'), text('10', [{ type: 'strike' }])], [read('about 5~'), read('10', [{ type: 'strike' }])])),
);
/** A `!` right before a link (bang-before-link). */
const bangRun = fc
  .tuple(fc.constantFrom('!', 'see !'), fc.constantFrom(...HREFS))
  .map(([bang, href]) => run([text(bang), text('chart', [{ type: 'link', attrs: { href } }])], [read(bang), read('chart', [{ type: 'link', href }])]));
const mentionRun = fc
  .tuple(fc.integer({ min: 1, max: 99 }), fc.constantFrom('Priya', 'Lee', '@Sam'))
  .map(([id, label]) => run([{ type: 'ph-mention', attrs: { id, label } }], [read(label.startsWith('@') ? label : `@${label}`, [{ type: 'mention', id: String(id) }])]));
const unlabelledMention = fc
  .tuple(fc.integer({ min: 1, max: 99 }), fc.constantFrom(undefined, null, '', '  '))
  .map(([id, label]) => run([{ type: 'ph-mention', attrs: label === undefined ? { id } : { id, label } }], [], 'mention-label'));
const linkWithAttributes = fc
  .tuple(words, fc.constantFrom({ target: '_blank', rel: 'noopener noreferrer nofollow' }, { target: '_self' }, { rel: 'nofollow', target: null }))
  .map(([value, attrs]) => run([text(value, [{ type: 'link', attrs: { href: HREFS[0], ...attrs } }])], [], 'link-attributes'));

const heldRun = fc.oneof({ weight: 4, arbitrary: plainRun }, { weight: 3, arbitrary: markedRun }, { weight: 1, arbitrary: tildeRun }, { weight: 1, arbitrary: bangRun }, { weight: 1, arbitrary: mentionRun });
const anyRun = fc.oneof({ weight: 10, arbitrary: heldRun }, { weight: 1, arbitrary: unlabelledMention }, { weight: 1, arbitrary: linkWithAttributes });

/** Neighbouring texts with equal marks merged, as PostHog's reader gives them. */
function merged(inline: PhInline[]): PhInline[] {
  const result: PhInline[] = [];
  for (const node of inline) {
    const last = result[result.length - 1];
    if (last?.type === 'text' && node.type === 'text' && JSON.stringify(last.marks ?? []) === JSON.stringify(node.marks ?? [])) {
      result[result.length - 1] = { ...last, text: last.text + node.text };
    } else {
      result.push(node);
    }
  }
  return result;
}

/** Runs joined by a space, or (where breaks are allowed) a single hard break. */
function joined(runs: Run[], breaks: boolean[]): { nodes: Node[]; expected: PhInline[]; kind?: string } {
  const nodes: Node[] = [];
  const expected: PhInline[] = [];
  runs.forEach((part, index) => {
    if (index > 0) {
      nodes.push(breaks[index] ? { type: 'hardBreak' } : text(' '));
      expected.push(breaks[index] ? { type: 'hardBreak' } : read(' '));
    }
    nodes.push(...part.nodes);
    expected.push(...part.expected);
  });
  const kind = runs.find((part) => part.kind)?.kind;
  return { nodes, expected: merged(expected), ...(kind ? { kind } : {}) };
}

const inline = (breaks: boolean) =>
  fc.tuple(fc.array(anyRun, { minLength: 1, maxLength: 4 }), fc.array(fc.boolean(), { minLength: 4, maxLength: 4 })).map(([runs, at]) => joined(runs, breaks ? at : []));

const block = (node: Node, expected: PhBlock[], kind?: string): ConstructBlock => (kind ? { node, kind } : { node, expected });

const paragraph = inline(true).map(({ nodes, expected, kind }) => block({ type: 'paragraph', content: nodes }, [{ type: 'paragraph', children: expected }], kind));
/** Two breaks in a row, or one at the start or end (paragraph-breaks). */
const brokenParagraph = fc.tuple(words, words, fc.constantFrom('double', 'leading', 'trailing', 'break-space-break')).map(([first, second, where]) => {
  const br = { type: 'hardBreak' };
  const content =
    where === 'double' ? [text(first), br, br, text(second)] : where === 'leading' ? [br, text(first)] : where === 'trailing' ? [text(first), br] : [text(first), br, text(' '), br, text(second)];
  return block({ type: 'paragraph', content }, [], 'paragraph-breaks');
});
const emptyParagraph = fc.constant(block({ type: 'paragraph' }, []));
const heading = fc
  .tuple(fc.integer({ min: 1, max: 9 }), inline(false))
  .map(([level, { nodes, expected, kind }]) => block({ type: 'heading', attrs: { level }, content: nodes }, [{ type: 'heading', level, children: expected }], level > 6 ? 'heading-level' : kind));
const code = fc
  .tuple(fc.constantFrom(null, 'sql', 'python'), fc.array(words, { minLength: 1, maxLength: 3 }), fc.constantFrom('\n', '\n', '\r\n', '\r'))
  .map(([language, lines, end]) =>
    block({ type: 'codeBlock', attrs: { language }, content: [{ type: 'text', text: lines.join(end) }] }, [{ type: 'code', ...(language ? { language } : {}), text: lines.join('\n') }], end === '\n' || lines.length === 1 ? undefined : 'code-line-endings'),
  );
const cell = (type: string, value: string, span?: Node): Node => ({ type, attrs: { colspan: 1, rowspan: 1, colwidth: null, ...span }, content: [{ type: 'paragraph', content: [text(value)] }] });
const table = fc
  .tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }), fc.option(fc.constantFrom({ colspan: 2 }, { rowspan: 2 }, { colspan: 3, rowspan: 2 }), { nil: undefined }))
  .chain(([width, height, span]) => fc.tuple(fc.array(fc.array(words, { minLength: width, maxLength: width }), { minLength: height + 1, maxLength: height + 1 }), fc.constant(span)))
  .map(([rows, span]) => {
    const node = {
      type: 'table',
      content: rows.map((cells, row) => ({ type: 'tableRow', content: cells.map((value, column) => cell(row === 0 ? 'tableHeader' : 'tableCell', value, row === 1 && column === 0 ? span : undefined)) })),
    };
    const cells = (values: string[]) => values.map((value) => ({ children: [read(value)] }));
    return block(node, [{ type: 'table', headers: cells(rows[0]!), rows: rows.slice(1).map(cells), alignments: rows[0]!.map(() => null) }], span ? 'table-spans' : undefined);
  });
const listItems = fc.array(words, { minLength: 1, maxLength: 3 });
const bulletList = (items: string[]): Node => ({ type: 'bulletList', content: items.map((value) => ({ type: 'listItem', content: [{ type: 'paragraph', content: [text(value)] }] })) });
const readList = (items: string[], quoted: boolean): PhBlock => ({
  type: 'list',
  ordered: false,
  items: items.map((value) => ({ children: [read(value)], depth: 0, ordered: false })),
  ...(quoted ? { blockquote: true } : {}),
});
const list = listItems.map((items) => block(bulletList(items), [readList(items, false)]));
/** A quote, or a callout (a loss of its own, read as a quote that starts with the emoji), holding a paragraph, a list and a paragraph. */
const quoted = fc.tuple(words, listItems, words, fc.option(fc.constantFrom('🚨', '💡'), { nil: undefined })).map(([before, items, after, emoji]): ConstructBlock => {
  const content = [{ type: 'paragraph', content: [text(before)] }, bulletList(items), { type: 'paragraph', content: [text(after)] }];
  const expected: PhBlock[] = [{ type: 'blockquote', children: [read(emoji ? `${emoji} ${before}` : before)] }, readList(items, true), { type: 'blockquote', children: [read(after)] }];
  return emoji ? { node: { type: 'callout', attrs: { emoji }, content }, kind: 'callout', expected } : { node: { type: 'blockquote', content }, expected };
});

const constructBlock = fc.oneof(
  { weight: 4, arbitrary: paragraph },
  { weight: 1, arbitrary: brokenParagraph },
  { weight: 1, arbitrary: emptyParagraph },
  { weight: 2, arbitrary: heading },
  { weight: 2, arbitrary: code },
  { weight: 2, arbitrary: table },
  { weight: 1, arbitrary: list },
  { weight: 2, arbitrary: quoted },
);

export const constructDocument = fc.array(constructBlock, { minLength: 1, maxLength: 6 });
