// Checks `npm start`'s script the way a developer uses it: it prints a workbench URL, the local API answers
// with demo data, the workbench loads with PostHog Explorer, and Ctrl+C (SIGINT) stops everything.
import assert from 'node:assert/strict';
import { cp, mkdir } from 'node:fs/promises';
import { connect } from 'node:net';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { Workbench } from '../e2e/workbench';
import { VIEWPORT } from './browser';
import { repoRoot } from './paths';
import { delay, startLongRunning } from './processes';
import { describeError, type TestResult } from './protocol';

interface Reporter {
  add(result: TestResult): void;
}

async function check(results: Reporter, title: string, body: () => Promise<void>): Promise<boolean> {
  const started = Date.now();
  try {
    await body();
    results.add({ tier: 'host', title, state: 'passed', durationMs: Date.now() - started });
    return true;
  } catch (error) {
    results.add({ tier: 'host', title, state: 'failed', durationMs: Date.now() - started, error: describeError(error) });
    return false;
  }
}

function acceptsConnections(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function checkNpmStart(
  browser: Browser,
  results: Reporter,
  dirs: { tmp: string; artifactsDir: string; resultsDir: string },
): Promise<void> {
  const dataDir = path.join(dirs.tmp, 'npm-start');
  await mkdir(dataDir, { recursive: true });
  const logFile = path.join(dirs.tmp, 'npm-start.log');
  const start = startLongRunning(process.execPath, [path.join(__dirname, 'start.js'), '--no-open', '--data-dir', dataDir], {
    cwd: repoRoot,
    logFile,
  });
  let page: Page | undefined;
  let allPassed = true;
  try {
    const [, workbenchUrl] = await start.waitForOutput(/Workbench: (http:\/\/127\.0\.0\.1:\d+\/\S+)/, 180_000);
    const [, apiUrl] = await start.waitForOutput(/Local PostHog API: (http:\/\/127\.0\.0\.1:\d+)/, 1_000);
    const [, key] = await start.waitForOutput(/Personal API key \(all scopes\): (\S+)/, 1_000);

    allPassed = (await check(results, 'npm start: the local API serves demo data with the printed key', async () => {
      const response = await fetch(`${apiUrl}/api/projects/`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(response.status, 200);
      const body = (await response.json()) as { results?: unknown[] };
      assert.ok((body.results?.length ?? 0) > 0, 'the demo data has projects');
    })) && allPassed;

    allPassed = (await check(results, 'npm start: the workbench loads with PostHog Explorer (screenshot)', async () => {
      page = await browser.newPage({ viewport: VIEWPORT });
      const workbench = await Workbench.open(page, workbenchUrl!);
      await workbench.runCommand('PostHog: Show Logs');
      await workbench.waitForOutputChannel('PostHog');
      await workbench.openViewContainer('PostHog');
      await workbench.screenshot(path.join(dirs.resultsDir, 'npm-start.png'));
    })) && allPassed;

    allPassed = (await check(results, 'npm start: Ctrl+C stops the VS Code server and the local API', async () => {
      start.child.kill('SIGINT');
      const code = await Promise.race([start.exited, delay(20_000).then(() => 'still running')]);
      assert.equal(code, 0, 'the start script exits with 0');
      assert.equal(await acceptsConnections(workbenchUrl!), false, 'the workbench port is closed');
      assert.equal(await acceptsConnections(apiUrl!), false, 'the API port is closed');
    })) && allPassed;
  } catch (error) {
    allPassed = false;
    throw error;
  } finally {
    if (!allPassed) {
      await mkdir(dirs.artifactsDir, { recursive: true });
      if (page) await page.screenshot({ path: path.join(dirs.artifactsDir, 'npm-start-failure.png') }).catch(() => undefined);
    }
    await page?.close().catch(() => undefined);
    await start.stop();
    if (!allPassed) {
      await cp(logFile, path.join(dirs.artifactsDir, 'npm-start.log')).catch(() => undefined);
      await cp(path.join(dataDir, 'vscode-server.log'), path.join(dirs.artifactsDir, 'npm-start-vscode-server.log')).catch(() => undefined);
    }
  }
}
