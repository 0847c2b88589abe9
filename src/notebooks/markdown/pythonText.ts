/**
 * Whitespace as PostHog's server-side converter (Python) sees it: `str.isspace`, `strip()` and `re`'s `\s`.
 * It differs from JavaScript's `\s` at the edges (Python counts U+001C–U+001F and U+0085, not U+FEFF), and
 * the converter's output depends on it (which blocks are blank, what a list line keeps).
 */
export function isPythonSpace(char: string): boolean {
  const code = char.charCodeAt(0);
  if (code <= 0x20) {
    return code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x1c && code <= 0x1f);
  }
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

export function pythonStripEnd(text: string): string {
  let end = text.length;
  while (end > 0 && isPythonSpace(text[end - 1]!)) {
    end--;
  }
  return text.slice(0, end);
}

export function pythonStripStart(text: string): string {
  let start = 0;
  while (start < text.length && isPythonSpace(text[start]!)) {
    start++;
  }
  return text.slice(start);
}

export function pythonStrip(text: string): string {
  return pythonStripStart(pythonStripEnd(text));
}

export function isPythonBlank(text: string): boolean {
  return pythonStrip(text) === '';
}

/** `re.sub(r"\s*\n\s*", " ", text)`: every line break, with the whitespace around it, becomes one space. */
export function pythonJoinLines(text: string): string {
  if (!text.includes('\n')) {
    return text;
  }
  const parts: string[] = [];
  let index = 0;
  while (index < text.length) {
    const newline = text.indexOf('\n', index);
    if (newline === -1) {
      parts.push(text.slice(index));
      break;
    }
    let start = newline;
    while (start > index && isPythonSpace(text[start - 1]!)) {
      start--;
    }
    let end = newline + 1;
    while (end < text.length && isPythonSpace(text[end]!)) {
      end++;
    }
    parts.push(text.slice(index, start), ' ');
    index = end;
  }
  return parts.join('');
}
