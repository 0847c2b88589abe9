import fc from 'fast-check';

/**
 * Generated legacy notebooks for the converter's property tests: `anyDocument` over everything the
 * converter supports, text from an alphabet holding every Markdown punctuation character, spaces and
 * unicode (marks may start or end with a space, and now and then a mark Markdown cannot hold); `ordinaryDocument` as people write them (words, marks
 * on word boundaries), which must always convert without loss.
 */
type Node = Record<string, unknown>;
type Mark = { type: string; attrs?: Record<string, unknown> };

const PUNCTUATION = Array.from('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
const SPECIAL_TEXT = ['&amp;', '&#32;', '<u>', '</u>', '<p></p>', '<Query />', '\\', '1.', '- ', '> ', '# ', '```', '~~', '**', '__', '[ ] ', '|', ' ', '  '];
const UNICODE = ['é', 'ß', '日本', '😀', '👩🏽‍💻', '\u00a0', '→', '«', '»', 'Ω', '\u200b'];
const LETTERS = Array.from('abcxyzABCXYZ019');

const anyChar = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...LETTERS) },
  { weight: 3, arbitrary: fc.constantFrom(...PUNCTUATION) },
  { weight: 2, arbitrary: fc.constant(' ') },
  { weight: 1, arbitrary: fc.constantFrom(...UNICODE) },
  { weight: 1, arbitrary: fc.constantFrom(...SPECIAL_TEXT) },
);
const anyText = fc.array(anyChar, { minLength: 1, maxLength: 8 }).map((parts) => parts.join(''));

const WORDS = ['signup', 'funnel', 'drop', 'Tuesday', 'insight', 'users', 'café', 'naïve', '42%', '$pageview', 'e.g.', 'it’s', 'v2', '🚀'];
const word = fc.constantFrom(...WORDS);
const words = fc.array(word, { minLength: 1, maxLength: 4 }).map((list) => list.join(' '));

const href = fc.constantFrom('https://posthog.com', 'https://us.posthog.com/replay?a=1&b=2', '/insights/Xk3pQ9aZ', 'mailto:a@b.co', 'https://example.com/a_(b)', 'https://example.com/ä ö');
const linkMark = href.map((value): Mark => ({ type: 'link', attrs: { href: value } }));
const MARK_ORDER = ['link', 'bold', 'code', 'italic', 'strike', 'underline'];

const markSet = (extra: fc.Arbitrary<Mark[]>) =>
  fc
    .record({ link: fc.option(linkMark, { freq: 4 }), others: fc.subarray(['bold', 'code', 'italic', 'strike', 'underline'], { maxLength: 3 }), extra })
    .map(({ link, others, extra: unheld }) => [
      ...[...(link ? [link] : []), ...others.map((type): Mark => ({ type }))].sort((a, b) => MARK_ORDER.indexOf(a.type) - MARK_ORDER.indexOf(b.type)),
      ...unheld,
    ]);
const marks = markSet(fc.constant<Mark[]>([]));
/** Now and then a mark Markdown cannot hold, whose loss must be reported. */
const marksWithUnheld = markSet(
  fc.oneof({ weight: 60, arbitrary: fc.constant<Mark[]>([]) }, { weight: 1, arbitrary: fc.constant<Mark[]>([{ type: 'highlight', attrs: { color: 'yellow' } }]) }),
);

const text = (value: string, markList: Mark[]): Node => (markList.length > 0 ? { type: 'text', text: value, marks: markList } : { type: 'text', text: value });

const replayTimestamp = fc.record({ playbackTime: fc.nat(3_600_000), sessionRecordingId: fc.uuid() }).map((attrs): Node => ({ type: 'ph-replay-timestamp', attrs }));

/** Adjacent text nodes with the same marks merged, as ProseMirror keeps them. */
export function normaliseInline(nodes: Node[]): Node[] {
  const result: Node[] = [];
  for (const node of nodes) {
    const last = result[result.length - 1];
    if (last && last['type'] === 'text' && node['type'] === 'text' && JSON.stringify(last['marks'] ?? []) === JSON.stringify(node['marks'] ?? [])) {
      result[result.length - 1] = { ...last, text: `${String(last['text'])}${String(node['text'])}` };
    } else {
      result.push(node);
    }
  }
  return result;
}

interface Flavour {
  readonly text: fc.Arbitrary<string>;
  readonly inline: (options: { breaks: boolean }) => fc.Arbitrary<Node[]>;
}

const anyFlavour: Flavour = {
  text: anyText,
  inline: ({ breaks }) =>
    fc
      .array(
        fc.oneof(
          { weight: 6, arbitrary: fc.tuple(anyText, marksWithUnheld).map(([value, markList]) => text(value, markList)) },
          { weight: breaks ? 1 : 0, arbitrary: fc.constant<Node>({ type: 'hardBreak' }) },
          { weight: 1, arbitrary: replayTimestamp },
        ),
        { maxLength: 6 },
      )
      .map(normaliseInline),
};

