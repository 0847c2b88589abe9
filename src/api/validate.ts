import * as z from 'zod/mini';
import { ResponseShapeError } from './errors';

// zod/mini leaves its messages out until a locale is set ("Invalid input" for every problem); English says what
// was expected, as full zod did (esbuild.mjs bundles English alone).
z.config(z.locales.en());

type Issue = z.core.$ZodIssue;

/** Validates a response body; a body that does not fit throws ResponseShapeError naming the field. */
export function parseShape<T extends z.ZodMiniType>(schema: T, data: unknown, endpoint: string): z.infer<T> {
  const result = schema.safeParse(data);
  if (result.success) {
    return result.data;
  }
  const issue = deepestIssue(result.error.issues[0]);
  throw new ResponseShapeError({
    endpoint,
    path: issue.path.map(String).join('.'),
    problem: describeIssue(issue, valueAt(data, issue.path)),
  });
}

/** For a union, the branch that got furthest names the field better than "Invalid input". */
function deepestIssue(issue: Issue, prefix: PropertyKey[] = []): Issue & { path: PropertyKey[] } {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const branches = issue.errors.filter((branch) => branch.length > 0);
    const best = branches.reduce((a, b) => (maxDepth(b) > maxDepth(a) ? b : a), branches[0]);
    if (best && maxDepth(best) > 0) {
      return deepestIssue(best[0], path);
    }
  }
  return { ...issue, path };
}

function maxDepth(issues: Issue[]): number {
  return Math.max(0, ...issues.map((issue) => issue.path.length));
}

function describeIssue(issue: Issue, value: unknown): string {
  if (issue.code === 'invalid_type') {
    return `expected ${issue.expected}, received ${kindOf(value)}`;
  }
  if (issue.code === 'invalid_union') {
    return `unexpected ${kindOf(value)}`;
  }
  return issue.message;
}

function kindOf(value: unknown): string {
  if (value === undefined) {
    return 'nothing (missing)';
  }
  if (value === null) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return 'array';
  }
  return typeof value;
}

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let current = data;
  for (const key of path) {
    if (current === null || typeof current !== 'object') {
      return undefined;
    }
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
