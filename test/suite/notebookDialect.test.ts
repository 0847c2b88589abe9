import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { Notebook } from '../../src/api';
import type { ConnectionSession } from '../../src/connections/connectionManager';
import { readPostHogMarkdown } from '../../src/notebooks/markdown';
import { TAG_AS_TEXT } from '../../src/notebooks/markdown/readingHelp';
import { markdownOf } from '../../src/notebooks/model/notebookDocument';
import type { NotebookForm } from '../../src/notebooks/model/notebookPaths';
import { readerCases } from '../unit/notebooks/markdown/goldenCases';
import { readingStructure, renderedStructure } from '../unit/notebooks/markdown/previewStructure';
import { ExplorerHarness } from './support/explorerHarness';
import { localApi } from './support/localApi';
import { runnerSecrets } from './support/runnerContext';
import { closeAllEditors, waitFor } from './support/editorWaits';

/**
 * Notebook Markdown read with PostHog's rules inside VS Code: the Markdown preview (VS Code's own engine with
 * the extension's plugin, through markdown.api.render), the outline, the editor help, and Convert to Markdown
 * Notebook with its confirmation. Files live under the harness's own scheme (the extension's preview plugin
 * takes any posthog… scheme for notebooks), prompts are answered by its ScriptedWindow.
 */
const SCHEME = 'posthog-dialecttest';
/** Golden reader cases previewed at once. */
const CASES_PER_TEXT = 40;

