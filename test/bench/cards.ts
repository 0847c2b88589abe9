// Query cards of a big notebook after a keystroke (issue 34's hot path): the lenses ask for a notebook's cards
// on every change. Both ways in the same run, on the same 2 MB notebook of PostHog's dialect with 20 cards:
// the whole text read again (findQueryCards, what each version cost before) and the reading that follows edits
// (QueryCardReading: the edit applied, the cards listed). CPU time in this process, median of the keystrokes.
import '../unit/support/vscode';
import assert from 'node:assert/strict';
import { findQueryCards } from '../../src/queries';
import { QueryCardReading, type TextChange } from '../../src/queries/cardReading';
import { cardTagAppears, mayHoldQueryCards } from '../../src/queries/cards';
import { type Figure, median } from './results';

const NOTEBOOK_BYTES = 2 * 1024 * 1024;
const CARDS = 20;
const KEYSTROKES = 25;

/** Sections of what notebooks hold: headings, paragraphs with marks and links, lists, a table, code. */
function section(index: number): string {
  return [
    `## Finding ${index}`,
    '',
    `Signups from **organic search** rose by *${index % 17}%* this week; see [the funnel](https://us.posthog.com/insights/Xk3p${index}) and the \`$pageview\` counts.`,
    'The drop on Tuesday came from the pricing page, where the new toggle hid the annual plan for EU visitors.',
    '',
    `- checked the ${index} cohorts`,
    '  - two of them by hand',
    '- [ ] follow up with design',
    '',
    '| metric | value |',
    '| --- | --- |',
    `| users | ${index * 13} |`,
    '',
    '```sql',
    `select event, count() from events where timestamp > now() - interval ${index % 30} day group by event`,
    '```',
    '',
  ].join('\n');
}

function card(index: number): string {
  return index % 2 === 0
    ? `<Query hideFilters query={{"kind":"DataVisualizationNode","source":{"kind":"HogQLQuery","query":"select count() from events where event = '$pageview' and properties.n = ${index}"}}} />\n`
    : `<SQLV2 nodeId="cell-${index}" code="select properties.$browser, count() from events group by 1 limit ${index}" />\n`;
}

export function bigNotebookWithCards(bytes = NOTEBOOK_BYTES, cards = CARDS): string {
  const parts: string[] = ['# Growth notebook\n'];
  let size = 0;
  let sections = 0;
  while (size < bytes) {
    const text = section(sections++);
    parts.push(text);
    size += text.length;
  }
  const every = Math.floor(parts.length / cards);
  for (let index = cards - 1; index >= 0; index--) {
    parts.splice(1 + index * every, 0, `### Card ${index}\n\n${card(index)}`);
  }
  return parts.join('\n');
}

function cpuMs(work: () => void): number {
  const started = process.cpuUsage();
  work();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

/** A character typed at the end of a line, one keystroke after another. */
function keystrokes(text: string, line: number): { texts: string[]; changes: TextChange[] } {
  const lines = text.split('\n');
  const texts: string[] = [];
  const changes: TextChange[] = [];
  for (let index = 0; index < KEYSTROKES; index++) {
    const character = lines[line]!.length;
    changes.push({ range: { start: { line, character }, end: { line, character } }, text: 'x' });
    lines[line] += 'x';
    texts.push(lines.join('\n'));
  }
  return { texts, changes };
}

function lineOffsets(text: string): (line: number) => number {
  const starts = [0];
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) starts.push(index + 1);
  return (line) => starts[line] ?? text.length;
}

function measure(text: string, line: number): { fullMs: number; incrementalMs: number } {
  const { texts, changes } = keystrokes(text, line);
  const full = texts.map((next) => cpuMs(() => findQueryCards(next)));
  const reading = QueryCardReading.of(text);
  const incremental = changes.map((change, index) => {
    // VS Code's document gives a line's offset from its own index (offsetAt); here from the text, outside the time.
    const offsets = lineOffsets(texts[index]!);
    return cpuMs(() => {
      reading.apply([change]);
      reading.cards(offsets);
    });
  });
  assert.deepEqual(reading.cards(lineOffsets(texts.at(-1)!)), findQueryCards(texts.at(-1)!), 'the reading that follows edits lists what the whole reading lists');
  return { fullMs: median(full), incrementalMs: median(incremental) };
}

/** A notebook without cards: each keystroke checked for a card tag in the whole text (as before) or around the edit. */
function measureWithoutCards(text: string, line: number): { fullMs: number; incrementalMs: number } {
  const { texts, changes } = keystrokes(text, line);
  const lines = text.split('\n');
  const full = texts.map((next) => cpuMs(() => assert.equal(mayHoldQueryCards(next), false)));
  const incremental = changes.map((change) => {
    lines[line] += change.text;
    const end = { line, character: change.range.start.character + change.text.length };
    return cpuMs(() => assert.equal(cardTagAppears({ lineText: (index) => lines[index]! }, change.range.start, end), false));
  });
  return { fullMs: median(full), incrementalMs: median(incremental) };
}

export async function benchCards(): Promise<Figure[]> {
  const text = bigNotebookWithCards();
  const lines = text.split('\n');
  const megabytes = (Buffer.byteLength(text) / 1024 / 1024).toFixed(1);
  const section = `Query cards of a ${megabytes} MB notebook with ${CARDS} cards, per keystroke (CPU, median of ${KEYSTROKES})`;
  const cards = findQueryCards(text);
  assert.equal(cards.length, CARDS);
  const paragraphLine = lines.findIndex((entry, index) => index > lines.length / 2 && entry.startsWith('The drop on Tuesday'));
  const inParagraph = measure(text, paragraphLine);
  const inCard = measure(text, cards[CARDS / 2]!.range.startLine);
  const openMs = cpuMs(() => QueryCardReading.of(text));
  const withoutCards = bigNotebookWithCards(NOTEBOOK_BYTES, 0);
  const withoutCardsLines = withoutCards.split('\n');
  const noCards = measureWithoutCards(withoutCards, withoutCardsLines.findIndex((entry, index) => index > withoutCardsLines.length / 2 && entry.startsWith('The drop on Tuesday')));
  const figure = (what: string, value: number, extra: Partial<Figure> = {}): Figure => ({ section, what, value, unit: 'ms', ...extra });
  const followed = (measured: { fullMs: number; incrementalMs: number }): Partial<Figure> => ({ budget: '< 16 ms (a frame)', pass: measured.incrementalMs < 16 });
  const ratio = (measured: { fullMs: number; incrementalMs: number }) => `${Math.round(measured.fullMs / Math.max(measured.incrementalMs, 0.001))}× less CPU`;
  return [
    figure('a keystroke in a paragraph: the whole text read again (findQueryCards)', inParagraph.fullMs),
    figure(`a keystroke in a paragraph: the reading follows the edit (${ratio(inParagraph)})`, inParagraph.incrementalMs, followed(inParagraph)),
    figure('a keystroke in a SQL cell: the whole text read again', inCard.fullMs),
    figure(`a keystroke in a SQL cell: the reading follows the edit (${ratio(inCard)})`, inCard.incrementalMs, followed(inCard)),
    figure('the first reading, when the notebook opens (once)', openMs),
    figure('a keystroke in a 2 MB notebook without cards: the whole text searched for a card tag (before)', noCards.fullMs),
    figure(`a keystroke in a 2 MB notebook without cards: the edit's lines searched (${ratio(noCards)})`, noCards.incrementalMs, followed(noCards)),
  ];
}
