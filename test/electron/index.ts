// Mocha entry for @vscode/test-electron: VS Code desktop loads this file through --extensionTestsPath and
// calls run() inside the extension host. It runs the same suites as the real-editor tier (test/suite/).
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';

/** test/runner-extension, loaded as a development extension: its activate() publishes its context to suites. */
const RUNNER_EXTENSION_ID = 'posthog-explorer.posthog-explorer-test-runner';

export async function run(): Promise<void> {
  await vscode.extensions.getExtension(RUNNER_EXTENSION_ID)?.activate();
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: true });
  const suitesDir = path.resolve(__dirname, '..', 'suite');
  readdirSync(suitesDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.js'))
    .sort()
    .forEach((file) => mocha.addFile(path.join(suitesDir, file)));
  await new Promise<void>((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} in-editor test(s) failed`)) : resolve()));
  });
}
