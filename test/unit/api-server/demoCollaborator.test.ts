import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { markdownOf, startLocalApi } from '../../api-server';
import { parseArgs } from '../../api-server/cli';
import { DEMO_NOTEBOOK_TITLE } from '../../api-server/demo-collaborator';

describe('local API: the demo collaborator (--live-notebook)', () => {
  test('the command line takes --live-notebook', () => {
    assert.equal(parseArgs(['--live-notebook']).liveNotebook, true);
  });

  test('types into its notebook through versioned saves, its caret on the stream', async () => {
    const api = await startLocalApi({ seed: 'demo', liveNotebook: true });
    try {
      const demo = api.demoNotebook!;
      assert.equal(demo.title, DEMO_NOTEBOOK_TITLE);
      const notebook = api.store.getNotebook(demo.projectId, demo.shortId)!;
      const deadline = Date.now() + 5000;
      while (notebook.version < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.ok(notebook.version >= 2, `typed ${notebook.version} words`);
      assert.match(markdownOf(notebook.content) ?? '', /## Notes\n\nSignups recovered/);
      const entries = api.store.collab.entries(notebook);
      assert.equal(entries[entries.length - 1]!.data['user_name'], 'Robin Demo');
      assert.ok(api.store.collab.recentPresence(notebook).length > 0, 'its caret');
    } finally {
      await api.close();
    }
  });
});
