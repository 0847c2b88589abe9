import { oneSafeLine } from '../../common/text';
import { type PhLocatedBlock, readPostHogBlocks } from '../markdown';
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
 * A side's lines with no line VS Code could take for a marker, each spelled so that PostHog reads it the same
 * (readPostHogMarkdown; the legacy notebook's reader agrees): a `<<<<<<<` or `|||||||` line of text takes a
 * backslash, which PostHog's escapes remove (`\<`, `\|`); a `>>>>>>>` line, a quote for PostHog, and a table
 * row take a space in front, which PostHog trims there; a line of exactly `=======` (VS Code wants the splitter
 * exact) is followed by an empty `<u></u>`, which PostHog reads as nothing. In a code block, a comment note or
 * a tag's raw lines PostHog has no escape: there the line takes a space in front (its text gains a space, and
 * nothing is lost).
 */
export function withoutLookAlikes(lines: readonly string[], lookAlike = LOOK_ALIKE): readonly string[] {
  if (!lines.some((line) => lookAlike.test(line))) {
    return lines;
  }
  const places = linePlaces(lines);
  return lines.map((line, index) => (lookAlike.test(line) ? respelled(line, places[index] ?? 'text') : line));
}

/** Where a line is in PostHog's reading: text (paragraphs, quotes, headings), a table, or raw (code, notes, tags). */
type LinePlace = 'text' | 'table' | 'raw';

function linePlaces(lines: readonly string[]): LinePlace[] {
  const places: LinePlace[] = lines.map(() => 'text');
  const text = lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line)).join('\n');
  for (const block of readPostHogBlocks(text).blocks) {
    const place = placeOf(block);
    for (let line = block.line; line < block.endLine; line++) {
      places[line] = place;
    }
  }
  return places;
}

function placeOf(block: PhLocatedBlock): LinePlace {
  if (block.error || block.node.type === 'code' || block.node.type === 'component') {
    return 'raw';
  }
  return block.node.type === 'table' ? 'table' : 'text';
}

function respelled(line: string, place: LinePlace): string {
  const lineEnd = line.endsWith('\r') ? '\r' : '';
  const content = lineEnd ? line.slice(0, -1) : line;
  if (place === 'raw') {
    return ` ${line}`;
  }
  if (content.startsWith('=')) {
    return content === '=======' ? `${content}${EMPTY_INLINE}${lineEnd}` : line;
  }
  if (content.startsWith('>') || place === 'table') {
    return ` ${line}`;
  }
  return `\\${line}`;
}

/** Inline Markdown PostHog reads as nothing (an empty underline). */
const EMPTY_INLINE = '<u></u>';

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
