import type { NotebookListItem } from '../../api';

/**
 * "Open Notebook" matching. PostHog's `search` is Postgres full-text search on title and text_content:
 * whole words match, prefixes do not, so "sig" finds nothing on the server. While the user types, the
 * notebooks already loaded are matched here on the prefixes of their titles' words, and the server's
 * whole-word answer (which also searches the text) is added after them.
 */

/** Lower-case words of a text, accents dropped, split at anything that is not a letter or a digit. */
export function wordsOf(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** True when every word of the query starts a word of the title: "sig drop" matches "Signup drop-off". */
export function titleMatchesPrefixes(title: string | null, query: string): boolean {
  const wanted = wordsOf(query);
  if (wanted.length === 0) {
    return false;
  }
  const words = wordsOf(title ?? '');
  return wanted.every((prefix) => words.some((word) => word.startsWith(prefix)));
}

/** Loaded notebooks whose titles match the query's prefixes, in their order (newest change first). */
export function prefixMatches(loaded: readonly NotebookListItem[], query: string): NotebookListItem[] {
  return loaded.filter((notebook) => titleMatchesPrefixes(notebook.title, query));
}

/** Title-prefix matches first, then the server's matches that are not among them; each notebook once. */
export function mergeMatches(local: readonly NotebookListItem[], server: readonly NotebookListItem[]): NotebookListItem[] {
  const seen = new Set(local.map((notebook) => notebook.short_id));
  return [...local, ...server.filter((notebook) => !seen.has(notebook.short_id))];
}
