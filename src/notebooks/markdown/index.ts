export * from './align';
export * from './dialect';
export * from './fromMarkdown';
export * from './issues';
export * from './plugin';
export * from './spelling';
export * from './tags';
export * from './toMarkdown';
