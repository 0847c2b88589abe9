// The real-editor test tier (`npm run test:editor`): packages the extension, starts the local PostHog API and a
// real VS Code 1.100.3 (VS Code's server + headless Chromium), runs the in-editor mocha suites inside the
// extension host (through test/runner-extension), then the Playwright e2e tests against the same workbench,
// then checks that `npm start` brings a workbench up. Prints each test and a closing "N passed, N failed".
import { cp, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createWriteStream, existsSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Mocha from 'mocha';
import type { Browser, Page } from 'playwright-core';
import { startLocalApi } from '../api-server';
import { setE2EContext, type E2EContext } from '../e2e/context';
import { Workbench } from '../e2e/workbench';
import { launchChromium, VIEWPORT } from './browser';
import { collectMochaResults } from './mocha-results';
import { extensionVsix, repoRoot, resultsDir } from './paths';
import { delay, runToCompletion } from './processes';
import { API_KEYS_ENV, describeError, GREP_ENV, REPORT_URL_ENV, type RunnerMessage, type TestResult } from './protocol';
import { ReportServer } from './report-server';
import { dialectDataFolder } from '../unit/notebooks/markdown/goldenCases';
import { buildRunnerExtension } from './runner-extension';
import { checkNpmStart } from './start-check';
import { ensureVscodeServer, installExtensions, prepareUserData, startVscodeServer } from './vscode-server';

const minutes = (n: number) => n * 60_000;
const OVERALL_TIMEOUT_MS = Number(process.env.POSTHOG_EXPLORER_TEST_TIMEOUT_MS) || minutes(10);
/** How long the test-runner extension may take to say it began (extension host start + activation). */
const RUNNER_START_TIMEOUT_MS = minutes(2);
const EDITOR_SUITES_TIMEOUT_MS = minutes(5);
/** Failure artifacts: screenshots, VS Code server log, extension host logs, browser console. */
const artifactsDir = path.join(resultsDir, 'editor');

class Results {
  readonly all: TestResult[] = [];

  add(result: TestResult): void {
    this.all.push(result);
    const mark = { passed: '✓', failed: '✗', skipped: '-' }[result.state];
    const duration = result.durationMs === undefined ? '' : ` (${result.durationMs} ms)`;
    console.log(`  ${mark} [${result.tier}] ${result.title}${result.state === 'skipped' ? ' (skipped)' : duration}`);
    if (result.error) console.log(indent(result.error, 6));
  }

  fail(title: string, error: unknown): void {
    this.add({ tier: 'host', title, state: 'failed', error: describeError(error) });
  }

  count(state: TestResult['state']): number {
    return this.all.filter((result) => result.state === state).length;
  }
}

function indent(text: string, spaces: number): string {
  return text
    .split('\n')
    .map((line) => ' '.repeat(spaces) + line)
    .join('\n');
}

function section(title: string): void {
  console.log(`\n${title}`);
}

/** Resolves when the test-runner extension reports its end; rejects on a crash or a timeout. */
class EditorRun {
  private began = false;
  private settle!: { resolve: () => void; reject: (error: Error) => void };
  readonly done = new Promise<void>((resolve, reject) => (this.settle = { resolve, reject }));

  constructor(private readonly results: Results) {}

  onMessage(message: RunnerMessage): void {
    if (message.type === 'begin') {
      this.began = true;
      console.log(`  in-editor: ${message.total} test(s)`);
    } else if (message.type === 'result') this.results.add(message.result);
    else if (message.type === 'end') this.settle.resolve();
    else this.settle.reject(new Error(`The test-runner extension crashed:\n${message.error}`));
  }

  async wait(): Promise<void> {
    const started = Date.now();
    while (!this.began) {
      if (Date.now() - started > RUNNER_START_TIMEOUT_MS) {
        throw new Error('The test-runner extension did not start: no report from the extension host (see its logs)');
      }
      await Promise.race([this.done, delay(250)]);
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`The in-editor suites did not finish within ${EDITOR_SUITES_TIMEOUT_MS / 1000} s`)), EDITOR_SUITES_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.done, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Runs test/e2e/*.e2e.ts (compiled next to this file's folder) in this process with mocha. */
async function runE2E(context: E2EContext, results: Results): Promise<void> {
  const e2eDir = path.join(__dirname, '..', 'e2e');
  const files = (await readdir(e2eDir)).filter((file) => file.endsWith('.e2e.js')).sort();
  setE2EContext(context);
  const grep = process.env[GREP_ENV];
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, reporter: Mocha.reporters.Base, ...(grep ? { grep } : {}) });
  for (const file of files) mocha.addFile(path.join(e2eDir, file));
  let failures = 0;
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    collectMochaResults(runner, 'e2e', (result) => {
      results.add(result);
      // Keep what the page looked like at the moment a test failed.
      if (result.state === 'failed') void screenshot(context.page, `e2e-failure-${++failures}.png`);
    });
  });
  setE2EContext(undefined);
}


async function screenshot(page: Page, name: string): Promise<void> {
  try {
    await mkdir(artifactsDir, { recursive: true });
    await page.screenshot({ path: path.join(artifactsDir, name), timeout: 10_000 });
  } catch {
    // The page may be gone; the logs remain.
  }
}

interface Session {
  tmp: string;
  userDataDir: string;
  serverLog: string;
  browserLog: string;
  page?: Page;
}

