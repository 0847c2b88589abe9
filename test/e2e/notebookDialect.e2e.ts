import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { readPostHogMarkdown } from '../../src/notebooks/markdown';
import { markdownOf } from '../../src/notebooks/model/notebookDocument';
import { e2e } from './context';

/** What the test types after the new notebook's heading, line by line: a table and a Query tag. */
const TYPED = [
  '',
  'Signups by *week*, from the **warehouse**:',
  '',
  '| Week | Signups |',
  '|:---|---:|',
  '| 1 | 120 |',
  '| 2 | 135 |',
  '',
  '<Query query={{"kind":"DataVisualizationNode","source":{"kind":"HogQLQuery","query":"select count() from events"}}} />',
];

describe('Markdown notebooks (e2e)', () => {
  it("creates a notebook, types Markdown with a table and a Query tag, saves it, and PostHog reads the stored Markdown as what was typed", async () => {
    const { workbench, page, api } = e2e();
    const organization = api.store.organizations[0]!;
    const project = api.store.projectsOf(organization.id).find((entry) => entry.name === 'Marketing site')!;
    const before = new Set(api.store.notebooksOf(project.id).map((notebook) => notebook.short_id));

    await workbench.runCommand('PostHog: Create Notebook…');
    await workbench.pickQuickItem('Marketing site');
    await workbench.answerInputBox('Signups, typed');
    await workbench.poll(async () => /^Signups, typed \([A-Za-z0-9]+\)\.md$/.test(await workbench.activeEditorTitle()), 'the new notebook opens as Markdown');
    const created = api.store.notebooksOf(project.id).find((notebook) => !before.has(notebook.short_id));
    assert.ok(created, 'one notebook created');
    assert.equal(markdownOf(created.content), '# Signups, typed', 'created as a Markdown notebook');

    await workbench.typeInEditor('', { atEnd: true });
    for (const line of TYPED) {
      await page.keyboard.press('Enter');
      await page.keyboard.type(line);
      await page.keyboard.press('Escape'); // no suggestion is taken by the next Enter
    }
    api.clearRequests();
    await workbench.saveActiveEditor();
    // One save, through PostHog's versioned Markdown save.
    const writes = api.requests.filter((request) => request.method !== 'GET' && !request.path.endsWith('/collab/presence/'));
    const saveOf = (path: string) => (path.endsWith(`/notebooks/${created.short_id}/collab/markdown_save/`) ? 'markdown_save' : path);
    assert.deepEqual(writes.map((request) => `${request.method} ${saveOf(request.path)} ${request.status}`), ['POST markdown_save 200']);

    const stored = markdownOf(api.store.getNotebook(project.id, created.short_id)!.content);
    const typed = ['# Signups, typed', ...TYPED].join('\n');
    assert.equal(stored?.trimEnd(), typed, 'the editor sent what was typed');
    const reading = readPostHogMarkdown(stored);
    assert.deepEqual(reading, readPostHogMarkdown(typed));
    assert.deepEqual(reading.errors, []);
    assert.deepEqual(
      reading.nodes.map((node) => (node.type === 'component' ? `component ${node.tagName}` : node.type)),
      ['heading', 'paragraph', 'table', 'component Query'],
    );
    const table = reading.nodes[2];
    assert.ok(table?.type === 'table');
    assert.deepEqual(table.alignments, ['left', 'right']);
    assert.equal(table.rows.length, 2);
    await workbench.runCommand('View: Close All Editors');
  });
});
