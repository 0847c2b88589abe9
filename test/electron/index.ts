// Mocha entry for @vscode/test-electron: VS Code desktop loads this file through --extensionTestsPath and
// calls run() inside the extension host. It runs the same suites as the real-editor tier (test/suite/).
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: true });
  const suitesDir = path.resolve(__dirname, '..', 'suite');
  readdirSync(suitesDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.js'))
    .sort()
    .forEach((file) => mocha.addFile(path.join(suitesDir, file)));
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} in-editor test(s) failed`)) : resolve()));
  });
}
