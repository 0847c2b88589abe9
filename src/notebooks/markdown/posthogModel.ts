/**
 * PostHog's document model of a Markdown notebook (frontend MarkdownNotebook types), as its web app reads
 * Markdown into it: blocks without their ids (PostHog derives those from content hashes to track nodes in its
 * editor). Plain JSON: optional fields are absent rather than undefined.
 */
export type PhPropValue = string | number | boolean | null | PhPropValue[] | { [key: string]: PhPropValue };
export type PhProps = Record<string, PhPropValue>;

export type PhMark =
  | { type: 'code' }
  | { type: 'bold' }
  | { type: 'italic' }
  | { type: 'underline' }
  | { type: 'strike' }
  | { type: 'link'; href: string }
  | { type: 'mention'; id: string }
  | { type: 'ref'; id: string };

export interface PhText {
  type: 'text';
  text: string;
  /** At most one mark of each type, in PostHog's order (code, bold, italic, underline, strike, link, mention, ref). */
  marks?: PhMark[];
}

export interface PhHardBreak {
  type: 'hardBreak';
}

export type PhInline = PhText | PhHardBreak;

export interface PhParagraph {
  type: 'paragraph';
  children: PhInline[];
}

export interface PhHeading {
  type: 'heading';
  level: number;
  children: PhInline[];
}

/** A quote holds inline content only, its lines joined by hard breaks. */
export interface PhBlockquote {
  type: 'blockquote';
  children: PhInline[];
}

export interface PhListItem {
  children: PhInline[];
  /** 0 for a top-level item; at most one more than the item before. */
  depth: number;
  ordered: boolean;
  /** The number written on a numbered item. */
  start?: number;
  /** Task items only (`- [ ]`, `- [x]`). */
  checked?: boolean;
}

export interface PhList {
  type: 'list';
  /** Whether the first item is numbered. */
  ordered: boolean;
  /** The number of the first top-level numbered item, when `ordered`. */
  start?: number;
  /** The list's lines were quoted (`> - a`). */
  blockquote?: boolean;
  items: PhListItem[];
}

export type PhAlignment = 'left' | 'center' | 'right';

export interface PhTableCell {
  children: PhInline[];
}

export interface PhTable {
  type: 'table';
  headers: PhTableCell[];
  /** Each row keeps the number of cells written. */
  rows: PhTableCell[][];
  /** One per separator cell. */
  alignments: (PhAlignment | null)[];
}

export interface PhCode {
  type: 'code';
  /** The fence's info string, trimmed; absent when empty. */
  language?: string;
  text: string;
}

export interface PhComponent {
  type: 'component';
  tagName: string;
  props: PhProps;
  /** The tag's source, for tags written `<Tag …>` (not for `---`, images and `<!-- -->` notes). */
  raw?: string;
  /** Props that did not read ("Unclosed expression prop value", "Could not parse props near: …"). */
  errors?: string[];
}

export type PhBlock = PhParagraph | PhHeading | PhBlockquote | PhList | PhTable | PhCode | PhComponent;

export type PhParseErrorMessage = 'Unclosed code block' | 'Unclosed component tag' | 'Invalid notebook component tag';

export interface PhParseError {
  message: PhParseErrorMessage;
  /** The source text involved. */
  raw: string;
  /** The 1-based line where the block starts. */
  line: number;
}

export interface PhDocument {
  type: 'doc';
  nodes: PhBlock[];
  errors: PhParseError[];
}

/** Tags PostHog writes without `<…>`: `---`, `![alt](src)`, `<!-- text -->`. */
export const DIVIDER_TAG = 'Divider';
export const IMAGE_TAG = 'Image';
export const COMMENT_NOTE_TAG = 'Comment';
