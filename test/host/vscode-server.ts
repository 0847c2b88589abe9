// The real VS Code (1.100.3) used by the test host and `npm start`: VS Code's server from code-server's npm
// package, installed by install-vscode-server.mjs into a cache outside the clone.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { installerScript, serverMainPath, vscodeServerDir } from './paths';
import { runToCompletion, startLongRunning, type LongRunning } from './processes';

/**
 * User settings that keep first-run chrome (trust prompt, welcome page, tips) out of the way, and make the
 * web workbench save like desktop VS Code (the web defaults to auto save, which hides dirty editors).
 */
const USER_SETTINGS = {
  'files.autoSave': 'off',
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
};

export interface ServerDirs {
  userData: string;
  serverData: string;
  extensions: string;
}

export interface VscodeServer {
  /** http://127.0.0.1:P (no trailing slash) */
  url: string;
  process: LongRunning;
  logFile: string;
  /** Opening this URL starts an extension host for `folder`. */
  workbenchUrl(folder: string): string;
  stop(): Promise<void>;
}

/** Installs the VS Code server into its cache unless a finished install is there. */
export async function ensureVscodeServer(): Promise<void> {
  if (existsSync(serverMainPath()) && existsSync(path.join(vscodeServerDir(), '.posthog-explorer-install.json'))) return;
  await runToCompletion(process.execPath, [installerScript], {
    env: { ...process.env, VSCODE_SERVER_DIR: vscodeServerDir() },
    inherit: true,
  });
}

export async function prepareUserData(dirs: ServerDirs): Promise<void> {
  await Promise.all([mkdir(dirs.serverData, { recursive: true }), mkdir(dirs.extensions, { recursive: true })]);
  await mkdir(path.join(dirs.userData, 'User'), { recursive: true });
  const settings = path.join(dirs.userData, 'User', 'settings.json');
  if (!existsSync(settings)) await writeFile(settings, JSON.stringify(USER_SETTINGS, null, 2) + '\n');
}

/** Installs .vsix files into an extensions dir (before the server starts, as VS Code's CLI requires). */
export async function installExtensions(extensionsDir: string, vsixFiles: string[]): Promise<void> {
  const installs = vsixFiles.flatMap((file) => ['--install-extension', file]);
  await runToCompletion(process.execPath, [serverMainPath(), '--extensions-dir', extensionsDir, ...installs, '--force']);
}

export async function startVscodeServer(options: {
  dirs: ServerDirs;
  port?: number;
  env: NodeJS.ProcessEnv;
  logFile: string;
  echo?: (text: string) => void;
}): Promise<VscodeServer> {
  const args = [
    serverMainPath(),
    '--host', '127.0.0.1',
    '--port', String(options.port ?? 0),
    '--without-connection-token',
    '--accept-server-license-terms',
    '--telemetry-level', 'off',
    '--user-data-dir', options.dirs.userData,
    '--server-data-dir', options.dirs.serverData,
    '--extensions-dir', options.dirs.extensions,
    // The Timeline API is proposed: VS Code lets these extensions use it (package.json enables the proposal).
    '--enable-proposed-api', 'posthog-explorer.posthog-explorer',
    '--enable-proposed-api', 'posthog-explorer.posthog-explorer-test-runner',
  ];
  const server = startLongRunning(process.execPath, args, { env: options.env, logFile: options.logFile, echo: options.echo });
  try {
    const [, port] = await server.waitForOutput(/Extension host agent listening on (\d+)/, 60_000);
    const url = `http://127.0.0.1:${port}`;
    return {
      url,
      process: server,
      logFile: options.logFile,
      workbenchUrl: (folder) => `${url}/?folder=${encodeURIComponent(folder)}`,
      stop: () => server.stop(),
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
