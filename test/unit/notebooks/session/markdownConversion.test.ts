import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Comment, MissingScopeError, type Notebook, PostHogClient, RequestBudgets } from '../../../../src/api';
import { readPostHogMarkdown } from '../../../../src/notebooks/markdown';
import { commentRepliesOf, planConversion } from '../../../../src/notebooks/session';
import { type LocalApi, startLocalApi } from '../../../api-server';
import { control } from '../../api-server/helpers';

const user = (id: number, first_name: string, email = `${first_name.toLowerCase() || 'x'}@example.com`) => ({ id, uuid: `u-${id}`, first_name, email });
/** Mentions with labels (or none): no member to look up. */
const noMembers = () => assert.fail('no member names to look up');
const comment = (fields: Partial<Comment> & { id: string; created_at: string }): Comment => ({ scope: 'Notebook', item_id: 'nb1', ...fields });

/** A legacy notebook with two highlighted (commented) texts and a mention. */
function legacyNotebook(): Notebook {
  const marked = (text: string, id: string) => ({ type: 'text', text, marks: [{ type: 'comment', attrs: { id } }] });
  return {
    id: 'n1',
    short_id: 'nb1',
    title: 'Threads',
    version: 3,
    created_at: '2026-01-01T00:00:00Z',
    last_modified_at: '2026-01-01T00:00:00Z',
    content: {
      type: 'doc',
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'See ' }, marked('the drop', 'mark-a'), { type: 'text', text: ', says ' }, { type: 'ph-mention', attrs: { id: 7, label: 'Lee' } }] },
        { type: 'paragraph', content: [marked('Second', 'mark-b')] },
      ],
    },
  } as unknown as Notebook;
}

describe("Convert to Markdown Notebook: threads read as PostHog's migration reads them", () => {
  test("a thread is its first comment and its replies, oldest first; deleted comments, emoji reactions and other items' comments are left out", () => {
    const comments: Comment[] = [
      comment({ id: 'r2', created_at: '2026-02-01T10:00:02Z', content: 'Second reply', created_by: user(3, '', 'sam@example.com'), source_comment: 'root-a' }),
      comment({ id: 'emoji', created_at: '2026-02-01T10:00:01.5Z', content: '👍', created_by: user(3, 'Sam'), source_comment: 'root-a', item_context: { type: 'mark', id: 'mark-a', is_emoji: true } }),
      comment({ id: 'gone', created_at: '2026-02-01T10:00:01.7Z', content: 'Deleted', source_comment: 'root-a', deleted: true }),
      comment({ id: 'r1', created_at: '2026-02-01T10:00:01.250Z', content: 'First reply', created_by: user(2, 'Ann'), source_comment: 'root-a' }),
      comment({ id: 'root-a', created_at: '2026-02-01T10:00:00Z', content: 'Why the drop?', created_by: user(1, 'Max'), item_context: { type: 'mark', id: 'mark-a' } }),
      comment({ id: 'loose', created_at: '2026-02-01T09:00:00Z', content: 'Not on a highlight', created_by: user(1, 'Max'), item_context: null }),
    ];
    assert.deepEqual(commentRepliesOf(comments), {
      'mark-a': [
        { id: 'root-a', text: 'Why the drop?', author: 'Max', authorId: 1, at: '2026-02-01T10:00:00+00:00' },
        { id: 'r1', text: 'First reply', author: 'Ann', authorId: 2, at: '2026-02-01T10:00:01.250+00:00' },
        { id: 'r2', text: 'Second reply', author: 'sam@example.com', authorId: 3, at: '2026-02-01T10:00:02+00:00' },
      ],
    });
  });

  test('the Markdown holds each thread as a <Comment> with its comments before the highlighted text, which PostHog reads back', async () => {
    const read: string[] = [];
    const plan = await planConversion(
      legacyNotebook(),
      async () => {
        read.push('comments');
        return [comment({ id: 'root-a', created_at: '2026-02-01T10:00:00Z', content: 'Why?', created_by: user(1, 'Max'), item_context: { type: 'mark', id: 'mark-a' } })];
      },
      noMembers,
    );
    assert.deepEqual(read, ['comments']);
    assert.deepEqual(plan.comments, { kind: 'read', threads: 2, replies: 1 });
    const nodes = readPostHogMarkdown(plan.markdown).nodes;
    assert.deepEqual(nodes[0], { type: 'component', tagName: 'Comment', props: { ref: 'mark-a', replies: [{ id: 'root-a', text: 'Why?', author: 'Max', authorId: 1, at: '2026-02-01T10:00:00+00:00' }] }, raw: nodes[0]?.type === 'component' ? nodes[0].raw : '' });
    assert.deepEqual(nodes[1]?.type === 'paragraph' && nodes[1].children, [
      { type: 'text', text: 'See ' },
      { type: 'text', text: 'the drop', marks: [{ type: 'ref', id: 'mark-a' }] },
      { type: 'text', text: ', says ' },
      { type: 'text', text: '@Lee', marks: [{ type: 'mention', id: '7' }] },
    ]);
    assert.ok(plan.markdown.includes('<Comment ref="mark-b" replies={[]} />'), plan.markdown);
    assert.equal(plan.notebook.version, 3);
  });

  test('comments that cannot be read leave the threads without replies, and say why', async () => {
    const refusal = new MissingScopeError({ status: 403, detail: "API key missing required scope 'comment:read'", scope: 'comment:read' } as never);
    const plan = await planConversion(
      legacyNotebook(),
      async () => {
        throw refusal;
      },
      noMembers,
    );
    assert.equal(plan.comments.kind, 'unreadable');
    assert.equal(plan.comments.kind === 'unreadable' && plan.comments.error, refusal);
    assert.ok(plan.markdown.includes('<Comment ref="mark-a" replies={[]} />'));
  });

  test('a notebook without highlights reads no comments; a Markdown notebook is left as it is', async () => {
    const plain = { ...legacyNotebook(), content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Plain' }] }] } } as Notebook;
    const plan = await planConversion(plain, () => assert.fail('no comments to read'), noMembers);
    assert.deepEqual([plan.markdown, plan.comments, plan.losses, plan.alreadyMarkdown], ['Plain\n', { kind: 'none' }, [], false]);
    const markdown = { ...plain, content: { type: 'doc', content: [{ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown: '# Hi' } }] } } as Notebook;
    assert.equal((await planConversion(markdown, () => assert.fail('nothing to read'), noMembers)).alreadyMarkdown, true);
  });

  test('every loss has its kind and line', async () => {
    const notebook = {
      ...legacyNotebook(),
      content: {
        type: 'doc',
        content: [
          { type: 'paragraph', content: [{ type: 'text', text: 'Intro' }] },
          { type: 'paragraph', content: [{ type: 'text', text: 'local', marks: [{ type: 'link', attrs: { href: './x.md' } }] }] },
        ],
      },
    } as Notebook;
    const plan = await planConversion(notebook, async () => [], noMembers);
    assert.deepEqual(plan.losses.map(({ kind, line }) => ({ kind, line })), [{ kind: 'link', line: 2 }]);
  });
});