describe("Notebook Markdown as PostHog reads it", function () {
  this.timeout(60_000);
  let harness: ExplorerHarness;
  let session: ConnectionSession;
  let projectId: number;

  before(async () => {
    harness = new ExplorerHarness(runnerSecrets(), { scheme: SCHEME });
    ({ session, projectId } = await harness.signInToProject());
  });

  afterEach(async () => {
    await closeAllEditors();
    harness.window.messages.length = 0;
  });

  after(() => harness.dispose());

  const markdownNotebook = async (title: string, markdown: string): Promise<Notebook> => {
    const content = { type: 'doc', content: [{ type: 'ph-markdown-notebook', attrs: { nodeId: 'markdown-notebook-v2', markdown } }] };
    return session.client.notebooks.get(projectId, await localApi.storeNotebook(projectId, { title, content, text_content: markdown }));
  };
  const legacyNotebook = async (title: string, content: unknown): Promise<Notebook> =>
    session.client.notebooks.get(projectId, await localApi.storeNotebook(projectId, { title, content }));
  const uriOf = (notebook: Notebook, form: NotebookForm = 'markdown') => harness.notebooks.files.uriOf(session.connection.id, projectId, notebook, form);
  const open = async (uri: vscode.Uri): Promise<vscode.TextDocument> => {
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: false });
    return document;
  };
  /** The whole text replaced through its editor, as typing does (a workspace edit takes about a second each here). */
  const replaceText = async (document: vscode.TextDocument, text: string): Promise<void> => {
    const editor = vscode.window.visibleTextEditors.find((candidate) => candidate.document === document) ?? (await vscode.window.showTextDocument(document));
    assert.ok(await editor.edit((builder) => builder.replace(new vscode.Range(0, 0, document.lineCount, 0), text)));
  };
  const render = (document: vscode.TextDocument) => vscode.commands.executeCommand<string>('markdown.api.render', document);

  it("previews a notebook's Markdown with PostHog's structure: every golden reader case through VS Code's Markdown engine", async () => {
    const notebook = await markdownNotebook('Preview cases', '# Preview\n');
    const document = await open(uriOf(notebook));
    // Cases a few dozen to a text (a blank line apart), for speed: each text is compared whole with PostHog's
    // reading of it; a case whose code block never closes (it would take in the cases after it) has a text of its own.
    const chunks: { ids: string[]; text: string }[] = [];
    for (const entry of readerCases()) {
      const alone = readPostHogMarkdown(entry.markdown).errors.some((error) => error.message === 'Unclosed code block');
      const last = chunks[chunks.length - 1];
      if (alone || !last || last.ids.length >= CASES_PER_TEXT) {
        chunks.push({ ids: [entry.id], text: entry.markdown });
      } else {
        last.ids.push(entry.id);
        last.text += `\n\n\n${entry.markdown}`;
      }
      if (alone) {
        chunks.push({ ids: [], text: '' });
      }
    }
    let compared = 0;
    for (const chunk of chunks.filter((candidate) => candidate.ids.length > 0)) {
      // VS Code may mend the text on its way to the document (a lone surrogate): the preview is compared with PostHog's reading of the document's text.
      await replaceText(document, chunk.text);
      assert.deepEqual(renderedStructure(await render(document)), readingStructure(readPostHogMarkdown(document.getText())), chunk.ids.join(', '));
      compared += chunk.ids.length;
    }
    assert.ok(compared > 1000, `${compared} cases`);
  });

  it('keeps VS Code\'s usual rendering for other Markdown files: a broken tag stays text, no card (issue 25, point 8)', async () => {
    const text = '# Notes\n\n<Query query={{"kind":"X",}} />\nNext line\n\nLine one\nline two\n\nSetext\n======\n';
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: text });
    const html = await render(document);
    assert.ok(!html.includes('<Query') && !html.includes('posthog-tag'), html);
    assert.match(html, /&lt;Query query=\{\{&quot;kind&quot;:&quot;X&quot;,\}\} \/&gt;/);
    assert.match(html, /<h1[^>]*>Setext<\/h1>/, 'a setext heading, as CommonMark reads it');
    assert.match(html, /Line one\nline two/, 'a soft break, as CommonMark reads it');
  });

  it('gives the outline the headings PostHog reads: no setext heading, none in code, a quote, or without a space', async () => {
    const markdown = ['# One', '', 'Setext', '======', '', '#NoSpace', '', '```', '# in code', '```', '', '> ## quoted', '', '### Three', ''].join('\n');
    const notebook = await markdownNotebook('Outline', markdown);
    const document = await open(uriOf(notebook));
    let names: string[] = [];
    await waitFor('the outline', async () => {
      const symbols = (await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', document.uri)) ?? [];
      const flatten = (list: vscode.DocumentSymbol[]): vscode.DocumentSymbol[] => list.flatMap((symbol) => [symbol, ...flatten(symbol.children ?? [])]);
      names = flatten(symbols).map((symbol) => symbol.name);
      return names.length > 0;
    });
    const headings = readPostHogMarkdown(markdown).nodes.filter((node) => node.type === 'heading');
    assert.equal(headings.length, 2);
    assert.deepEqual(names.map((name) => name.replace(/^#+\s*/, '')), ['One', 'Three']);
  });

  it('in a Markdown notebook, says where PostHog reads a tag as text or cannot read it, and offers tag names only where a tag starts', async () => {
    const notebook = await markdownNotebook('Help', '# Help\n\nSee <Cohort id={3} /> here\n\n<Survey id="s1" /> and more\n\n<Query query={{"kind":"SavedInsightNode","shortId":"a"}} />\n');
    const document = await open(uriOf(notebook));
    await waitFor('the diagnostics', () => vscode.languages.getDiagnostics(document.uri).length >= 2);
    const diagnostics = vscode.languages.getDiagnostics(document.uri).map((d) => `${d.range.start.line} ${d.severity} ${d.message.split(':')[0]}`);
    assert.deepEqual(diagnostics.sort(), [`2 ${vscode.DiagnosticSeverity.Warning} ${TAG_AS_TEXT.split(':')[0]}`, `4 ${vscode.DiagnosticSeverity.Error} Unclosed component tag`]);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, new vscode.Position(2, 6));
    const hoverText = hovers.flatMap((hover) => hover.contents.map((part) => (typeof part === 'string' ? part : 'value' in part ? part.value : ''))).join('\n');
    assert.match(hoverText, /PostHog shows this tag as text/);
    await replaceText(document, `${document.getText()}\nText <\n<`);
    // Tag names are the extension's Struct items (VS Code adds the document's words as Text items).
    const labels = async (line: number, character: number) =>
      (await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, new vscode.Position(line, character), '<')).items
        .filter((item) => item.kind === vscode.CompletionItemKind.Struct)
        .map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
    const last = document.lineCount - 1;
    assert.ok(!(await labels(last - 1, 6)).includes('Query'), 'after text, PostHog would read no tag');
    assert.ok((await labels(last, 1)).includes('Query'), 'at a line start');
  });

  it('converts a legacy notebook after listing every loss with its kind and line, threads with their replies, and writes what PostHog reads back', async () => {
    const marked = (text: string, id: string) => ({ type: 'text', text, marks: [{ type: 'comment', attrs: { id } }] });
    const notebook = await legacyNotebook('Lossy conversion', {
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Lossy conversion' }] },
        { type: 'paragraph', content: [{ type: 'text', text: 'Why did ' }, marked('signups drop', 'mark-1'), { type: 'text', text: '? Ask ' }, { type: 'ph-mention', attrs: { id: 7, label: 'Lee' } }] },
        { type: 'paragraph', content: [{ type: 'text', text: 'local file', marks: [{ type: 'link', attrs: { href: './notes.md' } }] }] },
        { type: 'bulletList', content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Step' }] }, { type: 'paragraph', content: [{ type: 'text', text: 'Second paragraph' }] }] }] },
      ],
    });
    const root = await localApi.storeComment(projectId, { scope: 'Notebook', item_id: notebook.short_id, content: 'Is it the form?', item_context: { type: 'mark', id: 'mark-1' }, by: { first_name: 'Ann' }, createdAt: '2026-01-02T10:00:00Z' });
    await localApi.storeComment(projectId, { source_comment: root, content: 'It is the captcha.', by: { first_name: 'Sam' }, createdAt: '2026-01-02T11:00:00Z' });
    await localApi.clearRequests();
    harness.window.choose('Convert');
    assert.equal(await harness.notebooks.editorCommands.convertToMarkdownNotebook(uriOf(notebook)), true);
    const confirmation = harness.window.messages.find((message) => message.severity === 'warning' && message.detail !== undefined);
    assert.ok(confirmation, JSON.stringify(harness.window.messages));
    assert.match(confirmation.text, /Convert "Lossy conversion" to a Markdown notebook\?/);
    assert.match(confirmation.detail!, /discussion threads \(1\) become <Comment> tags holding their comments \(2\)/);
    assert.match(confirmation.detail!, /What PostHog's Markdown cannot hold \(2\):/);
    assert.match(confirmation.detail!, /Line 7 \(link\): The link to "\.\/notes\.md" .* dropped/);
    assert.match(confirmation.detail!, /Line 9 \(block in list item\): /);
    const requests = await localApi.requests();
    assert.deepEqual(
      requests.filter((request) => request.method === 'PATCH').map((request) => request.path),
      [`/api/projects/${projectId}/notebooks/${notebook.short_id}/`],
    );
    assert.ok(requests.some((request) => request.method === 'GET' && request.path === `/api/projects/${projectId}/comments/` && request.query['item_id'] === notebook.short_id));
    const saved = await session.client.notebooks.get(projectId, notebook.short_id);
    const markdown = markdownOf(saved.content);
    assert.ok(markdown !== undefined);
    const reading = readPostHogMarkdown(markdown);
    assert.deepEqual(reading.errors, []);
    const thread = reading.nodes.find((node) => node.type === 'component' && node.tagName === 'Comment');
    assert.ok(thread?.type === 'component', markdown);
    assert.equal(thread.props.ref, 'mark-1');
    const replies = thread.props.replies as { id: string; text: string; author: string; at: string }[];
    assert.deepEqual(
      replies.map(({ text, author, at }) => ({ text, author, at })),
      [
        { text: 'Is it the form?', author: 'Ann', at: '2026-01-02T10:00:00.000000+00:00' },
        { text: 'It is the captcha.', author: 'Sam', at: '2026-01-02T11:00:00.000000+00:00' },
      ],
    );
    assert.equal(replies[0]!.id, root);
    assert.ok(markdown.includes('<ref id="mark-1">signups drop</ref>') && markdown.includes('<mention id="7">@Lee</mention>'), markdown);
  });

  it("names unnamed mentions from the organization's members and lists a member not found and a merged cell as losses; a notebook losing nothing lists none", async () => {
    const members = (await session.client.organizations.members((await session.client.projects.getById(projectId)).organization, 1000)).results;
    const lee = members.find((member) => member.user.first_name === 'Lee');
    assert.ok(lee, JSON.stringify(members));
    const cell = (type: string, text: string, attrs: Record<string, unknown> = {}) => ({ type, attrs: { colspan: 1, rowspan: 1, colwidth: null, ...attrs }, content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });
    const notebook = await legacyNotebook('Mentions and merged cells', {
      type: 'doc',
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'Ask ' }, { type: 'ph-mention', attrs: { id: lee.user.id } }, { type: 'text', text: ' and ' }, { type: 'ph-mention', attrs: { id: 999_999 } }] },
        {
          type: 'table',
          content: [
            { type: 'tableRow', content: [cell('tableHeader', 'Plan'), cell('tableHeader', 'Price')] },
            { type: 'tableRow', content: [cell('tableCell', 'Free for everyone', { colspan: 2 })] },
          ],
        },
      ],
    });
    await localApi.clearRequests();
    harness.window.choose('Convert');
    assert.equal(await harness.notebooks.editorCommands.convertToMarkdownNotebook(uriOf(notebook)), true);
    const confirmation = harness.window.messages.find((message) => message.severity === 'warning' && message.detail !== undefined);
    assert.ok(confirmation, JSON.stringify(harness.window.messages));
    assert.match(confirmation.detail!, /What PostHog's Markdown cannot hold \(2\):/);
    assert.match(confirmation.detail!, /Line 1 \(mention label\): The name of member 999999 is not known/);
    assert.match(confirmation.detail!, /Line 3 \(table spans\): A merged cell \("Free for everyone"\)/);
    const requests = await localApi.requests();
    assert.equal(requests.filter((request) => request.method === 'GET' && /^\/api\/organizations\/[^/]+\/members\/$/.test(request.path)).length, 1);
    const markdown = markdownOf((await session.client.notebooks.get(projectId, notebook.short_id)).content);
    assert.ok(markdown?.startsWith(`Ask <mention id="${lee.user.id}">@Lee</mention> and <mention id="999999">@member</mention>`), markdown);

    harness.window.messages.length = 0;
    const whole = await legacyNotebook('Nothing lost', {
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 6 }, content: [{ type: 'text', text: 'Deep' }] },
        { type: 'paragraph', content: [{ type: 'text', text: 'Line' }, { type: 'hardBreak' }, { type: 'text', text: '!' }, { type: 'text', text: 'chart', marks: [{ type: 'link', attrs: { href: 'https://posthog.com' } }] }] },
        { type: 'paragraph' },
        { type: 'codeBlock', attrs: { language: 'sql' }, content: [{ type: 'text', text: 'select 1\nfrom events' }] },
      ],
    });
    harness.window.choose('Convert');
    assert.equal(await harness.notebooks.editorCommands.convertToMarkdownNotebook(uriOf(whole)), true);
    const plain = harness.window.messages.find((message) => message.severity === 'warning' && message.detail !== undefined);
    assert.match(plain?.detail ?? '', /PostHog's Markdown holds everything in this notebook\./);
    assert.doesNotMatch(plain?.detail ?? '', /cannot hold/);
  });

  it('with many losses, sums them up by kind and Show All Losses opens the full list instead of converting', async () => {
    const link = (index: number) => ({ type: 'paragraph', content: [{ type: 'text', text: `file ${index}`, marks: [{ type: 'link', attrs: { href: `./f${index}.md` } }] }] });
    const notebook = await legacyNotebook('Many losses', { type: 'doc', content: Array.from({ length: 12 }, (_, index) => link(index)) });
    await localApi.clearRequests();
    harness.window.choose('Show All Losses');
    assert.equal(await harness.notebooks.editorCommands.convertToMarkdownNotebook(uriOf(notebook)), false);
    const confirmation = harness.window.messages.find((message) => message.detail !== undefined);
    assert.ok(confirmation);
    assert.deepEqual(confirmation.buttons, ['Convert', 'Show All Losses']);
    assert.match(confirmation.detail!, /What PostHog's Markdown cannot hold \(12\):/);
    assert.match(confirmation.detail!, /… and 5 more: 5 × link\. "Show All Losses" lists every one\./);
    const report = vscode.window.activeTextEditor?.document;
    assert.equal(report?.isUntitled, true);
    assert.equal((report!.getText().match(/^- Line \d+ \(link\)/gm) ?? []).length, 12, report!.getText());
    assert.deepEqual((await localApi.requests()).filter((request) => request.method === 'PATCH'), [], 'nothing sent');
  });
});