async function saveArtifacts(session: Session): Promise<void> {
  await mkdir(artifactsDir, { recursive: true });
  if (session.page) await screenshot(session.page, 'failure.png');
  const copies: [string, string][] = [
    [session.serverLog, 'vscode-server.log'],
    [session.browserLog, 'browser-console.log'],
    [path.join(session.userDataDir, 'logs'), 'logs'],
  ];
  for (const [from, to] of copies) {
    if (existsSync(from)) await cp(from, path.join(artifactsDir, to), { recursive: true }).catch(() => undefined);
  }
  console.log(`\nFailure artifacts (screenshots, VS Code server and extension host logs): ${artifactsDir}`);
}

async function runEditorTier(results: Results, session: Session, deadline: Promise<never>): Promise<Browser | undefined> {
  const { tmp } = session;
  section('Preparing: package the extension, VS Code server, test-runner extension');
  await runToCompletion('npm', ['run', 'package', '--silent'], { cwd: repoRoot });
  await ensureVscodeServer();
  const runnerVsix = await buildRunnerExtension(tmp);
  const dirs = { userData: session.userDataDir, serverData: path.join(tmp, 'server-data'), extensions: path.join(tmp, 'extensions') };
  await prepareUserData(dirs);
  await installExtensions(dirs.extensions, [extensionVsix, runnerVsix]);
  const workspaceDir = path.join(tmp, 'workspace');
  await mkdir(workspaceDir, { recursive: true });

  let browser: Browser | undefined;
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const api = await startLocalApi({ seed: 'minimal', control: true });
    cleanups.push(() => api.close());
    const editorRun = new EditorRun(results);
    const reports = await ReportServer.start((message) => editorRun.onMessage(message));
    cleanups.push(() => reports.close());
    const server = await startVscodeServer({
      dirs,
      logFile: session.serverLog,
      env: {
        ...process.env,
        POSTHOG_HOST: api.url,
        POSTHOG_PERSONAL_API_KEY: api.keys.all,
        [API_KEYS_ENV]: JSON.stringify(api.keys),
        [REPORT_URL_ENV]: reports.url,
        // The golden cases of PostHog's Markdown reader, for the preview's in-editor test.
        POSTHOG_DIALECT_DATA: dialectDataFolder(),
      },
    });
    cleanups.push(() => server.stop());
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: VIEWPORT });
    session.page = page;
    const browserLog = createWriteStream(session.browserLog);
    page.on('console', (message) => browserLog.write(`[${message.type()}] ${message.text()}\n`));
    cleanups.push(async () => {
      await page.close();
      browserLog.end();
    });

    section('In-editor suites (inside VS Code’s extension host)');
    const workbench = await Promise.race([Workbench.open(page, server.workbenchUrl(workspaceDir)), deadline]);
    await Promise.race([editorRun.wait(), deadline]);

    section('End-to-end (Playwright, same workbench)');
    await Promise.race([runE2E({ workbench, page, api, resultsDir, workspaceDir }, results), deadline]);
  } catch (error) {
    results.fail('real-editor run', error);
  } finally {
    if (results.count('failed') > 0) await saveArtifacts(session);
    // Each cleanup is bounded in time, so a hung step cannot keep the others (or the exit) from happening.
    for (const cleanup of cleanups.reverse()) await Promise.race([cleanup().catch(() => undefined), delay(15_000)]);
  }
  return browser;
}

async function main(): Promise<number> {
  const started = Date.now();
  const results = new Results();
  await rm(artifactsDir, { recursive: true, force: true });
  await mkdir(resultsDir, { recursive: true });
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'posthog-explorer-editor-'));
  // Also on an interrupted run (processes.ts's exit handler, registered earlier, stops the servers first).
  process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
  const session: Session = {
    tmp,
    userDataDir: path.join(tmp, 'user-data'),
    serverLog: path.join(tmp, 'vscode-server.log'),
    browserLog: path.join(tmp, 'browser-console.log'),
  };
  let timedOut = false;
  const deadline = new Promise<never>((_, reject) => {
    setTimeout(() => {
      timedOut = true;
      reject(new Error(`The real-editor run timed out after ${OVERALL_TIMEOUT_MS / 1000} s`));
      // Should a step not return even so, give cleanup a minute, then exit (processes.ts kills the servers).
      setTimeout(() => {
        results.fail('test host', new Error('Cleanup after the timeout did not finish within 60 s'));
        console.log(`${results.count('passed')} passed, ${results.count('failed')} failed`);
        process.exit(1);
      }, 60_000).unref();
    }, OVERALL_TIMEOUT_MS).unref();
  });
  deadline.catch(() => undefined);

  let browser: Browser | undefined;
  try {
    browser = await runEditorTier(results, session, deadline);
    if (!timedOut && process.env.POSTHOG_EXPLORER_SKIP_START_CHECK !== '1') {
      section('npm start');
      browser ??= await launchChromium();
      await Promise.race([checkNpmStart(browser, results, { tmp, artifactsDir, resultsDir }), deadline]).catch((error) =>
        results.fail('npm start check', error),
      );
    }
  } catch (error) {
    results.fail('test host', error);
  } finally {
    await Promise.race([browser?.close(), delay(10_000)]);
    await rm(tmp, { recursive: true, force: true }).catch(() => undefined);
  }

  const [passed, failed] = [results.count('passed'), results.count('failed')];
  if (passed + failed === 0) results.fail('test host', new Error('No tests ran'));
  console.log(`\nReal-editor tier took ${Math.round((Date.now() - started) / 1000)} s`);
  console.log(`${results.count('passed')} passed, ${results.count('failed')} failed`);
  return results.count('failed') > 0 ? 1 : 0;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.log(`\nInterrupted (${signal})`);
    process.exit(130);
  });
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(describeError(error));
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
