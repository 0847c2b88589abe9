/** Text shown literally inside Markdown (tooltips): every character Markdown could read as syntax is escaped. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
