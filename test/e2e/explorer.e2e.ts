import assert from 'node:assert/strict';
import { copyFile, mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, it } from 'mocha';
import { repoRoot } from '../host/paths';
import { e2e } from './context';

describe('Explorer (e2e)', () => {
  it('signs in through the Command Palette, browses down to a notebook, and signs out', async () => {
    const { workbench, api, resultsDir } = e2e();
    // The test host's own connection (POSTHOG_HOST) is 127.0.0.1; sign in to the same API as localhost.
    const url = api.url.replace('127.0.0.1', 'localhost');
    const host = new URL(url).host;

    await workbench.runCommand('PostHog: Sign In…');
    assert.match(await workbench.quickInputTitle(), /Sign In to PostHog/);
    await workbench.pickQuickItem('Self-hosted…');
    await workbench.answerInputBox('http://posthog.example.com', { submit: false });
    assert.match(await workbench.waitForInputBoxMessage(/https/), /https/);
    await workbench.answerInputBox(url);
    await workbench.answerInputBox(api.keys.all);
    await workbench.waitForNotification(`Signed in to ${host}`);

    await workbench.openViewContainer('PostHog');
    await workbench.waitForSidebarIdle();
    const connection = `${host} (sam@hedgebox.net)`;
    // Collapse the test host's own connection, so that the labels below are those of the new one.
    const own = workbench.treeItem(`${new URL(api.url).host}`);
    if ((await own.getAttribute('aria-expanded')) === 'true') {
      await own.locator('.monaco-tl-twistie').click();
    }
    await workbench.expandTreeItem(connection);
    await workbench.expandTreeItem('Hedgebox Inc.');
    await workbench.expandTreeItem('Hedgebox');
    await workbench.expandTreeItem('Notebooks');
    await workbench.waitForSidebarIdle();
    const [project] = api.store.projectsOf(api.store.organizations[0]!.id).filter((entry) => entry.name === 'Hedgebox');
    const notebook = api.store.notebooksOf(project!.id).find((entry) => !entry.deleted);
    assert.ok(notebook);
    await workbench.treeItem(notebook.title ?? '').waitFor();

    const panel = workbench.page.locator('.part.panel');
    if (await panel.isVisible()) await workbench.runCommand('View: Hide Panel');
    await workbench.clearNotifications();
    const file = await workbench.screenshot(path.join(resultsDir, 'explorer.png'));
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      const readme = path.join(repoRoot, 'media', 'screenshots', 'explorer.png');
      await mkdir(path.dirname(readme), { recursive: true });
      await copyFile(file, readme);
    }

    await workbench.runCommand('PostHog: Sign Out');
    await workbench.pickQuickItem(connection);
    await workbench.waitForNotification(`Signed out of ${connection}`);
    await workbench.poll(async () => (await workbench.treeItem(connection).count()) === 0, 'the connection leaves the tree');
  });
});
