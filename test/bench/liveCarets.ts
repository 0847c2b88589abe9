// Others' carets and a 409's replay on big Markdown notebooks (issue 30): the host's longest block per presence
// burst (50 carets, one coalesced repaint of a text the user just changed), per caret sent, and per replay of
// 1,000 missed updates. Each must block the host under 100 ms: the wall time of the call, least of 2 runs (the
// host's thread is blocked that long, on a quiet machine). The process's CPU time of the same runs stands beside
// it: it also counts V8's compiler and collector threads, which run beside the host's thread.
import type { CollabCursor } from '../../src/api';
import { applySpans, markdownCrc, replayUpdates, type TextUpdate } from '../../src/notebooks/session/markdownDiff';
import { cursorAtOffset, offsetOfCursor } from '../../src/notebooks/session/remoteCarets';
import { type Figure, leastTimes } from './results';

const SECTION = 'Live notebooks: carets and replay (the host blocked: wall time, least of 2 runs; CPU time beside it)';
const BUDGET_MS = 100;
const CARETS = 50;

/** The block's wall time against the budget, then the CPU time of the same runs (no budget). */
function measured(what: string, run: () => void): Figure[] {
  const { wallMs, cpuMs } = leastTimes(run);
  return [
    { section: SECTION, what, value: wallMs, unit: 'ms', budget: `< ${BUDGET_MS} ms`, pass: wallMs < BUDGET_MS },
    { section: SECTION, what: '  the same runs, CPU time (with V8\'s threads)', value: cpuMs, unit: 'ms' },
  ];
}

function notebookOf(megabytes: number): string {
  const block = '## A heading\n\nA paragraph of the notebook with **some** words in it, long enough to be ordinary.\n\n- an item\n- another item\n\n';
  return block.repeat(Math.ceil((megabytes * 1024 * 1024) / block.length));
}

function missedUpdates(text: string, count: number): { updates: TextUpdate[]; end: string } {
  let current = text;
  const updates = Array.from({ length: count }, (_, index) => {
    const at = (index * 104_729) % current.length;
    const update = { diff: [{ start: at, end: at + 3, text: `typed ${index}` }], baseCrc: markdownCrc(current) };
    current = applySpans(current, update.diff)!;
    return update;
  });
  return { updates, end: current };
}

export function benchLiveCarets(): Figure[] {
  const figures: Figure[] = [];
  for (const megabytes of [1, 4]) {
    const text = notebookOf(megabytes);
    const blocks = Math.floor(text.length / 40);
    const cursors: CollabCursor[] = Array.from({ length: CARETS }, (_, index) => ({ node_index: (index * 7919) % blocks, offset: 5 }));
    let edits = 0;
    // A burst after the user typed: the carets map through the changed text once.
    const burst = () => {
      const changed = `${text}${'x'.repeat(++edits)}`;
      cursors.forEach((cursor) => offsetOfCursor(changed, cursor));
    };
    figures.push(...measured(`${megabytes} MB, ${CARETS} carets: a presence burst (one repaint after an edit)`, burst));
    figures.push(...measured(`${megabytes} MB, ${CARETS} carets: a repaint of an unchanged text`, () => cursors.forEach((cursor) => offsetOfCursor(text, cursor))));
    figures.push(...measured(`${megabytes} MB: the own caret sent after a keystroke (at most one a second; a keystroke maps nothing)`, () => cursorAtOffset(`${text}${'y'.repeat(++edits)}`, text.length >> 1)));
  }
  const text = notebookOf(1);
  const { updates, end } = missedUpdates(text, 1_000);
  let replayed: string | undefined;
  figures.push(...measured('1 MB: a 409 replay of 1,000 missed updates', () => (replayed = replayUpdates(text, updates))));
  if (replayed !== end) {
    throw new Error('the replay did not give the text the updates make');
  }
  return figures;
}
