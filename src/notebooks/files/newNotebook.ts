import { escapePostHogText } from '../markdown';
import { MARKDOWN_NODE, MARKDOWN_NODE_ID } from '../model/notebookDocument';

/**
 * What a new notebook holds: PostHog creates every notebook as a Markdown notebook now (one
 * ph-markdown-notebook node holding its Markdown), and this one starts with its title as a heading, written so
 * that PostHog reads the title as typed (its Markdown characters escaped, its whitespace one space).
 */
export function newNotebookMarkdown(title: string): string {
  return `# ${escapePostHogText(title.replace(/\s+/g, ' ').trim())}`;
}

/** A Markdown notebook's content: one ph-markdown-notebook node holding `markdown`. */
export function markdownNotebookContent(markdown: string): { type: 'doc'; content: unknown[] } {
  return { type: 'doc', content: [{ type: MARKDOWN_NODE, attrs: { nodeId: MARKDOWN_NODE_ID, markdown } }] };
}
