import type { Notebook } from '../schemas';

/**
 * PostHog is moving a Markdown notebook's Markdown out of its default notebook responses (the web app reads
 * it from GET .../notebooks/{short_id}/markdown/). Such a response still names the notebook's one node,
 * `ph-markdown-notebook`, but without the string `attrs.markdown`; the client then reads the Markdown from
 * that endpoint and puts it back, so that everything above the API sees whole notebooks.
 */
const MARKDOWN_NODE = 'ph-markdown-notebook';

/** Whether `notebook` is a Markdown notebook whose response left its Markdown out. */
export function lacksMarkdown(notebook: Pick<Notebook, 'content'>): boolean {
  const node = markdownNodeOf(notebook.content);
  return node !== undefined && typeof node.attrs?.['markdown'] !== 'string';
}

/** The notebook with `markdown` in its one node (and as text_content when the response left that out too). */
export function withMarkdown(notebook: Notebook, markdown: string): Notebook {
  const node = markdownNodeOf(notebook.content);
  if (!node) {
    return notebook;
  }
  const content = { ...(notebook.content as Record<string, unknown>), content: [{ ...node, attrs: { ...node.attrs, markdown } }] };
  return { ...notebook, content, text_content: notebook.text_content ?? markdown };
}

interface MarkdownNode {
  readonly type: string;
  readonly attrs?: Record<string, unknown>;
}

function markdownNodeOf(content: unknown): MarkdownNode | undefined {
  if (!isObject(content) || !Array.isArray(content['content']) || content['content'].length !== 1) {
    return undefined;
  }
  const [node] = content['content'] as unknown[];
  if (!isObject(node) || node['type'] !== MARKDOWN_NODE) {
    return undefined;
  }
  const attrs = node['attrs'];
  return { ...node, type: MARKDOWN_NODE, attrs: isObject(attrs) ? attrs : undefined };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
