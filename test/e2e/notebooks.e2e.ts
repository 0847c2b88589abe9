import assert from 'node:assert/strict';
import { copyFile, mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, it } from 'mocha';
import { markdownOf } from '../../src/notebooks/model/notebookDocument';
import type { Json } from '../api-server/model';
import { repoRoot } from '../host/paths';
import { e2e, showNotebooksOf } from './context';
import { paragraph } from '../api-server/content';

/** Line of `"title": ...` in a notebook document: after "{" and the 9 lines of the read-only block. */
const TITLE_LINE = 11;

describe('Notebooks (e2e)', () => {
  it('opens a notebook from the tree as Markdown, saves an edit with Ctrl+S, and merges another user\'s edit of another paragraph', async () => {
    const { workbench, page, api, resultsDir } = e2e();
    const organization = api.store.organizations[0]!;
    const project = api.store.projectsOf(organization.id).find((entry) => entry.name === 'Marketing site')!;
    const heading = { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'E2E notebook' }] };
    const notebook = api.store.createNotebook(project.id, {
      title: 'E2E notebook',
      content: { type: 'doc', content: [heading, paragraph('Written by the e2e test.'), paragraph('Second paragraph.')] },
      text_content: 'E2E notebook\n\nWritten by the e2e test.\n\nSecond paragraph.',
    });
    const initialVersion = notebook.version;

    await showNotebooksOf(organization.name, project.name);
    api.clearRequests();
    await workbench.clickTreeItem('E2E notebook');
    await workbench.poll(
      async () => (await workbench.activeEditorTitle()) === `E2E notebook (${notebook.short_id}).md`,
      'the notebook opens as Markdown',
    );
    // Besides the open stream of changes (and the caret sent to others), what the notebook costs.
    const calls = () =>
      api.requests
        .filter((request) => request.path.includes(`/notebooks/${notebook.short_id}/`) && !/\/collab\/(stream|presence)\/$/.test(request.path))
        .map((request) => `${request.method} ${request.status}`);
    assert.deepEqual(calls(), ['GET 200'], 'opening costs one GET');
    assert.match(await workbench.activeEditorText(), /# E2E notebook\s+Written by the e2e test\.\s+Second paragraph\./);

    const goToLineEnd = async (line: number) => {
      await workbench.typeInEditor('');
      await page.keyboard.press('Control+G');
      await page.keyboard.type(String(line));
      await page.keyboard.press('Enter');
      await page.keyboard.press('End');
    };
    await goToLineEnd(3);
    await page.keyboard.type(' Typed in VS Code.');
    await workbench.saveActiveEditor();
    assert.deepEqual(api.requests.filter((request) => request.method === 'PATCH').map((request) => request.status), [200]);
    await workbench.poll(async () => api.store.collab.listenerCount() > 0, 'the notebook follows PostHog\'s stream');
    const first = api.store.getNotebook(project.id, notebook.short_id)!;
    assert.equal(first.version, initialVersion + 1);
    assert.deepEqual(first.content, {
      type: 'doc',
      content: [
        heading,
        paragraph('Written by the e2e test. Typed in VS Code.'),
        paragraph('Second paragraph.'),
      ],
    }, 'the notebook stays a legacy (ProseMirror) notebook');

    if (process.env.UPDATE_SCREENSHOTS === '1' || process.env.SCREENSHOTS === '1') {
      await workbench.clearNotifications();
      const file = await workbench.screenshot(path.join(resultsDir, 'notebook.png'));
      const readme = path.join(repoRoot, 'media', 'screenshots', 'notebook.png');
      await mkdir(path.dirname(readme), { recursive: true });
      await copyFile(file, readme);
    }

    // Someone else saves a change to the second paragraph while this editor changes the first: it arrives on the
    // stream and merges into the unsaved text (a legacy notebook's update is read with a GET), then the save has
    // nothing to merge; a save that got there first would merge as well (409, GET, PATCH).
    await new Promise((resolve) => setTimeout(resolve, 500));
    await goToLineEnd(3);
    await page.keyboard.type(' Mine again.');
    const theirs = structuredClone(first.content) as { content: Json[] };
    theirs.content[2] = paragraph('Second paragraph, changed elsewhere.');
    api.clearRequests();
    api.store.editNotebookRemotely(project.id, notebook.short_id, { content: theirs as Json });
    await workbench.poll(async () => (await workbench.activeEditorText()).includes('changed elsewhere'), 'their change arrives in the unsaved editor');
    await workbench.saveActiveEditor();
    assert.ok(
      [['GET 200', 'PATCH 200'], ['PATCH 409', 'GET 200', 'PATCH 200']].some((expected) => JSON.stringify(expected) === JSON.stringify(calls())),
      `merged live, or at the save: ${JSON.stringify(calls())}`,
    );
    const merged = api.store.getNotebook(project.id, notebook.short_id)!;
    assert.equal(merged.version, initialVersion + 3);
    const text = JSON.stringify(merged.content);
    assert.ok(text.includes('Mine again.') && text.includes('Second paragraph, changed elsewhere.'), text);
    await workbench.poll(async () => (await workbench.activeEditorText()).includes('changed elsewhere'), 'the editor shows both edits');

    // The JSON document of the same notebook, and "Save over PostHog's Version" when someone else saved meanwhile.
    await workbench.runCommand('PostHog: Open Notebook as JSON');
    await workbench.poll(async () => (await workbench.activeEditorTitle()) === `E2E notebook (${notebook.short_id}).json`, 'the JSON document opens');
    await goToLineEnd(TITLE_LINE);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.type(' edited');
    api.store.editNotebookRemotely(project.id, notebook.short_id, { title: 'Renamed elsewhere' });
    await workbench.runCommand("PostHog: Save over PostHog's Version…");
    assert.match(await workbench.dialogText(), /over PostHog's version/);
    await workbench.pressDialogButton('Overwrite');
    await page.locator('.editor-group-container.active .tab.active.dirty').waitFor({ state: 'detached' });
    assert.equal(api.store.getNotebook(project.id, notebook.short_id)?.title, 'E2E notebook edited');
    await workbench.runCommand('View: Close All Editors');
  });

  it('shows a collaborator\'s name in a notebook\'s hover as plain text: no link, no image fetched from elsewhere', async () => {
    const { workbench, page, api } = e2e();
    const organization = api.store.organizations[0]!;
    const project = api.store.projectsOf(organization.id).find((entry) => entry.name === 'Marketing site')!;
    const notebook = api.store.createNotebook(project.id, { title: 'Hover check', content: { type: 'doc', content: [] }, text_content: '' });
    const mallory = api.store.addUser('Ann ![pixel](https://tracker.example/p.png)', '[Click](https://evil.example/phish)', 'mallory@example.com');
    api.store.editNotebookRemotely(project.id, notebook.short_id, { title: 'Hover check' }, mallory.id);

    await showNotebooksOf(organization.name, project.name);
    const row = await workbench.waitForTreeItem('Hover check');
    await row.hover();
    const hover = page.locator('.monaco-hover').filter({ hasText: 'Last modified by' }).first();
    await hover.waitFor({ timeout: 10_000 });
    const html = await hover.innerHTML();
    assert.doesNotMatch(html, /<a\b[^>]*href=[^>]*(evil|tracker)|<img/, html);
    assert.match(await hover.innerText(), /Ann !\[pixel\]\(https:\/\/tracker\.example\/p\.png\) \[Click\]\(https:\/\/evil\.example\/phish\)/);
    await page.mouse.move(0, 0);
  });

  it('opens a notebook from the Command Palette by searching its text on PostHog as the user types', async () => {
    const { workbench, api } = e2e();
    const organization = api.store.organizations[0]!;
    const project = api.store.projectsOf(organization.id).find((entry) => entry.name === 'Marketing site')!;
    const target = api.store.createNotebook(project.id, {
      title: 'Palette target',
      content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'A quokka in the text.' }] }] },
      text_content: 'A quokka in the text.',
    });
    await workbench.runCommand('PostHog: Open Notebook…');
    await workbench.pickQuickItem(project.name);
    api.clearRequests();
    await workbench.answerInputBox('quokka', { submit: false });
    // Recently changed notebooks show at once; the server's answer for "quokka" then replaces them.
    let items: string[] = [];
    await workbench.poll(async () => {
      items = await workbench.quickPickItems();
      // Each row shows its title, then (also as a .label-name) who changed it and when.
      return items[0]?.startsWith('Palette target') === true && items.length <= 2;
    }, 'the search results').catch((error: Error) => {
      throw new Error(`${error.message}; the pick shows ${JSON.stringify(items)}`);
    });
    await workbench.pickQuickItem('Palette target', { filter: false });
    await workbench.poll(
      async () => (await workbench.activeEditorTitle()) === `Palette target (${target.short_id}).md`,
      'the searched notebook opens',
    );
    const searches = api.requests.filter((request) => request.path === `/api/projects/${project.id}/notebooks/` && request.query['search']);
    assert.deepEqual(searches.map((request) => request.query['search']), ['quokka'], 'one search, for what was typed');
    await workbench.runCommand('View: Close All Editors');
  });

  it('Open Notebook finds a title from the start of its words as the user types ("sig" → "Signup drop-off"), which PostHog\'s whole-word search does not', async () => {
    const { workbench, page, api } = e2e();
    const organization = api.store.organizations[0]!;
    const project = api.store.projectsOf(organization.id).find((entry) => entry.name === 'Hedgebox')!;
    const signup = api.store.notebooksOf(project.id).find((entry) => entry.title === 'Signup drop-off' && !entry.deleted)!;
    const serverAnswer = await fetch(`${api.url}/api/projects/${project.id}/notebooks/?search=sig`, {
      headers: { Authorization: `Bearer ${api.keys.all}` },
    }).then((response) => response.json() as Promise<{ count: number }>);
    assert.equal(serverAnswer.count, 0, 'PostHog (and the local API) match whole words only');

    await workbench.runCommand('PostHog: Open Notebook…');
    await workbench.pickQuickItem(project.name);
    await workbench.poll(async () => (await workbench.quickInputTitle()) === `Open Notebook from ${project.name}`, 'the notebook search opens');
    await workbench.poll(async () => (await workbench.quickPickItems()).length > 1, 'the project\'s notebooks are listed');
    api.clearRequests();
    await page.keyboard.type('sig', { delay: 60 });
    let items: string[] = [];
    await workbench.poll(async () => {
      items = await workbench.quickPickItems();
      return items[0]?.startsWith('Signup drop-off') === true;
    }, 'the title match').catch((error: Error) => {
      throw new Error(`${error.message}; the pick shows ${JSON.stringify(items)}`);
    });
    await workbench.poll(
      async () => api.requests.some((request) => request.query['search'] === 'sig' && request.status === 200),
      'the server search for what was typed',
    );
    items = await workbench.quickPickItems();
    assert.ok(items[0]?.startsWith('Signup drop-off'), `still first after the server answered: ${JSON.stringify(items)}`);
    const searches = api.requests.filter((request) => request.path === `/api/projects/${project.id}/notebooks/` && request.query['search']);
    assert.deepEqual(searches.map((request) => request.query['search']), ['sig'], 'one search once typing paused');
    await workbench.pickQuickItem('Signup drop-off', { filter: false });
    await workbench.poll(
      async () => (await workbench.activeEditorTitle()) === `Signup drop-off (${signup.short_id}).md`,
      'the Markdown notebook opens',
    );
    assert.match(await workbench.activeEditorText(), /^#/);
    await workbench.runCommand('View: Close All Editors');
  });

  it('edits a line of a Markdown notebook by typing and saves it (PostHog\'s versioned Markdown save): PostHog holds the Markdown, and text_content is that Markdown', async () => {
    const { workbench, page, api } = e2e();
    const organization = api.store.organizations[0]!;
    const project = api.store.projectsOf(organization.id).find((entry) => entry.name === 'Hedgebox')!;
    const notebook = api.store.notebooksOf(project.id).find((entry) => entry.title === 'Activation metrics' && !entry.deleted)!;
    const before = markdownOf(notebook.content)!;
    const line = 'Weekly active uploaders, and what moved them. _Owner: Priya_';
    const lineNumber = before.split('\n').indexOf(line) + 1;
    assert.ok(lineNumber > 0, 'the line is a line of the Markdown');

    await workbench.runCommand('PostHog: Open Notebook…');
    await workbench.pickQuickItem(project.name);
    await workbench.poll(async () => (await workbench.quickInputTitle()) === `Open Notebook from ${project.name}`, 'the notebook search opens');
    await page.keyboard.type('activ', { delay: 30 });
    await workbench.pickQuickItem('Activation metrics', { filter: false });
    await workbench.poll(
      async () => (await workbench.activeEditorTitle()) === `Activation metrics (${notebook.short_id}).md`,
      'the Markdown notebook opens as its Markdown',
    );
    await workbench.typeInEditor('');
    await page.keyboard.press('Control+G');
    await page.keyboard.type(String(lineNumber));
    await page.keyboard.press('Enter');
    await page.keyboard.press('End');
    await page.keyboard.type(' Edited in VS Code.');
    api.clearRequests();
    await workbench.saveActiveEditor();
    const expected = before.replace(line, `${line} Edited in VS Code.`);
    const saved = api.store.getNotebook(project.id, notebook.short_id)!;
    assert.equal(markdownOf(saved.content), expected);
    assert.equal(saved.text_content, expected);
    // A Markdown notebook saves through PostHog's versioned Markdown save, as its web app does.
    const saves = api.requests.filter((request) => request.method !== 'GET' && !request.path.endsWith('/collab/presence/'));
    assert.deepEqual(saves.map((request) => `${request.method} ${request.path.replace(/.*\/notebooks\/[^/]+\//, '')} ${request.status}`), ['POST collab/markdown_save/ 200']);
    assert.equal((saves[0]!.body as { text_content: string }).text_content, expected);
    await workbench.runCommand('View: Close All Editors');
  });

  it('shows a Markdown notebook\'s tags as cards in VS Code\'s preview, squiggles a broken tag (an unknown one as a warning), and completes tag names', async () => {
    const { workbench, page, api } = e2e();
    const organization = api.store.organizations[0]!;
    const project = api.store.projectsOf(organization.id).find((entry) => entry.name === 'Marketing site')!;
    const markdown = '# Cards in the preview\n\n<Query query={{"kind":"SavedInsightNode","shortId":"Xk3pQ9aZ"}} />\n\nA paragraph.\n';
    api.store.createNotebook(project.id, {
      title: 'Cards in the preview',
      content: { type: 'doc', content: [{ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown } }] },
      text_content: markdown,
    });
    await workbench.runCommand('PostHog: Open Notebook…');
    await workbench.pickQuickItem(project.name);
    await workbench.poll(async () => (await workbench.quickInputTitle()) === `Open Notebook from ${project.name}`, 'the notebook search opens');
    await page.keyboard.type('Cards', { delay: 30 });
    await workbench.pickQuickItem('Cards in the preview', { filter: false });
    await workbench.poll(async () => (await workbench.activeEditorTitle()).startsWith('Cards in the preview ('), 'the notebook opens');

    await workbench.runCommand('Markdown: Open Preview to the Side');
    let previews: string[] = [];
    await workbench.poll(async () => {
      const count = await page.locator('iframe.webview.ready').count();
      previews = await Promise.all([...Array(count).keys()].map((index) => workbench.webviewText(index).catch(() => '')));
      return previews.some((text) => text.includes('Saved insight Xk3pQ9aZ'));
    }, 'the preview draws the Query tag as a card').catch((error: Error) => {
      throw new Error(`${error.message}; the webviews show ${JSON.stringify(previews)}`);
    });
    assert.ok(!previews.some((text) => text.includes('<Query')), 'no raw tag in the preview');

    await page.locator('.editor-group-container').first().locator('.view-lines').click();
    await page.keyboard.press('Control+End');
    const editor = page.locator('.editor-group-container').first();
    await page.keyboard.type('\n<Qurey />\n');
    await workbench.poll(async () => (await editor.locator('.squiggly-warning').count()) > 0, 'a warning squiggle under the tag PostHog will show as unknown');
    assert.equal(await editor.locator('.squiggly-error').count(), 0, 'an unknown tag is no error');
    await page.keyboard.type('\n<Query query={{"kind":}} />\n');
    await workbench.poll(async () => (await editor.locator('.squiggly-error').count()) > 0, 'a red squiggle under the tag that does not read');
    await page.keyboard.type('<Qu');
    const suggestion = page.locator('.suggest-widget .monaco-list-row', { hasText: 'Query' }).first();
    await suggestion.waitFor({ timeout: 10_000 });
    await page.keyboard.press('Escape');
    await workbench.runCommand('File: Revert File');
    await workbench.runCommand('View: Close All Editors');
  });
});
