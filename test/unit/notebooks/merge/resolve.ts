/**
 * Resolves every conflict in a text as VS Code's merge-conflict actions do (extensions/merge-conflict in
 * VS Code 1.100, read from its bundled mergeConflictMain.js): blank lines are skipped when looking for
 * markers; a line starting with `<<<<<<<` starts a conflict (a second one inside a conflict stops the scan:
 * later conflicts are left as they are); lines starting with `|||||||` before the splitter start a base
 * section that ends "current"; the first line that is exactly `=======` is the splitter; a line starting with
 * `>>>>>>>` ends the conflict. Accepting keeps the chosen side's lines (both: current, then incoming) and drops
 * the marker lines and any base section.
 */
export function acceptAll(text: string, choice: 'ours' | 'theirs' | 'both'): string {
  const lines = text.split('\n');
  const kept: string[] = [];
  let done = 0;
  for (const conflict of scanConflicts(lines)) {
    kept.push(...lines.slice(done, conflict.start));
    const ours = lines.slice(conflict.start + 1, conflict.oursEnd);
    const theirs = lines.slice(conflict.splitter + 1, conflict.end);
    kept.push(...(choice === 'ours' ? ours : choice === 'theirs' ? theirs : [...ours, ...theirs]));
    done = conflict.end + 1;
  }
  kept.push(...lines.slice(done));
  return kept.join('\n');
}

interface ScannedConflict {
  readonly start: number;
  /** The first base-section line, or the splitter. */
  readonly oursEnd: number;
  readonly splitter: number;
  readonly end: number;
}

/** The conflicts VS Code finds in the lines, in order. */
export function scanConflicts(lines: readonly string[]): ScannedConflict[] {
  const found: ScannedConflict[] = [];
  let current: { start: number; ancestors: number[]; splitter?: number } | undefined;
  for (let index = 0; index < lines.length; index++) {
    const text = (lines[index] as string).replace(/\r$/, '');
    if (text.trim() === '') {
      continue;
    }
    if (text.startsWith('<<<<<<<')) {
      if (current) {
        break;
      }
      current = { start: index, ancestors: [] };
    } else if (current && current.splitter === undefined && text.startsWith('|||||||')) {
      current.ancestors.push(index);
    } else if (current && current.splitter === undefined && text === '=======') {
      current.splitter = index;
    } else if (current && text.startsWith('>>>>>>>')) {
      if (current.splitter !== undefined) {
        found.push({ start: current.start, oursEnd: current.ancestors[0] ?? current.splitter, splitter: current.splitter, end: index });
      }
      current = undefined;
    }
  }
  return found;
}

export const LABELS = { ours: 'Yours', theirs: 'PostHog (version 7 by Ann Lee)' } as const;
