/**
 * Something in a notebook's Markdown worth telling the user, at its place in the text: a tag with invalid
 * props, something the conversion cannot hold exactly, a conflict marker. Lines and columns count from 0;
 * `endLine` is inclusive and `endColumn` exclusive (no columns: the whole lines).
 */
export interface MarkdownIssue {
  readonly line: number;
  readonly endLine: number;
  readonly column?: number;
  readonly endColumn?: number;
  readonly message: string;
  /** An error refuses the save; a warning only informs. */
  readonly severity: 'error' | 'warning';
}
