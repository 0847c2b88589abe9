import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type ActivityEntry, PostHogClient } from '../../../../src/api';
import { type LocalApi } from '../../../api-server';
import { recordRejectedSave, migrateToMarkdown } from '../../../api-server/notebook-history';
import { showValue } from '../../../../src/notebooks/history/activityFormat';
import { HistoryPages, MAX_PAGE_ENTRIES, readHistory, versionText } from '../../../../src/notebooks/history/notebookActivity';
import { assertLinear } from '../markdown/linearCheck';
import { describeUser, markdownOf } from '../../../../src/notebooks/model/notebookDocument';
import { notebook } from '../fixtures';
import { withLocalApiClient } from '../../../support/localApiClient';

const legacy = (text: string) => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });
const markdownDoc = (markdown: string) => ({ type: 'doc', content: [{ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown } }] });
const ADA = { first_name: 'Ada', email: 'ada@example.com' };

function entry(id: string, activity: string, at: string, changes: { field: string; before: unknown; after: unknown }[] = [], user: ActivityEntry['user'] = ADA): ActivityEntry {
  return { id, user, activity, scope: 'Notebook', created_at: at, detail: { changes: changes.map((change) => ({ type: 'Notebook', action: 'changed', ...change })) } };
}

describe('notebook history read from PostHog\'s activity', () => {
  test('saves are versions holding the content they stored; other fields are listed; rejected saves are never versions', () => {
    const history = readHistory([
      entry('4', 'save_rejected_stale', '2026-03-01T10:04:00Z', [{ field: 'content', before: legacy('B'), after: legacy('never stored') }], { first_name: 'Bo' }),
      entry('3', 'save_rejected_conflict', '2026-03-01T10:03:00Z', [{ field: 'content', before: legacy('B'), after: legacy('lost race') }]),
      entry('2', 'updated', '2026-03-01T10:02:00Z', [
        { field: 'content', before: legacy('A'), after: legacy('B') },
        { field: 'title', before: 'Old', after: 'New' },
        { field: 'text_content', before: 'A', after: 'B' },
      ]),
      entry('1', 'created', '2026-03-01T10:00:00Z'),
    ]);
    assert.deepEqual(
      history.map((item) => [item.id, item.kind, item.rejection, item.author]),
      [
        ['4', 'rejected', 'stale', 'Bo'],
        ['3', 'rejected', 'conflict', 'Ada'],
        ['2', 'edit', undefined, 'Ada'],
        ['1', 'created', undefined, 'Ada'],
      ],
    );
    assert.deepEqual(history[0]!.content, legacy('never stored'), 'the content that never landed stays recoverable');
    assert.deepEqual(history[2]!.content, legacy('B'));
    assert.deepEqual(history[2]!.changes, ['title: "Old" → "New"'], 'content, text_content and version are the version itself');
    assert.equal(history[3]!.content, undefined);
  });

  test('PostHog\'s migration (legacy → Markdown under the previous editor, a second after the last save) is PostHog\'s; a user\'s own conversion is theirs', () => {
    const migration = entry('3', 'updated', '2026-03-01T10:02:01.000Z', [{ field: 'content', before: legacy('B'), after: markdownDoc('B') }]);
    const lastSave = entry('2', 'updated', '2026-03-01T10:02:00.040Z', [{ field: 'content', before: legacy('A'), after: legacy('B') }]);
    const [read] = readHistory([migration, lastSave]);
    assert.deepEqual([read!.kind, read!.author], ['migration', 'PostHog']);
    const [own] = readHistory([{ ...migration, created_at: '2026-03-02T09:00:00Z' }, lastSave]);
    assert.deepEqual([own!.kind, own!.author], ['edit', 'Ada']);
    const refused = entry('r', 'save_rejected_conflict', '2026-03-01T10:02:00.500Z', [{ field: 'content', before: legacy('B'), after: legacy('C') }], { first_name: 'Bo' });
    assert.deepEqual(readHistory([migration, refused, lastSave]).map((item) => item.kind), ['migration', 'rejected', 'edit'], 'a refused save between them changed nothing');
    assert.equal(readHistory([migration], [refused, lastSave])[0]!.kind, 'migration', 'the entries after a page decide');
    const [otherUser] = readHistory([migration, { ...lastSave, user: { first_name: 'Bo' } }]);
    assert.equal(otherUser!.kind, 'edit', 'the migration is logged under the previous editor');
    assert.equal(readHistory([migration])[0]!.kind, 'edit', 'undecided without the entry before it');
  });

  test('names and activities from PostHog are one safe line; the system user is PostHog', () => {
    const [odd, system] = readHistory([
      entry('2', 'updated\r\nInjected', '2026-01-01T11:00:00Z', [], { first_name: 'Ann\n\u202eeeL', email: 'a@x' }),
      entry('1', 'deleted', '2026-01-01T10:00:00Z', [], { is_system: true }),
    ]);
    assert.equal(odd!.author, 'Ann \uFFFDeeL');
    assert.equal(odd!.activity, 'updated Injected');
    assert.deepEqual([system!.kind, system!.author], ['deleted', 'PostHog']);
    const user = { first_name: 'Ann\n>>>>>>> x', last_name: 'Lee\u2067', email: 'ann@example.com\n' };
    assert.equal(describeUser(user as never), 'Ann >>>>>>> x Lee\uFFFD <ann@example.com>');
    assert.equal(showValue(null), '∅');
    assert.ok(showValue({ text: 'x'.repeat(500) }).length <= 80);
  });

  test('a version\'s text in the file\'s form: Markdown, or the JSON document with the read-only block and title the editor shows', () => {
    const current = notebook({ title: 'Now', version: 7, content: legacy('current') });
    assert.equal(versionText(markdownDoc('# Then\n'), 'markdown', current), '# Then\n');
    assert.equal(versionText(legacy('then'), 'markdown', current), 'then\n');
    const shown = JSON.stringify({ _readonly: { about: 'x', short_id: current.short_id, version: 5 }, title: 'Shown title', content: legacy('x') });
    const json = JSON.parse(versionText(legacy('then'), 'json', current, shown));
    assert.deepEqual(json._readonly, { about: 'x', short_id: current.short_id, version: 5 });
    assert.equal(json.title, 'Shown title');
    assert.deepEqual(json.content, legacy('then'));
    assert.equal(json.text_content, 'then');
    const fallback = JSON.parse(versionText(markdownDoc('# M\n'), 'json', current, 'not json'));
    assert.equal(fallback._readonly.version, 7);
    assert.deepEqual(fallback.content.content[0].attrs.markdown, ['# M', '']);
    assert.equal(markdownOf(markdownDoc('# M\n')), '# M\n');
  });

  test('pages load on demand; a page ending on a possible migration loads the next to decide', async () => {
    const all = [
      entry('3', 'updated', '2026-03-01T10:02:01.000Z', [{ field: 'content', before: legacy('B'), after: markdownDoc('B') }]),
      entry('2', 'updated', '2026-03-01T10:02:00.040Z', [{ field: 'content', before: legacy('A'), after: legacy('B') }]),
      entry('1', 'created', '2026-03-01T10:00:00Z'),
    ];
    const asked: number[] = [];
    const pages = new HistoryPages(async (page, limit) => {
      asked.push(page);
      return { entries: all.slice((page - 1) * limit, page * limit), more: page * limit < all.length };
    }, 1);
    const first = await pages.page(1);
    assert.deepEqual(asked, [1, 2]);
    assert.deepEqual([first.entries[0]!.kind, first.more], ['migration', true]);
    assert.equal((await pages.page(2)).entries[0]!.kind, 'edit');
    assert.deepEqual(asked, [1, 2], 'page 2 was loaded already');
    const last = await pages.page(3);
    assert.deepEqual([last.entries.map((item) => item.id), last.more], [['1'], false]);
  });
});

