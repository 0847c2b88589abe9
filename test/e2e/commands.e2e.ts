import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { e2e } from './context';

describe('Command palette', () => {
  it('runs "PostHog: Show Logs", which shows the PostHog output channel', async () => {
    const { workbench, page } = e2e();
    const panel = page.locator('.part.panel');
    if (await panel.isVisible()) await workbench.runCommand('View: Hide Panel');
    await panel.waitFor({ state: 'hidden' });

    await workbench.runCommand('PostHog: Show Logs');

    await workbench.waitForOutputChannel('PostHog');
    assert.equal(await panel.isVisible(), true);
  });
});