/** Words with marks on whole words, spaces between them outside the marks. */
const ordinaryFlavour: Flavour = {
  text: words,
  inline: ({ breaks }) =>
    fc
      .array(fc.tuple(words, marks, fc.boolean()), { minLength: 1, maxLength: 5 })
      .map((parts) => {
        const nodes: Node[] = [];
        parts.forEach(([value, markList, lineBreak], index) => {
          if (index > 0) {
            nodes.push(breaks && lineBreak ? { type: 'hardBreak' } : text(' ', []));
          }
          nodes.push(text(value, markList));
        });
        return normaliseInline(nodes);
      }),
};

const propName = fc.stringMatching(/^[a-z][A-Za-z0-9]{0,6}$/);
const attrsArb = fc.dictionary(propName, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
const PH_TYPES = ['ph-query', 'ph-recording', 'ph-person', 'ph-feature-flag', 'ph-embed', 'ph-some-future-node', 'callout'];
const phNode = fc.tuple(fc.constantFrom(...PH_TYPES), attrsArb).map(([type, attrs]): Node => (Object.keys(attrs).length > 0 ? { type, attrs } : { type }));

function blockArbitrary(flavour: Flavour, depth: number): fc.Arbitrary<Node> {
  const paragraph = flavour.inline({ breaks: true }).map((content): Node => (content.length > 0 ? { type: 'paragraph', content } : { type: 'paragraph' }));
  const nonEmptyParagraph = flavour.inline({ breaks: true }).filter((content) => content.length > 0).map((content): Node => ({ type: 'paragraph', content }));
  const heading = fc.tuple(fc.integer({ min: 1, max: 6 }), flavour.inline({ breaks: false })).map(([level, content]): Node =>
    content.length > 0 ? { type: 'heading', attrs: { level }, content } : { type: 'heading', attrs: { level } },
  );
  const code = fc
    .tuple(fc.option(fc.constantFrom('sql', 'python', 'c++', 'hogql'), { nil: null }), fc.array(fc.oneof(flavour.text, fc.constantFrom('\n', '```', '    ', '~~~')), { maxLength: 6 }))
    .map(([language, parts]): Node => {
      const value = parts.join('');
      return value === '' ? { type: 'codeBlock', attrs: { language } } : { type: 'codeBlock', attrs: { language }, content: [{ type: 'text', text: value }] };
    });
  const cell = (type: string) =>
    flavour.inline({ breaks: false }).map((content): Node => ({
      type,
      attrs: { colspan: 1, rowspan: 1, colwidth: null },
      content: [content.length > 0 ? { type: 'paragraph', content } : { type: 'paragraph' }],
    }));
  const table = fc
    .tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }), fc.boolean())
    .chain(([width, height, header]) =>
      fc.tuple(
        header ? fc.array(cell('tableHeader'), { minLength: width, maxLength: width }) : fc.constant([]),
        fc.array(fc.array(cell('tableCell'), { minLength: width, maxLength: width }), { minLength: height, maxLength: height }),
      ),
    )
    .map(([headerCells, rows]): Node => ({
      type: 'table',
      content: [...(headerCells.length > 0 ? [headerCells] : []), ...rows].map((cells) => ({ type: 'tableRow', content: cells })),
    }));
  const leaves = [paragraph, heading, code, table, fc.constant<Node>({ type: 'horizontalRule' }), phNode];
  if (depth === 0) {
    return fc.oneof(...leaves);
  }
  const inner = blockArbitrary(flavour, depth - 1);
  const itemContent = fc.tuple(fc.oneof(paragraph, nonEmptyParagraph), fc.array(inner, { maxLength: 2 })).map(([first, rest]) => [first, ...rest]);
  const list = fc.oneof(
    fc.array(itemContent, { minLength: 1, maxLength: 3 }).map((items): Node => ({ type: 'bulletList', content: items.map((content) => ({ type: 'listItem', content })) })),
    fc
      .tuple(fc.integer({ min: 0, max: 12 }), fc.array(itemContent, { minLength: 1, maxLength: 3 }))
      .map(([start, items]): Node => ({ type: 'orderedList', attrs: { start }, content: items.map((content) => ({ type: 'listItem', content })) })),
    fc
      .array(fc.tuple(fc.boolean(), itemContent), { minLength: 1, maxLength: 3 })
      .map((items): Node => ({ type: 'taskList', content: items.map(([checked, content]) => ({ type: 'taskItem', attrs: { checked }, content })) })),
  );
  const quote = fc.array(inner, { minLength: 1, maxLength: 3 }).map((content): Node => ({ type: 'blockquote', content }));
  return fc.oneof({ weight: 3, arbitrary: fc.oneof(...leaves) }, { weight: 1, arbitrary: list }, { weight: 1, arbitrary: quote });
}

const documentOf = (flavour: Flavour) => fc.array(blockArbitrary(flavour, 2), { maxLength: 6 }).map((content) => ({ type: 'doc', content }));

export const anyDocument = documentOf(anyFlavour);
export const ordinaryDocument = documentOf(ordinaryFlavour);
