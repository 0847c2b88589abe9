import assert from 'node:assert/strict';
import { copyFile, mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, it } from 'mocha';
import { repoRoot } from '../host/paths';
import { e2e } from './context';

/** Set UPDATE_SCREENSHOTS=1 to refresh the README's screenshot in media/screenshots/. */
const README_SCREENSHOT = path.join(repoRoot, 'media', 'screenshots', 'walkthrough.png');
const STEPS = ['Sign in to PostHog', 'Browse your projects', 'Open a notebook as a file', 'Browse events'];

describe('Walkthrough (e2e)', () => {
  it('opens "Get Started with PostHog" from the Command Palette, with its four steps (screenshot)', async () => {
    const { workbench, page, resultsDir } = e2e();
    await workbench.runCommand('Welcome: Open Walkthrough...');
    await workbench.pickQuickItem('Get Started with PostHog');

    const walkthrough = page.locator('.gettingStartedContainer');
    await walkthrough.locator('.getting-started-category .category-title, h2', { hasText: 'Get Started with PostHog' }).first().waitFor();
    const titles = walkthrough.locator('.getting-started-step .step-title');
    await workbench.poll(async () => (await titles.count()) === STEPS.length, `the walkthrough shows ${STEPS.length} steps`);
    assert.deepEqual((await titles.allInnerTexts()).map((title) => title.trim()), STEPS);

    // VS Code opens the first step not yet done; open the sign-in step to see its button.
    await titles.first().click();
    await walkthrough.locator('.getting-started-step.expanded .button-container', { hasText: 'Sign In' }).waitFor();

    const file = await workbench.screenshot(path.join(resultsDir, 'walkthrough.png'));
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      await mkdir(path.dirname(README_SCREENSHOT), { recursive: true });
      await copyFile(file, README_SCREENSHOT);
    }
    await workbench.runCommand('View: Close All Editors');
  });
});
