// Notebook history that PostHog writes outside a PATCH: rejected collaboration saves
// (products/notebooks/backend/api/notebook.py collab_save / collab_markdown_save) and the admin migration of
// legacy notebooks to Markdown (products/notebooks/backend/markdown_migration.py); and the Markdown that
// GET .../markdown/ answers (facade/content.py convert_notebook_content_to_markdown).
import type { ActivityChange, Json, JsonObject, Notebook } from './model';
import type { Store } from './store';
import { markdownDoc, markdownOf } from './content';

export type RejectedSaveKind = 'conflict' | 'stale';

/**
 * A collaboration save PostHog refused (409 conflict, 410 conflict_stale): logged as
 * "save_rejected_conflict" / "save_rejected_stale" by the user who tried, with a `content` change whose
 * `before` is the stored content and whose `after` is what was sent and never stored.
 */
export function recordRejectedSave(store: Store, notebook: Notebook, kind: RejectedSaveKind, content: Json, userId: number): void {
  const changes: ActivityChange[] = [{ type: 'Notebook', action: 'changed', field: 'content', before: notebook.content, after: content }];
  store.logActivity(projectOf(store, notebook), userId, 'Notebook', notebook.short_id, `save_rejected_${kind}`, {
    name: notebook.title,
    short_id: notebook.short_id,
    changes,
  });
}

/**
 * PostHog's migration of one legacy notebook: the content becomes a Markdown notebook holding the converted
 * Markdown, text_content that Markdown, the version goes up by one while last_modified_at and
 * last_modified_by stay, and an "updated" activity is logged under the previous editor (else the creator),
 * dated a second after the last modification. False when the notebook is a Markdown notebook already.
 */
export function migrateToMarkdown(store: Store, notebook: Notebook): boolean {
  if (markdownOf(notebook.content) !== undefined) return false;
  const before = notebook.content;
  const markdown = notebookMarkdown(notebook.content);
  notebook.content = markdownDoc(markdown);
  notebook.text_content = markdown;
  notebook.version += 1;
  store.collab.publishPatch(notebook, before); // a diff-less update: the content was not Markdown before
  store.logActivity(
    projectOf(store, notebook),
    notebook.lastModifiedById ?? notebook.createdById,
    'Notebook',
    notebook.short_id,
    'updated',
    { name: notebook.title, short_id: notebook.short_id, changes: [{ type: 'Notebook', action: 'changed', field: 'content', before, after: notebook.content }] },
    notebook.last_modified_at + 1_000_000,
  );
  return true;
}

/** What GET .../markdown/ answers: a Markdown notebook's Markdown, or a legacy notebook converted. */
export function notebookMarkdown(content: Json): string {
  return markdownOf(content) ?? blocksOf(content).join('\n\n');
}

/**
 * A small stand-in for PostHog's converter (markdown_conversion.py; see the README): headings, paragraphs,
 * code blocks, quotes and one-line list items, marks dropped, PostHog nodes as `<Tag prop={json} />`.
 */
function blocksOf(node: Json): string[] {
  if (!isObject(node)) return [];
  const children = Array.isArray(node['content']) ? node['content'] : [];
  const type = node['type'];
  switch (type) {
    case 'doc':
      return children.flatMap(blocksOf);
    case 'heading':
      return [`${'#'.repeat(Number(attrsOf(node)['level']) || 1)} ${inline(children)}`];
    case 'paragraph':
      return children.length ? [inline(children)] : [];
    case 'codeBlock':
      return [`\`\`\`${String(attrsOf(node)['language'] ?? '')}\n${inline(children)}\n\`\`\``];
    case 'blockquote':
      return [children.flatMap(blocksOf).map((block) => `> ${block}`).join('\n')];
    case 'bulletList':
    case 'orderedList':
    case 'taskList':
      return [children.map((item, index) => `${type === 'orderedList' ? `${index + 1}.` : '-'} ${blocksOf(item).join(' ')}`).join('\n')];
    case 'listItem':
    case 'taskItem':
      return children.flatMap(blocksOf);
    default:
      return typeof type === 'string' && type.startsWith('ph-') ? [tagOf(type, attrsOf(node))] : children.flatMap(blocksOf);
  }
}

function tagOf(type: string, attrs: JsonObject): string {
  const name = type.slice(3).replace(/(^|-)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());
  const props = Object.entries(attrs)
    .filter(([, value]) => value !== null && value !== false)
    .map(([key, value]) => (value === true ? key : typeof value === 'string' ? `${key}=${JSON.stringify(value)}` : `${key}={${JSON.stringify(value)}}`));
  return `<${[name, ...props].join(' ')} />`;
}

function inline(nodes: Json[]): string {
  return nodes.map((n) => (isObject(n) ? (typeof n['text'] === 'string' ? n['text'] : n['type'] === 'hardBreak' ? '\n' : '') : '')).join('');
}

const attrsOf = (node: JsonObject): JsonObject => (isObject(node['attrs']) ? node['attrs'] : {});

function isObject(value: Json | undefined): value is JsonObject {
  return value !== null && value !== undefined && typeof value === 'object' && !Array.isArray(value);
}

function projectOf(store: Store, notebook: Notebook) {
  const project = store.getProject(notebook.projectId);
  if (!project) throw new Error(`No project ${notebook.projectId}`);
  return project;
}
