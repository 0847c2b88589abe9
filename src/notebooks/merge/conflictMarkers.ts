import { oneSafeLine } from '../../common/text';
import { nextFenceState } from './markdownBlocks';

/**
 * Git-style conflict markers, each at a line start, as VS Code's merge-conflict actions (Accept Current /
 * Incoming / Both) expect them:
 *
 *   <<<<<<< Yours
 *   (ours)
 *   =======
 *   (theirs)
 *   >>>>>>> PostHog (version 7 by Ann Lee)
 *
 * VS Code (extensions/merge-conflict, 1.100) reads a conflict from any line starting with `<<<<<<<`, through
 * lines starting with `|||||||` (a base section, before the splitter), the first line that is exactly
 * `=======`, to the next line starting with `>>>>>>>`; a second `<<<<<<<` inside a conflict makes it stop
 * reading the file. So a side holding such a line of the user's own (a setext `=======` underline, a 7-deep
 * `>>>>>>> ` quote, a git conflict shown in a code block) would make Accept Current or Incoming drop text.
 * Longer markers, as git's conflict-marker-size writes, do not help there: VS Code takes no `========` for a
 * splitter, and still ends the conflict at the user's `>>>>>>>` line. So the markers stay seven characters
 * long, and the sides' look-alike lines are moved out of VS Code's way (withoutLookAlikes) in a way Markdown
 * reads the same.
 */

/** What the two sides are called in markers, e.g. "Yours" and "PostHog (version 7 by Ann Lee)". */
export interface MergeLabels {
  readonly ours: string;
  readonly theirs: string;
}

/** The label of the editor's side, and how the label of PostHog's side starts. */
export const OURS_LABEL = 'Yours';
export const THEIRS_LABEL = 'PostHog';

export type ConflictMarker = '<<<<<<<' | '=======' | '>>>>>>>' | '|||||||';

export interface FoundMarker {
  /** From 0. */
  readonly line: number;
  readonly marker: ConflictMarker;
}

const MAX_LABEL_LENGTH = 200;

/**
 * The lines of one conflict: markers around ours' and theirs' lines, each ending with `lineEnd` ("" or "\r").
 * A label is one safe line (it may hold a collaborator's name: a line break in it would put text after the
 * marker line, taken as the user's).
 */
export function conflictLines(ours: readonly string[], theirs: readonly string[], labels: MergeLabels, lineEnd: string): string[] {
  return [
    markerLine('<<<<<<<', labels.ours, lineEnd),
    ...withoutLookAlikes(ours),
    `=======${lineEnd}`,
    ...withoutLookAlikes(theirs),
    markerLine('>>>>>>>', labels.theirs, lineEnd),
  ];
}

function markerLine(marker: ConflictMarker, label: string, lineEnd: string): string {
  const safe = oneSafeLine(label, MAX_LABEL_LENGTH);
  return `${marker}${safe ? ` ${safe}` : ''}${lineEnd}`;
}

/** A line VS Code could take for a marker inside a conflict (see above). */
const LOOK_ALIKE = /^(?:<{7}|\|{7}|={7}|>{7})/;
/** A line VS Code could take for a marker outside a conflict: only a start opens one there. */
const START_LOOK_ALIKE = /^<{7}/;

/**
 * The lines of a text holding conflicts, with its text outside them: there only a line VS Code would take for
 * the start of a conflict is moved out of its way (see withoutLookAlikes), so that VS Code finds exactly the
 * conflicts the merge wrote (a git conflict shown in the user's code block would be "resolved" by Accept All).
 */
export function textAroundConflicts(lines: readonly string[]): readonly string[] {
  return withoutLookAlikes(lines, START_LOOK_ALIKE);
}

/**
 * A side's lines with no line VS Code could take for a marker. Such a line gets one space in front, which
 * Markdown reads the same: a paragraph line, a setext underline, a block quote or a table row may start with
 * up to three spaces. In a fenced code block a space would be code; there the fence's indentation is used
 * (see moveFencedBlock), so the code stays the same too. What changes is only the text's spacing.
 */
export function withoutLookAlikes(lines: readonly string[], lookAlike = LOOK_ALIKE): readonly string[] {
  if (!lines.some((line) => lookAlike.test(line))) {
    return lines;
  }
  const moved = [...lines];
  let index = 0;
  while (index < moved.length) {
    const fence = nextFenceState(undefined, moved[index] as string);
    if (fence === undefined) {
      if (lookAlike.test(moved[index] as string)) {
        moved[index] = ` ${moved[index]}`;
      }
      index++;
      continue;
    }
    let end = index + 1;
    let open: string | undefined = fence;
    while (end < moved.length && open !== undefined) {
      open = nextFenceState(open, moved[end] as string);
      end++;
    }
    moveFencedBlock(moved, { opening: index, codeEnd: open === undefined ? end - 1 : end }, lookAlike);
    index = end;
  }
  return moved;
}

