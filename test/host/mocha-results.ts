import type Mocha from 'mocha';
import { describeError, type TestResult } from './protocol';

/** Turns a mocha run's events into TestResults (used in the extension host and in the host's e2e run). */
export function collectMochaResults(
  runner: Mocha.Runner,
  tier: TestResult['tier'],
  onResult: (result: TestResult) => void,
): void {
  runner.on('pass', (test: Mocha.Test) => {
    onResult({ tier, title: test.fullTitle(), state: 'passed', durationMs: test.duration ?? 0 });
  });
  // Also fires for failing hooks ("before all" hook ...), which must fail the run too.
  runner.on('fail', (test: Mocha.Runnable, error: unknown) => {
    onResult({ tier, title: test.fullTitle(), state: 'failed', durationMs: test.duration ?? 0, error: describeError(error) });
  });
  runner.on('pending', (test: Mocha.Test) => {
    onResult({ tier, title: test.fullTitle(), state: 'skipped' });
  });
}
