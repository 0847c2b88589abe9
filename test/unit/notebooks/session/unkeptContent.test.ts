import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import type { PostHogClient } from '../../../../src/api';
import { MarkdownSaveError } from '../../../../src/notebooks/saving/markdownSavePlan';
import type { NotebookForm } from '../../../../src/notebooks/model/notebookPaths';
import { type NotebookRef, NotebookSessions } from '../../../../src/notebooks/session';
import type { LocalApi } from '../../../api-server';
import { withLocalApiClient } from '../../../support/localApiClient';
import { FakeEditors, MemoryBaseStore, MemoryLog } from './sessionFakes';
import { paragraph } from '../../../api-server/content';


/** Content a legacy notebook's Markdown file has no place for, and __proto__ members: kept, sent or refused, never dropped. */
describe('content that is not a node, and __proto__ members (local API)', () => {
  let api: LocalApi;
  let client: PostHogClient;
  let projectId: number;
  let editors: FakeEditors;
  let sessions: NotebookSessions;

  withLocalApiClient({ seed: 'minimal' }, (started) => {
    ({ api, client, projectId } = started);
  });
  beforeEach(() => {
    editors = new FakeEditors();
    sessions?.dispose();
    sessions = new NotebookSessions({ calls: async () => client.notebooks, editors: () => editors, archive: new MemoryBaseStore(), log: new MemoryLog() });
    sessions.setLiveMode('poll');
    sessions.setPollInterval(0);
  });

  /** A legacy notebook whose stored content is `content`, as PostHog's JSONField would keep it. */
  async function storedAs(content: unknown): Promise<NotebookRef> {
    api.store.settings.newNotebooksAsMarkdown = false;
    const created = await client.notebooks.create(projectId, { title: 'Odd content', content: { type: 'doc', content: [paragraph('Placeholder.')] } }).finally(() => {
      api.store.settings.newNotebooksAsMarkdown = true;
    });
    api.store.getNotebook(projectId, created.short_id)!.content = content as never;
    return { connectionId: 'c', projectId, shortId: created.short_id };
  }

  async function saveEdited(ref: NotebookRef, form: NotebookForm, edit: (text: string) => string) {
    const { session, uri } = await editors.open(sessions, ref, form);
    const text = edit(editors.textOf(uri)!);
    editors.type(uri, text);
    return session.write(uri, form, text, { overwrite: false });
  }

  for (const [what, entry] of [
    ['null', null],
    ['a number', 5],
    ['a string', 'loose text'],
    ['a node with a numeric type', { type: 5, text: 'x' }],
  ] as const) {
    test(`a Markdown save of a legacy notebook holding ${what} among its nodes is refused, saying why; PostHog keeps it`, async () => {
      const content = { type: 'doc', content: [paragraph('First.'), entry, paragraph('Last.')] };
      const ref = await storedAs(content);
      api.clearRequests();
      await assert.rejects(
        saveEdited(ref, 'markdown', (text) => text.replace('Last.', 'Last, edited.')),
        (error: unknown) => error instanceof MarkdownSaveError && error.issues.some((issue) => /not a node: .*\(entry 2\); saving the Markdown would drop it, so it is refused: edit the notebook in the JSON form/.test(issue.message)),
      );
      assert.equal(api.requests.filter((request) => request.method !== 'GET').length, 0, 'nothing sent');
      assert.deepEqual(api.store.getNotebook(projectId, ref.shortId)!.content, content);
    });
  }

  test('a Markdown save of a legacy notebook whose content is a string, not a document, is refused', async () => {
    const ref = await storedAs('just a string');
    await assert.rejects(
      saveEdited(ref, 'markdown', (text) => `${text}\nMore.\n`),
      (error: unknown) => error instanceof MarkdownSaveError && error.issues.some((issue) => /content is "just a string", not a document/.test(issue.message)),
    );
    assert.equal(api.store.getNotebook(projectId, ref.shortId)!.content, 'just a string');
  });

  test('__proto__ from PostHog shows in the JSON document and survives a save of another change; one the user types is sent', async () => {
    const content = JSON.parse('{"type":"doc","content":[{"type":"paragraph","attrs":{"__proto__":{"from":"posthog"}},"content":[{"type":"text","text":"Hello."}]}]}');
    const ref = await storedAs(content);
    const outcome = await saveEdited(ref, 'json', (text) => {
      assert.match(text, /"__proto__": \{\n\s+"from": "posthog"/);
      return text.replace('"Hello."', '"Hello again."').replace('"from": "posthog"', '"from": "posthog",\n            "__proto__": "typed"');
    });
    assert.equal(outcome.kind, 'saved');
    const stored = api.store.getNotebook(projectId, ref.shortId)!.content as { content: { attrs: Record<string, unknown>; content: { text: string }[] }[] };
    const attrs = stored.content[0]!.attrs;
    assert.deepEqual(Object.keys(attrs), ['__proto__']);
    const member = attrs['__proto__'] as Record<string, unknown>;
    assert.deepEqual(Object.keys(member).sort(), ['__proto__', 'from']);
    assert.equal(Object.getOwnPropertyDescriptor(member, '__proto__')?.value, 'typed');
    assert.equal(stored.content[0]!.content[0]!.text, 'Hello again.');
  });
});
