// What the test-runner extension (inside VS Code's extension host) and the e2e runner report to the host.

export type TestState = 'passed' | 'failed' | 'skipped';

export interface TestResult {
  /** 'editor' = in-editor mocha suite, 'e2e' = Playwright test, 'host' = a check made by the host itself. */
  tier: 'editor' | 'e2e' | 'host';
  title: string;
  state: TestState;
  durationMs?: number;
  error?: string;
}

export type RunnerMessage =
  | { type: 'begin'; total: number }
  | { type: 'result'; result: TestResult }
  | { type: 'end' }
  | { type: 'crash'; error: string };

/** Env var carrying the loopback URL the test-runner extension POSTs its RunnerMessages to. */
export const REPORT_URL_ENV = 'POSTHOG_EXPLORER_TEST_REPORT_URL';
/** Optional env var: only run in-editor tests whose full title matches this pattern (mocha grep). */
export const GREP_ENV = 'POSTHOG_EXPLORER_TEST_GREP';
/** Env var with the local API's keys as JSON ({ all, readOnly, notebooksOnly, oneProject }), for suites that need them. */
export const API_KEYS_ENV = 'POSTHOG_EXPLORER_TEST_API_KEYS';

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
