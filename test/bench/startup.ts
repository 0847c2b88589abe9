// What VS Code's start costs because PostHog Explorer is installed, before and after activation on first use:
// the same build, installed twice into a real VS Code 1.100.3 (server + headless Chromium); "before" has its
// installed manifest given back the `onStartupFinished` activation event of 0.1.0. For each: is the extension
// loaded and activated while VS Code starts (Developer: Startup Performance), and how long the first expansion
// of the PostHog tree takes (opening the view until the first organization shows, activation included).
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { startLocalApi } from '../api-server';
import { Workbench } from '../e2e/workbench';
import { launchChromium, VIEWPORT } from '../host/browser';
import { extensionVsix } from '../host/paths';
import { delay } from '../host/processes';
import { ensureVscodeServer, installExtensions, prepareUserData, startVscodeServer } from '../host/vscode-server';
import { activationStats, type ActivationStats } from './editor';
import type { Figure } from './results';

type Variant = 'before' | 'after';

/** Startup settles: onStartupFinished activations run a little after the workbench is restored. */
const SETTLE_MS = 3_000;
const FIRST_ORGANIZATION = 'Hedgebox Inc.';

interface StartupRun {
  /** The extension's row in the report, read after the first tree expansion. */
  activation: ActivationStats | undefined;
  firstExpansionMs: number;
}

/** Activation events that load the extension while VS Code starts (as opposed to on first use). */
const STARTUP_EVENTS = new Set(['*', 'onStartupFinished']);

/** Gives the installed extension's manifest the activation events it had before lazy activation. */
async function restoreStartupActivation(extensionsDir: string): Promise<void> {
  const folder = (await readdir(extensionsDir)).find((name) => name.startsWith('posthog-explorer.posthog-explorer-'));
  if (!folder) throw new Error(`The extension is not installed in ${extensionsDir}`);
  const manifestPath = path.join(extensionsDir, folder, 'package.json');
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { activationEvents: string[] };
  manifest.activationEvents = ['onStartupFinished', ...manifest.activationEvents];
  await writeFile(manifestPath, JSON.stringify(manifest, null, 2));
}

async function runVariant(variant: Variant, env: NodeJS.ProcessEnv): Promise<StartupRun> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), `posthog-explorer-startup-${variant}-`));
  const dirs = { userData: path.join(tmp, 'user-data'), serverData: path.join(tmp, 'server-data'), extensions: path.join(tmp, 'extensions') };
  const cleanups: (() => Promise<unknown>)[] = [() => rm(tmp, { recursive: true, force: true })];
  try {
    await prepareUserData(dirs);
    await installExtensions(dirs.extensions, [extensionVsix]);
    if (variant === 'before') await restoreStartupActivation(dirs.extensions);
    const server = await startVscodeServer({ dirs, logFile: path.join(tmp, 'vscode-server.log'), env });
    cleanups.push(() => server.stop());
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    const page = await browser.newPage({ viewport: VIEWPORT });
    const workbench = await Workbench.open(page, server.workbenchUrl(tmp));
    await delay(SETTLE_MS);
    // The tree first, then the report: the report is a Markdown document, and VS Code's Markdown extension
    // loads the extensions that contribute preview plugins (this one) when it first renders Markdown.
    const started = performance.now();
    await workbench.openViewContainer('PostHog');
    await workbench.waitForTreeItem(FIRST_ORGANIZATION);
    const firstExpansionMs = performance.now() - started;
    return { activation: await activationStats(workbench), firstExpansionMs };
  } finally {
    for (const cleanup of cleanups.reverse()) await Promise.race([cleanup().catch(() => undefined), delay(15_000)]);
  }
}

const total = (stats: ActivationStats | undefined) => (stats ? stats.loadCodeMs + stats.callActivateMs + stats.finishActivateMs : 0);

export async function benchStartup(): Promise<Figure[]> {
  await ensureVscodeServer();
  const api = await startLocalApi({ seed: 'demo' });
  try {
    const env = { ...process.env, POSTHOG_HOST: api.url, POSTHOG_PERSONAL_API_KEY: api.keys.all };
    const before = await runVariant('before', env);
    const after = await runVariant('after', env);
    const section = 'VS Code startup (VS Code 1.100.3 web; before = the same build activated onStartupFinished)';
    const describe = (stats: ActivationStats | undefined) =>
      stats ? `load ${stats.loadCodeMs} + activate ${stats.callActivateMs + stats.finishActivateMs} ms (${stats.event})` : 'not loaded at startup';
    const startup = (stats: ActivationStats | undefined) => (stats && STARTUP_EVENTS.has(stats.event) ? stats : undefined);
    return [
      { section, what: 'before: extension load + activation during startup', value: total(startup(before.activation)), unit: 'ms', note: describe(before.activation) },
      {
        section,
        what: 'after: extension load + activation during startup',
        value: total(startup(after.activation)),
        unit: 'ms',
        budget: '0 ms (not loaded)',
        pass: startup(after.activation) === undefined,
        note: describe(after.activation),
      },
      { section, what: 'before: first tree expansion (open the view → first organization)', value: before.firstExpansionMs, unit: 'ms' },
      {
        section,
        what: 'after: first tree expansion, activation included',
        value: after.firstExpansionMs,
        unit: 'ms',
        note: `${(after.firstExpansionMs / before.firstExpansionMs).toFixed(2)}× before`,
      },
    ];
  } finally {
    await api.close();
  }
}
