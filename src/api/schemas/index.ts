export * from './common';
export * from './project';
export * from './notebook';
export * from './event';
export * from './activity';
export * from './discovery';
export * from './shapes';
export * from './collab';
