export { findQueryCards, type QueryCard } from './cards';
export { innerQuery, queryKindLabel } from './innerQuery';
