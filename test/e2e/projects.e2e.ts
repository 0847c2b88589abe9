import assert from 'node:assert/strict';
import { copyFile, mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { after, before, describe, it } from 'mocha';
import { type LocalApi, startLocalApi } from '../api-server';
import { repoRoot } from '../host/paths';
import { e2e } from './context';

/**
 * The test host's API refuses reset_token to personal keys, as PostHog does. These tests sign in to a
 * second local API that allows it (and where deleting a project leaves the shared data alone).
 */
describe('Projects (e2e)', () => {
  let api: LocalApi;
  let connection: string;

  async function saveScreenshot(name: string): Promise<void> {
    const { workbench, resultsDir } = e2e();
    const file = await workbench.screenshot(path.join(resultsDir, name));
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      const readme = path.join(repoRoot, 'media', 'screenshots', name);
      await mkdir(path.dirname(readme), { recursive: true });
      await copyFile(file, readme);
    }
  }

  before(async () => {
    const { workbench, page, api: hostApi } = e2e();
    api = await startLocalApi({ seed: 'minimal', refusePersonalKeyActions: false });
    const url = api.url.replace('127.0.0.1', 'localhost');
    connection = `${new URL(url).host} (sam@hedgebox.net)`;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });

    await workbench.runCommand('PostHog: Sign In…');
    await workbench.pickQuickItem('Self-hosted…');
    await workbench.answerInputBox(url);
    await workbench.answerInputBox(api.keys.all);
    await workbench.waitForNotification(`Signed in to ${new URL(url).host}`);
    await workbench.clearNotifications();

    const panel = page.locator('.part.panel');
    if (await panel.isVisible()) await workbench.runCommand('View: Hide Panel');
    await workbench.openViewContainer('PostHog');
    await workbench.waitForSidebarIdle();
    // Collapse the test host's own connection (its label may carry the account), so that "Hedgebox" below is ours.
    const ownHost = new URL(hostApi.url).host.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const own = workbench
      .view()
      .locator('.monaco-list-row')
      .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${ownHost}\\b`) }) })
      .first();
    if ((await own.count()) > 0 && (await own.getAttribute('aria-expanded')) === 'true') {
      await own.locator('.monaco-tl-twistie').click();
    }
    await workbench.expandTreeItem(connection);
    await workbench.expandTreeItem('Hedgebox Inc.');
    await workbench.waitForSidebarIdle();
  });

  after(async () => {
    const { workbench } = e2e();
    await workbench.runCommand('PostHog: Sign Out');
    await workbench.pickQuickItem(connection);
    await workbench.waitForNotification(/Signed out/);
    await workbench.clearNotifications();
    await api.close();
  });

  it('deletes a project with events: PostHog schedules it, the tree marks it; Cancel Project Deletion returns it to normal', async () => {
    const { workbench } = e2e();
    const organization = api.store.organizations[0]!;
    const doomed = api.store.createProject(organization.id, { name: 'E2E Doomed' });
    api.store.addEvents(doomed.id, 2);
    await workbench.pressTreeItemAction('Hedgebox Inc.', 'Refresh');
    await workbench.waitForTreeItem('E2E Doomed');

    await workbench.chooseTreeItemMenu('E2E Doomed', 'Delete Project…');
    assert.equal(await workbench.dialogText(), 'Delete the project "E2E Doomed"?');
    await saveScreenshot('project-delete.png');
    await workbench.pressDialogButton('Delete Project…');

    await workbench.answerInputBox('e2e doomed', { submit: false });
    assert.match(await workbench.waitForInputBoxMessage(/exactly/), /Type the project name exactly: E2E Doomed/);
    await workbench.answerInputBox('E2E Doomed');

    await workbench.waitForNotification(/PostHog scheduled "E2E Doomed" for deletion at/);
    await workbench.poll(async () => (await workbench.treeItemDescription('E2E Doomed')) === `#${doomed.id} · deleted in 2 days`, 'the tree marks the project');
    assert.ok(await workbench.treeItemHasIcon('E2E Doomed', 'trash'));
    assert.equal(api.store.getProject(doomed.id)?.pendingDeletion, true, 'pending deletion on the server');
    const menu = await workbench.treeItemMenuEntries('E2E Doomed');
    assert.ok(menu.includes('Cancel Project Deletion') && !menu.includes('Delete Project…'), menu.join(', '));
    await workbench.clearNotifications();

    await workbench.chooseTreeItemMenu('E2E Doomed', 'Cancel Project Deletion');
    await workbench.waitForNotification('Cancelled the deletion of "E2E Doomed"');
    await workbench.poll(async () => (await workbench.treeItemDescription('E2E Doomed')) === `#${doomed.id} · UTC`, 'the project is back to normal');
    assert.equal(api.store.getProject(doomed.id)?.pendingDeletion, false);
    await workbench.clearNotifications();
  });

  it('deletes a project without events where PostHog does so at once: it leaves the tree', async () => {
    const { workbench } = e2e();
    const organization = api.store.organizations[0]!;
    const doomed = api.store.createProject(organization.id, { name: 'E2E Gone' });
    api.store.settings.projectDeletion = 'at-once';
    try {
      await workbench.pressTreeItemAction('Hedgebox Inc.', 'Refresh');
      await workbench.waitForTreeItem('E2E Gone');
      await workbench.chooseTreeItemMenu('E2E Gone', 'Delete Project…');
      await workbench.pressDialogButton('Delete Project…');
      await workbench.answerInputBox('E2E Gone');
      await workbench.waitForNotification('Deleted the project "E2E Gone"');
      await workbench.poll(async () => (await workbench.treeItem('E2E Gone').count()) === 0, 'the project leaves the tree');
      assert.equal(api.store.getProject(doomed.id), undefined, 'gone on the server');
    } finally {
      api.store.settings.projectDeletion = 'scheduled';
    }
    await workbench.clearNotifications();
  });

  it("offers New Project and Delete Project only where the user's membership allows them", async () => {
    const { workbench } = e2e();
    const acme = api.store.organizations.find((organization) => organization.name === 'Acme Analytics')!;
    const membership = acme.members.find((member) => member.userId === api.store.mainUser.id)!;
    const level = membership.level;
    membership.level = 1;
    try {
      await workbench.pressTreeItemAction(connection, 'Refresh');
      await workbench.expandTreeItem('Acme Analytics');
      await workbench.waitForTreeItem('Acme Web');
      const organizationMenu = await workbench.treeItemMenuEntries('Acme Analytics');
      assert.ok(organizationMenu.includes('Open in PostHog'), organizationMenu.join(', '));
      assert.ok(!organizationMenu.includes('New Project…'), 'a member may not create projects here');
      const projectMenu = await workbench.treeItemMenuEntries('Acme Web');
      assert.ok(projectMenu.includes('Rename Project…'), projectMenu.join(', '));
      assert.ok(!projectMenu.includes('Delete Project…'), 'a member may not delete projects here');
      const ownProjectMenu = await workbench.treeItemMenuEntries('Hedgebox');
      assert.ok(ownProjectMenu.includes('Delete Project…'), 'the owner of Hedgebox Inc. may');
    } finally {
      membership.level = level;
    }
  });

  it('resets the project token: a modal warning, then the new token with Copy', async () => {
    const { workbench, page } = e2e();
    const project = api.store.projectsOf(api.store.organizations[0]!.id).find((entry) => entry.name === 'Hedgebox')!;
    const old = project.api_token;

    await workbench.chooseTreeItemMenu('Hedgebox', 'Reset Project Token…');
    assert.equal(await workbench.dialogText(), 'Reset the project token of "Hedgebox"?');
    await workbench.pressDialogButton('Reset Token');

    const notification = await workbench.findNotification('New project token of "Hedgebox"');
    assert.notEqual(project.api_token, old);
    assert.ok((await notification.innerText()).includes(project.api_token), 'the new token is shown');
    await saveScreenshot('project-reset-token.png');
    await notification.getByRole('button', { name: 'Copy', exact: true }).click();
    await workbench.poll(
      async () => (await page.evaluate(() => navigator.clipboard.readText()).catch(() => '')) === project.api_token,
      'the new token is on the clipboard',
    );
    await workbench.clearNotifications();
    if (await page.locator('.notifications-center').isVisible()) await workbench.runCommand('Notifications: Hide Notifications');
  });
});
