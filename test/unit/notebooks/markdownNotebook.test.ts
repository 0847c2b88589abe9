import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Notebook, PostHogClient } from '../../../src/api';
import {
  markdownOf,
  NotebookDocumentError,
  parseNotebookDocument,
  serializeNotebook,
  textContentOf,
} from '../../../src/notebooks/model/notebookDocument';
import { ServedJsonVersions, type SavePlan } from '../../../src/notebooks/saving/jsonSavePlan';
import { type LocalApi } from '../../api-server';
import { edited, notebook } from './fixtures';
import { withLocalApiClient } from '../../support/localApiClient';

const markdownContent = (markdown: string) => ({
  type: 'doc',
  content: [{ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown } }],
});

function markdownNotebook(markdown: string, overrides: Partial<Notebook> = {}): Notebook {
  return notebook({ content: markdownContent(markdown), text_content: markdown, ...overrides });
}

function sentMarkdown(plan: SavePlan): unknown {
  assert.equal(plan.kind, 'patch');
  return plan.kind === 'patch' ? markdownOf(plan.body.content) : undefined;
}

/** Through bytes, as VS Code hands the file system the saved text. */
const asSaved = (text: string) => new TextDecoder().decode(new TextEncoder().encode(text));

const TRICKY: Record<string, string> = {
  'a trailing newline': '# Title\n\nText.\n',
  'no trailing newline': '# Title\n\nText.',
  'CRLF line ends': '# Title\r\n\r\n- one\r\n- two\r\n',
  'mixed line ends and a lone CR': 'a\r\nb\nc\rd',
  'empty lines, leading and trailing': '\n\n# Title\n\n\n\nText\n\n\n',
  'only newlines': '\n\n',
  empty: '',
  unicode: '# Ünïcødé 🚀\n\nखबर · 中文 · עברית\u200b\u00a0e\u0301 \u2028 after a line separator\n👩🏽‍💻',
  'a lone surrogate': 'broken \ud800 pair',
  'quotes, backslashes, tabs and an MDX tag': '<Query query={{"kind":"SavedInsightNode","shortId":"abc"}} />\n\tC:\\path\\ "quoted"\n',
};

