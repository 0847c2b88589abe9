export * from './dialect';
export * from './fromMarkdown';
export * from './issues';
export * from './plugin';
export * from './tags';
export { docToMarkdown, type DocToMarkdownOptions, type MarkdownConversion } from './toMarkdown';