/**
 * A fenced code block with a look-alike line, moved so that the line starts with a space and the code stays
 * the same: up to as many spaces as the opening fence is indented are not code. So a block whose fence is
 * indented gives its look-alike lines one space; a block at the margin moves one space right as a whole.
 */
function moveFencedBlock(lines: string[], block: { opening: number; codeEnd: number }, lookAlike: RegExp): void {
  const code = { start: block.opening + 1, end: block.codeEnd };
  if (!lines.slice(code.start, code.end).some((line) => lookAlike.test(line))) {
    return;
  }
  const indented = (lines[block.opening] as string).startsWith(' ');
  for (let index = code.start; index < code.end; index++) {
    const line = lines[index] as string;
    if (indented ? lookAlike.test(line) : line !== '' && line !== '\r') {
      lines[index] = ` ${line}`;
    }
  }
  if (!indented) {
    // The closing fence may stay: it may be indented up to three spaces whatever the opening one's.
    lines[block.opening] = ` ${lines[block.opening]}`;
  }
}

interface OpenConflict {
  readonly line: number;
  /** Opened by a marker this extension writes: what lies inside is the conflict's, code blocks included. */
  readonly ours: boolean;
  readonly inner: FoundMarker[];
  splitter: boolean;
}

/**
 * Conflict markers left in a text, to refuse saving it. A conflict is a `<<<<<<<` line, then `|||||||` lines
 * and a `=======` line, to a `>>>>>>>` line (each marker at the line start followed by a space or the line
 * end); one with a part missing counts while it has its `=======` or one of the labels this extension writes,
 * so a conflict resolved by hand with a marker line forgotten is found. Lines of the user's own that look
 * like markers are not: a setext `=======` underline, a 7-deep `>>>>>>> ` quote, or a git conflict shown in a
 * fenced code block.
 */
export function findConflictMarkers(text: string): FoundMarker[] {
  const found: FoundMarker[] = [];
  let open: OpenConflict | undefined;
  let fence: string | undefined;
  const report = (conflict: OpenConflict, end?: FoundMarker) => {
    found.push({ line: conflict.line, marker: '<<<<<<<' }, ...conflict.inner, ...(end ? [end] : []));
  };
  text.split('\n').forEach((line, index) => {
    const marker = markerOf(line);
    const labelled = marker !== undefined && hasOurLabel(marker, line);
    if (!open?.ours && !labelled) {
      const inCode = fence !== undefined;
      fence = nextFenceState(fence, line);
      if (inCode) {
        return;
      }
    }
    if (marker === '<<<<<<<') {
      if (open && open.splitter) {
        report(open);
      }
      open = { line: index, ours: labelled, inner: [], splitter: false };
      // The extension's own conflict never sits in a code block: what looked like one was a side's fence.
      fence = labelled ? undefined : fence;
    } else if (marker === '>>>>>>>') {
      if (open && (open.splitter || open.ours || labelled)) {
        report(open, { line: index, marker });
      } else if (labelled) {
        found.push({ line: index, marker });
      }
      open = undefined;
    } else if (marker !== undefined && open && !open.splitter) {
      open.inner.push({ line: index, marker });
      open.splitter = marker === '=======';
    }
  });
  if (open && (open.splitter || open.ours)) {
    report(open);
  }
  return found;
}

function markerOf(line: string): ConflictMarker | undefined {
  const content = line.endsWith('\r') ? line.slice(0, -1) : line;
  const marker = content.slice(0, 7);
  if (marker === '=======') {
    return content.trimEnd() === marker ? marker : undefined;
  }
  if (marker !== '<<<<<<<' && marker !== '>>>>>>>' && marker !== '|||||||') {
    return undefined;
  }
  return content.length === 7 || content[7] === ' ' ? marker : undefined;
}

/** Whether a start or end marker line carries the label this extension writes there. */
function hasOurLabel(marker: ConflictMarker, line: string): boolean {
  const label = line.slice(8).trim();
  return marker === '<<<<<<<' ? label === OURS_LABEL : marker === '>>>>>>>' && (label === THEIRS_LABEL || label.startsWith(`${THEIRS_LABEL} `));
}