describe('notebook history of any size', () => {
  test('reading a page is linear in its entries (each entry looked back over the rest of the list: 64,000 took 19.7 s)', () => {
    const entries = (count: number) =>
      Array.from({ length: count }, (_, index) =>
        entry(String(count - index), index % 2 ? 'save_rejected_conflict' : 'updated', '2026-03-01T10:00:00Z', [{ field: 'content', before: legacy('A'), after: legacy('B') }]),
      );
    assertLinear('readHistory', (size) => readHistory(entries(size)), 2_000);
  });
});

describe('notebook history against the local API', () => {
  let api: LocalApi;
  let client: PostHogClient;
  let projectId: number;

  withLocalApiClient({ seed: 'minimal' }, (started) => {
    ({ api, client, projectId } = started);
  });

  test('saves, a refused save and PostHog\'s migration, as PostHog\'s activity gives them, read a page at a time', async () => {
    const created = await client.notebooks.create(projectId, { title: 'Told', content: legacy('A') });
    const saved = await client.notebooks.update(projectId, created.short_id, { content: legacy('B'), version: created.version });
    const stored = api.store.getNotebook(projectId, created.short_id)!;
    const bo = api.store.addUser('Bo', 'Rejected', 'bo@example.com');
    recordRejectedSave(api.store, stored, 'stale', legacy('never stored'), bo.id);
    migrateToMarkdown(api.store, stored);
    const pages = new HistoryPages(async (page, limit) => {
      const answer = await client.notebooks.activity(projectId, created.short_id, { page, limit });
      return 'results' in answer ? { entries: answer.results, more: Boolean(answer.next) } : { entries: [], more: false };
    }, 2);
    const first = await pages.page(1);
    const second = await pages.page(2);
    const history = [...first.entries, ...second.entries];
    const mine = saved.last_modified_by?.first_name;
    assert.deepEqual(
      history.map((item) => [item.kind, item.author]),
      [
        ['migration', 'PostHog'],
        ['rejected', 'Bo'],
        ['edit', mine],
        ['created', mine],
      ],
    );
    assert.equal(markdownOf(history[0]!.content), 'B');
    assert.deepEqual(history[1]!.content, legacy('never stored'));
    assert.deepEqual(history[2]!.content, legacy('B'));
    assert.equal(second.more, false);
  });

  test('a page over the limit (a server that ignores it) is cut to the limit and ends the history: older history is PostHog\'s', async () => {
    const created = await client.notebooks.create(projectId, { title: 'Busy', content: legacy('A') });
    const project = api.store.projects.find((candidate) => candidate.id === projectId)!;
    for (let index = 0; index < 64_000; index++) {
      api.store.logActivity(project, null, 'Notebook', created.short_id, 'updated', { name: 'Busy', short_id: created.short_id });
    }
    api.store.settings.activityIgnoresLimit = true;
    try {
      const asked: number[] = [];
      const pages = new HistoryPages(async (page, limit) => {
        asked.push(limit);
        const answer = await client.notebooks.activity(projectId, created.short_id, { page, limit });
        return 'results' in answer ? { entries: answer.results, more: Boolean(answer.next) } : { entries: [], more: false };
      }, 20);
      const first = await pages.page(1);
      assert.equal(first.entries.length, 20);
      assert.deepEqual([first.more, first.cut], [false, true]);
      assert.deepEqual(asked, [20], 'no further page is asked for');
      assert.ok(MAX_PAGE_ENTRIES <= 100);
    } finally {
      api.store.settings.activityIgnoresLimit = false;
    }
  });
});
