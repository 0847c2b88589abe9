/**
 * Strings that come from a server or a teammate (names, titles, dates, ids) and end up on one line of the
 * editor: a conflict marker line, a tree label, a tooltip, a quick pick, a file or tab name. A line break there
 * would start a line of its own (text after a `>>>>>>>` marker is taken as the user's); other control
 * characters show as nothing or garble the line; bidi controls reorder what is shown, so that a name reads
 * differently from what it is; lone surrogates make file names that cannot be encoded in a URI.
 */

/** Line breaks and other white space controls: each run becomes one space. */
const BREAKS = '\\t\\n\\v\\f\\r\\u0085\\u2028\\u2029';
const IS_BREAK = new RegExp(`^[${BREAKS}]$`);
/** Other C0 and C1 controls, DEL, and the bidi embeddings, overrides, isolates and marks. */
const HIDDEN = '\\u0000-\\u0008\\u000e-\\u001f\\u007f-\\u0084\\u0086-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
const LONE_SURROGATE = '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';
const UNSAFE = new RegExp(`[${BREAKS}]|[${HIDDEN}]|${LONE_SURROGATE}`, 'g');
const REPLACEMENT = '\uFFFD';

/** The longest a safe line is by default, in UTF-16 code units (names, titles, labels). */
export const SAFE_LINE_LENGTH = 200;

/**
 * The text reduced to one line that shows what it is: line breaks and other white space runs become one
 * space, other control characters, bidi controls and lone surrogates become U+FFFD (so that something
 * visibly was there), the ends are trimmed, and text longer than `maxLength` is cut, ending with "…".
 * Linear in the text's length.
 */
export function oneSafeLine(text: string, maxLength = SAFE_LINE_LENGTH): string {
  const line = text
    .replace(UNSAFE, (found) => (IS_BREAK.test(found) ? ' ' : REPLACEMENT))
    .replace(/\s+/g, ' ')
    .trim();
  return capLength(line, maxLength);
}

/** The text cut to `maxLength` code units with "…" last, never between the two halves of a surrogate pair. */
export function capLength(text: string, maxLength: number): string {
  if (text.length <= maxLength) {
    return text;
  }
  let end = Math.max(0, maxLength - 1);
  if (end > 0 && /[\ud800-\udbff]/.test(text.charAt(end - 1))) {
    end--;
  }
  return `${text.slice(0, end).trimEnd()}…`;
}

/**
 * A server's or teammate's text for a label that draws `$(name)` as an icon (status bar items and messages):
 * each such `$(` escaped with a backslash, which VS Code takes as "show this literally".
 */
export function escapeIcons(text: string): string {
  return text.replace(/\$\((?=[A-Za-z0-9-]+(?:~[A-Za-z]+)?\))/g, '\\$(');
}
