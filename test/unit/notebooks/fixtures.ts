import type { Notebook } from '../../../src/api';

export const user = {
  id: 1,
  uuid: '0191c2a7-0000-7000-8000-000000000001',
  distinct_id: 'ann',
  first_name: 'Ann',
  last_name: 'Lee',
  email: 'ann@example.com',
};

export function notebook(overrides: Partial<Notebook> = {}): Notebook {
  return {
    id: '0191c2a7-0000-7000-8000-0000000000aa',
    short_id: 'aB3dE5fG',
    title: 'Weekly review',
    deleted: false,
    created_at: '2026-01-02T03:04:05.000Z',
    created_by: user,
    last_modified_at: '2026-01-03T03:04:05.000Z',
    last_modified_by: user,
    version: 3,
    content: {
      content: [
        { content: [{ text: 'Weekly review', type: 'text' }], type: 'heading', attrs: { level: 1 } },
        { type: 'paragraph', content: [{ type: 'text', text: 'Signups are up ' }, { type: 'text', text: '12%', marks: [{ type: 'bold' }] }] },
        { type: 'ph-recording', attrs: { id: 'rec-1' } },
      ],
      type: 'doc',
    },
    text_content: 'Weekly review\n\nSignups are up 12%',
    ...overrides,
  };
}

/** The document's text with one JSON edit applied through parse/stringify (keeps the layout). */
export function edited(text: string, change: (document: Record<string, any>) => void): string {
  const document = JSON.parse(text) as Record<string, any>;
  change(document);
  return `${JSON.stringify(document, null, 2)}\n`;
}
