/**
 * Character classes of PostHog's Markdown reader, which uses JavaScript's regular expressions (`\s`, `.`):
 * the same sets, tested without building strings.
 */

/** JavaScript's `\s`: ASCII whitespace, no-break and Unicode spaces, line and paragraph separators, BOM. */
export function isWhitespaceCode(code: number): boolean {
  if (code < 0x80) {
    return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  }
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Whether `text[index]` exists and is whitespace. */
export function isWhitespaceAt(text: string, index: number): boolean {
  return index >= 0 && index < text.length && isWhitespaceCode(text.charCodeAt(index));
}

/** What `.` does not match: a line terminator. */
export function isLineTerminatorCode(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
}

export function hasLineTerminator(text: string, from = 0): boolean {
  for (let index = from; index < text.length; index++) {
    if (isLineTerminatorCode(text.charCodeAt(index))) {
      return true;
    }
  }
  return false;
}

export function isAsciiAlphanumericAt(text: string, index: number): boolean {
  if (index < 0 || index >= text.length) {
    return false;
  }
  const code = text.charCodeAt(index);
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

export function isAsciiDigitCode(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** The index after the whitespace starting at `from` (and before `end`). */
export function skipWhitespace(text: string, from: number, end = text.length): number {
  let index = from;
  while (index < end && isWhitespaceCode(text.charCodeAt(index))) {
    index++;
  }
  return index;
}

/** The characters a backslash escapes in PostHog's inline text: `\X` reads as X for these only. */
export const ESCAPABLE = '\\`*_~[]()<>#+-.|!•';
const ESCAPABLE_CODES = new Set(Array.from(ESCAPABLE, (char) => char.charCodeAt(0)));

export function isEscapableAt(text: string, index: number, end = text.length): boolean {
  return index < end && ESCAPABLE_CODES.has(text.charCodeAt(index));
}

/** The first index in a sorted array whose value is at least `value`. */
export function lowerBound(sorted: ArrayLike<number>, value: number): number {
  return lowerBoundBetween(sorted, value, 0, sorted.length);
}

/** lowerBound, knowing the answer is in [low, high]. */
function lowerBoundBetween(sorted: ArrayLike<number>, value: number, low: number, high: number): number {
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

/**
 * lowerBound, searched outward from `hint` (where an earlier search ended) by doubling steps: a reader that
 * moves forward asks for answers near the last one, so a search costs a few reads rather than a full halving.
 */
export function lowerBoundNear(sorted: ArrayLike<number>, value: number, hint: number): number {
  const length = sorted.length;
  let low: number;
  let high = Math.min(Math.max(hint, 0), length);
  let step = 1;
  if (high < length && sorted[high]! < value) {
    // Everything before `low` is below the value; the answer is at most `high`.
    low = high + 1;
    while (low + step - 1 < length && sorted[low + step - 1]! < value) {
      low += step;
      step *= 2;
    }
    high = Math.min(low + step - 1, length);
  } else {
    while (high - step >= 0 && sorted[high - step]! >= value) {
      high -= step;
      step *= 2;
    }
    low = Math.max(high - step + 1, 0);
  }
  return lowerBoundBetween(sorted, value, low, high);
}
