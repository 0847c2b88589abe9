// Runs the bundled in-editor suites with mocha inside VS Code's extension host and POSTs each result to the
// test host (test/host/run.ts), whose URL arrives in an environment variable of the VS Code server process.
import * as http from 'node:http';
import Mocha from 'mocha';
import type * as vscode from 'vscode';
import { publishRunnerContext } from '../../suite/support/runnerContext';
import { collectMochaResults } from '../../host/mocha-results';
import { describeError, GREP_ENV, REPORT_URL_ENV, type RunnerMessage } from '../../host/protocol';

export interface SuiteFile {
  name: string;
  load(): void;
}

/** The report URL the suites already ran for, in this profile. */
const RAN_FOR_KEY = 'posthogExplorerTest.ranFor';

export function startRunner(context: vscode.ExtensionContext, files: SuiteFile[]): void {
  // Suites use this extension's real SecretStorage (and other context services) through it, also under
  // @vscode/test-electron, where test/electron/index.ts activates this extension and runs the suites itself.
  publishRunnerContext(context);
  const reportUrl = process.env[REPORT_URL_ENV];
  if (!reportUrl) return; // Not started by the test host: run nothing.
  // Once per test host: an e2e test that reloads the window activates this extension again.
  if (context.globalState.get(RAN_FOR_KEY) === reportUrl) return;
  void context.globalState.update(RAN_FOR_KEY, reportUrl);
  const reporter = new Reporter(reportUrl);
  runSuites(files, reporter).catch((error) => reporter.send({ type: 'crash', error: describeError(error) }));
}

async function runSuites(files: SuiteFile[], reporter: Reporter): Promise<void> {
  const grep = process.env[GREP_ENV];
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: Mocha.reporters.Base, ...(grep ? { grep } : {}) });
  // A private context object keeps mocha's describe/it off the extension host's shared globals;
  // suites import them from 'mocha', which follows the context of the file being loaded.
  const context = {};
  for (const file of files) {
    mocha.suite.emit('pre-require', context, file.name, mocha);
    file.load();
    mocha.suite.emit('post-require', context, file.name, mocha);
  }
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    reporter.send({ type: 'begin', total: runner.total });
    collectMochaResults(runner, 'editor', (result) => reporter.send({ type: 'result', result }));
  });
  await reporter.send({ type: 'end' });
}


/** Sends messages one after another, so the host sees them in order. */
class Reporter {
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly url: string) {}

  send(message: RunnerMessage): Promise<void> {
    this.queue = this.queue.then(() => post(this.url, message)).catch(() => undefined);
    return this.queue;
  }
}

function post(url: string, message: RunnerMessage): Promise<void> {
  const body = JSON.stringify(message);
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (response) => {
      response.resume();
      response.on('end', () => resolve());
    });
    request.on('error', reject);
    request.end(body);
  });
}
