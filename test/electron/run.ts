// `npm run test:electron`: the in-editor suites in desktop VS Code through @vscode/test-electron, on machines
// that can download VS Code (this one cannot: use `npm run test:editor`). On Linux without a display, run it
// under xvfb-run. VSCODE_TEST_VERSION picks the version (default 1.100.3, the oldest this extension supports).
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { startLocalApi } from '../api-server';
import { repoRoot } from '../host/paths';
import { API_KEYS_ENV } from '../host/protocol';
import { bundleRunnerExtension, runnerExtensionDir } from '../host/runner-extension';
import { dialectDataFolder } from '../unit/notebooks/markdown/goldenCases';

async function main(): Promise<void> {
  // Loaded as a second development extension only to lend the suites its ExtensionContext (SecretStorage).
  await bundleRunnerExtension();
  const api = await startLocalApi({ seed: 'minimal', control: true });
  const workspace = await mkdtemp(path.join(os.tmpdir(), 'posthog-explorer-electron-'));
  try {
    await runTests({
      version: process.env.VSCODE_TEST_VERSION || '1.100.3',
      extensionDevelopmentPath: [repoRoot, runnerExtensionDir],
      extensionTestsPath: path.join(__dirname, 'index'),
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
      extensionTestsEnv: {
        POSTHOG_HOST: api.url,
        POSTHOG_PERSONAL_API_KEY: api.keys.all,
        [API_KEYS_ENV]: JSON.stringify(api.keys),
        POSTHOG_DIALECT_DATA: dialectDataFolder(),
      },
    });
  } finally {
    await api.close();
    await rm(workspace, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