describe("Convert to Markdown Notebook: mentions named as PostHog's migration names them", () => {
  const mentioning = (...mentions: unknown[]): Notebook =>
    ({ ...legacyNotebook(), content: { type: 'doc', content: [{ type: 'paragraph', content: mentions.flatMap((mention, index) => (index === 0 ? [mention] : [{ type: 'text', text: ' ' }, mention])) }] } }) as unknown as Notebook;
  const mention = (id: unknown, label?: unknown) => ({ type: 'ph-mention', attrs: label === undefined ? { id } : { id, label } });
  const member = (id: number, first_name: string, email: string) => ({ id: `m-${id}`, user: { ...user(id, first_name, email), uuid: `u-${id}` }, level: 1 });

  test("a mention without a label is written with the member's first name (else email) from one read of the members; one not found is a declared loss", async () => {
    let reads = 0;
    const plan = await planConversion(mentioning(mention(7), mention(8), mention(7, ''), mention(9), mention(3, 'Kept')), noComments, async () => {
      reads++;
      return [member(7, 'Lee', 'lee@example.com'), member(8, '', 'sam@example.com'), member(3, 'Other', 'o@example.com')];
    });
    assert.equal(reads, 1);
    assert.deepEqual(plan.mentions, { kind: 'read', mentioned: 3, named: 2 });
    assert.equal(plan.markdown, '<mention id="7">@Lee</mention> <mention id="8">@sam@example.com</mention> <mention id="7">@Lee</mention> <mention id="9">@member</mention> <mention id="3">@Kept</mention>\n');
    assert.deepEqual(plan.losses.map(({ kind, line }) => ({ kind, line })), [{ kind: 'mention-label', line: 0 }]);
    assert.match(plan.losses[0]!.message, /member 9/);
  });

  test('members that cannot be read leave every unnamed mention a declared loss, and say why', async () => {
    const refusal = new MissingScopeError({ status: 403, detail: "API key missing required scope 'organization_member:read'", scope: 'organization_member:read' } as never);
    const plan = await planConversion(mentioning(mention(7), mention(8)), noComments, async () => {
      throw refusal;
    });
    assert.deepEqual(plan.mentions, { kind: 'unreadable', mentioned: 2, error: refusal });
    assert.deepEqual(plan.losses.map((loss) => loss.kind), ['mention-label', 'mention-label']);
  });
});