describe('Markdown notebooks as documents', () => {
  test('show the Markdown as a list of lines, leave text_content out and say what to edit', () => {
    const text = serializeNotebook(markdownNotebook('# Signup drop-off\n\nSignups fell **18%**.\n'));
    const document = JSON.parse(text);
    assert.deepEqual(Object.keys(document), ['_readonly', 'title', 'content']);
    assert.deepEqual(document.content.content[0].attrs.markdown, ['# Signup drop-off', '', 'Signups fell **18%**.', '']);
    assert.equal(document.content.content[0].attrs.nodeId, 'markdown-notebook-v2');
    assert.match(document._readonly.about, /Markdown \(content\.content\[0\]\.attrs\.markdown, one string per line\); text_content is the Markdown/);
    assert.match(text, /\n +"Signups fell \*\*18%\*\*\.",\n/, 'one line of Markdown per line of JSON');
  });

  test('a document that is not a Markdown notebook is shown as before', () => {
    const twoNodes = notebook({ content: { type: 'doc', content: [...markdownContent('# x').content, { type: 'paragraph' }] } });
    const document = JSON.parse(serializeNotebook(twoNodes));
    assert.equal(document.content.content[0].attrs.markdown, '# x', 'PostHog treats only a lone node as a Markdown notebook');
    assert.ok('text_content' in document);
    assert.equal(markdownOf(twoNodes.content), undefined);
  });

  for (const [name, markdown] of Object.entries(TRICKY)) {
    test(`round trip is exact: ${name}`, () => {
      const served = markdownNotebook(markdown);
      const text = asSaved(serializeNotebook(served));
      assert.deepEqual(parseNotebookDocument(text).editable.content, served.content);
      const history = new ServedJsonVersions(served.short_id);
      history.recordServed(served);
      assert.equal(history.planSave(text).kind, 'unchanged', 'open then save unchanged sends nothing');
      const renamed = history.planSave(asSaved(edited(text, (document) => (document.title = 'Renamed'))));
      const sent = sentMarkdown(renamed);
      assert.equal(sent, markdown, 'byte-identical Markdown');
      assert.ok(Buffer.from(String(sent), 'utf16le').equals(Buffer.from(markdown, 'utf16le')));
      assert.equal(renamed.kind === 'patch' && 'text_content' in renamed.body, false, 'text_content unchanged, not sent');
    });
  }

  test('an edited line saves as the joined Markdown, and text_content is that Markdown', () => {
    const served = markdownNotebook('# Title\n\nOld line\n');
    const history = new ServedJsonVersions(served.short_id);
    history.recordServed(served);
    const plan = history.planSave(edited(serializeNotebook(served), (document) => (document.content.content[0].attrs.markdown[2] = 'New line')));
    assert.equal(sentMarkdown(plan), '# Title\n\nNew line\n');
    assert.equal(plan.kind === 'patch' && plan.body.text_content, '# Title\n\nNew line\n');
    assert.equal(plan.kind === 'patch' && plan.body.version, served.version);
  });

  test('text_content is never left empty: a save repairs an empty or missing one', () => {
    for (const stored of ['', null]) {
      const served = markdownNotebook('# Kept\n', { text_content: stored });
      const history = new ServedJsonVersions(served.short_id);
      history.recordServed(served);
      const plan = history.planSave(edited(serializeNotebook(served), (document) => (document.title = 'Renamed')));
      assert.equal(plan.kind === 'patch' && plan.body.text_content, '# Kept\n', String(stored));
    }
  });

  test('PostHog trims what it stores: a trimmed text_content of the same Markdown counts as equal', () => {
    const served = markdownNotebook('\n# Title\n', { text_content: '# Title' });
    const history = new ServedJsonVersions(served.short_id);
    history.recordServed(served);
    assert.equal(history.planSave(serializeNotebook(served)).kind, 'unchanged');
  });

  test('the Markdown may be written as one string', () => {
    const served = markdownNotebook('# Title\n');
    const history = new ServedJsonVersions(served.short_id);
    history.recordServed(served);
    assert.equal(history.planSave(edited(serializeNotebook(served), (document) => (document.content.content[0].attrs.markdown = '# Title\n'))).kind, 'unchanged');
    const plan = history.planSave(edited(serializeNotebook(served), (document) => (document.content.content[0].attrs.markdown = '# Other\n')));
    assert.equal(sentMarkdown(plan), '# Other\n');
  });

  test('a text_content that differs from the Markdown is refused, saying where; one equal to it is fine', () => {
    const served = markdownNotebook('# Title\n');
    const history = new ServedJsonVersions(served.short_id);
    history.recordServed(served);
    const text = serializeNotebook(served);
    assert.throws(
      () => history.planSave(edited(text, (document) => (document.text_content = 'a summary'))),
      (error: unknown) =>
        error instanceof NotebookDocumentError &&
        error.problems[0]?.field === 'text_content' &&
        error.problems[0].location !== undefined &&
        /a Markdown notebook's text_content is its Markdown/.test(error.message),
    );
    assert.equal(history.planSave(edited(text, (document) => (document.text_content = '# Title\n'))).kind, 'unchanged');
  });

  test('Markdown that is neither lines nor a string is refused, naming the field', () => {
    const served = markdownNotebook('# Title\n');
    const history = new ServedJsonVersions(served.short_id);
    history.recordServed(served);
    const text = serializeNotebook(served);
    assert.throws(
      () => history.planSave(edited(text, (document) => (document.content.content[0].attrs.markdown = ['# Title', 7]))),
      /Line \d+, column \d+: content\.content\[0\]\.attrs\.markdown\[1\] must be a line of Markdown \(a string\), not a number/,
    );
    assert.throws(
      () => history.planSave(edited(text, (document) => (document.content.content[0].attrs.markdown = { lines: [] }))),
      /content\.content\[0\]\.attrs\.markdown must be the Markdown as a list of lines \(strings\), or one string, not an object/,
    );
  });

  test('a document the user turns into a Markdown notebook gets the Markdown as text_content', () => {
    const served = notebook();
    const history = new ServedJsonVersions(served.short_id);
    history.recordServed(served);
    const plan = history.planSave(
      edited(serializeNotebook(served), (document) => (document.content = { type: 'doc', content: [{ type: 'ph-markdown-notebook', attrs: { markdown: ['# Now Markdown', ''] } }] })),
    );
    assert.equal(plan.kind === 'patch' && plan.body.text_content, '# Now Markdown\n');
    assert.equal(textContentOf(markdownContent('# x')), '# x');
  });
});

describe('Markdown notebooks against the local API', () => {
  let api: LocalApi;
  let client: PostHogClient;
  let projectId: number;

  withLocalApiClient({ seed: 'minimal' }, (started) => {
    ({ api, client, projectId } = started);
  });

  test('a seeded Markdown notebook opens, is edited and saved; the server holds the Markdown and text_content', async () => {
    const listed = await client.notebooks.listAll(projectId, { search: 'signup' });
    const shortId = listed.find((item) => item.title === 'Signup drop-off')!.short_id;
    const served = await client.notebooks.get(projectId, shortId);
    const before = markdownOf(served.content)!;
    assert.equal(served.text_content, before);
    const history = new ServedJsonVersions(shortId);
    history.recordServed(served);
    const text = edited(serializeNotebook(served), (document) => document.content.content[0].attrs.markdown.push('', '- [ ] Follow up with design'));
    const plan = history.planSave(text);
    assert.equal(plan.kind, 'patch');
    if (plan.kind !== 'patch') return;
    const saved = await client.notebooks.update(projectId, shortId, plan.body);
    const expected = `${before}\n\n- [ ] Follow up with design`;
    assert.equal(markdownOf(saved.content), expected);
    assert.equal(saved.text_content, expected);
    assert.equal(saved.version, served.version + 1);
    const request = api.requests.filter((entry) => entry.method === 'PATCH').at(-1)!;
    assert.equal((request.body as { text_content: string }).text_content, expected);
  });
});
