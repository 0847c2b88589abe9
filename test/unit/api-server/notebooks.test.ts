import { describe, test, afterEach, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { markdownDoc, markdownOf, startLocalApi, textContentOf, SAMPLE_REFS, type LocalApi } from '../../api-server';
import { call, errorBody, get, mainProject } from './helpers';

const DOC = { type: 'doc', content: [{ type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Hello' }] }] };

describe('local API: notebooks', () => {
  let api: LocalApi;
  let projectId: number;
  let base: string;

  beforeEach(async () => {
    api = await startLocalApi({ seed: 'minimal' });
    ({ projectId } = mainProject(api));
    base = `/api/projects/${projectId}/notebooks`;
  });
  afterEach(() => api.close());

  const live = () => api.store.notebooksOf(projectId).filter((n) => !n.deleted);

  test('seeded notebooks hold real ProseMirror content with matching text_content', async () => {
    const notebook = live().find((n) => markdownOf(n.content) === undefined)!;
    const full = (await get(api, `${base}/${notebook.short_id}/`)).json;
    assert.match(full.short_id, /^[A-Za-z0-9]{8}$/);
    assert.equal(full.content.type, 'doc');
    assert.equal(full.content.content[0].type, 'heading');
    assert.equal(full.text_content, textContentOf(full.content));
    assert.equal(typeof full.version, 'number');
    assert.equal(full.created_by.email.endsWith('@hedgebox.net'), true);
    assert.ok(['id', 'uuid', 'distinct_id', 'first_name', 'last_name', 'email', 'is_email_verified', 'hedgehog_config'].every((k) => k in full.last_modified_by));
  });

  test('the list leaves out deleted notebooks and content, newest modification first', async () => {
    const page = (await get(api, `${base}/`)).json;
    assert.equal(page.count, 6);
    assert.deepEqual(Object.keys(page.results[0]).sort(), [
      'created_at', 'created_by', 'deleted', 'id', 'last_modified_at', 'last_modified_by', 'short_id', 'title', 'user_access_level',
    ]);
    const times = page.results.map((n: { last_modified_at: string }) => n.last_modified_at);
    assert.deepEqual(times, [...times].sort().reverse());
    const deleted = api.store.notebooksOf(projectId).find((n) => n.deleted)!;
    assert.equal((await get(api, `${base}/${deleted.short_id}/`)).status, 404);
  });

  test('create answers 201 with version 0; unknown and read-only fields are ignored', async () => {
    const answer = await call(api, 'POST', `${base}/`, { body: { title: 'New', content: DOC, text_content: 'Hello', short_id: 'mine1234', bogus: 1 } });
    assert.equal(answer.status, 201);
    assert.equal(answer.json.version, 0);
    assert.notEqual(answer.json.short_id, 'mine1234');
    assert.equal(answer.json.created_by.email, 'sam@hedgebox.net');
    const first = (await get(api, `${base}/`)).json.results[0];
    assert.equal(first.short_id, answer.json.short_id);
  });

  test('create stores a Markdown notebook, as PostHog now does: rich text converted, text_content the Markdown', async () => {
    const answer = await call(api, 'POST', `${base}/`, { body: { title: 'New', content: DOC, text_content: 'ignored' } });
    assert.deepEqual(answer.json.content, markdownDoc('# Hello'));
    assert.equal(answer.json.text_content, '# Hello');
    const withTags = {
      type: 'doc',
      content: [
        { type: 'ph-query', attrs: { query: { kind: 'SavedInsightNode', shortId: 'abc' }, nodeId: 'n1' } },
        { type: 'orderedList', attrs: { start: 3 }, content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'third' }] }] }] },
      ],
    };
    const converted = await call(api, 'POST', `${base}/`, { body: { title: 'Tags', content: withTags } });
    assert.equal(markdownOf(converted.json.content), '<Query hideFilters query={{"kind":"SavedInsightNode","shortId":"abc"}} nodeId="n1" />\n\n3. third');
  });

  test('create without content stores an empty Markdown notebook; a Markdown notebook is kept as sent', async () => {
    const empty = await call(api, 'POST', `${base}/`, { body: { title: 'Empty' } });
    assert.deepEqual(empty.json.content, markdownDoc(''));
    assert.equal(empty.json.text_content, '');
    const markdown = markdownDoc('# Mine\n\n<Insight id="abc" />');
    const kept = await call(api, 'POST', `${base}/`, { body: { title: 'Mine', content: markdown } });
    assert.deepEqual(kept.json.content, markdown);
    assert.equal(kept.json.text_content, '# Mine\n\n<Insight id="abc" />');
  });

  test('create answers 400 on content the converter cannot read, and creates nothing', async () => {
    const before = api.store.notebooksOf(projectId).length;
    const answer = await call(api, 'POST', `${base}/`, { body: { title: 'Bad', content: 42 } });
    assert.equal(answer.status, 400);
    assert.equal(answer.json.attr, 'content');
    assert.equal(api.store.notebooksOf(projectId).length, before);
  });

  test('an older server (newNotebooksAsMarkdown off) stores the content as sent; updates never convert', async () => {
    api.store.settings.newNotebooksAsMarkdown = false;
    const created = await call(api, 'POST', `${base}/`, { body: { title: 'Old', content: DOC } });
    assert.deepEqual(created.json.content, DOC);
    api.store.settings.newNotebooksAsMarkdown = true;
    const updated = await call(api, 'PATCH', `${base}/${created.json.short_id}/`, { body: { content: DOC, version: 0 } });
    assert.deepEqual(updated.json.content, DOC);
  });

  test('seeded Markdown notebooks: one ph-markdown-notebook node, text_content is the Markdown, PostHog nodes as tags', async () => {
    const markdownNotebooks = live().filter((n) => markdownOf(n.content) !== undefined);
    assert.deepEqual(markdownNotebooks.map((n) => n.title).sort(), ['Activation metrics', 'Signup drop-off']);
    for (const { short_id } of markdownNotebooks) {
      const full = (await get(api, `${base}/${short_id}/`)).json;
      assert.deepEqual(Object.keys(full.content), ['type', 'content']);
      assert.equal(full.content.content.length, 1);
      assert.equal(full.content.content[0].type, 'ph-markdown-notebook');
      assert.equal(full.content.content[0].attrs.nodeId, 'markdown-notebook-v2');
      assert.equal(full.text_content, full.content.content[0].attrs.markdown);
      assert.match(full.text_content, /^# /);
    }
    const signup = (await get(api, `${base}/${markdownNotebooks.find((n) => n.title === 'Signup drop-off')!.short_id}/`)).json;
    assert.ok(signup.text_content.includes(`<Query query={{"kind":"SavedInsightNode","shortId":"${SAMPLE_REFS.insight}"}} />`));
    assert.match(signup.text_content, /\n- \[x\] /);
    assert.match(signup.text_content, /\n\| Step \| Users \| Conversion \|\n/);
  });

  test('a remote edit of a Markdown notebook appends to its Markdown and keeps text_content equal to it', async () => {
    await api.close();
    api = await startLocalApi({ seed: 'minimal', control: true });
    ({ projectId } = mainProject(api));
    const notebook = live().find((n) => n.title === 'Activation metrics')!;
    const before = markdownOf(notebook.content)!;
    const answer = await call(api, 'POST', `/_control/notebooks/${projectId}/${notebook.short_id}/remote-edit`, { key: null });
    assert.equal(answer.status, 200);
    assert.equal(markdownOf(answer.json.content), `${before}\n\nEdited remotely (version ${notebook.version}).`);
    assert.equal(answer.json.content.content.length, 1);
    assert.equal(answer.json.text_content, markdownOf(answer.json.content));
  });

  test('a lying save (control): markdown_save and PATCH answer "saved" with a lower version or other text, and store nothing', async () => {
    await api.close();
    api = await startLocalApi({ seed: 'minimal', control: true });
    ({ projectId } = mainProject(api));
    const notebook = live().find((n) => n.title === 'Activation metrics')!;
    const path = `/api/projects/${projectId}/notebooks/${notebook.short_id}/`;
    const lie = async (kind: string, times?: number) =>
      (await call(api, 'POST', `/_control/notebooks/${projectId}/${notebook.short_id}/lying-save`, { key: null, body: { kind, times } })).status;
    await call(api, 'PATCH', path, { body: { title: 'Saved once' } });
    const before = { ...api.store.getNotebook(projectId, notebook.short_id)! };
    assert.ok(before.version > 0);
    const save = { client_id: 'c', version: before.version, content: markdownDoc('# Mine\n'), text_content: '# Mine' };
    assert.equal(await lie('older-version', 2), 201);
    const older = await call(api, 'POST', `${path}collab/markdown_save/`, { body: save });
    assert.deepEqual([older.status, older.json.version, older.json.content], [200, before.version - 1, before.content]);
    const patched = await call(api, 'PATCH', path, { body: { version: before.version, content: markdownDoc('# Mine\n') } });
    assert.deepEqual([patched.status, patched.json.version], [200, before.version - 1]);
    assert.equal(await lie('other-content'), 201);
    const other = await call(api, 'POST', `${path}collab/markdown_save/`, { body: save });
    assert.deepEqual([other.status, other.json.version, markdownOf(other.json.content), other.json.text_content], [200, before.version + 1, '# Something else\n', '# Something else']);
    const stored = api.store.getNotebook(projectId, notebook.short_id)!;
    assert.deepEqual([stored.version, stored.content, stored.title], [before.version, before.content, 'Saved once'], 'nothing stored');
    assert.equal((await call(api, 'POST', `${path}collab/markdown_save/`, { body: save })).json.version, before.version + 1, 'the lies are used up: the next save is stored');
    assert.equal(await lie('sometimes'), 400);
  });

  test('validation: version must be an integer, content an object, deleted a boolean', async () => {
    const { short_id } = live()[0]!;
    const cases: [object, string, string, string][] = [
      [{ version: 'two' }, 'version', 'invalid', 'A valid integer is required.'],
      [{ content: 'text' }, 'content', 'invalid', 'Expected a JSON object.'],
      [{ deleted: 'sure' }, 'deleted', 'invalid', 'Must be a valid boolean.'],
      [{ title: ['a'] }, 'title', 'invalid', 'Not a valid string.'],
    ];
    for (const [body, attr, code, detail] of cases) {
      const answer = await call(api, 'PATCH', `${base}/${short_id}/`, { body });
      assert.deepEqual(answer.json, errorBody('validation_error', code, detail, attr), JSON.stringify(body));
    }
  });

  test('PATCH with content needs the current version: 409 when stale or missing, +1 on success', async () => {
    const notebook = live()[0]!;
    const current = notebook.version;
    const ok = await call(api, 'PATCH', `${base}/${notebook.short_id}/`, { body: { content: DOC, version: current } });
    assert.equal(ok.status, 200);
    assert.equal(ok.json.version, current + 1);
    for (const body of [{ content: DOC, version: current }, { content: DOC }]) {
      const stale = await call(api, 'PATCH', `${base}/${notebook.short_id}/`, { body });
      assert.equal(stale.status, 409);
      assert.deepEqual(stale.json, { type: 'server_error', code: 'conflict', detail: 'Someone else edited the Notebook', attr: null });
    }
    assert.equal(api.store.getNotebook(projectId, notebook.short_id)!.version, current + 1);
  });

  test('a remote edit makes the next PATCH conflict', async () => {
    const notebook = live()[1]!;
    const seen = notebook.version;
    api.store.editNotebookRemotely(projectId, notebook.short_id, { content: DOC });
    const answer = await call(api, 'PATCH', `${base}/${notebook.short_id}/`, { body: { content: DOC, version: seen } });
    assert.equal(answer.status, 409);
    const fresh = (await get(api, `${base}/${notebook.short_id}/`)).json;
    assert.equal(fresh.version, seen + 1);
    assert.equal(fresh.last_modified_by.email, 'lee@hedgebox.net');
  });

  test('PATCH without content is not version-checked and keeps the version', async () => {
    const notebook = live()[0]!;
    const answer = await call(api, 'PATCH', `${base}/${notebook.short_id}/`, { body: { title: 'Renamed' } });
    assert.equal(answer.status, 200);
    assert.equal(answer.json.title, 'Renamed');
    assert.equal(answer.json.version, notebook.version);
    assert.ok(answer.json.last_modified_at > new Date(Date.now() - 60_000).toISOString());
  });

  test('If-None-Match with the current version answers 304 without a body', async () => {
    const notebook = live()[0]!;
    const same = await get(api, `${base}/${notebook.short_id}/`, { headers: { 'If-None-Match': String(notebook.version) } });
    assert.equal(same.status, 304);
    assert.equal(same.text, '');
    const changed = await get(api, `${base}/${notebook.short_id}/`, { headers: { 'If-None-Match': String(notebook.version + 5) } });
    assert.equal(changed.status, 200);
  });

  test('soft delete and restore by PATCH, with activity "deleted" and "restored"', async () => {
    const api2 = api;
    const notebook = live()[0]!;
    const path = `${base}/${notebook.short_id}/`;
    assert.equal((await call(api2, 'PATCH', path, { body: { deleted: true } })).json.deleted, true);
    assert.equal((await get(api2, path)).status, 404);
    assert.equal((await get(api2, `${base}/`)).json.count, 5);
    const restored = await call(api2, 'PATCH', path, { body: { deleted: false } });
    assert.equal(restored.status, 200);
    assert.equal(restored.json.deleted, false);
    const activity = (await get(api2, `${path}activity/`)).json;
    assert.deepEqual(activity.results.slice(0, 2).map((a: { activity: string }) => a.activity), ['restored', 'deleted']);
    const entry = activity.results[0];
    assert.equal(entry.scope, 'Notebook');
    assert.equal(entry.item_id, notebook.short_id);
    assert.equal(entry.detail.short_id, notebook.short_id);
    assert.deepEqual(entry.detail.changes, [{ type: 'Notebook', action: 'changed', field: 'deleted', before: true, after: false }]);
    assert.ok(activity.total_count >= 3);
  });

  test('filters: user, created_by and last_modified_by (by UUID), date_from/date_to', async () => {
    const mine = (await get(api, `${base}/?user=true`)).json.results;
    assert.ok(mine.length > 0 && mine.every((n: { created_by: { email: string } }) => n.created_by.email === 'sam@hedgebox.net'));
    const lee = api.store.users[1]!;
    const byUuid = (await get(api, `${base}/?created_by=${lee.uuid}`)).json.results;
    assert.ok(byUuid.length > 0 && byUuid.every((n: { created_by: { id: number } }) => n.created_by.id === lee.id));
    const undashed = (await get(api, `${base}/?created_by=${lee.uuid.replace(/-/g, '').toUpperCase()}`)).json.results;
    assert.deepEqual(undashed, byUuid, 'Django reads a UUID without dashes, in any case');
    const modifiedBySam = (await get(api, `${base}/?last_modified_by=${api.store.users[0]!.uuid}`)).json.results;
    assert.ok(modifiedBySam.length > 0 && modifiedBySam.every((n: { last_modified_by: { id: number } }) => n.last_modified_by.id === api.store.users[0]!.id));

    const sorted = live().sort((a, b) => a.last_modified_at - b.last_modified_at);
    const middle = new Date(sorted[1]!.last_modified_at / 1000).toISOString();
    const after = (await get(api, `${base}/?date_from=${encodeURIComponent(middle)}`)).json.results;
    assert.equal(after.length, sorted.length - 2, 'strictly after');
    const before = (await get(api, `${base}/?date_to=${encodeURIComponent(middle)}`)).json.results;
    assert.equal(before.length, 1, 'strictly before');
    assert.equal((await get(api, `${base}/?date_from=-1000d`)).json.count, 6);
  });

  test('created_by or last_modified_by that is not a UUID (an integer id, a name, empty) is a 500, as on PostHog', async () => {
    const lee = api.store.users[1]!;
    for (const value of [String(lee.id), '5', 'lee@hedgebox.net', '', `${lee.uuid}x`]) {
      for (const key of ['created_by', 'last_modified_by']) {
        const answer = await get(api, `${base}/?${key}=${encodeURIComponent(value)}`);
        assert.equal(answer.status, 500, `${key}=${value}`);
        assert.deepEqual(answer.json, { type: 'server_error', code: 'error', detail: 'A server error occurred.', attr: null });
      }
    }
  });

  test('search is full-text on whole words: all words in the title, or all in text_content; prefixes do not match', async () => {
    const titles = async (search: string) =>
      (await get(api, `${base}/?search=${encodeURIComponent(search)}`)).json.results.map((n: { title: string }) => n.title).sort();
    assert.deepEqual(await titles('funnel'), ['Onboarding funnel investigation']);
    assert.deepEqual(await titles('FUNNEL Onboarding'), ['Onboarding funnel investigation'], 'any order, any case');
    assert.deepEqual(await titles('funn'), [], 'a prefix is not a word');
    assert.deepEqual(await titles('sig'), []);
    assert.deepEqual(await titles('signup'), ['Signup drop-off'], 'drop-off is the words drop and off');
    assert.deepEqual(await titles('drop'), ['Onboarding funnel investigation', 'Signup drop-off'], '"drop off" in a text, "drop-off" in a title');
    assert.deepEqual(await titles('captcha'), ['Signup drop-off'], 'words of the Markdown text_content');
    assert.deepEqual(await titles('uploaders weekly'), ['Activation metrics']);
    assert.deepEqual(await titles('funnel captcha'), [], 'all words must be in one field');
    assert.deepEqual(await titles('Signup captcha'), ['Signup drop-off'], 'both words are in the text');
    await call(api, 'POST', `${base}/`, { body: { title: 'Quarterly review', content: markdownDoc('Numbers for the board.') } });
    assert.deepEqual(await titles('quarterly'), ['Quarterly review']);
    assert.deepEqual(await titles('board'), ['Quarterly review']);
    assert.deepEqual(await titles('quarterly board'), [], 'one word in the title and one in the text is no match');
    assert.deepEqual(await titles('-'), [], 'no words: no match');
    assert.equal((await get(api, `${base}/?search=`)).json.count, 7, 'an empty search filters nothing');
  });

  test('contains: presence, absence, an id, numeric ids and saved insights', async () => {
    const titles = async (query: string) =>
      (await get(api, `${base}/?contains=${encodeURIComponent(query)}`)).json.results.map((n: { title: string }) => n.title).sort();
    assert.deepEqual(await titles('recordings:true'), ['Onboarding funnel investigation', 'Weekly product review']);
    assert.deepEqual(await titles('recording'), ['Onboarding funnel investigation', 'Weekly product review']);
    assert.deepEqual(
      await titles('recording:false'),
      ['Activation metrics', 'Pricing experiment notes', 'SQL snippets', 'Signup drop-off'],
      'a Markdown notebook has one node; its <Recording /> tags are text',
    );
    assert.deepEqual(await titles(`recording:${SAMPLE_REFS.recording}`), ['Weekly product review']);
    assert.deepEqual(await titles(`feature-flag:${SAMPLE_REFS.flagId}`), ['Pricing experiment notes']);
    assert.deepEqual(await titles(`query:${SAMPLE_REFS.insight}`), ['Weekly product review']);
    assert.deepEqual(await titles(`recording:true,feature-flag:true`), []);
    assert.deepEqual(await titles(`recording:true person:true`), ['Onboarding funnel investigation']);
    assert.deepEqual(await titles(`replay-timestamps:${SAMPLE_REFS.recording}`), ['Weekly product review']);
  });

  test('pages through thousands of notebooks with limit/offset', async () => {
    api.store.addNotebooks(projectId, 5000);
    const first = (await get(api, `${base}/?limit=1000`)).json;
    assert.equal(first.count, 5006);
    const seen = new Set<string>();
    let next: string | null = `${api.url}${base}/?limit=1000`;
    while (next) {
      const page = (await fetch(next, { headers: { Authorization: `Bearer ${api.keys.all}` } }).then((r) => r.json())) as { next: string | null; results: { short_id: string }[] };
      page.results.forEach((n) => seen.add(n.short_id));
      next = page.next;
    }
    assert.equal(seen.size, 5006);
  });

  test('notebook-wide activity lists Notebook entries newest first (when personal keys are allowed)', async () => {
    await api.close();
    api = await startLocalApi({ seed: 'minimal', refusePersonalKeyActions: false });
    ({ projectId } = mainProject(api));
    await call(api, 'POST', `/api/projects/${projectId}/notebooks/`, { body: { title: 'Fresh' } });
    const page = (await get(api, `/api/projects/${projectId}/notebooks/activity/`)).json;
    assert.equal(page.results.length, 10);
    assert.equal(page.results[0].activity, 'created');
    assert.equal(page.results[0].detail.name, 'Fresh');
    assert.ok(page.total_count > 10);
    assert.ok(page.next.includes('page=2'));
    const times = page.results.map((a: { created_at: string }) => a.created_at);
    assert.deepEqual(times, [...times].sort().reverse());
  });
});