const noComments = () => assert.fail('no comments to read');

describe("the local API's comments and the client's reading of them", () => {
  let api: LocalApi;
  let client: PostHogClient;
  let projectId: number;
  before(async () => {
    api = await startLocalApi({ seed: 'minimal', control: true });
    projectId = api.store.projectsOf(api.store.organizations[0]!.id)[0]!.id;
    client = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.all });
  });
  after(async () => {
    await client.dispose();
    await api.close();
  });

  test('a thread of 150 comments is read whole through the cursor pages (newest first, 100 a page), and replies join their thread', async () => {
    const root = (await control(api, 'POST', 'comments/stored', { projectId, scope: 'Notebook', item_id: 'long1', content: 'Root', item_context: { type: 'mark', id: 'm1' } })).json.id as string;
    for (let index = 0; index < 149; index++) {
      await control(api, 'POST', 'comments/stored', { projectId, source_comment: root, content: `Reply ${index}`, by: { first_name: `U${index % 3}` } });
    }
    await control(api, 'POST', 'comments/stored', { projectId, scope: 'Notebook', item_id: 'other', content: 'Elsewhere' });
    const first = await fetch(`${api.url}/api/projects/${projectId}/comments/?scope=Notebook&item_id=long1`, { headers: { authorization: `Bearer ${api.keys.all}` } });
    const page = (await first.json()) as { next: string | null; results: Comment[] };
    assert.equal(page.results.length, 100);
    assert.match(page.next ?? '', /cursor=/);
    const all = await client.comments.listAll(projectId, { scope: 'Notebook', item_id: 'long1' });
    assert.equal(all.length, 150);
    assert.ok(all.every((entry) => entry.item_id === 'long1' && entry.scope === 'Notebook'));
    assert.deepEqual((commentRepliesOf(all)['m1'] ?? []).length, 150);
  });

  test('a key without comment:read is refused in PostHog\'s words', async () => {
    const limited = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.notebooksOnly });
    try {
      await assert.rejects(limited.comments.listAll(projectId, { scope: 'Notebook', item_id: 'long1' }), (error: unknown) => error instanceof MissingScopeError && /comment:read/.test(String((error as Error).message)));
    } finally {
      await limited.dispose();
    }
  });

  test("the organization's members are one page of users (a mention's id is the user's id), newest first, counted in the key's budget; a key without organization_member:read is refused", async () => {
    const organization = api.store.organizations[0]!;
    const budgets = new RequestBudgets();
    const counted = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.all, budgets });
    try {
      const page = await counted.organizations.members(organization.id, 1000);
      assert.deepEqual(
        page.results.map((entry) => entry.user.id).sort(),
        organization.members.map((entry) => entry.userId).sort(),
      );
      const first = page.results.find((entry) => entry.user.id === api.store.mainUser.id);
      assert.deepEqual([first?.user.first_name, first?.user.email], [api.store.mainUser.first_name, api.store.mainUser.email]);
      assert.equal(page.count, organization.members.length);
      assert.equal(budgets.of(counted.baseUrl, api.keys.all).sentWithin('standard', 60_000), 1);
    } finally {
      await counted.dispose();
    }
    const limited = new PostHogClient({ baseUrl: api.url, apiKey: api.keys.notebooksOnly });
    try {
      await assert.rejects(limited.organizations.members(organization.id, 1000), (error: unknown) => error instanceof MissingScopeError && /organization_member:read/.test(String((error as Error).message)));
    } finally {
      await limited.dispose();
    }
  });

  test('a comment is created as PostHog validates it: scope needed, content needed, a reply takes its thread\'s item', async () => {
    const post = (body: unknown) =>
      fetch(`${api.url}/api/projects/${projectId}/comments/`, { method: 'POST', headers: { authorization: `Bearer ${api.keys.all}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const missing = await post({ content: 'x' });
    assert.equal(missing.status, 400);
    assert.deepEqual(await missing.json(), { type: 'validation_error', code: 'required', detail: 'This field is required.', attr: 'scope' });
    assert.equal((await post({ scope: 'Notebook', item_id: 'nb', content: '  ' })).status, 400);
    const root = (await (await post({ scope: 'Notebook', item_id: 'nb', content: 'Root', item_context: { type: 'mark', id: 'm' } })).json()) as Comment;
    const reply = (await (await post({ source_comment: root.id, content: 'Reply', scope: 'Other', item_id: 'elsewhere' })).json()) as Comment;
    assert.deepEqual([reply.scope, reply.item_id, reply.source_comment, reply.item_context], ['Notebook', 'nb', root.id, { type: 'mark', id: 'm' }]);
  });
});
