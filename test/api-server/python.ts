// What Python's built-ins make of a string, where PostHog's behaviour depends on it.

/**
 * Python's int() of a string: surrounding whitespace, a sign, single underscores between digits
 * (" 7", "+7", "007", "1_000"); undefined where int() raises ValueError. Only ASCII digits here (Python
 * also reads other Unicode decimal digits).
 */
export function pythonInt(text: string): number | undefined {
  const match = /^\s*([+-]?)([0-9]+(?:_[0-9]+)*)\s*$/.exec(text);
  return match ? Number(match[1]! + match[2]!.replace(/_/g, '')) : undefined;
}
