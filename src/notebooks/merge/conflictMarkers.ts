/**
 * Git-style conflict markers, each at a line start, as VS Code's merge-conflict actions (Accept Current /
 * Incoming / Both) expect them:
 *
 *   <<<<<<< Yours
 *   (ours)
 *   =======
 *   (theirs)
 *   >>>>>>> PostHog (version 7 by Ann Lee)
 */

/** What the two sides are called in markers, e.g. "Yours" and "PostHog (version 7 by Ann Lee)". */
export interface MergeLabels {
  readonly ours: string;
  readonly theirs: string;
}

export type ConflictMarker = '<<<<<<<' | '=======' | '>>>>>>>' | '|||||||';

export interface FoundMarker {
  /** From 0. */
  readonly line: number;
  readonly marker: ConflictMarker;
}

/** The lines of one conflict: markers around ours' and theirs' lines, each ending with `lineEnd` ("" or "\r"). */
export function conflictLines(ours: readonly string[], theirs: readonly string[], labels: MergeLabels, lineEnd: string): string[] {
  return [`<<<<<<< ${labels.ours}${lineEnd}`, ...ours, `=======${lineEnd}`, ...theirs, `>>>>>>> ${labels.theirs}${lineEnd}`];
}

/**
 * Conflict markers left in a text, to refuse saving it: every `<<<<<<<` and `>>>>>>>` line (a marker at the
 * line start followed by a space or the line end), and the `=======` / `|||||||` lines between a `<<<<<<<`
 * and its `>>>>>>>`. A `=======` elsewhere is a Markdown heading underline and is not reported.
 */
export function findConflictMarkers(text: string): FoundMarker[] {
  const found: FoundMarker[] = [];
  let open: { line: number; inner: FoundMarker[] } | undefined;
  text.split('\n').forEach((line, index) => {
    const marker = markerOf(line);
    if (marker === '<<<<<<<') {
      if (open) {
        found.push({ line: open.line, marker: '<<<<<<<' });
      }
      open = { line: index, inner: [] };
    } else if (marker === '>>>>>>>') {
      if (open) {
        found.push({ line: open.line, marker: '<<<<<<<' }, ...open.inner);
        open = undefined;
      }
      found.push({ line: index, marker });
    } else if (marker !== undefined) {
      open?.inner.push({ line: index, marker });
    }
  });
  if (open) {
    found.push({ line: open.line, marker: '<<<<<<<' });
  }
  return found.sort((a, b) => a.line - b.line);
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
