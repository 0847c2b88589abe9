import { existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The clone's root: the nearest folder above this file with a package.json (source or compiled in out/). */
export const repoRoot = findRoot(__dirname);

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No package.json above ${from}`);
  }
}

export const resultsDir = path.join(repoRoot, 'test-results');
export const extensionVsix = path.join(repoRoot, 'dist', 'posthog-explorer.vsix');
export const installerScript = path.join(repoRoot, 'test', 'host', 'install-vscode-server.mjs');

/** Same default as install-vscode-server.mjs; the host passes it to the installer through VSCODE_SERVER_DIR. */
export function vscodeServerDir(): string {
  return process.env.VSCODE_SERVER_DIR || path.join(os.homedir(), '.cache', 'posthog-explorer', 'vscode-server-4.100.3');
}

export function serverMainPath(): string {
  return path.join(vscodeServerDir(), 'lib', 'vscode', 'out', 'server-main.js');
}
