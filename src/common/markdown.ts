import { oneSafeLine, SAFE_LINE_LENGTH } from './text';

/**
 * Text shown literally inside Markdown (tooltips): every character Markdown could read as syntax is escaped,
 * including `&` (entities), `~` (strikethrough), `:` and `@` (GitHub-style autolinks to URLs and addresses), so
 * that a server's string cannot become a link, an image fetched from elsewhere, or markup.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~&:@]/g, '\\$&');
}

/** A server's string as one safe line of Markdown text (see oneSafeLine), for tooltips. */
export function markdownLine(text: string, maxLength = SAFE_LINE_LENGTH): string {
  return escapeMarkdown(oneSafeLine(text, maxLength));
}

/** A server's id or value as inline code, one safe line: as escaped text when it holds a backtick. */
export function markdownCode(text: string, maxLength = SAFE_LINE_LENGTH): string {
  const line = oneSafeLine(text, maxLength);
  return line.includes('`') ? escapeMarkdown(line) : `\`${line}\``;
}
