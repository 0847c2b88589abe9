// `npm start`: PostHog Explorer in a real VS Code against the local PostHog API with its demo data.
//   npm start                 VS Code 1.100.3 in the browser (VS Code's server; see test/host/vscode-server.ts)
//   npm start -- --desktop    desktop VS Code (`code` on PATH) with --extensionDevelopmentPath
// Options: --port N (workbench, default 8080), --api-port N (default 8010); a taken port moves to the next
// free one. --data-dir D (default .vscode-test/dev: settings, extensions, workspace), --no-open,
// --live-events N (new demo events a second, default 2, for the events panel's Live; 0: none), --live-notebook (a
// demo collaborator types into a notebook from "the web app": open it to watch live editing).
// Ctrl+C stops everything.
import { spawn, spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { startLocalApi } from '../api-server';
import { extensionVsix, repoRoot } from './paths';
import { firstFreePort } from './processes';
import { describeError } from './protocol';
import { ensureVscodeServer, installExtensions, prepareUserData, startVscodeServer } from './vscode-server';

const { values: options } = parseArgs({
  options: {
    desktop: { type: 'boolean', default: false },
    port: { type: 'string', default: '8080' },
    'api-port': { type: 'string', default: '8010' },
    'data-dir': { type: 'string', default: path.join(repoRoot, '.vscode-test', 'dev') },
    'no-open': { type: 'boolean', default: false },
    'live-events': { type: 'string', default: '2' },
    'live-notebook': { type: 'boolean', default: false },
  },
});
const dataDir = path.resolve(options['data-dir']);

function hasCommand(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

type Stop = () => Promise<void>;

async function startInBrowser(env: NodeJS.ProcessEnv, workspace: string, onExit: () => void): Promise<Stop> {
  await ensureVscodeServer();
  const dirs = {
    userData: path.join(dataDir, 'user-data'),
    serverData: path.join(dataDir, 'server-data'),
    extensions: path.join(dataDir, 'extensions'),
  };
  await prepareUserData(dirs);
  await installExtensions(dirs.extensions, [extensionVsix]);
  const port = await firstFreePort(Number(options.port));
  const server = await startVscodeServer({ dirs, port, env, logFile: path.join(dataDir, 'vscode-server.log') });
  void server.process.exited.then(onExit);
  const url = server.workbenchUrl(workspace);
  console.log(`Workbench: ${url}`);
  console.log(`\nOpen ${url} in a browser (VS Code 1.100.3 with PostHog Explorer). Ctrl+C stops everything.`);
  if (!options['no-open'] && process.env.DISPLAY && hasCommand('xdg-open')) {
    spawn('xdg-open', [url], { stdio: 'ignore', detached: true }).unref();
  }
  return () => server.stop();
}

async function startDesktop(env: NodeJS.ProcessEnv, workspace: string, onExit: () => void): Promise<Stop> {
  if (!hasCommand('code')) throw new Error('--desktop needs desktop VS Code’s `code` command on PATH');
  // Own user-data and extensions dirs: a separate VS Code instance, which gets this environment.
  const args = [
    '--new-window',
    '--wait',
    `--extensionDevelopmentPath=${repoRoot}`,
    `--user-data-dir=${path.join(dataDir, 'desktop-user-data')}`,
    `--extensions-dir=${path.join(dataDir, 'desktop-extensions')}`,
    '--enable-proposed-api=posthog-explorer.posthog-explorer',
    workspace,
  ];
  const code = spawn('code', args, { env, stdio: 'inherit' });
  code.on('exit', onExit);
  console.log('Desktop VS Code started with PostHog Explorer from this clone. Close its window or press Ctrl+C to stop.');
  return async () => {
    if (code.exitCode === null) code.kill('SIGTERM');
  };
}

async function main(): Promise<void> {
  const apiPort = await firstFreePort(Number(options['api-port']));
  console.log('Starting the local PostHog API with demo data…');
  const api = await startLocalApi({
    seed: 'demo',
    port: apiPort,
    liveEventsPerSecond: Number(options['live-events']) || 0,
    liveNotebook: options['live-notebook'],
  });
  console.log(`Local PostHog API: ${api.url}`);
  console.log(`Personal API key (all scopes): ${api.keys.all}`);
  if (api.demoNotebook) {
    const project = api.store.getProject(api.demoNotebook.projectId)?.name ?? api.demoNotebook.projectId;
    console.log(`Live notebook: open "${api.demoNotebook.title}" in project "${project}" (PostHog view, or PostHog: Open Notebook…); a demo collaborator is typing in it.`);
  }
  const env = { ...process.env, POSTHOG_HOST: api.url, POSTHOG_PERSONAL_API_KEY: api.keys.all };
  const workspace = path.join(dataDir, 'workspace');
  await mkdir(workspace, { recursive: true });

  let stopEditor: Stop = async () => undefined;
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping…');
    await stopEditor().catch(() => undefined);
    await api.close().catch(() => undefined);
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  const onEditorExit = () => {
    if (!stopping) console.log('The editor exited.');
    void shutdown(0);
  };
  try {
    stopEditor = await (options.desktop ? startDesktop : startInBrowser)(env, workspace, onEditorExit);
  } catch (error) {
    console.error(describeError(error));
    await shutdown(1);
  }
}

main().catch((error) => {
  console.error(describeError(error));
  process.exit(1);
});
