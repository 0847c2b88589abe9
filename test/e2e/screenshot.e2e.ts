import { copyFile, mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, it } from 'mocha';
import { repoRoot } from '../host/paths';
import { e2e } from './context';

/** Set UPDATE_SCREENSHOTS=1 to refresh the README's screenshot in media/screenshots/. */
const README_SCREENSHOT = path.join(repoRoot, 'media', 'screenshots', 'workbench.png');

describe('Workbench', () => {
  it('shows the PostHog view container with the extension up (screenshot)', async () => {
    const { workbench, page, resultsDir } = e2e();
    const panel = page.locator('.part.panel');
    if (await panel.isVisible()) await workbench.runCommand('View: Hide Panel');
    await workbench.openViewContainer('PostHog');
    await workbench.waitForSidebarIdle();
    // Show a level of the tree (e.g. an organization's projects) when the view has one.
    const rows = workbench.view().locator('.monaco-list-row');
    const firstRow = rows.first();
    const shown = await rows.count();
    if (shown > 0 && (await firstRow.getAttribute('aria-expanded')) === 'false') {
      await firstRow.locator('.monaco-tl-twistie').click();
      await workbench.poll(async () => (await rows.count()) > shown, 'the first tree item shows its children').catch(() => undefined);
      await workbench.waitForSidebarIdle();
    }
    const file = await workbench.screenshot(path.join(resultsDir, 'workbench.png'));
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      await mkdir(path.dirname(README_SCREENSHOT), { recursive: true });
      await copyFile(file, README_SCREENSHOT);
    }
  });
});
