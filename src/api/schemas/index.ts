export * from './common';
export * from './project';
export * from './notebook';
export * from './event';
export * from './activity';
export * from './comment';
export * from './discovery';
export * from './shapes';
