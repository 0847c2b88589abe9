import assert from 'node:assert/strict';
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'mocha';
import { markdownDoc, markdownOf } from '../api-server';
import { handleCollabControl, webEdit } from '../api-server/collab-control';
import { repoRoot } from '../host/paths';
import { e2e } from './context';

const TEXT = '# Live together\n\nThe first paragraph, which you type in.\n\nThe second paragraph, which a teammate edits in the web app.\n';

describe('Live notebooks (e2e)', () => {
  it('types in one paragraph while another client edits another: both end saved, with no conflict prompt', async () => {
    const { workbench, page, api } = e2e();
    const organization = api.store.organizations[0]!;
    const project = api.store.projectsOf(organization.id).find((entry) => entry.name === 'Hedgebox Staging')!;
    const notebook = api.store.createNotebook(project.id, { title: 'Live together', content: markdownDoc(TEXT), text_content: TEXT });
    const short = notebook.short_id;

    await workbench.runCommand('PostHog: Open Notebook…');
    await workbench.pickQuickItem(project.name);
    await workbench.poll(async () => (await workbench.quickInputTitle()) === `Open Notebook from ${project.name}`, 'the notebook search opens');
    await page.keyboard.type('Live toge', { delay: 30 });
    await workbench.pickQuickItem('Live together', { filter: false });
    await workbench.poll(async () => (await workbench.activeEditorTitle()) === `Live together (${short}).md`, 'the notebook opens as Markdown');
    await workbench.poll(async () => api.requests.some((request) => request.path.endsWith(`/notebooks/${short}/collab/stream/`)), 'the notebook follows PostHog\'s stream');
    await workbench.clearNotifications();

    // The user types at the end of the first paragraph, word by word; the teammate saves their paragraph meanwhile.
    await workbench.typeInEditor('');
    await page.keyboard.press('Control+G');
    await page.keyboard.type('3');
    await page.keyboard.press('Enter');
    await page.keyboard.press('End');
    api.clearRequests();
    const words = [' Typed', ' in', ' VS', ' Code', ' while', ' they', ' edit.'];
    for (const [index, word] of words.entries()) {
      await page.keyboard.type(word, { delay: 20 });
      if (index === 2) {
        webEdit(api.store, notebook, {
          replace: { find: 'which a teammate edits in the web app.', with: 'edited by a teammate in the web app, as you type.' },
          by: { first_name: 'Lee', last_name: 'Chen' },
        });
      }
    }
    await workbench.poll(async () => (await workbench.activeEditorText()).includes('as you type.'), 'their edit shows in the editor as it happens');
    await workbench.saveActiveEditor();

    const expected = TEXT.replace('which you type in.', 'which you type in. Typed in VS Code while they edit.').replace(
      'which a teammate edits in the web app.',
      'edited by a teammate in the web app, as you type.',
    );
    assert.equal(markdownOf(api.store.getNotebook(project.id, short)!.content), expected);
    const saves = api.requests.filter((request) => request.method !== 'GET' && !request.path.endsWith('/collab/presence/'));
    assert.deepEqual(saves.map((request) => `${request.method} ${request.path.replace(/.*\/notebooks\/[^/]+\//, '')} ${request.status}`), ['POST collab/markdown_save/ 200'], 'one save, no conflict');
    const notifications = await workbench.notificationTexts();
    assert.ok(!notifications.some((text) => /changed on PostHog|Not saved|conflict/i.test(text)), `no conflict prompt: ${JSON.stringify(notifications)}`);
    assert.doesNotMatch(await workbench.activeEditorText(), /<<<<<<<|>>>>>>>/);
    await workbench.runCommand('View: Close All Editors');
  });

  it('shows a teammate who has the notebook open: their caret where they are, their name in the status bar (screenshot)', async () => {
    const { workbench, page, api, resultsDir } = e2e();
    const organization = api.store.organizations[0]!;
    const project = api.store.projectsOf(organization.id).find((entry) => entry.name === 'Hedgebox Staging')!;
    const notebook = api.store.createNotebook(project.id, { title: 'Live carets', content: markdownDoc(TEXT), text_content: TEXT });

    await workbench.runCommand('PostHog: Open Notebook…');
    await workbench.pickQuickItem(project.name);
    await workbench.poll(async () => (await workbench.quickInputTitle()) === `Open Notebook from ${project.name}`, 'the notebook search opens');
    await page.keyboard.type('Live carets', { delay: 30 });
    await workbench.pickQuickItem('Live carets', { filter: false });
    await workbench.poll(async () => (await workbench.activeEditorTitle()) === `Live carets (${notebook.short_id}).md`, 'the notebook opens as Markdown');
    await workbench.poll(async () => api.store.collab.listenerCount() > 0, 'the notebook follows PostHog\'s stream');

    // Lee has the notebook open in PostHog's web app, the caret in the second paragraph.
    const presence = () =>
      handleCollabControl(api.store, 'POST', ['notebooks', String(project.id), notebook.short_id, 'presence'], {
        cursor: { node_index: 2, offset: 18 },
        by: { first_name: 'Lee', last_name: 'Chen' },
      });
    assert.equal(presence()?.status, 200);
    const status = page.locator('.part.statusbar .statusbar-item').filter({ hasText: 'Lee Chen' });
    await status.first().waitFor({ timeout: 10_000 });
    const caret = page.locator('.editor-group-container.active .view-overlays, .editor-group-container.active .view-lines').locator('[class*="ced-"]');
    await workbench.poll(async () => (await caret.count()) > 0, 'their caret is drawn in the editor');

    if (process.env.UPDATE_SCREENSHOTS === '1' || process.env.SCREENSHOTS === '1') {
      await workbench.clearNotifications();
      presence();
      const file = await workbench.screenshot(path.join(resultsDir, 'live-notebook.png'));
      const readme = path.join(repoRoot, 'media', 'screenshots', 'live-notebook.png');
      await mkdir(path.dirname(readme), { recursive: true });
      await copyFile(file, readme);
    }
    await workbench.runCommand('View: Close All Editors');
  });
});
