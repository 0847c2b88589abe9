import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { type LocalApi } from '../../api-server';
import { NOT_MODIFIED, PostHogClient } from '../../../src/api';
import { withLocalApiClient } from '../../support/localApiClient';

const MARKDOWN = '# Out of the response\n\nRead from .../markdown/\n';
const markdownDoc = (markdown?: string) => ({
  type: 'doc',
  content: [{ type: 'ph-markdown-notebook', attrs: markdown === undefined ? { nodeId: 'markdown-notebook-v2' } : { nodeId: 'markdown-notebook-v2', markdown } }],
});

describe('notebooks whose Markdown PostHog leaves out of its default response', () => {
  let api: LocalApi;
  let client: PostHogClient;
  let projectId: number;
  let shortId: string;

  withLocalApiClient({ seed: 'minimal' }, async (started) => {
    ({ api, client, projectId } = started);
    shortId = (await client.notebooks.create(projectId, { title: 'Out', content: markdownDoc(MARKDOWN), text_content: MARKDOWN })).short_id;
  });
  beforeEach(() => {
    api.store.settings.markdownOutOfResponses = true;
    api.requests.length = 0;
  });

  const paths = () => api.requests.map((request) => `${request.method} ${request.path.replace(/^\/api\/projects\/\d+\/notebooks/, '')}`);

  test('get reads the Markdown from GET .../markdown/ and gives the whole notebook', async () => {
    const notebook = await client.notebooks.get(projectId, shortId);
    assert.deepEqual(notebook.content, markdownDoc(MARKDOWN));
    assert.equal(notebook.text_content, MARKDOWN);
    assert.deepEqual(paths(), [`GET /${shortId}/`, `GET /${shortId}/markdown/`]);
  });

  test('a PATCH answer without the Markdown is completed the same way; a 304 costs nothing more', async () => {
    const current = await client.notebooks.get(projectId, shortId);
    api.requests.length = 0;
    const edited = `${MARKDOWN}\nMore\n`;
    const saved = await client.notebooks.update(projectId, shortId, { content: markdownDoc(edited), version: current.version });
    assert.deepEqual(saved.content, markdownDoc(edited));
    assert.deepEqual(paths(), [`PATCH /${shortId}/`, `GET /${shortId}/markdown/`]);
    api.requests.length = 0;
    assert.equal(await client.notebooks.get(projectId, shortId, { ifNoneMatchVersion: saved.version }), NOT_MODIFIED);
    assert.deepEqual(paths(), [`GET /${shortId}/`]);
  });

  test('when the response has the Markdown, nothing more is asked', async () => {
    api.store.settings.markdownOutOfResponses = false;
    const notebook = await client.notebooks.get(projectId, shortId);
    assert.equal((notebook.content as { content: { attrs: { markdown: string } }[] }).content[0]!.attrs.markdown.startsWith('# Out'), true);
    assert.deepEqual(paths(), [`GET /${shortId}/`]);
  });

  test('markdown() answers a legacy notebook converted by PostHog', async () => {
    const legacy = await client.notebooks.create(projectId, { title: 'Legacy', content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Plain' }] }] } });
    assert.equal(await client.notebooks.markdown(projectId, legacy.short_id), 'Plain');
  });
});
