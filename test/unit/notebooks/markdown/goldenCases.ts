import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { toPostHogMarkdown } from '../../../../src/notebooks/markdown';

/**
 * The golden cases made by running PostHog's own Markdown reader and migration converter
 * (test/fixtures/posthog-dialect/README.md; POSTHOG_DIALECT_DATA names another folder). They live in the
 * repository so that a clone tests itself; goldenCopy.test.ts checks the copy against the steering
 * repository's shared/posthog-dialect when one lies beside the clone. Missing data fails the tests.
 */
export interface ReaderCase {
  readonly id: string;
  readonly source: string;
  readonly of?: string;
  readonly markdown: string;
  readonly expected: unknown;
}

export interface ConverterCase {
  readonly id: string;
  readonly source: string;
  readonly legacy: unknown;
  readonly posthogMarkdown: string;
  readonly posthogReading: unknown;
  readonly posthogConverterFaithful: boolean;
  readonly expected: unknown;
  readonly posthogFaults?: readonly string[];
  readonly expectedMarkdown?: string;
  readonly cannotHold: readonly string[];
  /** Loss cases: the class of loss the document holds (null on the controls). */
  readonly mustDeclare?: string | null;
  /** With mustDeclare: the indices in `legacy.content` of the top-level blocks holding it. */
  readonly declareAt?: readonly number[];
  /** Controls: documents that lose nothing. */
  readonly noLosses?: boolean;
}

const REPOSITORY = resolve(__dirname, '../../../../..');

export const GOLDEN_FILES = ['reader-cases.json', 'converter-cases.json'] as const;

export function dialectDataFolder(): string {
  return process.env.POSTHOG_DIALECT_DATA ?? resolve(REPOSITORY, 'test', 'fixtures', 'posthog-dialect');
}

/** Where the cases are published beside a clone (the steering repository's shared folder), if anywhere. */
export const publishedDialectFolder = (): string => resolve(dirname(REPOSITORY), 'shared', 'posthog-dialect');

function load<T>(file: string): T[] {
  const path = resolve(dialectDataFolder(), file);
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T[];
  } catch (error) {
    throw new Error(`The golden cases ${path} cannot be read (${(error as Error).message}): they belong in test/fixtures/posthog-dialect/.`);
  }
}

export const readerCases = (): ReaderCase[] => load<ReaderCase>('reader-cases.json');
export const converterCases = (): ConverterCase[] => load<ConverterCase>('converter-cases.json');

/** JSON with object keys sorted: equal texts mean equal values (arrays in order); `undefined` (a missing entry) is its own text. */
export function canonical(value: unknown): string {
  const json = JSON.stringify(value);
  return json === undefined ? 'undefined' : JSON.stringify(sortKeys(JSON.parse(json) as unknown));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(sortKeys);
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((key) => [key, sortKeys(record[key])]),
    );
  }
  return value;
}

/** A reading as the converter cases hold it: no component `raw`, errors reduced to their message. */
export function converterStripped(reading: { nodes: unknown[]; errors: { message: string }[] }): unknown {
  return {
    ...reading,
    nodes: reading.nodes.map((node) => {
      if (node !== null && typeof node === 'object' && (node as { type?: unknown }).type === 'component') {
        const { raw: _raw, ...rest } = node as Record<string, unknown>;
        return rest;
      }
      return node;
    }),
    errors: reading.errors.map((error) => ({ message: error.message })),
  };
}

/** Where two values first differ, for a failure message. */
export function firstDifference(actual: unknown, expected: unknown, path = ''): string | undefined {
  if (canonical(actual) === canonical(expected)) {
    return undefined;
  }
  if (Array.isArray(actual) && Array.isArray(expected)) {
    for (let index = 0; index < Math.max(actual.length, expected.length); index++) {
      const found = firstDifference(actual[index], expected[index], `${path}[${index}]`);
      if (found) {
        return found;
      }
    }
  }
  if (actual !== null && expected !== null && typeof actual === 'object' && typeof expected === 'object' && !Array.isArray(actual) && !Array.isArray(expected)) {
    const a = actual as Record<string, unknown>;
    const b = expected as Record<string, unknown>;
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const found = firstDifference(a[key], b[key], `${path}.${key}`);
      if (found) {
        return found;
      }
    }
  }
  return `${path || '(root)'}: got ${JSON.stringify(actual)?.slice(0, 200)}, expected ${JSON.stringify(expected)?.slice(0, 200)}`;
}

/** Lines of a Markdown text; a lone CR counts as a line end, as the golden cases' README allows. */
const lineCount = (markdown: string): number => (markdown === '' ? 0 : markdown.split(/\r\n|\r|\n/).length);

/**
 * The lines written for top-level block `index`, 0-based and inclusive, found with the writer itself: from the
 * line after the Markdown of the blocks before it (the blank line between counts) to the last line of the
 * Markdown up to it.
 */
export function blockLines(content: readonly unknown[], index: number): [number, number] {
  const before = lineCount(toPostHogMarkdown({ type: 'doc', content: content.slice(0, index) }).markdown);
  return [before, lineCount(toPostHogMarkdown({ type: 'doc', content: content.slice(0, index + 1) }).markdown) - 1];
}

