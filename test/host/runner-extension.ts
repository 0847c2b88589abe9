// Builds test/runner-extension into a .vsix: esbuild bundles its runner with mocha and every in-editor suite
// (test/suite/**/*.test.ts), because VS Code's server ignores --extensionTestsPath.
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { repoRoot } from './paths';
import { runToCompletion } from './processes';

export const runnerExtensionDir = path.join(repoRoot, 'test', 'runner-extension');
const extensionDir = runnerExtensionDir;
const suitesDir = path.join(repoRoot, 'test', 'suite');

export function suiteFiles(): string[] {
  return readdirSync(suitesDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .sort()
    .map((file) => path.join(suitesDir, file));
}

/** Entry module: each suite is require()d lazily so that mocha's `pre-require` comes first. */
function entrySource(files: string[]): string {
  const suites = files.map(
    (file) => `{ name: ${JSON.stringify(path.relative(repoRoot, file))}, load: () => require(${JSON.stringify(file)}) }`,
  );
  return [
    `import type * as vscode from 'vscode';`,
    `import { startRunner } from './src/runner';`,
    `export function activate(context: vscode.ExtensionContext): void { startRunner(context, [${suites.join(', ')}]); }`,
    `export function deactivate(): void {}`,
  ].join('\n');
}

/** Bundles test/runner-extension/dist/extension.js (mocha, the runner and every suite). */
export async function bundleRunnerExtension(): Promise<void> {
  await esbuild.build({
    stdin: { contents: entrySource(suiteFiles()), resolveDir: extensionDir, sourcefile: 'runner-entry.ts', loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    outfile: path.join(extensionDir, 'dist', 'extension.js'),
    logLevel: 'error',
  });
}

/** Bundles the runner extension and packages it; returns the path of the .vsix (in `outDir`). */
export async function buildRunnerExtension(outDir: string): Promise<string> {
  await bundleRunnerExtension();
  const vsix = path.join(outDir, 'posthog-explorer-test-runner.vsix');
  const vsce = path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  await runToCompletion(
    process.execPath,
    [vsce, 'package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '--out', vsix],
    { cwd: extensionDir },
  );
  return vsix;
}
