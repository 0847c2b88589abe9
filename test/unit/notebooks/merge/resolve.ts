/** Resolves every conflict in a text as VS Code's merge-conflict actions do: keeps the chosen side's lines and drops the marker lines. */
export function acceptAll(text: string, choice: 'ours' | 'theirs' | 'both'): string {
  const kept: string[] = [];
  let inside: 'outside' | 'ours' | 'theirs' = 'outside';
  for (const line of text.split('\n')) {
    if (line.startsWith('<<<<<<<')) {
      inside = 'ours';
    } else if (inside === 'ours' && /^=======\r?$/.test(line)) {
      inside = 'theirs';
    } else if (inside === 'theirs' && line.startsWith('>>>>>>>')) {
      inside = 'outside';
    } else if (inside === 'outside' || choice === 'both' || choice === inside) {
      kept.push(line);
    }
  }
  return kept.join('\n');
}

export const LABELS = { ours: 'Yours', theirs: 'PostHog (version 7 by Ann Lee)' } as const;
