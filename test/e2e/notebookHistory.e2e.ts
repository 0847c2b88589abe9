import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { markdownOf } from '../../src/notebooks/model/notebookDocument';
import { e2e, showNotebooksOf } from './context';

const markdownDoc = (markdown: string) => ({ type: 'doc', content: [{ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown } }] });

describe('Notebook history (e2e)', () => {
  it('restores an earlier version from the Timeline while another user has changed the notebook: their change is merged in', async () => {
    const { workbench, page, api } = e2e();
    const organization = api.store.organizations[0]!;
    const project = api.store.projectsOf(organization.id).find((entry) => entry.name === 'Marketing site')!;
    const me = api.store.mainUser.id;
    const notebook = api.store.createNotebook(project.id, { title: 'Timeline e2e', content: markdownDoc('# Timeline\n\nFirst paragraph.\n\nSecond paragraph.\n') }, me);
    const save = (markdown: string) => api.store.updateNotebook(notebook, { content: markdownDoc(markdown), version: notebook.version, text_content: markdown }, me);
    save('# Timeline\n\nFirst paragraph, version one.\n\nSecond paragraph.\n');
    save('# Timeline\n\nFirst paragraph, version two.\n\nSecond paragraph.\n');

    await showNotebooksOf(organization.name, project.name);
    await workbench.clickTreeItem('Timeline e2e');
    const fileName = `Timeline e2e (${notebook.short_id}).md`;
    await workbench.poll(async () => (await workbench.activeEditorTitle()) === fileName, 'the notebook opens as Markdown');

    // The Timeline, in the Explorer beside the file, shows PostHog's history of the active editor.
    await workbench.openViewContainer('Explorer');
    const timeline = workbench.view('Timeline');
    const header = timeline.locator('.pane-header');
    await header.waitFor({ timeout: 10_000 });
    if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
    const rows = timeline.locator('.monaco-list-row');
    const saved = rows.filter({ has: page.locator('.label-name', { hasText: /^Saved$/ }) });
    await workbench.poll(async () => (await saved.count()) === 2, 'the Timeline lists the two saves');
    const labels = (await timeline.locator('.monaco-list-row .label-name').allInnerTexts()).map((text) => text.trim());
    assert.ok(labels.includes('Created'), labels.join(', '));

    // An unsaved edit in the editor: it is what a restore replaces (the dialog says so).
    await workbench.typeInEditor('Typed, then thought better of it. ', { atEnd: true });
    const older = saved.nth(1);
    await older.click({ button: 'right' });
    const entry = page.locator('.monaco-menu .action-item').filter({ hasText: /^Restore Notebook Version…$/ }).first();
    await entry.hover();
    await page.keyboard.press('Enter');
    assert.match(await workbench.dialogText(), /Restore "Timeline e2e" to the version of/);
    // Meanwhile another user saves a change to the second paragraph.
    api.store.editNotebookRemotely(project.id, notebook.short_id, { content: markdownDoc('# Timeline\n\nFirst paragraph, version two.\n\nSecond paragraph, changed by Lee.\n') });
    // PostHog's stream brings it into the editor behind the dialog: the user has not seen it.
    await workbench.poll(async () => (await workbench.activeEditorText()).includes('changed by Lee'), 'the live change reaches the editor');
    api.clearRequests();
    await workbench.pressDialogButton('Restore');

    await workbench.poll(
      async () => markdownOf(api.store.getNotebook(project.id, notebook.short_id)!.content) === '# Timeline\n\nFirst paragraph, version one.\n\nSecond paragraph, changed by Lee.\n',
      'PostHog holds the restored version with the other user\'s change merged in',
    );
    const saves = api.requests.filter((request) => request.path.endsWith(`/notebooks/${notebook.short_id}/collab/markdown_save/`)).map((request) => `${request.method} ${request.status}`);
    assert.deepEqual(saves, ['POST 200'], 'planned against the version the user saw, which the session knows PostHog has moved past: merged before sending, one save');
    await workbench.waitForNotification(/Restored "Timeline e2e"/);
    await workbench.poll(async () => (await workbench.activeEditorText()).includes('changed by Lee'), 'the editor shows the merge');
    await workbench.runCommand('View: Close All Editors');
  });
});
