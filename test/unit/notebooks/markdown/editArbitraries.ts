import fc from 'fast-check';
import { readerCases } from './goldenCases';

/**
 * Notebooks and the edits people make to them, for the property tests of readings that follow edits
 * (PostHogBlockReading, QueryCardReading): golden notebooks (test/fixtures/posthog-dialect/, the copy of
 * ../shared/posthog-dialect/) joined a few at a time, and edits that insert or delete lines, fences, tags,
 * blank lines, list markers, quotes, tables and `<` HTML and notes, at any place.
 */
export interface Position {
  readonly line: number;
  readonly character: number;
}

/** A content change as VS Code reports it: a range of the text before the event, and its new text. */
export interface Change {
  readonly range: { readonly start: Position; readonly end: Position };
  readonly text: string;
}

const CARD_TAG = /<(?:Query|Insight|HogQLSQL|SQLV2)\b/;

function goldenNotebooks(): { withCards: string[]; others: string[] } {
  const texts = [...new Set(readerCases().map((entry) => entry.markdown.replace(/\r\n?/g, '\n')))];
  return { withCards: texts.filter((text) => CARD_TAG.test(text)), others: texts.filter((text) => !CARD_TAG.test(text)) };
}

const PIECES = [
  '\n',
  '\n\n',
  '```\n',
  '```',
  '````',
  '\n```\n',
  '<Query query={{"kind":"DataTableNode","source":{"kind":"EventsQuery","select":["*"]}}} />',
  '<Query query={{"kind":"HogQLQuery","query":"select 1"}} />\n',
  '<SQLV2 code="select event from events" />',
  '<HogQLSQL code={"select 2"} />\n',
  '<Insight id="Ab12Cd34" />',
  '<Query query={{"kind":"InsightVizNode",\n"source":{"kind":"TrendsQuery","series":[]}}}\n/>',
  '</Query>',
  '/>',
  '<Query ',
  '<',
  '<div>',
  '<u>x</u>',
  '<!--',
  '-->',
  '<!-- a note -->\n',
  '- ',
  '* ',
  '1. ',
  '  - ',
  '> ',
  '> - ',
  '# ',
  '## Heading\n',
  '| a | b |\n| --- | --- |\n',
  '|',
  '| x |\n',
  '| --- |\n',
  '---\n',
  ' ',
  '\t',
  'word',
  '![alt](src)',
  '\r\n',
];

const piece = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) });
const insertion = fc.array(piece, { minLength: 0, maxLength: 3 }).map((parts) => parts.join(''));

/** An edit as fractions of the text, so that it lands anywhere whatever the text's length. */
export interface EditSpec {
  readonly at: number;
  /** Whether the edit starts at the start of the line `at` falls in (where blocks are decided). */
  readonly atLineStart: boolean;
  /** How much to delete: none, up to a few characters, or up to a few lines. */
  readonly deleteKind: 'none' | 'characters' | 'lines';
  readonly deleteAmount: number;
  readonly text: string;
}

export const editSpec: fc.Arbitrary<EditSpec> = fc.record({
  at: fc.integer({ min: 0, max: 1_000_000 }).map((millionths) => millionths / 1_000_000),
  atLineStart: fc.boolean(),
  deleteKind: fc.constantFrom('none', 'characters', 'lines'),
  deleteAmount: fc.integer({ min: 1, max: 6 }),
  text: insertion,
});

/** One event: one to three edits made at once (several carets), or one. */
export const editEvent: fc.Arbitrary<EditSpec[]> = fc.oneof({ weight: 4, arbitrary: editSpec.map((spec) => [spec]) }, { weight: 1, arbitrary: fc.array(editSpec, { minLength: 2, maxLength: 3 }) });

/** Lines that start or end blocks, for short notebooks where they meet often. */
const LINES = [
  '',
  '',
  'words',
  'more words',
  ' ',
  '```',
  '```sql',
  '````',
  '| a | b |',
  '| --- | --- |',
  '<!-- a note',
  'end of note -->',
  '<!-- one line -->',
  '<Query query={{"kind":"HogQLQuery","query":"select 1"}} />',
  '<SQLV2 code="select 2" />',
  '<Query query={{"kind":"HogQLQuery",',
  '"query":"select 3"}} />',
  '<Insight id="x" >',
  '</Insight>',
  '<Card',
  '- item',
  '  - nested',
  '1. first',
  '> quoted',
  '> - quoted item',
  '# Heading',
  '---',
  '![alt](src)',
];

const linesNotebook = fc.array(fc.constantFrom(...LINES), { minLength: 1, maxLength: 30 }).map((lines) => lines.join('\n'));

/**
 * One to four golden notebooks joined (three times in four with query cards), or a short notebook of lines
 * that start and end blocks.
 */
export function notebookText(): fc.Arbitrary<string> {
  const { withCards, others } = goldenNotebooks();
  const one = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...withCards) }, { weight: 1, arbitrary: fc.constantFrom(...others) });
  const golden = fc.array(one, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('\n\n'));
  return fc.oneof(golden, linesNotebook);
}

/** The changes of one event on `text`: non-overlapping ranges of the text before it, in no particular order. */
export function changesOf(text: string, specs: readonly EditSpec[]): Change[] {
  const ranges: [number, number, string][] = specs.map((spec) => {
    const at = Math.floor(spec.at * text.length);
    const start = clampToLineEnd(spec.atLineStart ? text.lastIndexOf('\n', at - 1) + 1 : at, text);
    return [start, clampToLineEnd(endOf(text, start, spec), text), spec.text];
  });
  ranges.sort((a, b) => a[0] - b[0]);
  const kept: [number, number, string][] = [];
  for (const range of ranges) {
    const previous = kept[kept.length - 1];
    if (!previous || range[0] >= previous[1]) {
      kept.push(range);
    }
  }
  const starts = lineStarts(text);
  return kept.reverse().map(([start, end, inserted]) => ({ range: { start: positionOf(starts, start), end: positionOf(starts, end) }, text: inserted }));
}

/** The text after the changes of one event. */
export function applied(text: string, changes: readonly Change[]): string {
  const starts = lineStarts(text);
  const offsets = changes.map((change) => [offsetOf(starts, change.range.start), offsetOf(starts, change.range.end), change.text] as const).sort((a, b) => b[0] - a[0]);
  return offsets.reduce((result, [start, end, inserted]) => `${result.slice(0, start)}${inserted}${result.slice(end)}`, text);
}

export function lineStarts(text: string): number[] {
  const starts = [0];
  for (const match of text.matchAll(/\r\n?|\n/g)) {
    starts.push(match.index + match[0].length);
  }
  return starts;
}

function endOf(text: string, start: number, spec: EditSpec): number {
  if (spec.deleteKind === 'none') {
    return start;
  }
  if (spec.deleteKind === 'characters') {
    return Math.min(text.length, start + spec.deleteAmount);
  }
  let end = start;
  for (let count = 0; count < spec.deleteAmount && end < text.length; count++) {
    const next = text.indexOf('\n', end);
    end = next === -1 ? text.length : next + 1;
  }
  return end;
}

/** Never between `\r` and `\n`: VS Code has no position there. */
function clampToLineEnd(offset: number, text: string): number {
  return text[offset - 1] === '\r' && text[offset] === '\n' ? offset - 1 : offset;
}

function positionOf(starts: readonly number[], offset: number): Position {
  let line = 0;
  while (line + 1 < starts.length && starts[line + 1]! <= offset) {
    line++;
  }
  return { line, character: offset - starts[line]! };
}

function offsetOf(starts: readonly number[], position: Position): number {
  return starts[position.line]! + position.character;
}
