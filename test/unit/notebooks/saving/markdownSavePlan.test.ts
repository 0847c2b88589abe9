import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MarkdownSaveError, planMarkdownSave, renderMarkdown, snapshotOf } from '../../../../src/notebooks/saving/markdownSavePlan';
import { notebook } from '../fixtures';

const MARKDOWN = '# Plan\r\n\r\nKeep *this*   spacing\n<Query query={{"kind":"SavedInsightNode","shortId":"Xk3pQ9aZ"}} />\n';

function markdownNotebook(markdown: string, text_content: string | null = markdown) {
  return notebook({
    content: { type: 'doc', content: [{ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown } }] },
    text_content,
  });
}

describe('the Markdown file of a notebook', () => {
  test('a Markdown notebook shows its Markdown verbatim, and an unchanged text sends nothing', () => {
    const served = markdownNotebook(MARKDOWN);
    const { markdown, losses } = renderMarkdown(served.content);
    assert.equal(markdown, MARKDOWN);
    assert.deepEqual(losses, []);
    assert.deepEqual(planMarkdownSave(markdown, snapshotOf(served, markdown, 1)), { kind: 'unchanged' });
  });

  test('a Markdown notebook saves its text exactly: one node keeping its nodeId, text_content the Markdown, the base version', () => {
    const served = markdownNotebook(MARKDOWN);
    const edited = `${MARKDOWN}\nA new line\r\n`;
    const plan = planMarkdownSave(edited, snapshotOf(served, MARKDOWN, 1));
    assert.equal(plan.kind, 'patch');
    if (plan.kind !== 'patch') return;
    assert.deepEqual(plan.body, {
      content: { type: 'doc', content: [{ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown: edited } }] },
      text_content: edited,
      version: served.version,
    });
    assert.equal(plan.full.title, served.title, 'the Markdown file has no title: it keeps the notebook\'s');
  });

  test('a legacy notebook converts back to ProseMirror and stays legacy; text_content follows the content', () => {
    const served = notebook();
    const { markdown } = renderMarkdown(served.content);
    const edited = markdown.replace('Signups are up', 'Signups rose');
    const plan = planMarkdownSave(edited, snapshotOf(served, markdown, 1));
    assert.equal(plan.kind, 'patch');
    if (plan.kind !== 'patch') return;
    const nodes = (plan.body.content as { content: { type: string }[] }).content;
    assert.deepEqual(nodes.map((node) => node.type), ['heading', 'paragraph', 'ph-recording']);
    assert.match(JSON.stringify(nodes[1]), /Signups rose /);
    assert.equal(plan.body.text_content, 'Weekly review\n\nSignups rose 12%');
    assert.equal(plan.body.version, served.version);
  });

  test('conflict markers left in the text refuse the save, naming their lines', () => {
    const served = markdownNotebook('One\n\nTwo\n');
    const text = 'One\n\n<<<<<<< Yours\nTwo, mine\n=======\nTwo, theirs\n>>>>>>> PostHog (version 4)\n';
    assert.throws(
      () => planMarkdownSave(text, snapshotOf(served, 'One\n\nTwo\n', 1)),
      (error: unknown) => error instanceof MarkdownSaveError && /^Not saved: line 3: the conflict marker "<<<<<<<"/.test(error.message) && error.issues.length === 3,
    );
  });

  test('a notebook whose fenced code shows a git conflict, or with a 7-deep quote or a setext heading, saves from its Markdown file', () => {
    const served = markdownNotebook('One\n');
    const text =
      'Resolving\n=========\n\n```diff\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> feature\n```\n\n>>>>>>> very deep quote\n\n<<<<<<< arrows\n';
    const plan = planMarkdownSave(text, snapshotOf(served, 'One\n', 1));
    assert.equal(plan.kind, 'patch');
  });

  test("a legacy notebook's text with quotes nested thousands deep refuses the save at that line, without exhausting the stack", () => {
    const served = notebook();
    const { markdown } = renderMarkdown(served.content);
    const text = `${markdown}\n\nA paragraph\n\n${'>'.repeat(20_000)} deep\n`;
    const deepLine = text.split('\n').findIndex((line) => line.startsWith('>>>'));
    assert.throws(
      () => planMarkdownSave(text, snapshotOf(served, markdown, 1)),
      (error: unknown) => error instanceof MarkdownSaveError && error.message === `Not saved: line ${deepLine + 1}: quotes or lists nest too deeply to read: keep them to a few hundred levels`,
    );
  });

  test("a legacy notebook's quotes 1,500 deep still save (levels are read without a reader each); past 2,000 they are refused", () => {
    const served = notebook();
    const { markdown } = renderMarkdown(served.content);
    const deep = (levels: number) => `${markdown}\n\n${'>'.repeat(levels)} deep\n`;
    assert.equal(planMarkdownSave(deep(1_500), snapshotOf(served, markdown, 1)).kind, 'patch');
    assert.throws(() => planMarkdownSave(deep(2_001), snapshotOf(served, markdown, 1)), MarkdownSaveError);
  });

  test('a legacy notebook whose code block shows a git conflict saves too', () => {
    const served = notebook();
    const { markdown } = renderMarkdown(served.content);
    const text = `${markdown}\n\`\`\`\n<<<<<<< HEAD\na\n=======\nb\n>>>>>>> main\n\`\`\`\n`;
    const plan = planMarkdownSave(text, snapshotOf(served, markdown, 1));
    assert.equal(plan.kind, 'patch');
    if (plan.kind !== 'patch') return;
    assert.match(JSON.stringify(plan.body.content), /<<<<<<< HEAD\\na\\n=======\\nb\\n>>>>>>> main/);
  });

  test("a legacy notebook's document-level fields (which Markdown cannot show) are kept by a save of its Markdown", () => {
    const served = notebook();
    const content = { ...(served.content as object), attrs: { theme: 'wide' }, meta: { pinned: true } };
    const withFields = notebook({ content });
    const { markdown, losses } = renderMarkdown(withFields.content);
    assert.ok(losses.some((loss) => /"attrs" has no Markdown form/.test(loss.message)), 'flagged in the editor');
    const plan = planMarkdownSave(markdown.replace('Signups are up', 'Signups rose'), snapshotOf(withFields, markdown, 1));
    assert.equal(plan.kind, 'patch');
    if (plan.kind !== 'patch') return;
    const saved = plan.body.content as Record<string, unknown>;
    assert.deepEqual(saved['attrs'], { theme: 'wide' });
    assert.deepEqual(saved['meta'], { pinned: true });
    assert.match(JSON.stringify(saved['content']), /Signups rose /);
  });
});
